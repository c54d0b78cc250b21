/**
 * Client operations for the model-based test. Each command acts over HTTP through the client,
 * predicts the answer from the model (through the oracle for anything a query selects), updates
 * the model by the spec's rules (docs/reference/actions-endpoint.md#community-actions,
 * docs/reference/README.md), then checks the observable
 * state (verifyState).
 */
import fc from "fast-check";
import { expect } from "vitest";
import { ApiError, type Client } from "../../../src/client/index.js";
import { selection } from "../../../src/selection.js";
import type { QueryNode } from "../../../src/query/nodes.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import { actionIds, actions, type ActionId } from "../../../src/vocabulary/actions.js";
import { specSnippet } from "../format.js";
import { dataValueArb } from "../generators/datasets.js";
import * as pools from "../generators/pools.js";
import { buildActionSelection, buildQuery, buildSelection, querySpecArb, type QuerySpec } from "../generators/queries.js";
import { certainIds, isDefinite, judge, oracle, type Answer, type Outcome } from "../oracle/index.js";
import type { Real } from "./fixture.js";
import { counts, datasetOf, listAll, PROJECT, resync, verifyState, type Model } from "./model.js";

type Cmd = fc.AsyncCommand<Model, Real>;

/** How often each command ran (printed with CONFORMANCE_STATS=1, to see what a run covers). */
export const executed = new Map<string, number>();
const count = (name: string) => executed.set(name, (executed.get(name) ?? 0) + 1);

const pickTask = (m: Model, n: number) => m.tasks[n % m.tasks.length]!.id;

async function answerOf<T>(call: () => Promise<T>): Promise<{ ok: T } | { status: number; detail: string }> {
  try {
    return { ok: await call() };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.statusCode, detail: JSON.stringify(error.body) };
    throw error;
  }
}

function expectJudged(outcome: Outcome, answer: Answer, what: string): void {
  const problems = judge(outcome, answer);
  expect(problems, `${what}${outcome.result?.notes.length ? ` (oracle notes: ${outcome.result.notes.join("; ")})` : ""}`).toEqual([]);
}

const taskDataArb: fc.Arbitrary<Record<string, JsonValue>> = fc.dictionary(fc.constantFrom(...pools.dataKeys), dataValueArb, {
  maxKeys: 4,
});

class CreateTask implements Cmd {
  constructor(readonly data: Record<string, JsonValue>) {}
  check = (m: Readonly<Model>) => m.tasks.length < 20;
  async run(m: Model, r: Real) {
    count("CreateTask");
    const task = await r.client.tasks.create({ project: PROJECT, data: this.data });
    expect(
      m.tasks.some((t) => t.id === task.id),
      `a new id (${task.id})`,
    ).toBe(false);
    expect(task.data).toEqual(this.data);
    m.tasks.push({
      id: task.id,
      project: PROJECT,
      data: this.data,
      meta: {},
      created_at: task.created_at,
      updated_at: task.updated_at,
      updated_by: null,
      file_upload: null,
      storage_filename: null,
      overlap: 1,
      unresolved_comment_count: 0,
    });
    await verifyState(m, r);
  }
  toString = () => `CreateTask(${JSON.stringify(this.data)})`;
}

class ImportTasks implements Cmd {
  constructor(readonly data: readonly Record<string, JsonValue>[]) {}
  check = (m: Readonly<Model>) => m.tasks.length < 20;
  async run(m: Model, r: Real) {
    count("ImportTasks");
    const before = new Set(m.tasks.map((t) => t.id));
    const result = await r.client.project(PROJECT).importTasks(
      this.data.map((data) => ({ data })),
      { return_task_ids: true },
    );
    expect(result.task_count, "task_count").toBe(this.data.length);
    const page = await listAll(r, PROJECT);
    const added = page.tasks.filter((t) => !before.has(t.id)).sort((a, b) => a.id - b.id);
    expect(added.length, "tasks added by the import").toBe(this.data.length);
    if (result.task_ids) expect([...result.task_ids].sort((a, b) => a - b)).toEqual(added.map((t) => t.id));
    added.forEach((t, i) => {
      expect(t.data, `data of imported task ${t.id}`).toEqual(this.data[i]);
      m.tasks.push({
        id: t.id,
        project: PROJECT,
        data: this.data[i]!,
        meta: {},
        created_at: t.created_at,
        updated_at: t.updated_at,
        updated_by: null,
        file_upload: null,
        storage_filename: null,
        overlap: 1,
        unresolved_comment_count: 0,
      });
    });
    await verifyState(m, r);
  }
  toString = () => `ImportTasks(${JSON.stringify(this.data)})`;
}

