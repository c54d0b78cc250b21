import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mockTarget, type Target } from "../../testing/index.js";
import { catalogue } from "../../src/cli/verify/catalogue.js";
import type { EnvironmentRow } from "../../src/cli/verify/environment.js";
import { verify, VerifyAborted, type VerifyReport } from "../../src/cli/verify/run.js";
import { TargetUnreachable } from "../../src/cli/verify/target.js";
import type { Scenario } from "../../src/cli/verify/scenario.js";
import type { Clock } from "../../src/vocabulary/clock.js";

/**
 * `dmq verify`'s engine held against mocks: a mock against a second mock agrees everywhere, a
 * deliberately altered mock is caught, the environment table explains only what it names, and no
 * project is left behind, also when the run is interrupted.
 */
// A run replays a few hundred requests on two mocks: seconds alone, longer on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

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

/**
 * The mocks' clock: the time as it is, and timers that never fire. A mock's time limits run on its clock:
 * the model server's health check gets 1 s (the server's limit), and a loaded machine can stall a worker
 * longer than that on one side only, a difference verify would rightly report. These runs compare the
 * answers, not the limits (test/unit/mock-server holds those, in virtual time): on both sides none trips.
 */
const untimed: Clock = { now: () => Date.now(), setTimeout: () => undefined, clearTimeout: () => undefined };

let plain: Target, other: Target, strict: Target;
beforeAll(async () => {
  [plain, other, strict] = await Promise.all([
    mockTarget({ mock: { journalCapacity: 0, clock: untimed } }),
    mockTarget({ mock: { journalCapacity: 0, clock: untimed } }),
    mockTarget({ mock: { journalCapacity: 0, strict: true, clock: untimed } }),
  ]);
});
afterAll(() => Promise.all([plain, other, strict].map((m) => m.close())));

/** The projects left on a mock. */
const projectsOn = (t: Target) => t.mockServer!.data().projects;

describe("dmq verify's engine", () => {
  it("finds no difference between two mocks, in every area, and deletes every project it made", async () => {
    const report = await verify({ target: plain, mock: other, database: "postgres", select: sample() });
    expect(differing(report)).toEqual([]);
    const areas = new Set(report.comparisons.map((c) => c.area));
    expect([...areas].sort()).toEqual(
      [
        "accounts",
        "actions",
        "child-filters",
        "conjunctions",
        "errors",
        "filters",
        "ml",
        "off-table",
        "ordering",
        "responses",
        "routes",
        "selections",
        "values",
        "views",
      ].sort(),
    );
    expect(report.comparisons.length).toBeGreaterThan(300);
    expect(projectsOn(plain)).toEqual([]);
    expect(projectsOn(other)).toEqual([]);
  });

  it("runs every routes, ml and accounts scenario whole between two mocks: each step's captures resolve, nothing differs", async () => {
    const report = await verify({
      target: plain,
      mock: other,
      database: "postgres",
      select: (s) => ["routes", "ml", "accounts"].includes(s.area),
    });
    expect(differing(report)).toEqual([]);
    expect(report.comparisons.filter((c) => c.aspect === "run" || c.differences.some((d) => d.path === "reference"))).toEqual([]);
    // The writes were compared step by step (the ML backend registered with the run's model server, then deleted).
    expect(report.comparisons.filter((c) => c.scenario === "ml/writes").map((c) => c.aspect)).toContain("predict test");
    expect(projectsOn(plain)).toEqual([]);
  });

  it("catches a mock altered to refuse what the server answers (strict mode)", async () => {
    const report = await verify({
      target: plain,
      mock: strict,
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
      ...other,
      async fetch(path, init) {
        const answer = await other.fetch(path, init);
        if (!path.startsWith("/api/tasks/?") || !path.includes("query=")) return answer;
        const body = (await answer.json()) as { tasks?: unknown[] };
        const json = { ...body, tasks: (body.tasks ?? []).slice(0, -1) };
        return new Response(JSON.stringify(json), { status: answer.status, headers: answer.headers });
      },
    };
    const report = await verify({
      target: plain,
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
      verify({ target: plain, mock: strict, database, rows, select: (s) => s.id.startsWith("errors/list/filters") });
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
      target: plain,
      mock: other,
      database: "postgres",
      select: (s) => s.area === "actions",
      concurrency: 2,
      signal: aborter.signal,
      progress: () => {
        if (++seen === 3) aborter.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(VerifyAborted);
    expect(projectsOn(plain)).toEqual([]);
    expect(projectsOn(other)).toEqual([]);
  });

  it("stops at a side that stops answering, also where the scenarios wait on an area's key", async () => {
    // From the accounts area's first write on, the mock refuses every connection.
    let refusing = false;
    let triedAfter = 0;
    const refused = () => Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    const dropping: Target = {
      ...other,
      async fetch(path, init) {
        if (refusing) {
          triedAfter++;
          throw refused();
        }
        if (init?.method === "POST" && path.startsWith("/api/users/")) {
          refusing = true;
          throw refused();
        }
        return other.fetch(path, init);
      },
    };
    const run = verify({ target: plain, mock: dropping, database: "postgres", select: (s) => s.area === "accounts" });
    await expect(run).rejects.toBeInstanceOf(TargetUnreachable);
    // Four workers had taken a scenario each; the three waiting on the key never sent theirs.
    expect(triedAfter).toBe(0);
  });
});
