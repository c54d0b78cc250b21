import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { reply, type MockServer } from "../../mock-server/index.js";
import { buildProgram } from "../../src/cli/program.js";
import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { builtCli, dmq, dmqIn, dmqTty, json, mockWithEnv } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";
import { quietIo } from "../helpers/cli-io.js";

// Each test spawns the built CLI, several at once: on a busy machine that takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// The built CLI runs as a process here: wait for dist/ before the first test, not inside one.
needsDist();

/*
 * Help, --version, --dry-run on every command, the destructive-action guard and its confirmation
 * (stdin as a pipe and under a pseudo-terminal), progress on a terminal only, exit codes, and no
 * retry of a failure that cannot change.
 */
let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  ({ mock, env } = await mockWithEnv());
});
afterAll(() => mock.close());

/** Every command path of the program ("tasks list", …), read from the program itself. */
function commandPaths(): string[][] {
  const walk = (c: CommandUnknownOpts, path: string[]): string[][] =>
    c.commands.filter((s) => s.name() !== "help").flatMap((s) => [[...path, s.name()], ...walk(s, [...path, s.name()])]);
  return walk(buildProgram(quietIo, { code: 0 }), []);
}

describe.concurrent("help and version", () => {
  const paths = commandPaths();
  test("the program has every resource method of the SDK shape", () => {
    const names = paths.map((p) => p.join(" "));
    for (const name of [
      "users whoami",
      "projects list",
      "projects get",
      "projects create",
      "projects update",
      "projects delete",
      "projects import",
      "tasks list",
      "tasks get",
      "tasks create",
      "tasks delete",
      "annotations list",
      "annotations get",
      "annotations create",
      "annotations update",
      "annotations delete",
      "predictions list",
      "predictions get",
      "predictions create",
      "predictions update",
      "predictions delete",
      "views list",
      "views get",
      "views create",
      "views update",
      "views delete",
      "actions list",
      "actions run",
      "actions form",
      "explain",
      "mock",
    ]) {
      expect(names).toContain(name);
    }
  });
  test.each(paths.map((p) => [p.join(" "), p]))("dmq %s --help: usage, options and examples, exit 0", async (_name, path) => {
    const help = await dmqIn([...path, "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: dmq ${path.join(" ")}(\\|[\\w-]+)? `));
    expect(help.stdout).toMatch(/\nExamples:\n {2}\$ dmq /);
  });
  test("-h is --help (the built CLI as a process)", async () => {
    const [long, short] = await Promise.all([dmq(["tasks", "list", "--help"]), dmq(["tasks", "list", "-h"])]);
    expect(short).toEqual(long);
    expect(long.stdout).toMatch(/^Conditions: "<column>\[@Type\] <operator> \[value\]"/m);
  });
  test("dmq --version prints the package version; dmq without a command shows help and exits 2", async () => {
    const [version, bare] = await Promise.all([dmq(["--version"]), dmq([])]);
    expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: dmq \[options\] \[command\]/);
  });
});

describe.concurrent("--dry-run prints the request and sends nothing", () => {
  beforeAll(() => mock.reset());
  const tasksFile = join(mkdtempSync(join(tmpdir(), "dmq-dry-")), "tasks.json");
  writeFileSync(tasksFile, JSON.stringify([{ text: "a" }, { text: "b" }]));
  test.each([
    [["users", "whoami"], "GET", "/api/current-user/whoami", undefined],
    [["projects", "list"], "GET", "/api/projects/?page=1", undefined],
    [["projects", "get", "1"], "GET", "/api/projects/1/", undefined],
    [["projects", "create", "-p", "title=X"], "POST", "/api/projects/", { title: "X" }],
    [["projects", "update", "1", "-p", "title=Y"], "PATCH", "/api/projects/1/", { title: "Y" }],
    [["projects", "delete", "1"], "DELETE", "/api/projects/1/", undefined],
    [["projects", "import", "1", tasksFile], "POST", "/api/projects/1/import", [{ data: { text: "a" } }, { data: { text: "b" } }]],
    [["tasks", "list", "--project", "1", "-w", "id > 5"], "GET", "/api/tasks/?project=1&query=", undefined],
    [["tasks", "get", "2"], "GET", "/api/tasks/2/", undefined],
    [["tasks", "create", "--project", "1", "-p", 'data={"t":1}'], "POST", "/api/tasks/", { data: { t: 1 }, project: 1 }],
    [["tasks", "update", "2", "-p", 'meta={"a":1}'], "PATCH", "/api/tasks/2/", { meta: { a: 1 } }],
    [["tasks", "delete", "2"], "DELETE", "/api/tasks/2/", undefined],
    [["annotations", "list", "1"], "GET", "/api/tasks/1/annotations/", undefined],
    [["annotations", "create", "1", "-p", "result=[]"], "POST", "/api/tasks/1/annotations/", { result: [] }],
    [["annotations", "delete", "1"], "DELETE", "/api/annotations/1/", undefined],
    [["predictions", "list", "--task", "1"], "GET", "/api/predictions/?task=1", undefined],
    [["predictions", "update", "1", "-p", "score=1"], "PATCH", "/api/predictions/1/", { score: 1 }],
    [["views", "list", "--project", "1"], "GET", "/api/dm/views/?project=1", undefined],
    [
      ["views", "create", "--project", "1", "--title", "T", "--include", "3"],
      "POST",
      "/api/dm/views/",
      { project: 1, data: { title: "T" }, selected_items: { all: false, included: [3] } },
    ],
    [["views", "delete", "1"], "DELETE", "/api/dm/views/1/", undefined],
    [["views", "reset", "--project", "1"], "DELETE", "/api/dm/views/reset/", { project: 1 }],
    [["actions", "list", "--project", "1"], "GET", "/api/dm/actions/?project=1", undefined],
    [
      ["actions", "form", "delete_tasks_annotations", "--project", "1"],
      "GET",
      "/api/dm/actions/delete_tasks_annotations/form/?project=1",
      undefined,
    ],
    [
      ["actions", "run", "delete_tasks", "--project", "1", "--include", "1,2"],
      "POST",
      "/api/dm/actions/?id=delete_tasks&project=1",
      { selectedItems: { all: false, included: [1, 2] } },
    ],
    [
      ["actions", "run", "my_plugin_action", "--project", "1", "--all"],
      "POST",
      "/api/dm/actions/?id=my_plugin_action&project=1",
      { selectedItems: { all: true, excluded: [] } },
    ],
    [
      ["explain", "--query", '{"ordering": ["-tasks:id"]}', "--against", "URL", "--project", "1"],
      "GET",
      "/api/tasks/?page_size=1&project=1&query=%7B%22ordering%22:%5B%22-tasks:id%22%5D%7D&page=1",
      undefined,
    ],
    // An empty body says nothing: no query parameter.
    [["explain", "--query", "{}", "--against", "URL", "--project", "1"], "GET", "/api/tasks/?page_size=1&project=1&page=1", undefined],
  ] as const)("%j → %s %s", async (args, method, path, body) => {
    const argv = args.map((a) => (a === "URL" ? mock.url : a));
    const r = await dmqIn([...argv, "--dry-run"], { env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const [request, ...more] = json<{ method: string; url: string; headers: Record<string, string>; body?: unknown }[]>(r);
    expect(more).toEqual([]);
    expect(request?.method).toBe(method);
    expect(request?.url.startsWith(`${mock.url}${path}`)).toBe(true);
    expect(request?.headers["authorization"]).toBe("Token ***");
    expect(request?.body).toEqual(body);
    expect(r.stdout).not.toContain(mock.legacyToken);
    expect(mock.requests).toEqual([]);
  });

  test("with a personal access token: the exchange and the call, both masked, as HTTP messages with --format table", async () => {
    const r = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--include", "5", "--dry-run", "--format", "table"], {
      env: { ...env, LABEL_STUDIO_API_KEY: mock.personalAccessToken },
    });
    expect(r.stdout).toBe(
      [
        `POST ${mock.url}/api/token/refresh/`,
        "accept: application/json",
        "content-type: application/json",
        "",
        '{"refresh":"***"}',
        "",
        `POST ${mock.url}/api/dm/actions/?id=delete_tasks&project=1`,
        "accept: application/json",
        "authorization: Bearer ***",
        "content-type: application/json",
        "",
        '{"selectedItems":{"all":false,"included":[5]}}',
        "",
      ].join("\n"),
    );
    expect(mock.requests).toEqual([]);
  });

  test("verify and mock refuse --dry-run: verify would still write to the server, the mock sends nothing", async () => {
    const [verify, served] = await Promise.all([
      dmqIn(["verify", "--against", mock.url, "--only", "^ordering/", "--dry-run"], { env }),
      dmqIn(["mock", "--port", "0", "--quiet", "--dry-run"]),
    ]);
    expect(verify).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^dmq verify: --dry-run: verify has no dry run/) });
    expect(served).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^dmq mock: --dry-run: the mock serves/) });
    expect(mock.requests).toEqual([]);
  });

  test("offline commands print their output as usual", async () => {
    const r = await dmqIn(["body", "--include", "1", "--dry-run"]);
    expect(JSON.parse(r.stdout)).toEqual({ selectedItems: { all: false, included: [1] } });
  });
});

