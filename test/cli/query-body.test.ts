import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { dmqIn, dmqTty, json, mockWithEnv } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
// The built CLI runs as a process here: wait for dist/ before the first test, not inside one.
needsDist();

/*
 * One rule for every way a selection is given: `--query <json|@file|->`, or its keys as parameters
 * (`--body`, `-p filters=…`, the SDK's `-p query=…` and `selected_items`). The body is read as the
 * server reads it and replayed through the builder, so a key the server would ignore, a broken rule
 * or an unscoped destructive action stops the command before anything is sent; and what is sent
 * goes where the server reads it.
 */
let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  ({ mock, env } = await mockWithEnv());
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const ids = (n: number[]) => ({
  conjunction: "and",
  items: [{ filter: "filter:tasks:id", operator: "in_list", type: "Number", value: n }],
});
const body = { filters: ids([3, 5, 8]), ordering: ["-tasks:id"] };
const dir = mkdtempSync(join(tmpdir(), "dmq-query-"));
const bodyFile = join(dir, "body.json");
writeFileSync(bodyFile, JSON.stringify(body));

const listed = (run: { stdout: string }) => json<{ id: number }[]>(run as never).map((t) => t.id);
/** The requests the mock got, as method and path. */
const sent = () => mock.requests.map((r) => `${r.method} ${r.path}`);

describe("tasks list: the selection goes in the query parameter, however it is given", () => {
  test.each([
    ["--query <json>", ["--query", JSON.stringify(body)]],
    ["--query @file", ["--query", `@${bodyFile}`]],
    ["--body @file (an action's body, as a file)", ["--body", `@${bodyFile}`]],
    ["-p filters=… -p ordering=…", ["-p", `filters=${JSON.stringify(body.filters)}`, "-p", `ordering=${JSON.stringify(body.ordering)}`]],
    ["-p query=… (the SDK's parameter)", ["-p", `query=${JSON.stringify(body)}`]],
  ])("%s lists the three tasks, in the body's order", async (_name, args) => {
    const run = await dmqIn(["tasks", "list", "--project", "1", ...args], { env });
    expect(run.stderr).toBe("");
    expect(listed(run)).toEqual([8, 5, 3]);
    const [request] = mock.requests;
    expect(request?.path).toBe("/api/tasks/");
    expect(JSON.parse(String(request?.query["query"]))).toEqual(body);
    expect(Object.keys(request?.query ?? {}).sort()).toEqual(["page", "project", "query"]);
  });

  test("--query - reads the body from stdin; the flags continue from it", async () => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "--query", "-", "--exclude", "5"], { env, input: JSON.stringify(body) });
    expect(run.stderr).toBe("");
    expect(listed(run)).toEqual([8, 3]);
  });

  test("a view in the body is sent in the URL, where the task list reads it", async () => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "--query", '{"view": 1}', "--limit", "1"], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(mock.requests[0]?.query).toEqual({ project: "1", view: "1", page: "1" });
  });

  test.each([
    [
      { filter: body.filters },
      "filter: expected a key the server reads here",
      'found an unknown key "filter" (did you mean filters?), so the server applies no filter',
    ],
    [
      { query: body },
      "query: expected the selection's keys (filters, ordering, selectedItems) at the top level",
      'found a "query" wrapper (an object)',
    ],
    [{ filters: body.filters, selected_items: { all: false, included: [3] } }, "selected_items:", "(did you mean selectedItems?)"],
  ])("%j: refused, naming the key; nothing is sent", async (given, ...parts) => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "--query", JSON.stringify(given)], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("dmq tasks list: --query: the server would not read this body as written, so nothing was sent:");
    for (const part of parts) expect(run.stderr).toContain(part);
    expect(sent()).toEqual([]);
  });

  test("a misspelt selection parameter (-p filter=…) is refused in the flags' words, not sent as a parameter the list ignores", async () => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "-p", `filter=${JSON.stringify(body.filters)}`], { env });
    expect(run.stderr).toBe(
      "dmq tasks list: --param filter: expected a parameter of the task list (project, view, query, page, page_size, fields, " +
        'resolve_uri, only_annotated, review, include), found an unknown parameter "filter" (did you mean filters, inside --query?), ' +
        "which the server ignores\n",
    );
    expect(run.code).toBe(2);
    expect(sent()).toEqual([]);
  });

  test("a selection given twice is refused", async () => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "--query", "{}", "-p", `filters=${JSON.stringify(body.filters)}`], { env });
    expect(run.stderr).toBe("dmq tasks list: --param filters and --query: give the selection once\n");
    expect(run.code).toBe(2);
  });

  test("the builder's rules apply to a body and the flags after it", async () => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "--query", JSON.stringify(body), "--order", "id"], { env });
    expect(run.stderr).toContain('--order "id": --order once: the server orders by the first key only');
    expect(run.code).toBe(2);
    const view = await dmqIn(["tasks", "list", "--project", "1", "--query", JSON.stringify(body), "--view", "1"], { env });
    expect(view.stderr).toContain("--view with --query: given a view, the server ignores the body's filters, ordering and selection");
  });
});

