import { match } from "ts-pattern";
import { catalogue } from "./catalogue.js";
import {
  capped,
  compareError,
  compareList,
  compareRows,
  compareShape,
  KeyMap,
  normaliseRecord,
  snapshot,
  statusDifference,
  valueDifferences,
  type Difference,
} from "./compare.js";
import { explain, environmentRows, type Database, type Environment, type EnvironmentRow } from "./environment.js";
import { resolveDeep, UnresolvedRef, type Seeded } from "./refs.js";
import { areaNames, type Area, type Scenario } from "./scenario.js";
import { seedFixture, type SeedResult } from "./seed.js";
import { TargetUnreachable, type Answer, type Request, type Target } from "./target.js";

/** One comparison: one aspect of one scenario, and what became of its differences. */
export interface Comparison {
  readonly scenario: string;
  readonly area: Area;
  /** What was compared: "answer", "state", "view", a task column… */
  readonly aspect: string;
  readonly verdict: "agree" | "differ" | "environment";
  /** Unexplained differences (verdict "differ"). */
  readonly differences: readonly Difference[];
  /** Differences the environment table explains, with the row that does. */
  readonly explained: readonly { readonly difference: Difference; readonly row: string }[];
}

export interface VerifyReport {
  readonly target: { readonly url: string; readonly version: string; readonly database: Database };
  readonly mock: { readonly version: string };
  readonly comparisons: readonly Comparison[];
  /** The environment rows that explained something, by id. */
  readonly rows: readonly EnvironmentRow[];
  readonly seconds: number;
}

export interface VerifyOptions {
  readonly target: Target;
  readonly mock: Target;
  readonly database: Database;
  /** Scenarios run at once (default 4). */
  readonly concurrency?: number;
  /** Only the scenarios this keeps (default: all). */
  readonly select?: (scenario: Scenario) => boolean;
  readonly signal?: AbortSignal;
  readonly progress?: (done: number, total: number) => void;
  /** The environment table (tests pass their own). */
  readonly rows?: readonly EnvironmentRow[];
}

/** One side of the run: a target, the state it built and its projects (all deleted at the end). */
interface Side {
  readonly target: Target;
  readonly main: SeedResult;
  readonly keys: KeyMap;
  readonly projects: Set<number>;
}

const TITLE = "dmq verify";

export class VerifyAborted extends Error {
  override readonly name = "VerifyAborted";
}

/**
 * Builds the fixture on both targets, replays the catalogue on both and compares. Every project it
 * made is deleted before it returns or throws, also when `signal` aborts the run.
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const started = Date.now();
  const rows = options.rows ?? environmentRows;
  const version = await releaseOf(options.target);
  const mockVersion = await releaseOf(options.mock);
  const env: Environment = { database: options.database, version };
  const projects = { target: new Set<number>(), mock: new Set<number>() };
  const comparisons: Comparison[] = [];
  try {
    const [tm, mm] = await Promise.all([
      seedFixture(options.target, TITLE, (p) => projects.target.add(p)),
      seedFixture(options.mock, TITLE, (p) => projects.mock.add(p)),
    ]);
    const target: Side = { target: options.target, main: tm, keys: new KeyMap(tm.seeded), projects: projects.target };
    const mock: Side = { target: options.mock, main: mm, keys: new KeyMap(mm.seeded), projects: projects.mock };
    const record = (scenario: Scenario, aspect: string, diffs: Difference[]) => comparisons.push(judge(env, rows, scenario, aspect, diffs));

    for (const step of ["create-project", "import", "create-view"]) {
      const scenario: Scenario = { id: `responses/seed/${step}`, area: "responses", traits: [], probe: { kind: "values" } };
      record(scenario, "answer", compareShape(tm.answers.get(step)!, mm.answers.get(step)!));
    }

    const scenarios = catalogue().filter((s) => options.select?.(s) ?? true);
    let done = 0;
    // Area by area: a scenario that writes (a view, a project) never overlaps a read of another area.
    for (const area of areaNames) {
      const queue = scenarios.filter((s) => s.area === area);
      const worker = async () => {
        for (let s = queue.shift(); s; s = queue.shift()) {
          if (options.signal?.aborted) throw new VerifyAborted("interrupted");
          try {
            await runScenario(s, target, mock, (aspect, diffs) => record(s, aspect, diffs));
          } catch (error) {
            if (error instanceof TargetUnreachable) throw error;
            // A scenario that cannot run (a seed refused, an answer that is not JSON) is a difference of its own.
            record(s, "run", [{ path: "run", target: (error as Error).message, mock: "" }]);
          }
          options.progress?.(++done, scenarios.length);
        }
      };
      // Every worker settles before the next area (or the clean-up): none may still be making a project.
      const settled = await Promise.allSettled(Array.from({ length: options.concurrency ?? 4 }, worker));
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
    }
  } finally {
    await Promise.all([cleanup(options.target, projects.target), cleanup(options.mock, projects.mock)]);
  }
  const used = new Set(comparisons.flatMap((c) => c.explained.map((e) => e.row)));
  return {
    target: { url: options.target.baseUrl, version, database: options.database },
    mock: { version: mockVersion },
    comparisons,
    rows: rows.filter((r) => used.has(r.id)),
    seconds: (Date.now() - started) / 1000,
  };
}

async function releaseOf(target: Target): Promise<string> {
  const answer = await target.send({ method: "GET", path: "/api/version" });
  const release = (answer.json as { release?: unknown } | undefined)?.release;
  if (answer.status !== 200 || typeof release !== "string") {
    throw new Error(`${target.name} ${target.baseUrl}: GET /api/version answered ${answer.status}, not a Label Studio server's version`);
  }
  return release;
}

/** Deletes every project the run made; failures are collected and reported together. */
async function cleanup(target: Target, projects: Set<number>): Promise<void> {
  const failed: string[] = [];
  for (const id of projects) {
    try {
      const answer = await target.send({ method: "DELETE", path: `/api/projects/${id}/` });
      if (answer.status === 204 || answer.status === 404) projects.delete(id);
      else failed.push(`${id} (${answer.status})`);
    } catch (error) {
      failed.push(`${id} (${(error as Error).message})`);
    }
  }
  if (failed.length) throw new Error(`${target.name}: could not delete projects ${failed.join(", ")}: delete them by hand`);
}

