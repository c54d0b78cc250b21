import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createClient } from "../../src/client/index.js";
import type { MockServer } from "../../mock-server/index.js";
import { selection } from "../../src/selection.js";
import { dmq, dmqIn, json, mockWithEnv } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";

// Each test spawns the built CLI, several at once: on a busy machine that takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// The built CLI runs as a process here: wait for dist/ before the first test, not inside one.
needsDist();

/*
 * The query flags replay in command-line order through the builder: the body they print equals the
 * builder's, a broken rule is a usage error (exit 2) in the flags' words, and tasks list and
 * actions run send that same query.
 */
describe.concurrent("dmq body: flags → the builder's body", () => {
  test.each([
    {
      flags: ["-w", "completed_at > 2024-01-01T00:00:00Z", "--order", "-created_at", "--exclude", "1,2"],
      built: selection(1).where("tasks:completed_at").greater("2024-01-01T00:00:00Z").orderBy("-tasks:created_at").excluding([1, 2]),
    },
    {
      flags: [
        "--project",
        "3",
        "-w",
        "annotators contains 1,2",
        "--child",
        "data.score@Number between 0.5 and 1",
        "--or",
        "tasks:id in [4, 5]",
        "--or",
        'data.text contains "hello world"',
        "--or",
        "total_annotations is empty",
        "--include",
        "4",
        "--include",
        "5,6",
      ],
      built: selection(3)
        .where("tasks:annotators")
        .contains([1, 2])
        .child("tasks:data.score", "Number")
        .between({ min: 0.5, max: 1 })
        .or("tasks:id")
        .inList([4, 5])
        .or("tasks:data.text")
        .contains("hello world")
        .or("tasks:total_annotations")
        .empty(true)
        .including([4])
        .including([5, 6]),
    },
    {
      flags: [
        "-w",
        "id !in 1,2",
        "-w",
        "file_upload !contains .csv",
        "-w",
        "data.text ~ ^The",
        "-w",
        "predictions_score >= 0.5",
        "-w",
        "created_at !between 2024-01-01 and 2024-02-01T00:00:00Z",
        "-w",
        "annotators is not empty",
        "-w",
        'data.n = "5"',
        "--all",
      ],
      built: selection(1)
        .where("tasks:id")
        .notInList([1, 2])
        .and("tasks:file_upload")
        .notContains(".csv")
        .and("tasks:data.text")
        .regex("^The")
        .and("tasks:predictions_score")
        .greaterOrEqual(0.5)
        .and("tasks:created_at")
        .notBetween({ min: "2024-01-01", max: "2024-02-01T00:00:00Z" })
        .and("tasks:annotators")
        .empty(false)
        .and("tasks:data.n")
        .equal("5")
        .all(),
    },
    {
      flags: ["-w", "filter:tasks:inner_id <= 10", "--or", "data.flag@Boolean = true", "--or", "data.n != 3", "--order", "tasks:inner_id"],
      built: selection(1)
        .where("tasks:inner_id")
        .lessOrEqual(10)
        .or("tasks:data.flag", "Boolean")
        .equal(true)
        .or("tasks:data.n")
        .notEqual(3)
        .orderBy("tasks:inner_id"),
    },
  ])("$flags", async ({ flags, built }) => {
    const r = await dmqIn(["body", ...flags]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual(built.toJSON());
  });

  test("--request prints the action request, with --param fields and the view", async () => {
    const r = await dmqIn(["body", "--project", "2", "--view", "7", "--request", "predictions_to_annotations", "-p", "model_version=v1"]);
    expect(JSON.parse(r.stdout)).toEqual({
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "predictions_to_annotations", project: 2, view: 7 },
      body: { model_version: "v1" },
    });
  });
});