class Annotate implements Cmd {
  constructor(
    readonly task: number,
    readonly user: number,
    readonly cancelled: boolean,
    readonly result: readonly JsonValue[],
    readonly leadTime: number,
  ) {}
  check = (m: Readonly<Model>) => m.tasks.length > 0;
  async run(m: Model, r: Real) {
    count(`Annotate${this.cancelled ? " (cancelled)" : ""}`);
    const task = pickTask(m, this.task);
    const client = r.clients.get(this.user) as Client;
    const a = await client.annotations.create(task, { result: this.result, was_cancelled: this.cancelled, lead_time: this.leadTime });
    expect(a.task, "annotation task").toBe(task);
    expect(
      typeof a.completed_by === "object" && a.completed_by !== null ? (a.completed_by as { id: number }).id : a.completed_by,
      "the caller completes the annotation",
    ).toBe(this.user);
    m.annotations.push({
      id: a.id,
      task,
      project: PROJECT,
      result: this.result,
      completed_by: this.user,
      was_cancelled: this.cancelled,
      ground_truth: false,
      lead_time: this.leadTime,
      created_at: a.created_at,
      updated_at: a.updated_at,
      parent_prediction: null,
    });
    await verifyState(m, r);
  }
  toString = () => `Annotate(task#${this.task}, user ${this.user}, cancelled=${this.cancelled}, ${JSON.stringify(this.result)})`;
}

class Predict implements Cmd {
  constructor(
    readonly task: number,
    readonly score: number,
    readonly modelVersion: string,
    readonly result: readonly JsonValue[],
  ) {}
  check = (m: Readonly<Model>) => m.tasks.length > 0;
  async run(m: Model, r: Real) {
    count("Predict");
    const task = pickTask(m, this.task);
    const p = await r.client.predictions.create({ task, result: this.result, score: this.score, model_version: this.modelVersion });
    expect(p.task).toBe(task);
    m.predictions.push({
      id: p.id,
      task,
      project: PROJECT,
      result: this.result,
      score: this.score,
      model_version: this.modelVersion,
      created_at: p.created_at,
    });
    await verifyState(m, r);
  }
  toString = () => `Predict(task#${this.task}, ${this.score}, ${this.modelVersion})`;
}

class CreateView implements Cmd {
  constructor(readonly spec: QuerySpec) {}
  check = () => true;
  async run(m: Model, r: Real) {
    count("CreateView");
    const sel = buildSelection(this.spec, PROJECT);
    const data = { title: "conformance", ...(this.spec.columnsDisplayType ? { columnsDisplayType: this.spec.columnsDisplayType } : {}) };
    const view = await r.client.views.create({ project: PROJECT, data, query: sel });
    // The view's stored selection applies when listing it and acting on it
    // (docs/reference/selection.md#when-it-applies).
    m.views.push({ id: view.id, query: buildQuery(this.spec) });
    await verifyState(m, r);
  }
  toString = () => `CreateView(\n${specSnippet(this.spec)})`;
}

async function listAnswer(
  r: Real,
  params: { view?: number; query?: unknown },
): Promise<{ answer: Answer; totals?: { total: number; total_annotations: number; total_predictions: number; rows: readonly number[] } }> {
  const got = await answerOf(() => listAll(r, PROJECT, params));
  if ("ok" in got) {
    // The list may show a task on several rows (docs/reference/filters.md#repeated-rows, tested in
    // test/e2e/verified-fixes.test.ts): the oracle judges which tasks and in what order; the totals count rows.
    const rows = got.ok.tasks.map((t) => t.id);
    return { answer: { status: 200, ids: [...new Set(rows)] }, totals: { ...got.ok, rows } };
  }
  return { answer: { status: got.status, detail: got.detail } };
}

