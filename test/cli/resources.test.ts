import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { builtCli, dmqIn, json, mockWithEnv } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";

// Some tests spawn the built CLI, several at once: on a busy machine that takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// The built CLI runs as a process here: wait for dist/ before the first test, not inside one.
needsDist();

/*
 * Every resource and method of the CLI, run against the mock: JSON output by
 * default, tables with --format table, --param/--body/@file values, and the server's state after.
 */
let mock: MockServer;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), "dmq-cli-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
type Row = { id: number; [k: string]: unknown };

beforeAll(async () => {
  ({ mock, env } = await mockWithEnv());
});
afterAll(() => mock.close());

// Reading and writing run the CLI's sources in this process (real HTTP against the mock); the server
// options and the mock run the built CLI as a process, as a user does.
describe.concurrent("reading", () => {
  test("users whoami: the key's user, as JSON and as a table", async () => {
    const [asJson, asTable] = await Promise.all([
      dmqIn(["users", "whoami"], { env }),
      dmqIn(["users", "whoami", "--format", "table"], { env }),
    ]);
    expect(asJson.code).toBe(0);
    expect(json<{ username: string }>(asJson).username).toBe("admin");
    expect(asTable.stdout).toMatch(/^field\s+value$/m);
    expect(asTable.stdout).toMatch(/^username\s+admin$/m);
  });
  test("projects list / get; --limit; --param page; the table's chosen columns", async () => {
    const [all, one, table, page] = await Promise.all([
      dmqIn(["projects", "list"], { env }),
      dmqIn(["projects", "get", "1"], { env }),
      dmqIn(["projects", "list", "--format", "table"], { env }),
      dmqIn(["projects", "list", "-p", "page=1", "-p", "page_size=1", "--limit", "1"], { env }),
    ]);
    expect(json<Row[]>(all).map((p) => p.id)).toEqual([1]);
    expect(json<Row>(one)).toMatchObject({ id: 1, title: "Product review sentiment" });
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+title\s+task_number\s+created_at$/);
    expect(json<Row[]>(page)).toHaveLength(1);
  });
  test("tasks list: every page in order, --limit, one page with --param page, --view", async () => {
    const [every, limited, second, viewed] = await Promise.all([
      dmqIn(["tasks", "list", "--project", "1"], { env }),
      dmqIn(["tasks", "list", "--project", "1", "--limit", "3"], { env }),
      dmqIn(["tasks", "list", "--project", "1", "-p", "page=2", "-p", "page_size=10"], { env }),
      dmqIn(["tasks", "list", "--project", "1", "--view", "1", "--limit", "5"], { env }),
    ]);
    expect(json<Row[]>(every)).toHaveLength(200);
    expect(json<Row[]>(limited).map((t) => t.id)).toEqual([1, 2, 3]);
    expect(json<Row[]>(second).map((t) => t.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const shown = json<{ total_annotations: number }[]>(viewed);
    expect(shown).toHaveLength(5);
    expect(shown.every((t) => t.total_annotations === 0)).toBe(true);
  });
  test("tasks get; annotations list/get; predictions list/get; views list/get; actions list/form/catalog", async () => {
    const runs = await Promise.all([
      dmqIn(["tasks", "get", "1"], { env }),
      dmqIn(["annotations", "list", "1"], { env }),
      dmqIn(["predictions", "list", "--task", "1"], { env }),
      dmqIn(["predictions", "list", "-p", "project=1"], { env }),
      dmqIn(["views", "list", "--project", "1"], { env }),
      dmqIn(["views", "get", "1"], { env }),
      dmqIn(["actions", "list", "--project", "1", "--format", "table"], { env }),
      dmqIn(["actions", "form", "delete_tasks_annotations", "--project", "1"], { env }),
      dmqIn(["actions", "catalog"], { env: {} }),
    ]);
    expect(runs.map((r) => r.code)).toEqual(runs.map(() => 0));
    const [task, annotations, byTask, byProject, views, view, actions, form, catalog] = runs as [
      (typeof runs)[number],
      ...(typeof runs)[number][],
    ];
    expect(json<Row>(task).id).toBe(1);
    const annotationIds = json<Row[]>(annotations!).map((a) => a.id);
    const annotation = await dmqIn(["annotations", "get", String(annotationIds[0] ?? 1)], { env });
    expect(json<{ task: number }>(annotation).task).toBe(1);
    expect(json<{ task: number }[]>(byTask!).every((p) => p.task === 1)).toBe(true);
    expect(json<Row[]>(byProject!).length).toBeGreaterThan(json<Row[]>(byTask!).length);
    const prediction = await dmqIn(["predictions", "get", String(json<Row[]>(byTask!)[0]?.id)], { env });
    expect(json<{ task: number }>(prediction).task).toBe(1);
    expect(json<Row[]>(views!).map((v) => v.id)).toEqual([1]);
    expect(json<{ data: { title: string } }>(view!).data.title).toBe("Unlabeled, most confident first");
    expect(actions!.stdout).toMatch(/^delete_tasks\s+Delete Tasks\s+100/m);
    expect(Array.isArray(json(form!))).toBe(true);
    expect(catalog!.stdout).toMatch(/^rename_labels\s+Rename Labels\s+community\s+experimental\s+control_tag:string/m);
  });
  test("columns and operators print the vocabulary, with the condition spellings", async () => {
    const [columns, operators] = await Promise.all([dmqIn(["columns"]), dmqIn(["operators"])]);
    expect(columns.stdout).toMatch(/^tasks:completed_at\s+datetime\s+Datetime\s+community\s+equal notEqual less greater/m);
    expect(operators.stdout).toMatch(/^in_list\s+inList\s+list\s+is any of\s+in {2}in_list$/m);
    expect(operators.stdout).toMatch(/^in\s+in\s+range\s+is between \(inclusive\)\s+between$/m);
  });
});

describe("writing (each test starts from the demo data)", () => {
  beforeAll(() => mock.reset());

  test("projects create (--param, @file, --body) / update / delete", async () => {
    const config = file("config.xml", '<View><Text name="text" value="$text"/></View>');
    const created = await dmqIn(
      ["projects", "create", "-p", "title=Reviews", "-p", `label_config=@${config}`, "--body", '{"description": "Q3", "title": "ignored"}'],
      { env },
    );
    expect(created.code).toBe(0);
    const project = json<Row & { title: string; description: string; label_config: string }>(created);
    expect(project).toMatchObject({ title: "Reviews", description: "Q3", label_config: '<View><Text name="text" value="$text"/></View>' });
    const updated = await dmqIn(["projects", "update", String(project.id), "-p", "title=Reviews (done)"], { env });
    expect(json<{ title: string }>(updated).title).toBe("Reviews (done)");
    const deleted = await dmqIn(["projects", "delete", String(project.id)], { env });
    expect(deleted).toMatchObject({ code: 0, stdout: "" });
    expect((await dmqIn(["projects", "get", String(project.id)], { env })).code).toBe(1);
  });

  test("projects import: JSON, CSV and stdin, in batches of --batch-size", async () => {
    await mock.reset();
    const asJson = file("tasks.json", JSON.stringify([{ text: "one" }, { data: { text: "two" } }, { text: "three" }]));
    const before = mock.requests.length;
    const imported = await dmqIn(["projects", "import", "1", asJson, "--batch-size", "2"], { env });
    expect(json(imported)).toMatchObject({ batches: 2, task_count: 3 });
    expect(mock.requests.slice(before).filter((r) => r.method === "POST" && r.path === "/api/projects/1/import")).toHaveLength(2);
    const csv = file("tasks.csv", 'text,source\n"hello, world",web\n"say ""hi""",app\n');
    const fromCsv = await dmqIn(["projects", "import-tasks", "1", csv, "-p", "return_task_ids=true"], { env });
    const ids = json<{ task_ids: number[] }>(fromCsv).task_ids;
    expect(ids).toHaveLength(2);
    const task = json<{ data: unknown }>(await dmqIn(["tasks", "get", String(ids[1])], { env }));
    expect(task.data).toEqual({ text: 'say "hi"', source: "app" });
    const piped = await dmqIn(["projects", "import", "1", "-"], { env, input: '{"text": "from stdin"}\n{"text": "again"}\n' });
    expect(json(piped)).toMatchObject({ batches: 1, task_count: 2 });
    const empty = await dmqIn(["projects", "import", "1", file("none.json", "[]")], { env });
    expect(empty).toMatchObject({ code: 2, stderr: expect.stringMatching(/no tasks to import/) });
  });

  test("tasks create / update / delete; annotations and predictions create / update / delete", async () => {
    await mock.reset();
    const task = json<Row>(await dmqIn(["tasks", "create", "--project", "1", "-p", 'data={"text": "new"}'], { env }));
    expect(
      json<{ meta: unknown }>(await dmqIn(["tasks", "update", String(task.id), "-p", 'meta={"checked": true}'], { env })).meta,
    ).toEqual({
      checked: true,
    });
    const result = file(
      "result.json",
      JSON.stringify([{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Positive"] } }]),
    );
    const annotation = json<Row>(
      await dmqIn(["annotations", "create", String(task.id), "-p", `result=@${result}`, "-p", "lead_time=3.5"], { env }),
    );
    expect(
      json<{ ground_truth: boolean }>(await dmqIn(["annotations", "update", String(annotation.id), "-p", "ground_truth=true"], { env }))
        .ground_truth,
    ).toBe(true);
    const prediction = json<Row>(
      await dmqIn(
        ["predictions", "create", "-p", `task=${task.id}`, "-p", `result=@${result}`, "-p", "score=0.9", "-p", "model_version=v9"],
        { env },
      ),
    );
    expect(json<{ score: number }>(await dmqIn(["predictions", "update", String(prediction.id), "-p", "score=0.5"], { env })).score).toBe(
      0.5,
    );
    for (const [resource, id] of [
      ["annotations", annotation.id],
      ["predictions", prediction.id],
      ["tasks", task.id],
    ] as const) {
      expect(await dmqIn([resource, "delete", String(id)], { env })).toMatchObject({ code: 0 });
      expect((await dmqIn([resource, "get", String(id)], { env })).code).toBe(1);
    }
  });

  test("views create with query flags and --title / update / delete; the view then drives tasks list", async () => {
    await mock.reset();
    const created = await dmqIn(
      ["views", "create", "--project", "1", "--title", "Labeled", "-w", "total_annotations > 0", "--order", "-id", "--include", "5,6,7"],
      { env },
    );
    const view = json<Row & { data: { title: string; filters: unknown; ordering: string[] } }>(created);
    expect(view.data).toMatchObject({ title: "Labeled", ordering: ["-tasks:id"] });
    const listed = json<{ id: number; total_annotations: number }[]>(
      await dmqIn(["tasks", "list", "--project", "1", "--view", String(view.id)], { env }),
    );
    expect(listed.map((t) => t.id)).toEqual([...listed.map((t) => t.id)].sort((a, b) => b - a));
    expect(listed.every((t) => t.total_annotations > 0 && [5, 6, 7].includes(t.id))).toBe(true);
    const renamed = await dmqIn(["views", "update", String(view.id), "-p", 'data={"title": "Renamed"}'], { env });
    expect(json<{ data: { title: string } }>(renamed).data.title).toBe("Renamed");
    expect((await dmqIn(["views", "delete", String(view.id)], { env })).code).toBe(0);
    expect((await dmqIn(["views", "get", String(view.id)], { env })).code).toBe(1);
  });

  test("actions run (and its SDK name, create) performs on the selection and prints the server's answer", async () => {
    await mock.reset();
    const ran = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--include", "3,4"], { env });
    expect(json(ran)).toMatchObject({ processed_items: 2, detail: "Deleted 2 tasks" });
    const created = await dmqIn(["actions", "create", "delete_tasks_predictions", "--project", "1", "-w", "id <= 10", "--all"], { env });
    expect(created.code).toBe(0);
    const remaining = json<{ id: number; total_predictions: number }[]>(
      await dmqIn(["tasks", "list", "--project", "1", "-w", "id <= 12"], { env }),
    );
    expect(remaining.map((t) => [t.id, t.total_predictions > 0])).toEqual([
      ...[1, 2, 5, 6, 7, 8, 9, 10].map((id) => [id, false]),
      [11, true],
      [12, true],
    ]);
  });
});

describe("server options: flags over the environment", () => {
  test("--base-url / --api-key override LABEL_STUDIO_URL / LABEL_STUDIO_API_KEY", async () => {
    const wrongEnv = { LABEL_STUDIO_URL: "http://127.0.0.1:9", LABEL_STUDIO_API_KEY: "not-the-key" };
    // In-process: the CLI reads its environment from the io it is given, as from process.env.
    const r = await dmqIn(["users", "whoami", "--base-url", mock.url, "--api-key", mock.legacyToken], { env: wrongEnv });
    expect(r.code).toBe(0);
    const viaEnv = await dmqIn(["users", "whoami", "--max-retries", "0", "--timeout", "2"], { env: wrongEnv });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toMatch(/^dmq users whoami: GET http:\/\/127\.0\.0\.1:9\/api\/current-user\/whoami failed: .*\(1 attempt\)$/m);
  });
  test("a personal access token works as the key", async () => {
    const r = await dmqIn(["users", "whoami"], { env: { ...env, LABEL_STUDIO_API_KEY: mock.personalAccessToken } });
    expect(json<{ username: string }>(r).username).toBe("admin");
  });
});

describe("dmq mock", () => {
  /** `dmq mock --port 0 --quiet …flags` as a process, once its banner is out; `output()` is all it printed so far. */
  async function startMock(flags: readonly string[] = []) {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [await builtCli(), "mock", "--port", "0", "--quiet", ...flags], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const banner = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        if (out.includes("Ctrl-C stops it.")) resolve(out);
      });
      child.on("exit", (code) => reject(new Error(`dmq mock exited with ${code}: ${out}`)));
    });
    return { child, banner, output: () => out };
  }

  test("runs the mock as npm start does: banner with URL and keys, serves the demo data, stops on SIGINT", async () => {
    const { child, banner, output } = await startMock();
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
    const token = /legacy token:\s+(\S+)/.exec(banner)?.[1];
    expect(banner).toMatch(
      /^dmq mock server \(faithful\) listening on http:\/\/127\.0\.0\.1:\d+\n {2}data: {18}built-in demo \(1 project, 200 tasks, 3 users\)/,
    );
    const whoami = await dmqIn(["users", "whoami"], { env: { LABEL_STUDIO_URL: url, LABEL_STUDIO_API_KEY: token } });
    expect(json<{ username: string }>(whoami).username).toBe("admin");
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(output()).toMatch(/dmq mock server stopped\n$/);
  });
  test("the start options as flags: --strict, --max-body-size, --access-token-lifetime reach the server", async () => {
    const flags = [
      "--strict",
      "--max-body-size",
      "1024",
      "--access-token-lifetime",
      "60",
      "--journal-capacity",
      "5",
      "--request-time-limit",
      "9",
    ];
    const { child, banner } = await startMock(flags);
    try {
      expect(banner).toMatch(/^dmq mock server \(strict\) listening on/);
      const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? "";
      const key = /legacy token:\s+(\S+)/.exec(banner)?.[1] ?? "";
      const pat = /personal access token:\s+(\S+)/.exec(banner)?.[1] ?? "";
      const post = (path: string, body: unknown, auth: Record<string, string> = {}) =>
        fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...auth }, body: JSON.stringify(body) });
      const big = await post("/api/projects/", { title: "x".repeat(2000) }, { authorization: `Token ${key}` });
      expect(big.status).toBe(413);
      const small = await post("/api/projects/", { title: "fits" }, { authorization: `Token ${key}` });
      expect(small.status).toBe(201);
      const { access } = (await (await post("/api/token/refresh/", { refresh: pat })).json()) as { access: string };
      const claims = JSON.parse(Buffer.from(access.split(".")[1] ?? "", "base64url").toString()) as { exp: number; iat: number };
      expect(claims.exp - claims.iat).toBe(60);
    } finally {
      child.kill("SIGINT");
    }
  });

  test("a bad option is a usage error naming the flag", async () => {
    const r = await dmqIn(["mock", "--port", "http"]);
    expect(r).toMatchObject({ code: 2, stderr: 'dmq mock: --port: expected an integer port from 0 to 65535, found "http"\n' });
    const limit = await dmqIn(["mock", "--journal-capacity", "lots"]);
    expect(limit).toMatchObject({
      code: 2,
      stderr: 'dmq mock: --journal-capacity: expected a whole number of entries ≥ 0, found "lots"\n',
    });
  });

  test("--help lists every start option of the mock, with examples", async () => {
    const r = await dmqIn(["mock", "--help"]);
    expect(r.code).toBe(0);
    for (const flag of [
      "--max-body-size <bytes>",
      "--request-time-limit <seconds>",
      "--journal-capacity <entries>",
      "--persist <file>",
      "--strict",
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain("$ dmq mock --persist db.json --journal-capacity 100 --request-time-limit 5");
  });
});
