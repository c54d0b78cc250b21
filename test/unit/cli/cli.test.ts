import { describe, expect, test } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { selection } from "../../../src/selection.js";
import { columnNames } from "../../../src/vocabulary/columns.js";

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("dmq body", () => {
  test("the design-card selection from flags equals the builder's body", async () => {
    const r = await cli("body", "-p", "1", "-w", "tasks:completed_at greater 2024-01-01T00:00:00Z", "--order", "-tasks:created_at", "--exclude", "1,2");
    expect(r.code).toBe(0);
    const expected = selection(1).where("tasks:completed_at").greater(new Date("2024-01-01T00:00:00Z")).orderBy("-tasks:created_at").excluding([1, 2]);
    expect(JSON.parse(r.out)).toEqual(expected.toJSON());
  });
  test("flags replay in order: or-lines, children, typed data keys, ranges and lists", async () => {
    const r = await cli(
      "body", "-p", "3",
      "-w", "tasks:annotators contains 1,2",
      "--child", "tasks:data.score@Number between 0.5..1",
      "--or", "tasks:id in_list 4,5",
      "--or", "tasks:data.text contains hello world",
      "--or", "tasks:total_annotations empty",
      "--include", "4", "--include", "5,6",
    );
    expect(r.code).toBe(0);
    const expected = selection(3)
      .where("tasks:annotators").contains([1, 2]).child("tasks:data.score", "Number").between({ min: 0.5, max: 1 })
      .or("tasks:id").inList([4, 5])
      .or("tasks:data.text").contains("hello world")
      .or("tasks:total_annotations").empty(true)
      .including([4]).including([5, 6]);
    expect(JSON.parse(r.out)).toEqual(expected.toJSON());
  });
  test("--request prints the action request with --param fields", async () => {
    const r = await cli("body", "-p", "2", "--view", "7", "--request", "predictions_to_annotations", "--param", "model_version=v1");
    expect(JSON.parse(r.out)).toEqual({
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "predictions_to_annotations", project: 2, view: 7 },
      body: { model_version: "v1" },
    });
  });
  test.each([
    [["body", "-p", "1", "-w", "tasks:completed_at contains 2024"], /contains is not allowed on tasks:completed_at/],
    [["body", "-p", "1", "-w", "tasks:id greater 1", "--and", "tasks:id less 5", "--or", "tasks:id equal 3"], /one conjunction per filter set/],
    [["body", "-w", "tasks:id greater 1"], /--project: expected a positive integer, found nothing/],
    [["body", "-p", "1", "-w", "tasks:id"], /expected "<column> <operator> \[value\]"/],
    [["body", "-p", "1", "-w", "tasks:id bigger 3"], /unknown operator "bigger"/],
    [["body", "-p", "1", "--include", "1,x"], /expected comma-separated task ids, found "x"/],
    [["body", "-p", "1", "--frobnicate"], /Unknown option '--frobnicate'/],
    [["nonsense"], /unknown command "nonsense"/],
  ])("usage errors exit 2 with the rule: %j", async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});

describe("dmq columns / operators / actions", () => {
  test("columns lists every vocabulary column with its operators", async () => {
    const r = await cli("columns");
    expect(r.code).toBe(0);
    for (const c of columnNames) expect(r.out).toMatch(new RegExp(`^tasks:${c}\\s`, "m"));
    expect(r.out).toMatch(/^tasks:completed_at\s+datetime\s+Datetime\s+community\s+equal notEqual less greater/m);
  });
  test("operators and actions print their tables", async () => {
    expect((await cli("operators")).out).toMatch(/^in_list\s+inList\s+list\s+is any of$/m);
    expect((await cli("actions")).out).toMatch(/^predictions_to_annotations\s+Create Annotations From Predictions\s+community\s+listed\s+model_version\?:modelVersions$/m);
  });
});

describe("dmq run / list against the mock server", async () => {
  const { startMockServer } = await import("../../../mock-server/index.js");
  const { afterAll, beforeEach } = await import("vitest");
  const mock = await startMockServer();
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());
  const withEnv = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { LABEL_STUDIO_URL: mock.url, LABEL_STUDIO_API_KEY: mock.legacyToken };
    const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  test("list prints the selected tasks in order; run acts on the same selection", async () => {
    const listed = await withEnv("list", "-p", "1", "-w", "tasks:total_annotations equal 0", "--order", "-tasks:id", "--limit", "3", "--json");
    expect(listed.code).toBe(0);
    const ids = (JSON.parse(listed.out) as { id: number }[]).map((t) => t.id);
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const ran = await withEnv("run", "delete_tasks", "-p", "1", "--include", ids.join(","));
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.out)).toMatchObject({ processed_items: 3, detail: "Deleted 3 tasks" });
    const after = await withEnv("list", "-p", "1", "--include", ids.join(","), "--json");
    expect(JSON.parse(after.out)).toEqual([]);
  });
  test("the token never reaches the output, even on errors", async () => {
    const r = await withEnv("run", "delete_tasks", "-p", "999", "--all");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/404/);
    expect(r.err + r.out).not.toContain(mock.legacyToken);
  });
  test("run needs an action", async () => {
    expect((await withEnv("run", "-p", "1")).code).toBe(2);
  });
});
