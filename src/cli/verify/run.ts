import { match } from "ts-pattern";
import { catalogue } from "./catalogue.js";
import {
  capped,
  compareError,
  compareList,
  compareRows,
  compareShape,
  compareValues,
  KeyMap,
  masked,
  normaliseRecord,
  snapshot,
  statusDifference,
  valueDifferences,
  type Difference,
} from "./compare.js";
import { explain, environmentRows, type Database, type Environment, type EnvironmentRow } from "./environment.js";
import { fillRunTemplates, resolveDeep, UnresolvedRef, type Seeded } from "./refs.js";
import { areaNames, type Area, type Compare, type Loosening, type Scenario, type Step } from "./scenario.js";
import type { Target as KitTarget } from "../../../testing/index.js";
import { buildFixture, type Built } from "./seed.js";
import { startMLBackend } from "./model-server.js";
import { send, TargetUnreachable, type Answer, type Request } from "./target.js";

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
  /** The server, as a target of the testing kit (it seeds and cleans up). */
  readonly target: KitTarget;
  /** The mock, likewise (`mockTarget()`, or a mock reached by URL). */
  readonly mock: KitTarget;
  readonly database: Database;
  /** Scenarios run at once (default 4). */
  readonly concurrency?: number;
  /** Only the scenarios this keeps (default: all). */
  readonly select?: (scenario: Scenario) => boolean;
  readonly signal?: AbortSignal;
  readonly progress?: (done: number, total: number) => void;
  /** The environment table (tests pass their own). */
  readonly rows?: readonly EnvironmentRow[];
  /** Time limit of each request, in milliseconds (default 60 s). */
  readonly timeoutMs?: number;
}

