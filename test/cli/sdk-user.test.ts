import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { dmqIn, json, mockWithEnv } from "./dmq.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** What a user of the official SDK's CLI reaches for: users list, CSV and JSON lines, tables that show what was asked. */
let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  ({ mock, env } = await mockWithEnv());
});
afterAll(() => mock.close());

describe("the SDK user's CLI", () => {
  test("users list: GET /api/users/, every user", async () => {
    const run = await dmqIn(["users", "list"], { env });
    expect(json<{ username: string }[]>(run).map((u) => u.username)).toEqual(["admin", "bea", "carl"]);
    expect(mock.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/users/" });
    const table = await dmqIn(["users", "list", "--format", "table"], { env });
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+username\s+email\s+first_name\s+last_name\s+last_activity$/);
  });

  test("--format csv: a header and one row per record, RFC 4180 quoting, nested values as JSON", async () => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "--limit", "2", "--format", "csv"], { env });
    const [header, first, second, ...rest] = run.stdout.trimEnd().split("\r\n");
    expect(rest).toEqual([]);
    expect(header?.startsWith("id,inner_id,total_annotations,total_predictions,data,")).toBe(true);
    expect(first).toMatch(/^1,1,1,1,"\{""text"":""The manual is worth every cent."",""source"":""review"",""stars"":5\}",/);
    expect(second?.startsWith("2,2,")).toBe(true);
    const one = await dmqIn(["users", "whoami", "--format", "csv"], { env });
    expect(one.stdout.split("\r\n")[1]?.startsWith("1,")).toBe(true);
  });

  test("--format jsonl: one compact record per line", async () => {
    const run = await dmqIn(["tasks", "list", "--project", "1", "--limit", "3", "--format", "jsonl"], { env });
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1, 2, 3]);
    const dry = await dmqIn(["users", "whoami", "--dry-run", "--format", "jsonl"], { env });
    expect(JSON.parse(dry.stdout)).toMatchObject({ method: "GET", url: `${mock.url}/api/current-user/whoami` });
  });

  test("tasks list --format table shows the columns the selection filters and orders on, data keys included", async () => {
    const run = await dmqIn(
      [
        "tasks",
        "list",
        "--project",
        "1",
        "-w",
        "predictions_score > 0.9",
        "-w",
        "data.source = review",
        "--order",
        "-completed_at",
        "--limit",
        "2",
        "--format",
        "table",
      ],
      { env },
    );
    const [header, row] = run.stdout.split("\n");
    expect(header?.split(/\s+/).slice(0, 4)).toEqual(["id", "predictions_score", "data.source", "completed_at"]);
    expect(row).toMatch(/^110\s+0\.936\s+review\s+2024-03-02T07:11:00Z/);
  });

  test("--help says that page_size pages and --limit limits", async () => {
    for (const resource of ["tasks", "projects"]) {
      const help = (await dmqIn([resource, "list", "--help"])).stdout.replace(/\s+/g, " ");
      expect(help).toContain(`--limit <n> stop after n ${resource} (page_size only sets how many each request fetches)`);
      expect(help).toContain(`page_size (${resource} per request, not a limit)`);
    }
  });
});
