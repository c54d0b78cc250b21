import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ClientConfigError, createClient } from "../../src/client/index.js";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import {
  checkSpec,
  choice,
  CleanupError,
  mockTarget,
  resolveTarget,
  SeedError,
  SeedSpecError,
  TITLE_MAX_LENGTH,
  uniqueTitle,
  UnknownIdError,
  type Target,
} from "../../testing/index.js";

/*
 * The framework-free core of dmq/testing against one in-process mock target (and, for the "server"
 * kind, a second mock reached by URL). What the server holds is read back through the mock's
 * `data()`, never through the code under test.
 */
let target: Target;
let mock: MockServer;

beforeAll(async () => {
  target = await mockTarget();
  mock = target.mockServer!;
});
afterAll(async () => {
  await target?.close();
});

const projectsOnServer = () => mock.data().projects.map((p) => p.title);

describe("resolveTarget", () => {
  test("without configuration starts an in-process mock and says so", async () => {
    const t = await resolveTarget({ env: {} });
    try {
      expect(t.kind).toBe("mock");
      expect(t.isMock).toBe(true);
      expect(t.url).toBe(t.mockServer!.url);
      expect(t.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(t.user).toEqual({ id: 1, email: "admin@example.com", username: "admin" });
      expect(t.describe()).toBe(`mock ${t.url} (dmq mock of Label Studio ${t.version})`);
      expect(t.mockServer!.data().projects).toEqual([]);
    } finally {
      await t.close();
    }
    // Closed: the port no longer answers.
    await expect(fetch(`${t.url}/api/version/`)).rejects.toThrow();
  });

  describe("with LABEL_STUDIO_URL and LABEL_STUDIO_API_KEY", () => {
    let remote: MockServer;
    beforeAll(async () => {
      remote = await startMockServer({ data: { users: [{ id: 7, username: "ops", email: "ops@example.com" }] } });
    });
    afterAll(() => remote?.close());

    test("uses that server, with a legacy token", async () => {
      const t = await resolveTarget({ env: { LABEL_STUDIO_URL: remote.url, LABEL_STUDIO_API_KEY: remote.legacyToken } });
      expect([t.kind, t.url, t.isMock, t.user.id, t.mockServer]).toEqual(["server", remote.url, true, 7, undefined]);
      expect(t.describe()).toBe(`server ${remote.url} (dmq mock of Label Studio ${t.version})`);
      const answer = await t.fetch("/api/current-user/whoami");
      expect(((await answer.json()) as { email: string }).email).toBe("ops@example.com");
      await t.close();
    });

    test("uses that server with a personal access token, raw requests included", async () => {
      const t = await resolveTarget({ env: { LABEL_STUDIO_URL: remote.url, LABEL_STUDIO_API_KEY: remote.personalAccessToken } });
      expect(t.client.authMode).toBe("personal access token");
      const answers = [await t.fetch("/api/current-user/whoami"), await t.fetch("/api/current-user/whoami")];
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      // One exchange for both raw requests (the access token is kept), plus the client's own.
      expect(remote.requests.filter((r) => r.path === "/api/token/refresh/").length).toBeLessThanOrEqual(2);
      await t.close();
    });

    test("explicit options win over the environment; DMQ_TARGET=mock insists on the mock", async () => {
      const env = { LABEL_STUDIO_URL: "http://127.0.0.1:9", LABEL_STUDIO_API_KEY: "x".repeat(40) };
      const t = await resolveTarget({ env, baseUrl: remote.url, apiKey: remote.legacyToken });
      expect(t.url).toBe(remote.url);
      const m = await resolveTarget({ env: { ...env, DMQ_TARGET: "mock" } });
      expect(m.kind).toBe("mock");
      await Promise.all([t.close(), m.close()]);
    });

    test("a refused key fails at once, naming the target and never the key", async () => {
      const key = "wrong0000000000000000000000000000000000k";
      const error = await resolveTarget({ env: { LABEL_STUDIO_URL: remote.url, LABEL_STUDIO_API_KEY: key } }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(`cannot use the server at ${remote.url} as a target: the key was refused`);
      expect((error as Error).message).toContain("401");
      expect((error as Error).message).not.toContain(key);
    });
  });

  test("a URL without a key, a server without a URL, and an unknown DMQ_TARGET are refused by name", async () => {
    const errors = await Promise.all([
      resolveTarget({ env: { LABEL_STUDIO_URL: "http://127.0.0.1:9" } }).catch((e: unknown) => e),
      resolveTarget({ env: {}, target: "server" }).catch((e: unknown) => e),
      resolveTarget({ env: { DMQ_TARGET: "staging" } }).catch((e: unknown) => e),
    ]);
    expect(errors.map((e) => (e as ClientConfigError).message)).toEqual([
      "apiKey: expected the key of a user of the server, found nothing; pass resolveTarget({ apiKey }) or set LABEL_STUDIO_API_KEY",
      "baseUrl: expected the server's URL, found nothing; pass resolveTarget({ baseUrl }) or set LABEL_STUDIO_URL",
      'DMQ_TARGET: expected "auto", "mock" or "server", found "staging"',
    ]);
    expect(errors.every((e) => e instanceof ClientConfigError)).toBe(true);
  });

  test("the key shows in no inspect or JSON output of the target", () => {
    const key = target.env().LABEL_STUDIO_API_KEY;
    expect(key.length).toBeGreaterThan(10);
    expect(inspect(target, { depth: 5 })).not.toContain(key);
    expect(JSON.stringify(target)).not.toContain(key);
    expect(inspect(target)).toBe(`Target ${target.describe()}`);
  });
});

describe("seed", () => {
  const data = [
    { text: "plain", n: 1 },
    { text: null, n: "5", nested: { deep: [1, "two", null] } },
    { "ÄPFEL 🍎": "ünïcödé", empty: "", zero: 0, f: false },
    {},
  ];

  test("builds tasks with their data as given, and maps spec ids to server ids both ways", async () => {
    const p = await target.seed({
      title: "data",
      tasks: data.map((d, i) => ({ id: `t${i}`, data: d, meta: { i } })),
    });
    const stored = mock.data().tasks.filter((t) => t.project === p.id);
    expect(stored.map((t) => [t.id, t.data, t.meta])).toEqual(data.map((d, i) => [p.ids.tasks.get(`t${i}`), d, { i }]));
    expect(p.ids.tasks.toSpec(stored.map((t) => t.id))).toEqual(["t0", "t1", "t2", "t3"]);
    expect(p.ids.tasks.specOf(stored[2]!.id)).toBe("t2");
    expect(p.ids.tasks.size).toBe(4);
    expect(p.title).toMatch(/^data ·dmq-[0-9a-z]+-\d+$/);
    expect(p.project.id).toBe(p.id);
    await p.delete();
  });

  test("annotations and predictions go through the import or their own create call, with the fields given", async () => {
    const p = await target.seed({
      project: { model_version: "m2" },
      tasks: [
        {
          id: 1,
          data: { text: "a" },
          annotations: [
            { id: "imp", result: choice("pos"), lead_time: 2.5, ground_truth: false },
            { id: "cancel", result: [], was_cancelled: true },
            { id: "api", result: choice("neg"), via: "api", ground_truth: true, completed_by: 1 },
          ],
          predictions: [
            { id: "p1", result: choice("pos"), score: 0.25, model_version: "m1" },
            { id: "p2", result: choice("neg"), score: 0.75, model_version: "m2", via: "api" },
          ],
        },
        { id: 2, data: { text: "b" }, annotations: [{ result: choice("neutral") }] },
      ],
    });
    const store = mock.data();
    const annotation = (spec: string | number) => store.annotations.find((a) => a.id === p.ids.annotations.get(spec))!;
    const prediction = (spec: string) => store.predictions.find((x) => x.id === p.ids.predictions.get(spec))!;
    const task1 = p.ids.tasks.get(1);
    expect([annotation("imp").task, annotation("imp").result, annotation("imp").lead_time, annotation("imp").ground_truth]).toEqual([
      task1,
      choice("pos"),
      2.5,
      false,
    ]);
    expect(annotation("cancel").was_cancelled).toBe(true);
    expect([annotation("api").result, annotation("api").ground_truth, annotation("api").completed_by]).toEqual([choice("neg"), true, 1]);
    // The default spec id of the second task's annotation.
    expect(annotation("2/a0").task).toBe(p.ids.tasks.get(2));
    expect([prediction("p1").score, prediction("p1").model_version, prediction("p2").score, prediction("p2").model_version]).toEqual([
      0.25,
      "m1",
      0.75,
      "m2",
    ]);
    expect(p.ids.annotations.serverIds()).toHaveLength(4);
    expect(store.annotations.filter((a) => a.project === p.id)).toHaveLength(4);
    await p.delete();
  });

  test("views get their title, data and query; a query function sees the server ids", async () => {
    const p = await target.seed({
      tasks: [
        { id: "x", data: {} },
        { id: "y", data: {} },
      ],
      views: [
        {
          id: "picked",
          title: "Picked",
          data: { hiddenColumns: { explore: [], labeling: [] } },
          query: (ids) => ({ selectedItems: { all: false, included: [ids.tasks.get("y")] } }),
        },
        { title: "Ordered", query: { ordering: ["-tasks:id"] } },
      ],
    });
    const views = mock.data().views.filter((v) => v.project === p.id);
    expect(views.map((v) => v.id)).toEqual([p.ids.views.get("picked"), p.ids.views.get("v1")]);
    const listed = await p.project.tasks({ view: p.ids.views.get("picked") }).toArray();
    expect(p.ids.tasks.toSpec(listed.map((t) => t.id))).toEqual(["y"]);
    const ordered = await p.project.tasks({ view: p.ids.views.get("v1") }).toArray();
    expect(p.ids.tasks.toSpec(ordered.map((t) => t.id))).toEqual(["y", "x"]);
    expect(views[0]!.data).toMatchObject({ title: "Picked", hiddenColumns: { explore: [], labeling: [] } });
    await p.delete();
  });

  test("imports in batches and still maps every task", async () => {
    const tasks = Array.from({ length: 7 }, (_, i) => ({ data: { i }, annotations: [{ result: choice("pos") }] }));
    const p = await target.seed({ tasks }, { importBatchSize: 3 });
    const imports = mock.requests.filter((r) => r.path === `/api/projects/${p.id}/import`);
    expect(imports).toHaveLength(3);
    const stored = new Map(mock.data().tasks.map((t) => [t.id, t.data]));
    expect(tasks.map((_, i) => stored.get(p.ids.tasks.get(i)))).toEqual(tasks.map((t) => t.data));
    expect(new Set(p.ids.annotations.serverIds()).size).toBe(7);
    await p.delete();
  });

  test("an id the seed did not create throws, naming the kind and the ids it knows", async () => {
    const p = await target.seed({ tasks: [{ id: "only", data: {} }] });
    expect(() => p.ids.tasks.get("other")).toThrow(UnknownIdError);
    expect(() => p.ids.tasks.get("other")).toThrow('tasks: no spec id "other" among the seeded ones ("only")');
    expect(() => p.ids.views.toSpec([12345])).toThrow("views: no server id 12345 among the seeded ones (none)");
    await p.delete();
  });

  test("a step that fails deletes the project before the error is thrown, and says which step", async () => {
    const before = projectsOnServer();
    const error = await target
      .seed({
        title: "doomed",
        tasks: [{ id: "t", data: {}, annotations: [{ result: [], via: "api", completed_by: 999 }] }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SeedError);
    expect((error as SeedError).message).toMatch(
      /^seeding failed at the annotation create of tasks\["t"\]\.annotations\[0\]: POST \/api\/tasks\/\d+\/annotations\/ → 400/,
    );
    expect(projectsOnServer()).toEqual(before);

    const thrownByQuery = await target
      .seed({
        views: [
          {
            query: () => {
              throw new Error("no such view");
            },
          },
        ],
      })
      .catch((e: unknown) => e);
    expect((thrownByQuery as SeedError).step).toBe('the view create of views["v0"]');
    expect(projectsOnServer()).toEqual(before);
  });
});

describe("clean-up", () => {
  test("deletes every seeded project, and no other", async () => {
    const t = await mockTarget();
    const m = t.mockServer!;
    const other = await t.client.projects.create({ title: "not the kit's" });
    const a = await t.seed({ tasks: [{ data: {} }] });
    await t.seed();
    const renamed = await t.seed();
    await t.client.projects.update(renamed.id, { title: "taken over" });
    await a.delete();
    await a.delete(); // a no-op once deleted
    await t.cleanup();
    expect(
      m
        .data()
        .projects.map((p) => p.title)
        .sort(),
    ).toEqual(["not the kit's", "taken over"]);
    expect(m.data().projects.map((p) => p.id)).toContain(other.id);
    // A project deleted behind the kit's back is no error.
    const gone = await t.seed();
    await t.client.projects.delete(gone.id);
    await t.cleanup();
    await t.close();
  });

  test("tries every project, then names those it could not delete", async () => {
    const t = await mockTarget({ client: { maxRetries: 0 } });
    const p = await t.seed({ title: "stuck" });
    // Every delete fails from here on: the server is gone.
    await t.mockServer!.close();
    const error = await t.cleanup().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CleanupError);
    expect((error as CleanupError).left.map((l) => [l.id, l.title])).toEqual([[p.id, p.title]]);
    expect((error as Error).message).toContain(`could not delete 1 seeded project(s): ${p.id} "${p.title}"`);
  });
});

describe("the spec check", () => {
  test.each([
    [{ tasks: {} }, "spec.tasks: expected an array, found empty object {}"],
    [{ tasks: [{ data: [] }] }, "spec.tasks[0].data: expected an object, found array []"],
    [
      {
        tasks: [
          { id: 1, data: {} },
          { id: 1, data: {} },
        ],
      },
      "spec.tasks[1].id: expected an id no other task has, found 1",
    ],
    [
      { tasks: [{ data: {}, annotations: [{ via: "ui" }] }] },
      'spec.tasks[0].annotations[0].via: expected "import", "api" or nothing, found string "ui"',
    ],
    [
      { tasks: [{ data: {}, annotations: [{ completed_by: "me" }] }] },
      'spec.tasks[0].annotations[0].completed_by: expected a user id (a positive integer) or nothing, found string "me"',
    ],
    [
      { tasks: [{ data: {}, predictions: [{ score: 1 }] }] },
      "spec.tasks[0].predictions[0].result: expected an array, found nothing (undefined)",
    ],
    [
      { tasks: [{ data: {}, predictions: [{ result: [], score: "high" }] }] },
      'spec.tasks[0].predictions[0].score: expected a number or nothing, found string "high"',
    ],
    [{ views: [{ id: null }] }, "spec.views[0].id: expected a string or a finite number, found null"],
  ])("%j is refused: %s", (spec, message) => {
    expect(() => checkSpec(spec as never)).toThrow(SeedSpecError);
    expect(() => checkSpec(spec as never)).toThrow(message);
  });

  test("ids default to the index (tasks, views) and to task/a<i>, task/p<i>", () => {
    const checked = checkSpec({ tasks: [{ data: {}, annotations: [{}], predictions: [{ result: [] }] }], views: [{}] });
    expect([
      checked.tasks[0]!.id,
      checked.tasks[0]!.annotations[0]!.id,
      checked.tasks[0]!.predictions[0]!.id,
      checked.views[0]!.id,
    ]).toEqual([0, "0/a0", "0/p0", "v0"]);
  });
});

test("titles are unique and fit the server's 50 characters", () => {
  const long = "x".repeat(80);
  const titles = [uniqueTitle(long), uniqueTitle(long), uniqueTitle("é🍎".repeat(30))];
  expect(new Set(titles).size).toBe(3);
  expect(titles.map((t) => [...t].length <= TITLE_MAX_LENGTH)).toEqual([true, true, true]);
  expect(uniqueTitle("  short  ")).toMatch(/^short ·dmq-/);
});

test("a client made from env() reaches the same server as the target", async () => {
  const env = target.env();
  const client = createClient({ baseUrl: env.LABEL_STUDIO_URL, apiKey: env.LABEL_STUDIO_API_KEY });
  expect((await client.users.whoami()).id).toBe(target.user.id);
});