/** One side of the run: a target, the fixture it built, and the projects made outside the kit (deleted at the end too). */
interface Side {
  readonly target: KitTarget;
  readonly main: Built;
  readonly keys: KeyMap;
  readonly projects: Set<number>;
  readonly send: (request: Request) => Promise<Answer>;
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
  const timeoutMs = options.timeoutMs ?? 60_000;
  const version = options.target.version ?? "unknown";
  const env: Environment = { database: options.database, version };
  const comparisons: Comparison[] = [];
  const made = { target: new Set<number>(), mock: new Set<number>() };
  // The run's own failure, thrown after the clean-up; a failed clean-up (data left behind) is thrown first.
  let runFailure: { readonly error: unknown } | undefined;
  const scenarios = catalogue().filter((s) => options.select?.(s) ?? true);
  // The ML backend scenarios register a model server of the run's own with both (the server reaches it on loopback).
  const modelServer = scenarios.some((s) => JSON.stringify(s.probe).includes('"modelServer"')) ? await startMLBackend() : undefined;
  const context: Record<string, string> = {
    nonce: `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`,
    ...(modelServer ? { modelServer: modelServer.url } : {}),
  };
  try {
    const [tm, mm] = await Promise.all([buildFixture(options.target, TITLE), buildFixture(options.mock, TITLE)]);
    const side = (target: KitTarget, main: Built, projects: Set<number>): Side => ({
      target,
      main: { ...main, seeded: { ...main.seeded, context } },
      keys: new KeyMap(main.seeded),
      projects,
      send: projectDeletesAlone((request) => send(target, request, timeoutMs)),
    });
    const target = side(options.target, tm, made.target);
    const mock = side(options.mock, mm, made.mock);
    const record = (scenario: Scenario, aspect: string, diffs: Difference[]) => comparisons.push(judge(env, rows, scenario, aspect, diffs));

    // One chain per `serial` key: a scenario with a key waits for the previous one with the same key.
    const serials = new Map<string, Promise<unknown>>();
    // A target that stopped answering ends the run: scenarios already waiting on a key do not try it again.
    let unreachable: TargetUnreachable | undefined;
    let done = 0;
    // Area by area: a scenario that writes (a view, a project) never overlaps a read of another area.
    for (const area of areaNames) {
      const queue = scenarios.filter((s) => s.area === area);
      const worker = async () => {
        for (let s = queue.shift(); s; s = queue.shift()) {
          if (options.signal?.aborted) throw new VerifyAborted("interrupted");
          if (unreachable) throw unreachable;
          try {
            await oneAtATimeBy(serials, s.serial, () => {
              // Checked again once the key is this scenario's: it may have waited long.
              if (options.signal?.aborted) throw new VerifyAborted("interrupted");
              if (unreachable) throw unreachable;
              // Kept before the next link of the key starts (this worker's catch below runs later).
              return runScenario(s, target, mock, (aspect, diffs) => record(s, aspect, diffs)).catch((error: unknown) => {
                if (error instanceof TargetUnreachable) unreachable = error;
                throw error;
              });
            });
          } catch (error) {
            if (error instanceof VerifyAborted) throw error;
            if (error instanceof TargetUnreachable) throw error;
            // A scenario that cannot run (a seed refused, an answer that is not JSON) is a difference of its own.
            record(s, "run", [{ path: "run", target: (error as Error).message, mock: "" }]);
          }
          options.progress?.(++done, scenarios.length);
        }
      };
      // Every worker settles before the next area (or the clean-up): none may still be making a project.
      const settled = await Promise.allSettled(Array.from({ length: workersFor(options, queue) }, worker));
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
    }
  } catch (error) {
    runFailure = { error };
  }
  await modelServer?.close();
  const results = await Promise.allSettled([cleanup(options.target, made.target, timeoutMs), cleanup(options.mock, made.mock, timeoutMs)]);
  const cleanupFailed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (cleanupFailed) throw cleanupFailed.reason;
  if (runFailure) throw runFailure.error;
  const used = new Set(comparisons.flatMap((c) => c.explained.map((e) => e.row)));
  return {
    target: { url: options.target.url, version, database: options.database },
    mock: { version: options.mock.version ?? "unknown" },
    comparisons,
    rows: rows.filter((r) => used.has(r.id)),
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * Workers for one area: `concurrency` (default 4), but one on SQLite where the area writes. There the
 * bulk import numbers its rows itself (`latest('id') + 1` in TaskSerializerBulk.add_tasks and
 * add_annotations, label_studio/tasks/serializers.py), so an import running next to another write
 * loses rows: a freshly imported copy then lacks its annotations and predictions.
 */
export function workersFor(options: Pick<VerifyOptions, "concurrency" | "database">, scenarios: readonly Scenario[]): number {
  const writes = scenarios.some((s) => s.probe.kind === "action" || s.probe.kind === "writes");
  return options.database === "sqlite" && writes ? 1 : (options.concurrency ?? 4);
}

/**
 * Runs `run` after every earlier run with the same `key` has settled (at once without a key). `chains`
 * holds each key's last run.
 */
export async function oneAtATimeBy<T>(chains: Map<string, Promise<unknown>>, key: string | undefined, run: () => Promise<T>): Promise<T> {
  if (key === undefined) return run();
  // A chain never rejects (each link is kept with its failure caught), so `run` follows any outcome.
  const mine = (chains.get(key) ?? Promise.resolve()).then(run);
  chains.set(
    key,
    mine.catch(() => undefined),
  );
  return mine;
}

const PROJECT_DELETE = /^\/api\/projects\/\d+\/?$/;

/**
 * A send whose project deletes run alone: each waits for the requests in flight and for the delete before it, and
 * holds every request sent meanwhile until it has its answer. ProjectAPI.perform_destroy deletes inside
 * `temporary_disconnect_all_signals`, which empties the model signal receivers of the whole server process while it
 * runs: a request served meanwhile skips them (a task write then skips `update_project_summary_data_columns`, so data
 * that is no object is stored with a 200 instead of the 500 that receiver raises), and two deletes at once leave the
 * receivers empty for good (the second restores the list the first emptied; stale task counters from then on).
 */
export function projectDeletesAlone(send: (request: Request) => Promise<Answer>): (request: Request) => Promise<Answer> {
  let inFlight = 0;
  let drained: (() => void)[] = [];
  let deletes = 0;
  // Settles when the last delete queued so far has its answer (never rejects).
  let lastDelete: Promise<void> = Promise.resolve();
  return async (request) => {
    if (request.method === "DELETE" && PROJECT_DELETE.test(request.path)) {
      deletes++;
      const before = lastDelete;
      let done!: () => void;
      lastDelete = new Promise<void>((resolve) => (done = resolve));
      try {
        await before;
        while (inFlight > 0) await new Promise<void>((resolve) => drained.push(resolve));
        return await send(request);
      } finally {
        deletes--;
        done();
      }
    }
    while (deletes > 0) await lastDelete;
    inFlight++;
    try {
      return await send(request);
    } finally {
      if (--inFlight === 0) {
        const waiting = drained;
        drained = [];
        for (const resolve of waiting) resolve();
      }
    }
  };
}

/** Deletes every project the run made: the kit's (by id and title), then those a write scenario made itself. */
async function cleanup(target: KitTarget, made: Set<number>, timeoutMs: number): Promise<void> {
  const failed: string[] = [];
  try {
    await target.cleanup();
  } catch (error) {
    failed.push((error as Error).message);
  }
  for (const id of made) {
    try {
      const answer = await send(target, { method: "DELETE", path: `/api/projects/${id}/` }, timeoutMs);
      if (answer.status === 204 || answer.status === 404) made.delete(id);
      else failed.push(`project ${id}: ${answer.status}`);
    } catch (error) {
      failed.push(`project ${id}: ${(error as Error).message}`);
    }
  }
  if (failed.length)
    throw new Error(`${target.url}: could not delete everything dmq verify made (${failed.join("; ")}): delete it by hand`);
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
  return fillRunTemplates(text, seeded).replace(
    /\{(project|user|task|annotation|prediction|view)(?::(\w+))?\}/g,
    (_, kind: string, key?: string) => {
      if (kind === "project") return String(seeded.project);
      if (kind === "user") return String(seeded.user);
      const id = seeded.ids[kind as "task"].get(key ?? "");
      if (id === undefined) throw new UnresolvedRef(`the target has no ${kind} ${key}`);
      return String(id);
    },
  );
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
    return {
      unresolved: { path: "reference", target: typeof t === "string" ? t : "resolved", mock: typeof m === "string" ? m : "resolved" },
    };
  }
  return { t, m };
}

const listRequest = (seeded: Seeded, query: Record<string, string>): Request => ({
  method: "GET",
  path: "/api/tasks/",
  query: { project: String(seeded.project), page_size: "1000", ...query },
});

async function createView(side: Side, project: number, data: unknown): Promise<{ answer: Answer; id: number | undefined }> {
  const answer = await side.send({
    method: "POST",
    path: "/api/dm/views/",
    body: { json: { project, data: resolveDeep(data, side.main.seeded) } },
  });
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
            return side.send(listRequest(seeded, { view: String(id) }));
          }
          return side.send(listRequest(seeded, { query: JSON.stringify(resolveDeep(probe.query, seeded)) }));
        });
        if ("unresolved" in r) return record("answer", [r.unresolved]);
        record("answer", compareList({ target: r.t, mock: r.m, targetKeys: target.keys, mockKeys: mock.keys }, probe.orderedBy));
      } finally {
        for (const [side, id] of views) if (id !== undefined) await side.send({ method: "DELETE", path: `/api/dm/views/${id}/` });
      }
    })
    .with({ kind: "request" }, async (probe) => {
      const r = await both(target, mock, (side) => side.send(resolveRequest(probe.request, side.main.seeded)));
      if ("unresolved" in r) return record("answer", [r.unresolved]);
      record("answer", compareBy(probe.compare, r.t, r.m, target.keys, mock.keys, probe));
    })
    .with({ kind: "values" }, async () => {
      const r = await both(target, mock, (side) => side.send(listRequest(side.main.seeded, { fields: "all" })));
      if ("unresolved" in r) return record("answer", [r.unresolved]);
      if (r.t.status !== r.m.status) return record("answer", [statusDifference(r.t, r.m)]);
      for (const [aspect, diffs] of compareRows({ target: r.t, mock: r.m, targetKeys: target.keys, mockKeys: mock.keys }))
        record(aspect, diffs);
    })
    .with({ kind: "action" }, (probe) => runAction(s, probe, target, mock, record))
    .with({ kind: "writes" }, (probe) => runWrites(s, probe, target, mock, record))
    .exhaustive();
}

