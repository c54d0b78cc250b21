import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { catalogue } from "../../src/cli/verify/catalogue.js";
import type { EnvironmentRow } from "../../src/cli/verify/environment.js";
import { verify, VerifyAborted, type VerifyReport } from "../../src/cli/verify/run.js";
import type { Scenario } from "../../src/cli/verify/scenario.js";
import { httpTarget, type Target } from "../../src/cli/verify/target.js";

/**
 * `dmq verify`'s engine held against mocks: a mock against a second mock agrees everywhere, a
 * deliberately altered mock is caught, the environment table explains only what it names, and no
 * project is left behind, also when the run is interrupted.
 */
const KEY = "verify-test-key-0123456789abcdef";
const seed = { users: [{ id: 1, username: "admin", email: "admin@example.com", token: KEY }] };

/** Every 7th scenario of each area (the whole catalogue runs against real servers in test:real). */
function sample(every = 7): (s: Scenario) => boolean {
  const position = new Map<string, number>();
  const keep = new Set<string>();
  for (const s of catalogue()) {
    const n = position.get(s.area) ?? 0;
    position.set(s.area, n + 1);
    if (n % every === 0) keep.add(s.id);
  }
  return (s) => keep.has(s.id);
}

const differing = (r: VerifyReport) => r.comparisons.filter((c) => c.verdict === "differ");

let plain: MockServer, other: MockServer, strict: MockServer;
beforeAll(async () => {
  [plain, other, strict] = await Promise.all([
    startMockServer({ data: seed, journalCapacity: 0 }),
    startMockServer({ data: seed, journalCapacity: 0 }),
    startMockServer({ data: seed, journalCapacity: 0, strict: true }),
  ]);
});
afterAll(() => Promise.all([plain, other, strict].map((m) => m.close())));

const target = (m: MockServer, name = "target") => httpTarget(name, m.url, KEY);

describe("dmq verify's engine", () => {
  it("finds no difference between two mocks, in every area, and deletes every project it made", async () => {
    const report = await verify({ target: target(plain), mock: target(other, "mock"), database: "postgres", select: sample() });
    expect(differing(report)).toEqual([]);
    const areas = new Set(report.comparisons.map((c) => c.area));
    expect([...areas].sort()).toEqual(
      ["actions", "child-filters", "conjunctions", "errors", "filters", "off-table", "ordering", "responses", "selections", "values", "views"].sort(),
    );
    expect(report.comparisons.length).toBeGreaterThan(300);
    expect(plain.data().projects).toEqual([]);
    expect(other.data().projects).toEqual([]);
  });

  it("catches a mock altered to refuse what the server answers (strict mode)", async () => {
    const report = await verify({
      target: target(plain),
      mock: target(strict, "mock"),
      database: "postgres",
      select: (s) => s.area === "errors" || s.area === "off-table",
    });
    const found = differing(report);
    expect(found.length).toBeGreaterThan(10);
    expect(found.some((c) => c.differences.some((d) => d.path === "status" && String(d.mock).startsWith("400")))).toBe(true);
  });

  it("catches a mock whose filtered and ordered lists drop a task", async () => {
    /** The mock, with the last task of every list answer to a query left out. */
    const dropping: Target = {
      ...target(other, "mock"),
      async send(request) {
        const a = await target(other, "mock").send(request);
        const body = a.json as { tasks?: unknown[] } | undefined;
        if (request.path === "/api/tasks/" && request.query?.["query"] && Array.isArray(body?.tasks) && body.tasks.length > 1) {
          const json = { ...body, tasks: body.tasks.slice(0, -1) };
          return { ...a, json, text: JSON.stringify(json) };
        }
        return a;
      },
    };
    const report = await verify({
      target: target(plain),
      mock: dropping,
      database: "postgres",
      select: (s) => s.id === "filters/total_annotations/Number/equal/0" || s.id === "ordering/-id",
    });
    expect(report.comparisons.filter((c) => c.area !== "responses").map((c) => [c.scenario, c.verdict])).toEqual([
      ["filters/total_annotations/Number/equal/0", "differ"],
      ["ordering/-id", "differ"],
    ]);
  });

  it("reports as environment only the differences a row of the table explains", async () => {
    const rows: EnvironmentRow[] = [
      { id: "strict-400", cause: { database: "sqlite" }, areas: ["errors"], path: /^status$/, reason: "test", server: "test" },
    ];
    const run = (database: "sqlite" | "postgres") =>
      verify({ target: target(plain), mock: target(strict, "mock"), database, rows, select: (s) => s.id.startsWith("errors/list/filters") });
    const onSqlite = await run("sqlite");
    const onPostgres = await run("postgres");
    expect(onSqlite.comparisons.some((c) => c.verdict === "environment" && c.explained[0]?.row === "strict-400")).toBe(true);
    expect(onSqlite.rows.map((r) => r.id)).toEqual(["strict-400"]);
    expect(onPostgres.comparisons.some((c) => c.verdict === "environment")).toBe(false);
    expect(differing(onPostgres).length).toBeGreaterThan(differing(onSqlite).length);
  });

  it("leaves no project behind when it is interrupted", async () => {
    const aborter = new AbortController();
    let seen = 0;
    const run = verify({
      target: target(plain),
      mock: target(other, "mock"),
      database: "postgres",
      select: (s) => s.area === "actions",
      concurrency: 2,
      signal: aborter.signal,
      progress: () => {
        if (++seen === 3) aborter.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(VerifyAborted);
    expect(plain.data().projects).toEqual([]);
    expect(other.data().projects).toEqual([]);
  });
});