function checkTotals(
  m: Model,
  answer: Answer,
  totals: { total: number; total_annotations: number; total_predictions: number; rows: readonly number[] } | undefined,
): void {
  if (!totals || answer.status !== 200 || !("ids" in answer)) return;
  const sum = (k: "total_annotations" | "total_predictions") => totals.rows.reduce((s, id) => s + counts(m, id)[k], 0);
  expect(
    { total: totals.total, total_annotations: totals.total_annotations, total_predictions: totals.total_predictions },
    "page totals over the listed tasks",
  ).toEqual({
    total: totals.rows.length,
    total_annotations: sum("total_annotations"),
    total_predictions: sum("total_predictions"),
  });
}

class List implements Cmd {
  constructor(readonly spec: QuerySpec) {}
  check = () => true;
  async run(m: Model, r: Real) {
    count("List");
    const query = buildQuery(this.spec);
    const { answer, totals } = await listAnswer(r, {
      query: {
        ...buildSelection(this.spec).toJSON(),
        ...(query.columnsDisplayType ? { columnsDisplayType: query.columnsDisplayType } : {}),
      },
    });
    expectJudged(oracle(datasetOf(m), query), answer, "listed tasks");
    checkTotals(m, answer, totals);
    await verifyState(m, r);
  }
  toString = () => `List(\n${specSnippet(this.spec)})`;
}

class ListView implements Cmd {
  constructor(readonly view: number) {}
  check = (m: Readonly<Model>) => m.views.length > 0;
  async run(m: Model, r: Real) {
    count("ListView");
    const view = m.views[this.view % m.views.length]!;
    const { answer, totals } = await listAnswer(r, { view: view.id });
    expectJudged(oracle(datasetOf(m), view.query), answer, `tasks of view ${view.id}`);
    checkTotals(m, answer, totals);
    await verifyState(m, r);
  }
  toString = () => `ListView(view#${this.view})`;
}

/** Where an action's selection comes from: a builder chain in the body, or a saved view. */
export type Source = { readonly spec: QuerySpec } | { readonly view: number };

function sourceQuery(m: Readonly<Model>, source: Source): { query: QueryNode; view?: number } | undefined {
  if ("spec" in source) return { query: buildQuery(source.spec) };
  if (m.views.length === 0) return undefined;
  const view = m.views[source.view % m.views.length]!;
  return { query: view.query, view: view.id };
}

/**
 * Actions that keep the query's ordering; the server drops it for the others
 * (docs/reference/actions-endpoint.md#performing-an-action).
 */
const keepsOrdering = new Set<ActionId>(["next_task", "remove_duplicates"]);

/**
 * The selection is predictable: one definite set, or one certain error. The others drop the
 * ordering behind a feature flag whose default is not known: an ordering that decides between
 * an error and a result makes the selection unpredictable.
 */
function predictable(m: Readonly<Model>, source: Source, action: ActionId): Outcome | undefined {
  const s = sourceQuery(m, source);
  if (!s) return undefined;
  const dataset = datasetOf(m as Model);
  const { ordering: _, ...unordered } = s.query;
  const outcome = oracle(dataset, keepsOrdering.has(action) ? s.query : unordered);
  if (!keepsOrdering.has(action) && (oracle(dataset, s.query).result === null) !== (outcome.result === null)) return undefined;
  if (outcome.result === null) return outcome;
  return outcome.errors.length === 0 && isDefinite(outcome.result) ? outcome : undefined;
}

class Act implements Cmd {
  constructor(
    readonly action: ActionId,
    readonly source: Source,
    readonly n: number,
    readonly withParam: boolean,
  ) {}
  check = (m: Readonly<Model>) => predictable(m, this.source, this.action) !== undefined;