/**
 * A fresh copy of the fixture on each side, for a scenario that changes it. It is deleted with the
 * rest at the end of the run, one project at a time: a server deleting two projects at once loses
 * its model signals for good (`temporary_disconnect_all_signals` is not thread-safe), and then keeps
 * stale task counters for every later request.
 */
async function withFreshCopies(
  s: Scenario,
  target: Side,
  mock: Side,
  views: boolean,
  body: (target: Side, mock: Side) => Promise<void>,
): Promise<void> {
  const [t, m] = await Promise.all(
    [target, mock].map(async (side) => {
      const built = await buildFixture(side.target, `${TITLE} ${s.area}`, views);
      const seeded = { ...built.seeded, context: side.main.seeded.context ?? {} };
      return { ...side, main: { ...built, seeded }, keys: new KeyMap(seeded) } satisfies Side;
    }),
  );
  await body(t!, m!);
}

/** An action on a fresh copy of the fixture on each side (or, read-only, on the main project): the answer, then the state. */
async function runAction(
  s: Scenario,
  probe: { readonly action: string; readonly body: Readonly<Record<string, unknown>>; readonly view?: unknown },
  target: Side,
  mock: Side,
  record: (aspect: string, diffs: Difference[]) => void,
): Promise<void> {
  const run = async (target: Side, mock: Side, state: boolean) => {
    const r = await both(target, mock, async (side) => {
      const seeded = side.main.seeded;
      const query: Record<string, string> = { id: probe.action, project: String(seeded.project) };
      if (probe.view !== undefined) {
        const { id } = await createView(side, seeded.project, probe.view);
        if (id !== undefined) query["view"] = String(id);
      }
      return side.send({ method: "POST", path: "/api/dm/actions/", query, body: { json: resolveDeep(probe.body, seeded) } });
    });
    if ("unresolved" in r) return record("answer", [r.unresolved]);
    if (r.t.status !== r.m.status) record("answer", [statusDifference(r.t, r.m)]);
    else if (r.t.status >= 400) record("answer", compareError(r.t, r.m));
    else {
      const norm = (a: Answer, keys: KeyMap) => (probe.action === "next_task" ? normaliseRecord("task", a.json, keys) : a.json);
      record("answer", valueDifferences(norm(r.t, target.keys), norm(r.m, mock.keys), "body"));
    }
    if (!state) return;
    const [tl, ml] = await Promise.all([target, mock].map((side) => side.send(listRequest(side.main.seeded, { fields: "all" }))));
    record("state", valueDifferences(snapshot(tl!, target.keys), snapshot(ml!, mock.keys), "state"));
  };
  // Selections run a read-only action on the shared project; every other action gets copies of its own.
  if (s.area === "selections") return run(target, mock, false);
  return withFreshCopies(s, target, mock, false, (t, m) => run(t, m, true));
}