describe("destructive actions", () => {
  beforeEach(() => mock.reset());
  const posts = () => mock.requests.filter((r) => r.method === "POST");

  test("with no --where/--include/--view (--exclude alone does not count) and no --all: exit 2 before any request", async () => {
    for (const flags of [[], ["--order", "-id"]]) {
      const r = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", ...flags], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "dmq actions run: delete_tasks: with no --where, --include or --view this acts on every task of the project " +
          "(--exclude alone still does): name the tasks, or pass --all to mean it\n",
      );
    }
    // The ids are there, but they only exclude: the message says so.
    const excluded = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--exclude", "3"], { env });
    expect(excluded.code).toBe(2);
    expect(excluded.stderr).toBe(
      "dmq actions run: delete_tasks: --exclude alone, with no --where, --include or --view, leaves every other task of the " +
        "project to act on: name the tasks (--where, --include), or pass --all to mean every task but the excluded\n",
    );
    const fields = await dmqIn(["actions", "run", "rename_labels", "--project", "1", "--all"], { env });
    expect(fields).toMatchObject({ code: 2, stderr: expect.stringMatching(/^dmq actions run: rename_labels: rename_labels needs params/) });
    expect(mock.requests).toEqual([]);
    const filtered = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "-w", "id = 5"], { env });
    expect(json(filtered)).toMatchObject({ processed_items: 1 });
  });

  test("several children of a line: refused by the client on a server before 1.23, which drops child_filters (the action would act on more)", async () => {
    const args = ["actions", "run", "delete_tasks", "--project", "1", "-w", "id > 1", "--child", "inner_id < 4", "--child", "id < 9"];
    mock.use("GET /api/version/", reply(200, { release: "1.22.0.dev0" }));
    const old = await dmqIn(args, { env });
    expect(old).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^dmq actions run: filters\.items\[0\]: expected at most one child condition \(sent as child_filter\) on this server, found 2 in child_filters, and this server \(Label Studio 1\.22\.0\.dev0\) reads only child_filter: .* write each child as its own line, --where: the same tasks on every server/,
      ),
    });
    // The task list would list more: refused too. --dry-run asks no release and shows the body.
    const list = await dmqIn(["tasks", "list", ...args.slice(3)], { env });
    expect(list).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("dmq tasks list: filters.items[0]: expected at most one child"),
    });
    const dry = await dmqIn([...args, "--dry-run"], { env });
    expect(dry).toMatchObject({ code: 0, stdout: expect.stringContaining('"child_filters"') });
    expect(mock.requests.filter((r) => r.path !== "/api/version/")).toEqual([]);
    // One child goes as child_filter, which 1.22 reads: sent.
    expect(json(await dmqIn(args.slice(0, -2), { env }))).toMatchObject({ processed_items: 2 });
    expect(posts()).toHaveLength(1);
    await mock.reset();
    // The mock (the newest sources) reads child_filters.
    expect(json(await dmqIn(args, { env }))).toMatchObject({ processed_items: 2 });
  });

  test("stdin a pipe: no question (the flags say what to act on)", async () => {
    const r = await dmq(["actions", "run", "delete_tasks", "--project", "1", "--include", "7"], { env, input: "n\n" });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(posts()).toHaveLength(1);
  });

  test("on a terminal: asks with the number of tasks; y performs, n and end of input do not", async () => {
    const args = ["actions", "run", "delete_tasks", "--project", "1", "-w", "id <= 3", "--all"];
    const no = await dmqTty(args, "n", env);
    expect(no.output).toMatch(/delete_tasks will act on 3 tasks of project 1\. Continue\? \[y\/N\] n\r?\n/);
    expect(no.output).toMatch(/dmq actions run: not confirmed: nothing was done/);
    expect(no.code).toBe(1);
    const eof = await dmqTty(args, "-", env);
    expect(eof.code).toBe(1);
    expect(posts()).toHaveLength(0);
    const yes = await dmqTty(args, "y", env);
    expect(yes.code).toBe(0);
    expect(yes.output).toMatch(/"detail": "Deleted 3 tasks"/);
    expect(posts()).toHaveLength(1);
  });

  test("on a terminal with --yes: no question", async () => {
    const r = await dmqTty(["actions", "run", "delete_tasks", "--project", "1", "--include", "9", "--yes"], "n", env);
    expect(r.code).toBe(0);
    expect(r.output).not.toMatch(/\[y\/N\]/);
    expect(posts()).toHaveLength(1);
  });

  test("projects delete asks on a terminal too", async () => {
    const r = await dmqTty(["projects", "delete", "1"], "n", env);
    expect(r.output).toMatch(/Delete project 1\? \[y\/N\]/);
    expect(r.code).toBe(1);
    expect(mock.requests.filter((q) => q.method === "DELETE")).toEqual([]);
  });
});