  params(m: Model): Record<string, JsonValue> {
    const users = [1, 2, 3, 4, "2"];
    switch (this.action) {
      case "delete_tasks_annotations":
        return this.withParam ? { annotator: users[this.n % users.length] as JsonValue } : {};
      case "predictions_to_annotations":
        return this.withParam ? { model_version: this.n % 3 === 0 ? ["v1", "v2"] : (["v1", "v2", "model-10"][this.n % 3] as string) } : {};
      case "propagate_annotations": {
        const a = m.annotations[this.n % Math.max(1, m.annotations.length)];
        return { source_annotation_id: a && this.withParam ? a.id : 999_999 };
      }
      case "rename_labels":
        return { control_tag: "label", old_label_name: "Positive", new_label_name: "Good" };
      case "cache_labels":
        return { control_tag: "ALL", with_counters: this.withParam ? "Yes" : "No", source: this.n % 2 ? "Annotations" : "Predictions" };
      case "add_data_field":
        return { column_name: "added", value_type: "String", value: "x" };
      case "next_task":
        return this.withParam && m.tasks.length ? { currentTaskId: pickTask(m, this.n) } : {};
      default:
        return {};
    }
  }

  async run(m: Model, r: Real) {
    const outcome = predictable(m, this.source, this.action) as Outcome;
    count(`Act ${this.action}${outcome.result ? ` (${certainIds(outcome.result).length ? "some" : "no"} tasks)` : " (refused)"}`);
    const s = sourceQuery(m, this.source)!;
    const handle = r.client.project(PROJECT);
    const sel: { run(a: unknown, p?: unknown): Promise<unknown> } =
      s.view !== undefined
        ? (selection(handle).fromView(s.view) as never)
        : (buildActionSelection((this.source as { spec: QuerySpec }).spec, handle) as never);
    const params = this.params(m);
    const got = await answerOf(() => sel.run(this.action, params) as Promise<Record<string, unknown>>);
    if (outcome.result === null) {
      expect("status" in got ? got.status : 200, `the selection is refused: ${outcome.errors.map((e) => e.reason).join("; ")}`).toBeOneOf(
        outcome.errors.map((e) => e.status),
      );
      await verifyState(m, r);
      return;
    }
    const selected = new Set(certainIds(outcome.result));
    await this.effect(m, r, selected, got, params);
    await verifyState(m, r);
  }

  async effect(
    m: Model,
    r: Real,
    selected: Set<number>,
    got: { ok: Record<string, unknown> } | { status: number; detail: string },
    params: Record<string, JsonValue>,
  ) {
    const body = "ok" in got ? got.ok : undefined;
    const failed = "status" in got ? `status ${got.status}: ${got.detail}` : "";
    const n = selected.size;
    switch (this.action) {
      case "retrieve_tasks_predictions":
        expect(body, failed).toEqual({ processed_items: n, detail: `Retrieved ${n} predictions` });
        return;
      case "delete_tasks": {
        m.tasks = m.tasks.filter((t) => !selected.has(t.id));
        m.annotations = m.annotations.filter((a) => !selected.has(a.task));
        m.predictions = m.predictions.filter((p) => !selected.has(p.task));
        const reload = m.tasks.length === 0;
        if (reload) m.views = [];
        expect(body, failed).toEqual({ processed_items: n, reload, detail: `Deleted ${n} tasks` });
        return;
      }
      case "delete_tasks_annotations": {
        const who = params.annotator === undefined ? undefined : Number(params.annotator);
        const gone = m.annotations.filter((a) => selected.has(a.task) && (who === undefined || a.completed_by === who));
        m.annotations = m.annotations.filter((a) => !gone.includes(a));
        expect(body, failed).toEqual({ processed_items: gone.length, detail: `Deleted ${gone.length} annotations` });
        return;
      }
      case "delete_tasks_predictions": {
        const gone = m.predictions.filter((p) => selected.has(p.task));
        m.predictions = m.predictions.filter((p) => !selected.has(p.task));
        expect(body, failed).toEqual({ processed_items: gone.length, detail: `Deleted ${gone.length} predictions` });
        return;
      }
      case "predictions_to_annotations": {
        const version = params.model_version;
        const versions = version === undefined ? undefined : Array.isArray(version) ? version : [version];
        const converted = new Set(m.annotations.map((a) => a.parent_prediction).filter((p) => p !== null && p !== undefined));
        const due = m.predictions.filter(
          (p) => selected.has(p.task) && !converted.has(p.id) && (versions === undefined || versions.includes(p.model_version)),
        );
        expect(body, failed).toEqual({ detail: `Created ${due.length} annotations` });
        await this.adoptNewAnnotations(m, r, new Set(due.map((p) => p.task)), due.length, (a) => {
          expect(a.completed_by, "owned by the caller").toBe(1);
          expect(
            due.some((p) => JSON.stringify(p.result) === JSON.stringify(a.result)),
            "copied from a prediction",
          ).toBe(true);
        });
        return;
      }
      case "propagate_annotations": {
        const source = m.annotations.find((a) => a.id === params.source_annotation_id);
        if (!source) {
          expect("status" in got ? got.status : 200, "an unknown source annotation is a DataManagerException").toBe(500);
          return;
        }
        const detail = String(body?.detail);
        const k = Number(/^Created (\d+) annotations$/.exec(detail)?.[1]);
        const others = [...selected].filter((t) => t !== source.task).length;
        expect([n, others], `${failed}${detail}`).toContain(k);
        await this.adoptNewAnnotations(m, r, selected, k, (a) => expect(JSON.stringify(a.result)).toBe(JSON.stringify(source.result)));
        return;
      }
      case "remove_duplicates":
        await this.removeDuplicates(m, r, selected, got);
        return;
      case "next_task": {
        if (n === 0) expect("status" in got ? got.status : 200, "no task to give").toBe(404);
        else if (body) expect(selected.has(body.id as number), `next task ${String(body.id)} is selected`).toBe(true);
        else expect((got as { status: number }).status, failed).toBe(404);
        return;
      }
      case "rename_labels":
        // The project's labeling config has no control tags: the old label cannot be from it.
        expect("status" in got ? got.status : 200, "unknown control tag").toBe(400);
        return;
      case "cache_labels": {
        expect(body, failed).toEqual({});
        const before = new Map(m.tasks.map((t) => [t.id, JSON.stringify(t.data)]));
        await resync(m, r);
        for (const t of m.tasks)
          if (!selected.has(t.id)) expect(JSON.stringify(t.data), `data of unselected task ${t.id}`).toBe(before.get(t.id));
        return;
      }
      case "add_data_field":
        expect("status" in got ? got.status : 200, "behind a feature flag that is off").toBe(403);
        return;
      default: {
        // Enterprise-only ids are not registered on a community server.
        expect("status" in got ? got.status : 200, `${this.action} is not a community action`).toBe(500);
      }
    }
  }