function judge(env: Environment, rows: readonly EnvironmentRow[], scenario: Scenario, aspect: string, diffs: Difference[]): Comparison {
  const unexplained: Difference[] = [];
  const explained: { difference: Difference; row: string }[] = [];
  for (const d of diffs) {
    const row = explain(env, scenario, d, rows);
    if (row) explained.push({ difference: d, row: row.id });
    else unexplained.push(d);
  }
  const verdict = unexplained.length ? "differ" : explained.length ? "environment" : "agree";
  return { scenario: scenario.id, area: scenario.area, aspect, verdict, differences: capped(unexplained), explained };
}

/** `{project}`, `{user}`, `{task:t1}`, `{annotation:a1}`, `{prediction:p1}`, `{view:v1}` in a path or query value. */
export function fillTemplate(text: string, seeded: Seeded): string {
  return text.replace(/\{(project|user|task|annotation|prediction|view)(?::(\w+))?\}/g, (_, kind: string, key?: string) => {
    if (kind === "project") return String(seeded.project);
    if (kind === "user") return String(seeded.user);
    const id = seeded.ids[kind as "task"].get(key ?? "");
    if (id === undefined) throw new UnresolvedRef(`the target has no ${kind} ${key}`);
    return String(id);
  });
}

function resolveRequest(request: Request, seeded: Seeded): Request {
  const query = request.query ? Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, fillTemplate(v, seeded)])) : undefined;
  const body = request.body && "json" in request.body ? { json: resolveDeep(request.body.json, seeded) } : request.body;
  return { ...request, path: fillTemplate(request.path, seeded), ...(query ? { query } : {}), ...(body ? { body } : {}) };
}

/** Runs a request on both sides; a reference one side cannot resolve is itself a difference. */
async function both(
  target: Side,
  mock: Side,
  make: (side: Side) => Promise<Answer>,
): Promise<{ t: Answer; m: Answer } | { unresolved: Difference }> {
  const attempt = async (side: Side): Promise<Answer | string> => {
    try {
      return await make(side);
    } catch (error) {
      if (error instanceof UnresolvedRef) return error.message;
      throw error;
    }
  };
  const [t, m] = await Promise.all([attempt(target), attempt(mock)]);
  if (typeof t === "string" || typeof m === "string") {
    return { unresolved: { path: "reference", target: typeof t === "string" ? t : "resolved", mock: typeof m === "string" ? m : "resolved" } };
  }
  return { t, m };
}

const listRequest = (seeded: Seeded, query: Record<string, string>): Request => ({
  method: "GET",
  path: "/api/tasks/",
  query: { project: String(seeded.project), page_size: "1000", ...query },
});

async function createView(side: Side, project: number, data: unknown): Promise<{ answer: Answer; id: number | undefined }> {
  const answer = await side.target.send({ method: "POST", path: "/api/dm/views/", body: { json: { project, data: resolveDeep(data, side.main.seeded) } } });
  const id = (answer.json as { id?: unknown } | undefined)?.id;
  return { answer, id: typeof id === "number" ? id : undefined };
}

