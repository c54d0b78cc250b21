import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { reply, type MockServer } from "../../../mock-server/index.js";
import { selection } from "../../../src/selection.js";
import { ClientConfigError, createClient, type Client } from "../../../src/client/index.js";
import { LEGACY_KEY } from "./fixtures.js";
import { SEED, startMock } from "./on-mock.js";

/*
 * A line with several .child() conditions goes as child_filters, which servers before 1.23 drop unread: the client
 * refuses it there before sending (src/client/server-release.ts). The mock reads child_filters and reports 1.23;
 * `mock.use("GET /api/version/", …)` makes it report 1.22, as the shared 1.22 server answers.
 */
const data = { ...SEED, tasks: [1, 2, 3, 4, 5, 6].map((id) => ({ id, project: 1, data: { text: `t${id}` } })) };
let mock: MockServer;
let client: Client;

beforeAll(async () => {
  mock = await startMock({ data });
});
afterAll(() => mock.close());
// A new client each time: a client reads the release once.
beforeEach(async () => {
  await mock.reset();
  client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, maxRetries: 0 });
});

const as122 = () => mock.use("GET /api/version/", reply(200, { release: "1.22.0", short_version: "1.22" }));
// id > 1 AND inner_id < 5 AND id != 3: tasks 2 and 4.
const twoChildren = () =>
  selection(client.project(1)).where("tasks:id").greater(1).child("tasks:inner_id").less(5).child("tasks:id").notEqual(3);
const lines = () => selection(client.project(1)).where("tasks:id").greater(1).and("tasks:inner_id").less(5).and("tasks:id").notEqual(3);
const ids = () => mock.data().tasks.map((t) => t.id);
const sent = () => mock.requests.map((r) => `${r.method} ${r.path}`);
const REFUSAL =
  /^filters\.items\[0\]: expected at most one child condition .*found 2 in child_filters, and this server \(Label Studio 1\.22\.0\)/;

describe("on a server before 1.23", () => {
  test(".run(): refused before the action is sent; the same selection as .and() lines acts on the same tasks", async () => {
    as122();
    const refusal = await twoChildren()
      .run("delete_tasks")
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ClientConfigError);
    expect((refusal as Error).message).toMatch(REFUSAL);
    expect(ids()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sent()).toEqual(["GET /api/version/"]);
    expect(await lines().run("delete_tasks")).toMatchObject({ processed_items: 2 });
    expect(ids()).toEqual([1, 3, 5, 6]);
  });

  test("the release is read once per client; one child (child_filter) is sent without asking", async () => {
    as122();
    await expect(twoChildren().run("delete_tasks")).rejects.toThrow(REFUSAL);
    await expect(client.actions.perform(twoChildren().toRequest("delete_tasks"))).rejects.toThrow(REFUSAL);
    const one = selection(client.project(1)).where("tasks:id").greater(1).child("tasks:inner_id").less(5);
    expect(await one.run("delete_tasks")).toMatchObject({ processed_items: 3 });
    expect(sent()).toEqual(["GET /api/version/", "POST /api/dm/actions/"]);
  });

  test("reads are refused too: the task list, a saved view and .export() (which saves the selection as a view)", async () => {
    as122();
    await expect(client.project(1).tasks({ query: twoChildren() }).page(1)).rejects.toThrow(REFUSAL);
    await expect(client.views.create({ project: 1, data: { title: "v" }, query: twoChildren() })).rejects.toThrow(REFUSAL);
    await expect(twoChildren().export("JSON")).rejects.toThrow(REFUSAL);
    const { id } = await client.views.create({ project: 1, data: { title: "v" }, query: lines() });
    await expect(client.views.update(id, { data: { title: "v" }, query: twoChildren() })).rejects.toThrow(REFUSAL);
    expect(sent().filter((s) => s !== "GET /api/version/")).toEqual(["POST /api/dm/views/"]);
    expect(mock.data().views).toHaveLength(1);
  });
});

test("the mock (1.23) reads child_filters: sent, and the children narrow", async () => {
  expect(await twoChildren().run("delete_tasks")).toMatchObject({ processed_items: 2 });
  expect(ids()).toEqual([1, 3, 5, 6]);
  expect(sent()).toEqual(["GET /api/version/", "POST /api/dm/actions/"]);
});