  /** New annotations (ids the model lacks) on some tasks: exactly `expected`, each checked, then adopted. */
  async adoptNewAnnotations(
    m: Model,
    r: Real,
    tasks: Set<number>,
    expected: number,
    each: (a: { completed_by: unknown; result: unknown }) => void,
  ) {
    const known = new Set(m.annotations.map((a) => a.id));
    let found = 0;
    for (const task of tasks) {
      for (const a of await r.client.annotations.list(task)) {
        if (known.has(a.id)) continue;
        found++;
        const by =
          typeof a.completed_by === "object" && a.completed_by !== null ? (a.completed_by as { id: number }).id : (a.completed_by ?? null);
        each({ completed_by: by, result: a.result });
        m.annotations.push({
          id: a.id,
          task,
          project: PROJECT,
          result: a.result,
          completed_by: by,
          was_cancelled: a.was_cancelled,
          ground_truth: a.ground_truth,
          lead_time: a.lead_time,
          created_at: a.created_at,
          updated_at: a.updated_at,
          parent_prediction: (a["parent_prediction"] as number | null | undefined) ?? null,
        });
      }
    }
    expect(found, "annotations created").toBe(expected);
  }

  /**
   * remove_duplicates is described loosely (docs/reference/actions-endpoint.md#community-actions):
   * selected tasks with identical data form groups; annotations move to one task of the group, the
   * other duplicates are deleted, annotated tasks never. Checked as invariants, then the model
   * takes the server's state.
   */
  async removeDuplicates(
    m: Model,
    r: Real,
    selected: Set<number>,
    got: { ok: Record<string, unknown> } | { status: number; detail: string },
  ) {
    const canonical = (v: JsonValue): string =>
      Array.isArray(v)
        ? `[${v.map(canonical).join(",")}]`
        : v !== null && typeof v === "object"
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, JsonValue>)[k] as JsonValue)}`)
              .join(",")}}`
          : JSON.stringify(v);
    const before = { tasks: m.tasks.map((t) => ({ ...t })), annotations: m.annotations.map((a) => ({ ...a })) };
    await resync(m, r);
    if ("status" in got) {
      // The server raises after its moves when a "duplicate" still holds (skipped) annotations.
      expect(got.status, got.detail).toBe(500);
      return;
    }
    expect(got.ok).toEqual({});
    // It ends with delete_tasks on what it removes (even nothing), which drops the views of a project left empty.
    if (m.tasks.length === 0) m.views = [];
    const after = new Set(m.tasks.map((t) => t.id));
    for (const t of before.tasks) if (!selected.has(t.id)) expect(after.has(t.id), `unselected task ${t.id} kept`).toBe(true);
    expect(m.annotations.map((a) => a.id).sort(), "annotations are moved, never deleted").toEqual(
      before.annotations.map((a) => a.id).sort(),
    );
    const groups = new Map<string, number[]>();
    for (const t of before.tasks)
      if (selected.has(t.id)) groups.set(canonical(t.data as JsonValue), [...(groups.get(canonical(t.data as JsonValue)) ?? []), t.id]);
    for (const [key, ids] of groups) {
      const left = ids.filter((id) => after.has(id));
      if (ids.length === 1) {
        expect(left, `a task without duplicates stays (${key})`).toEqual(ids);
        continue;
      }
      expect(left.length, `one task left of the duplicates ${ids.join(", ")} (${key})`).toBe(1);
      const moved = before.annotations.filter((a) => ids.includes(a.task)).map((a) => a.id);
      for (const id of moved) expect(m.annotations.find((a) => a.id === id)?.task, `annotation ${id} moved to the kept task`).toBe(left[0]);
    }
  }

  toString = () =>
    `Act(${this.action}, ${"spec" in this.source ? `\n${specSnippet(this.source.spec)}` : `view#${this.source.view}`}, n=${this.n}, param=${this.withParam})`;
}