async function runScenario(s: Scenario, target: Side, mock: Side, record: (aspect: string, diffs: Difference[]) => void): Promise<void> {
  await match(s.probe)
    .with({ kind: "list" }, async (probe) => {
      const views = new Map<Side, number | undefined>();
      try {
        const r = await both(target, mock, async (side) => {
          const seeded = side.main.seeded;
          if (probe.view !== undefined) {
            const { answer, id } = await createView(side, seeded.project, probe.view);
            views.set(side, id);
            if (id === undefined) return answer;
            return side.target.send(listRequest(seeded, { view: String(id) }));
          }
          return side.target.send(listRequest(seeded, { query: JSON.stringify(resolveDeep(probe.query, seeded)) }));
        });
        if ("unresolved" in r) return record("answer", [r.unresolved]);
        record("answer", compareList({ target: r.t, mock: r.m, targetKeys: target.keys, mockKeys: mock.keys }, probe.orderedBy));
      } finally {
        for (const [side, id] of views) if (id !== undefined) await side.target.send({ method: "DELETE", path: `/api/dm/views/${id}/` });
      }
    })
    .with({ kind: "request" }, async (probe) => {
      const r = await both(target, mock, (side) => side.target.send(resolveRequest(probe.request, side.main.seeded)));
      if ("unresolved" in r) return record("answer", [r.unresolved]);
      record("answer", probe.compare === "error" ? compareError(r.t, r.m) : compareShape(r.t, r.m));
    })
    .with({ kind: "values" }, async () => {
      const r = await both(target, mock, (side) => side.target.send(listRequest(side.main.seeded, { fields: "all" })));
      if ("unresolved" in r) return record("answer", [r.unresolved]);
      if (r.t.status !== r.m.status) return record("answer", [statusDifference(r.t, r.m)]);
      for (const [aspect, diffs] of compareRows({ target: r.t, mock: r.m, targetKeys: target.keys, mockKeys: mock.keys })) record(aspect, diffs);
    })
    .with({ kind: "action" }, (probe) => runAction(s, probe, target, mock, record))
    .exhaustive();
}

/** An action on a fresh copy of the fixture on each side (or, read-only, on the main project): the answer, then the state. */
async function runAction(
  s: Scenario,
  probe: { readonly action: string; readonly body: Readonly<Record<string, unknown>>; readonly view?: unknown },
  target: Side,
  mock: Side,
  record: (aspect: string, diffs: Difference[]) => void,
): Promise<void> {
  const shared = s.area === "selections";
  const fresh = new Map<Side, Side>();
  try {
    if (!shared) {
      const [t, m] = await Promise.all(
        [target, mock].map(async (side) => {
          const seeded = await seedFixture(side.target, `${TITLE} ${s.area}`, (p) => side.projects.add(p), false);
          const copy: Side = { ...side, main: seeded, keys: new KeyMap(seeded.seeded) };
          fresh.set(side, copy);
          return copy;
        }),
      );
      target = t!;
      mock = m!;
    }
    const r = await both(target, mock, async (side) => {
      const seeded = side.main.seeded;
      const query: Record<string, string> = { id: probe.action, project: String(seeded.project) };
      if (probe.view !== undefined) {
        const { id } = await createView(side, seeded.project, probe.view);
        if (id !== undefined) query["view"] = String(id);
      }
      return side.target.send({ method: "POST", path: "/api/dm/actions/", query, body: { json: resolveDeep(probe.body, seeded) } });
    });
    if ("unresolved" in r) return record("answer", [r.unresolved]);
    if (r.t.status !== r.m.status) record("answer", [statusDifference(r.t, r.m)]);
    else if (r.t.status >= 400) record("answer", compareError(r.t, r.m));
    else {
      const norm = (a: Answer, keys: KeyMap) => (probe.action === "next_task" ? normaliseRecord("task", a.json, keys) : a.json);
      record("answer", valueDifferences(norm(r.t, target.keys), norm(r.m, mock.keys), "body"));
    }
    if (shared) return;
    const [tl, ml] = await Promise.all([target, mock].map((side) => side.target.send(listRequest(side.main.seeded, { fields: "all" }))));
    record("state", valueDifferences(snapshot(tl!, target.keys), snapshot(ml!, mock.keys), "state"));
  } finally {
    for (const [side, copy] of fresh) {
      const answer = await side.target.send({ method: "DELETE", path: `/api/projects/${copy.main.seeded.project}/` });
      if (answer.status === 204 || answer.status === 404) side.projects.delete(copy.main.seeded.project);
    }
  }
}

/** Counts per area: comparisons, agreeing, differing, environment. */
export function tally(comparisons: readonly Comparison[]): Map<Area, { comparisons: number; agree: number; differ: number; environment: number }> {
  const out = new Map<Area, { comparisons: number; agree: number; differ: number; environment: number }>();
  for (const area of areaNames) out.set(area, { comparisons: 0, agree: 0, differ: 0, environment: 0 });
  for (const c of comparisons) {
    const row = out.get(c.area)!;
    row.comparisons++;
    row[c.verdict]++;
  }
  return out;
}