/**
 * Writes in order (on copies of the fixture, or beside the main project): each answer compared as the
 * step says. A step may capture what it made (`{made:<name>}` in later steps); a project a step made
 * is the run's to delete.
 */
async function runWrites(
  s: Scenario,
  probe: { readonly steps: readonly Step[]; readonly fixture?: "copy" | "main" },
  target: Side,
  mock: Side,
  record: (aspect: string, diffs: Difference[]) => void,
): Promise<void> {
  const steps = async (t: Side, m: Side) => {
    const made = new Map<Side, Map<string, unknown>>([
      [t, new Map()],
      [m, new Map()],
    ]);
    const seededOf = (side: Side): Seeded => ({ ...side.main.seeded, made: made.get(side)! });
    for (const step of probe.steps) {
      const r = await both(t, m, async (side) => {
        const answer = await side.send(resolveRequest(step.request, seededOf(side)));
        const json = answer.json as Record<string, unknown> | undefined;
        const id = json?.["id"];
        if (step.request.method === "POST" && step.request.path === "/api/projects/" && answer.status === 201 && typeof id === "number") {
          side.projects.add(id);
        }
        const kept = step.capture ? json?.[step.capture.field ?? "id"] : undefined;
        if (step.capture && kept !== undefined) made.get(side)!.set(step.capture.name, kept);
        return answer;
      });
      record(step.name, "unresolved" in r ? [r.unresolved] : compareBy(step.compare ?? "shape", r.t, r.m, t.keys, m.keys, step));
    }
    return { t, m };
  };
  if (probe.fixture === "main") {
    await steps(target, mock);
    return;
  }
  await withFreshCopies(s, target, mock, true, async (t, m) => {
    await steps(t, m);
    // What the writes left: counters, flags and records, as after an action.
    const [tl, ml] = await Promise.all([t, m].map((side) => side.send(listRequest(side.main.seeded, { fields: "all" }))));
    record("state", valueDifferences(snapshot(tl!, t.keys), snapshot(ml!, m.keys), "state"));
  });
}

/** Two answers compared the way a scenario asks. */
function compareBy(how: Compare, target: Answer, mock: Answer, tk: KeyMap, mk: KeyMap, loosening: Loosening = {}): Difference[] {
  const t = masked(target, loosening.mask),
    m = masked(mock, loosening.mask);
  return match(how)
    .with("error", () => compareError(t, m))
    .with("shape", () => compareShape(t, m))
    .with("values", () => compareValues(t, m, tk, mk, loosening.unordered))
    .exhaustive();
}

/** Counts per area: comparisons, agreeing, differing, environment. */
export function tally(
  comparisons: readonly Comparison[],
): Map<Area, { comparisons: number; agree: number; differ: number; environment: number }> {
  const out = new Map<Area, { comparisons: number; agree: number; differ: number; environment: number }>();
  for (const area of areaNames) out.set(area, { comparisons: 0, agree: 0, differ: 0, environment: 0 });
  for (const c of comparisons) {
    const row = out.get(c.area)!;
    row.comparisons++;
    row[c.verdict]++;
  }
  return out;
}