const smallQuery = querySpecArb({ maxLines: 2 });
const resultArb = fc.constantFrom(...(pools.results.filter((r) => r !== null) as (readonly JsonValue[])[]));

/** fc.commands picks uniformly among its arbitraries: repeat one to weight it. */
const times = <T>(n: number, arb: T): T[] => Array.from({ length: n }, () => arb);

export function commandArbs(): fc.Arbitrary<Cmd>[] {
  const actionQuery = querySpecArb({ maxLines: 1 });
  const act = fc
    .tuple(
      // Weighted by what users run: listed community actions most, Enterprise ids (refused) least.
      fc.oneof(
        ...actionIds.map((id) => ({
          weight: actions[id].edition === "enterprise" ? 1 : actions[id].visibility === "listed" ? 6 : 2,
          arbitrary: fc.constant(id),
        })),
      ),
      fc.oneof(
        { weight: 3, arbitrary: actionQuery.map((spec): Source => ({ spec })) },
        { weight: 1, arbitrary: fc.nat(10).map((view): Source => ({ view })) },
      ),
      fc.nat(50),
      fc.boolean(),
    )
    .map(([a, s, n, p]): Cmd => new Act(a, s, n, p));
  return [
    taskDataArb.map((d): Cmd => new CreateTask(d)),
    fc.array(taskDataArb, { minLength: 1, maxLength: 3 }).map((d): Cmd => new ImportTasks(d)),
    ...times(
      3,
      fc
        .tuple(fc.nat(50), fc.constantFrom(1, 2, 3, 4), fc.boolean(), resultArb, fc.constantFrom(0, 1.5, 3))
        .map(([t, u, c, res, lt]): Cmd => new Annotate(t, u, c, res, lt)),
    ),
    ...times(
      2,
      fc
        .tuple(fc.nat(50), fc.constantFrom(0.25, 0.5, 0.9), fc.constantFrom("v1", "v2", "model-10"), resultArb)
        .map(([t, s, v, res]): Cmd => new Predict(t, s, v, res)),
    ),
    smallQuery.map((q): Cmd => new CreateView(q)),
    ...times(
      2,
      smallQuery.map((q): Cmd => new List(q)),
    ),
    fc.nat(10).map((v): Cmd => new ListView(v)),
    ...times(6, act),
  ];
}