describe("progress and exit codes", () => {
  beforeEach(() => mock.reset());

  test("progress goes to stderr on a terminal only", async () => {
    const tty = await dmqTty(["tasks", "list", "--project", "1", "-p", "page_size=50", "--format", "table"], "-", env);
    expect(tty.code).toBe(0);
    expect(tty.output).toMatch(/\rtasks \[#{24}\] 200\/200/);
    const piped = await dmq(["tasks", "list", "--project", "1", "-p", "page_size=50"], { env });
    expect(piped.stderr).toBe("");
    expect(json<unknown[]>(piped)).toHaveLength(200);
  });

  test("0 ok, 1 API error with status and detail on stderr, 2 usage", async () => {
    const [ok, missing, usage] = await Promise.all([
      dmq(["tasks", "get", "1"], { env }),
      dmq(["tasks", "get", "9999"], { env }),
      dmq(["tasks", "get"], { env }),
    ]);
    expect(ok.code).toBe(0);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toMatch(/^dmq tasks get: GET \/api\/tasks\/9999\/ → 404: /);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^dmq tasks get: missing required argument 'id'/);
    const [timeout, retries, format] = await Promise.all([
      dmqIn(["users", "whoami", "--timeout", "0"], { env }),
      dmqIn(["users", "whoami", "--max-retries", "-1"], { env }),
      dmqIn(["users", "whoami", "--format", "xml"], { env }),
    ]);
    expect(timeout.stderr).toMatch(/^dmq: option '--timeout <seconds>' argument '0' is invalid\. expected a number > 0, found "0"/);
    expect(retries.stderr).toMatch(/^dmq: option '--max-retries <n>' argument '-1' is invalid\. expected a positive integer, found "-1"/);
    expect(format.stderr).toMatch(
      /^dmq: option '--format <format>' argument 'xml' is invalid\. Allowed choices are json, table, csv, jsonl\./,
    );
    expect([timeout.code, retries.code, format.code]).toEqual([2, 2, 2]);
  });

  test("a reader that stops early (| head) ends the command quietly", async () => {
    const { execFile } = await import("node:child_process");
    const script = `set -o pipefail; node ${JSON.stringify(await builtCli())} tasks list --project 1 -p fields=all | head -c 10`;
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile("bash", ["-c", script], { env: { PATH: process.env["PATH"] ?? "", HOME: tmpdir(), ...env } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
    expect(result).toEqual({ code: 0, stdout: "[\n  {\n    ", stderr: "" });
  });

  test("no server or key: a usage error naming the flag and the variable", async () => {
    const [noUrl, noKey, badUrl] = await Promise.all([
      dmqIn(["users", "whoami"], { env: { LABEL_STUDIO_API_KEY: "k" } }),
      dmqIn(["users", "whoami"], { env: { LABEL_STUDIO_URL: mock.url } }),
      dmqIn(["users", "whoami", "--base-url", `${mock.url}/`], { env }),
    ]);
    expect(noUrl).toMatchObject({ code: 2, stderr: "dmq users whoami: no server: pass --base-url <url> or set LABEL_STUDIO_URL\n" });
    expect(noKey).toMatchObject({ code: 2, stderr: "dmq users whoami: no API key: pass --api-key <key> or set LABEL_STUDIO_API_KEY\n" });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(
      /^dmq users whoami: --base-url: expected an http:\/\/ or https:\/\/ URL without a trailing slash .*drop the trailing slash/,
    );
  });

  test("a typo'd action id is reported from the project's list: no POST, so nothing to retry", async () => {
    const r = await dmqIn(["actions", "run", "delet_tasks", "--project", "1", "--all"], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /unknown action "delet_tasks" \(did you mean delete_tasks\?\); project 1 offers: retrieve_tasks_predictions, /,
    );
    expect(mock.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /api/dm/actions/"]);
  });

  test("a 4xx is sent once", async () => {
    const r = await dmqIn(["annotations", "create", "99999", "-p", "result=[]"], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^dmq annotations create: POST \/api\/tasks\/99999\/annotations\/ → 404: /);
    expect(mock.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["POST /api/tasks/99999/annotations/"]);
  });

  test("the key never reaches stdout or stderr", async () => {
    const runs = await Promise.all([
      dmqIn(["actions", "run", "delete_tasks", "--project", "999", "--all"], { env }),
      dmqIn(["users", "whoami", "--api-key", `${mock.legacyToken}x`], { env }),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, 1]);
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(mock.legacyToken);
  });
});