describe("actions run: a body replayed through the builder, its guard, --dry-run and the confirmation", () => {
  const remaining = () => mock.data().tasks.length;

  test("--query runs the action on what the body selects", async () => {
    const run = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--query", `@${bodyFile}`], { env });
    expect(json(run)).toMatchObject({ processed_items: 3 });
    expect(remaining()).toBe(197);
  });

  test("an unscoped body is refused for a destructive action until --all", async () => {
    for (const given of ["{}", '{"ordering": ["tasks:id"]}']) {
      const run = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--query", given], { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("delete_tasks: with no --where, --include or --view this acts on every task of the project");
    }
    expect(sent()).toEqual([]);
    const all = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--query", "{}", "--all", "--dry-run"], { env });
    expect(all.code, all.stderr).toBe(0);
  });

  test("--dry-run prints the body the server gets", async () => {
    const run = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--query", JSON.stringify(body), "--dry-run"], { env });
    expect(json<[{ url: string; body: unknown }]>(run)[0]).toMatchObject({
      url: `${mock.url}/api/dm/actions/?id=delete_tasks&project=1`,
      body,
    });
    expect(remaining()).toBe(200);
  });

  test("the action's own fields may come in the body; a field the action does not take is refused", async () => {
    const given = { model_version: "sentiment-v1", selectedItems: { all: false, included: [1] } };
    const run = await dmqIn(
      ["actions", "run", "predictions_to_annotations", "--project", "1", "--query", JSON.stringify(given), "--dry-run"],
      {
        env,
      },
    );
    expect(json<[{ body: unknown }]>(run)[0].body).toEqual(given);
    const wrong = await dmqIn(["actions", "run", "delete_tasks", "--project", "1", "--query", JSON.stringify(given)], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("model_version: expected a key the server reads here");
  });

  test("an action the vocabulary does not know: a parameter that looks like the selection's is refused, not sent as a field", async () => {
    const run = await dmqIn(["actions", "run", "my_plugin_action", "--project", "1", "-p", `filter=${JSON.stringify(body.filters)}`], {
      env,
    });
    expect(run.stderr).toBe(
      'dmq actions run: --param filter: an unknown key "filter" (did you mean filters?), which the server would not read as the ' +
        "selection: give it as --param filters=… or in --query\n",
    );
    expect(run.code).toBe(2);
    expect(sent()).toEqual([]);
  });

  test("dmq body: a parameter with no place in the body is refused, not dropped; with --request, as actions run does", async () => {
    const plain = await dmqIn(["body", "-p", `filter=${JSON.stringify(body.filters)}`]);
    expect([plain.code, plain.stdout, plain.stderr]).toEqual([
      2,
      "",
      "dmq body: --param filter: not a key of the body (did you mean filters?); an action's own field goes with --request <action>\n",
    ]);
    const request = await dmqIn(["body", "--request", "my_plugin_action", "-p", `Filters=${JSON.stringify(body.filters)}`]);
    expect(request.stderr).toContain('dmq body: --param Filters: an unknown key "Filters" (did you mean filters?)');
    expect(request.code).toBe(2);
    const field = await dmqIn(["body", "--request", "my_plugin_action", "--include", "3", "-p", "mode=fast"]);
    expect(JSON.parse(field.stdout)).toMatchObject({ body: { mode: "fast", selectedItems: { all: false, included: [3] } } });
  });

  test("the official SDK CLI's form: actions create -p id=… -p project=… --body '{\"selected_items\": …}'", async () => {
    const run = await dmqIn(
      ["actions", "create", "-p", "id=delete_tasks", "-p", "project=1", "--body", '{"selected_items": {"all": false, "included": [1, 2]}}'],
      { env },
    );
    expect(json(run)).toMatchObject({ processed_items: 2 });
    expect(mock.requests.at(-1)?.body).toEqual({ selectedItems: { all: false, included: [1, 2] } });
    const missing = await dmqIn(["actions", "create", "-p", "project=1", "--include", "1"], { env });
    expect(missing.stderr).toContain("which action? give its id: dmq actions run <action>, or -p id=<action>");
    const twice = await dmqIn(["actions", "run", "delete_tasks", "-p", "id=next_task", "--project", "1", "--include", "1"], { env });
    expect(twice.stderr).toContain("the action is delete_tasks and --param id says next_task: give it once");
  });

  test("on a terminal a body's selection is confirmed like the flags' (the count asked from the server)", async () => {
    const args = ["actions", "run", "delete_tasks", "--project", "1", "--query", JSON.stringify(body)];
    const no = await dmqTty(args, "n", env);
    expect(no.output).toContain("delete_tasks will act on 3 tasks of project 1. Continue? [y/N]");
    expect(no.code).toBe(1);
    expect(remaining()).toBe(200);
  });
});

describe("views: a body gives the view's filters, ordering and selection", () => {
  test("views create --query and -p data='{\"filters\": …}' store the same filters", async () => {
    const a = await dmqIn(["views", "create", "--project", "1", "--title", "a", "--query", JSON.stringify(body)], { env });
    const b = await dmqIn(["views", "create", "--project", "1", "-p", `data=${JSON.stringify({ title: "b", ...body })}`], { env });
    for (const run of [a, b]) expect(run.stderr).toBe("");
    const [va, vb] = [json<{ id: number }>(a).id, json<{ id: number }>(b).id];
    const list = async (view: number) => listed(await dmqIn(["tasks", "list", "--project", "1", "--view", String(view)], { env }));
    expect(await list(va)).toEqual([8, 5, 3]);
    expect(await list(vb)).toEqual([8, 5, 3]);
  });

  test("a parameter a view has no place for is refused, not dropped (a view of every task)", async () => {
    const create = await dmqIn(["views", "create", "--project", "1", "-p", `filter=${JSON.stringify(body.filters)}`], { env });
    expect([create.code, create.stderr]).toEqual([
      2,
      "dmq views create: --param filter: a view takes project and data (its title with --title, its selection with the query " +
        "flags or --query) (did you mean filters?)\n",
    ]);
    const update = await dmqIn(["views", "update", "1", "-p", "title=x"], { env });
    expect(update.stderr).toContain("dmq views update: --param title: a view takes project and data (its title with --title");
    expect(sent()).toEqual([]);
  });

  test("views update --query replaces them; a misspelt key is refused", async () => {
    const created = json<{ id: number }>(await dmqIn(["views", "create", "--project", "1", "--title", "c"], { env })).id;
    const updated = await dmqIn(["views", "update", String(created), "--title", "c", "--query", JSON.stringify({ filters: ids([7, 9]) })], {
      env,
    });
    expect(updated.stderr).toBe("");
    expect(listed(await dmqIn(["tasks", "list", "--project", "1", "--view", String(created)], { env }))).toEqual([7, 9]);
    const wrong = await dmqIn(["views", "update", String(created), "--query", '{"Filters": {}}'], { env });
    expect(wrong.stderr).toContain('found an unknown key "Filters" (did you mean filters?)');
    expect(wrong.code).toBe(2);
  });
});

describe("projects export and exports create: a body chooses the exported tasks", () => {
  const exported = (run: { stdout: string }) => (JSON.parse(run.stdout) as { id: number }[]).map((t) => t.id).sort((a, b) => a - b);

  test("projects export --query: filters through a view made for the export (then removed), only ids as ids[]", async () => {
    const views = mock.data().views.length;
    const run = await dmqIn(["projects", "export", "1", "--query", `@${bodyFile}`], { env });
    expect(run.stderr).toBe("");
    expect(exported(run)).toEqual([3, 5, 8]);
    expect(sent()).toContain("POST /api/dm/views/");
    expect(mock.data().views.length).toBe(views);
    const before = mock.requests.length;
    const only = await dmqIn(
      ["projects", "export", "1", "--all-tasks", "--query", '{"selectedItems": {"all": false, "included": [4, 2]}}'],
      {
        env,
      },
    );
    expect(exported(only)).toEqual([2, 4]);
    expect(mock.requests.slice(before).map((r) => [r.path, r.query])).toEqual([
      ["/api/projects/1/export", { exportType: "JSON", download_all_tasks: "true", "ids[]": ["4", "2"] }],
    ]);
  });

  test("projects export --query: the flags continue from the body; a body's view is exported as the view", async () => {
    const run = await dmqIn(["projects", "export", "1", "--query", "-", "--exclude", "5"], { env, input: JSON.stringify(body) });
    expect(exported(run)).toEqual([3, 8]);
    const view = json<{ id: number }>(
      await dmqIn(["views", "create", "--project", "1", "--title", "v", "--query", JSON.stringify(body)], { env }),
    );
    const before = mock.requests.length;
    const viewed = await dmqIn(["projects", "export", "1", "--query", JSON.stringify({ view: view.id })], { env });
    expect(exported(viewed)).toEqual([3, 5, 8]);
    const snapshot = mock.requests.slice(before).find((r) => r.path === "/api/projects/1/exports/" && r.method === "POST");
    expect(snapshot?.body).toMatchObject({ task_filter_options: { view: view.id } });
    expect(sent().slice(before)).not.toContain("POST /api/dm/views/");
  });

  test.each([
    ["projects export", ["projects", "export", "1"]],
    ["exports create", ["exports", "create", "--project", "1"]],
  ])("%s: a misspelt key, the query wrapper or a broken rule is refused before anything is sent", async (_name, command) => {
    for (const [given, message] of [
      [{ filter: body.filters }, 'found an unknown key "filter" (did you mean filters?), so the server applies no filter'],
      [{ query: body }, 'a "query" wrapper (an object) around the selection'],
      [{ selectedItems: { all: true, included: [1] } }, "selectedItems"],
    ] as const) {
      const run = await dmqIn([...command, "--query", JSON.stringify(given)], { env });
      expect(run.stderr).toContain(message);
      expect(run.code).toBe(2);
    }
    expect(mock.requests).toEqual([]);
  });

  test("exports create: a parameter that looks like the selection's is refused, not sent in the snapshot's body", async () => {
    const run = await dmqIn(["exports", "create", "--project", "1", "-p", `filter=${JSON.stringify(body.filters)}`], { env });
    expect([run.code, run.stderr]).toEqual([
      2,
      'dmq exports create: --param filter: an unknown key "filter" (did you mean filters?), which the server would not read as ' +
        "the selection: give it as --param filters=… or in --query\n",
    ]);
    expect(mock.requests).toEqual([]);
  });

  test("exports create --query and -p filters=…: the snapshot holds the body's tasks", async () => {
    for (const args of [
      ["--query", JSON.stringify(body)],
      ["-p", `filters=${JSON.stringify(body.filters)}`],
    ]) {
      const created = json<{ id: number; counters: { task_number: number } }>(
        await dmqIn(["exports", "create", "--project", "1", ...args], { env }),
      );
      expect(created.counters.task_number).toBe(3);
      const snapshot = mock.requests.findLast((r) => r.path === "/api/projects/1/exports/")?.body as Record<string, unknown>;
      expect(Object.keys(snapshot)).not.toContain("filters");
      const file = await dmqIn(["exports", "download", String(created.id), "--project", "1"], { env });
      expect(exported(file)).toEqual([3, 5, 8]);
    }
  });
});