describe.concurrent("a rule broken on the command line: exit 2, in the flags' words", () => {
  test.each([
    [
      ["-w", "id > 1", "-w", "id < 5", "--or", "id = 3"],
      /--or "id = 3": --or after a second --where: the server combines every line with one conjunction/,
    ],
    [
      ["-w", "id > 1", "--or", "id < 5", "-w", "id = 3"],
      /--where "id = 3": --where after --or: .* AND a condition into the last --or line with --child/,
    ],
    [["--or", "id = 3"], /--or "id = 3": --or and --child need a --where before them/],
    [["--child", "id = 3"], /--child "id = 3": --or and --child need a --where before them/],
    [["--include", "1", "--exclude", "2"], /--exclude "2": --exclude or --all with --include: the server reads only one list/],
    [["--all", "--include", "2"], /--include "2": --include with --exclude or --all/],
    [["--order", "id", "--order", "-inner_id"], /--order "-inner_id": --order once: the server orders by the first key only/],
    [
      ["--view", "3", "-w", "id > 1"],
      /--where "id > 1": --view with --where\/--or\/--child\/--order\/--include\/--exclude\/--all: given a view, the server ignores the body/,
    ],
    [["--order", "nope"], /--order "nope": unknown column "nope": expected a column that "dmq columns" lists/],
    [["--order", "-tasks:nope"], /--order "-tasks:nope": unknown column "tasks:nope"/],
    [
      ["-w", "completed_at contains 2024"],
      /--where <condition>' argument 'completed_at contains 2024' is invalid\. "completed_at contains 2024": contains is not an operator of tasks:completed_at \(Datetime\); it takes =, !=, <, >, <=, >=, between, !between, is empty/,
    ],
    [["-w", "id bigger 3"], /unknown operator in "bigger"; tasks:id takes =/],
    [["-w", "nope = 3"], /unknown column "nope": expected a column that "dmq columns" lists, or data\.<key>/],
    [["-w", "id >"], /> needs a value/],
    [
      ["-w", "id > abc"],
      /--where "id > abc": filters\.items\[0\]\.value: greater on tasks:id expects an integer, as the server truncates a fraction, found string "abc"/,
    ],
    [["-w", "data.x@Datetime = 1"], /unknown data type @Datetime; expected one of Number, String/],
    [["-w", "id@Number = 1"], /only tasks:data.<key> columns take a @Type/],
    [["-w", "id is empty yes"], /is empty takes no value/],
    [["--include", "1,x"], /--include <ids>' argument '1,x' is invalid\. expected a positive integer, found "x"/],
    [["--include", ""], /expected task ids separated by commas/],
    [["--frobnicate"], /unknown option '--frobnicate'/],
  ])("%j", async (flags, message) => {
    const r = await dmqIn(["body", ...flags]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^dmq body: /);
    expect(r.stderr).toMatch(message);
  });

  test("the built CLI as a process: exit status 2, the message on stderr, nothing on stdout", async () => {
    const [rule, value] = await Promise.all([dmq(["body", "--or", "id = 3"]), dmq(["body", "-w", "id > abc"])]);
    expect(rule).toEqual({
      code: 2,
      stdout: "",
      stderr: 'dmq body: --or "id = 3": --or and --child need a --where before them (the first condition of the filter set)\n',
    });
    expect(value).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(/^dmq body: --where "id > abc": filters\.items\[0\]\.value/),
    });
  });
});

describe("tasks list and actions run send the flags' query", () => {
  let mock: MockServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    ({ mock, env } = await mockWithEnv());
  });
  afterAll(() => mock.close());

  test("the tasks listed are the ones the library lists for the same selection, in the same order", async () => {
    const flags = [
      "-w",
      "total_annotations > 0",
      "--child",
      "annotators contains 2",
      "--or",
      "data.text contains battery",
      "--order",
      "-predictions_score",
      "--exclude",
      "4",
    ];
    const listed = json<{ id: number }[]>(await dmqIn(["tasks", "list", "--project", "1", ...flags], { env }));
    const client = createClient({ baseUrl: mock.url, apiKey: mock.legacyToken });
    const query = selection(1)
      .where("tasks:total_annotations")
      .greater(0)
      .child("tasks:annotators")
      .contains(2)
      .or("tasks:data.text")
      .contains("battery")
      .orderBy("-tasks:predictions_score")
      .excluding([4]);
    const expected = await client.tasks.list({ project: 1, query }).toArray();
    expect(listed.map((t) => t.id)).toEqual(expected.map((t) => t.id));
    expect(listed.length).toBeGreaterThan(10);
  });

  test("actions run posts the same body", async () => {
    await mock.reset();
    const r = await dmqIn(
      ["actions", "run", "delete_tasks", "--project", "1", "-w", "data.text contains battery", "--exclude", "1,2", "--yes"],
      { env },
    );
    expect(r.code).toBe(0);
    const post = mock.requests.find((q) => q.method === "POST");
    expect(post?.query).toEqual({ id: "delete_tasks", project: "1" });
    expect(post?.body).toEqual(selection(1).where("tasks:data.text").contains("battery").excluding([1, 2]).toJSON());
  });
});
