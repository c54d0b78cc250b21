import type { QueryNode } from "../src/query/nodes.js";
import { computed } from "../src/semantics/dataset.js";
import { derivedAt } from "../src/semantics/derived.js";
import { evaluate, EvaluationError, PreparedDataset, type Evaluation } from "../src/semantics/index.js";
import type { AnnotationRecord, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord } from "../src/contract/records.js";
import type { DerivedColumns } from "../src/semantics/records.js";
import type { StoredDataset as Dataset } from "./store/store.js";
import { validationError } from "./errors.js";
import { liveDatasets } from "./store/live.js";
import { affects, type Read } from "../src/semantics/changes.js";
import { queryReads } from "../src/semantics/reads.js";
import type { MockContext } from "./http.js";

/**
 * The one place the mock calls the semantics engine. Results are cached per dataset object: the
 * store hands out a new dataset of a project after every write to it, so a cache entry is never
 * stale, and a request that lists and presents tasks derives the columns once.
 */
const preparedCache = new WeakMap<Dataset, PreparedDataset>();
const relationsCache = new WeakMap<Dataset, ReadonlyMap<number, TaskRelations>>();

/** The engine's indexes over a dataset: a store's live one (patched by writes), else built once per dataset. */
function prepared(dataset: Dataset): PreparedDataset {
  let ds = liveDatasets.get(dataset) ?? preparedCache.get(dataset);
  if (!ds) {
    ds = new PreparedDataset(dataset);
    preparedCache.set(dataset, ds);
  }
  return ds;
}

/**
 * Computed columns task by task, without rendering every other task's (a task page, a created
 * task, the next task of a stream). Undefined for a task of another project.
 */
export function deriver(dataset: Dataset): (id: number) => DerivedColumns | undefined {
  const ds = prepared(dataset);
  return (id) => {
    const i = ds.indexOf(id);
    return i === undefined ? undefined : derivedAt(ds, i);
  };
}

export function derivedOne(dataset: Dataset, id: number): DerivedColumns | undefined {
  return deriver(dataset)(id);
}

/**
 * One task's computed columns from its own records (a task created, patched or shown alone): the
 * same columns as `derivedOne` on its project, without building the project's. A task without an
 * `inner_id` (numbered by its place in the project) is left to `derivedOne`.
 */
export function derivedOfTask(project: ProjectRecord, task: TaskRecord, own: TaskRelations): DerivedColumns | undefined {
  if (task.inner_id === undefined || task.project !== project.id) return undefined;
  const ds = new PreparedDataset({
    project,
    tasks: [task],
    annotations: own.annotations,
    predictions: own.predictions,
    drafts: own.drafts,
  });
  return derivedAt(ds, 0);
}

/**
 * Every task's computed columns (a project's statistics), as rows read on demand: the numbers
 * come from the engine's columns, and a row's text columns are built only if someone reads them,
 * so summing a 100k-task project's counters builds no 100k rows of text.
 */
export function derivedList(dataset: Dataset): readonly DerivedColumns[] {
  const ds = prepared(dataset);
  return ds.memo("mock:derivedList", () => Array.from({ length: ds.size }, (_, i) => new DerivedRow(ds, i)));
}

class DerivedRow implements DerivedColumns {
  constructor(
    private readonly ds: PreparedDataset,
    private readonly i: number,
  ) {}
  private get c() {
    return computed(this.ds);
  }
  private get all(): DerivedColumns {
    return derivedAt(this.ds, this.i);
  }
  get id() {
    return this.ds.idAt(this.i);
  }
  get inner_id() {
    return this.c.innerId[this.i] as number;
  }
  get total_annotations() {
    return this.c.totalAnnotations[this.i] as number;
  }
  get cancelled_annotations() {
    return this.c.cancelledAnnotations[this.i] as number;
  }
  get total_predictions() {
    return this.c.totalPredictions[this.i] as number;
  }
  get is_labeled() {
    return this.c.isLabeled[this.i] === 1;
  }
  get completed_at() {
    return this.all.completed_at;
  }
  get annotators() {
    return this.all.annotators;
  }
  get predictions_score() {
    return this.all.predictions_score;
  }
  get avg_lead_time() {
    return this.all.avg_lead_time;
  }
  get draft_exists() {
    return this.ds.draftExists[this.i] === 1;
  }
  get file_upload() {
    return this.all.file_upload;
  }
  get storage_filename() {
    return this.all.storage_filename;
  }
  get annotations_ids() {
    return this.all.annotations_ids;
  }
  get annotations_results() {
    return this.all.annotations_results;
  }
  get predictions_results() {
    return this.all.predictions_results;
  }
  get predictions_model_versions() {
    return this.all.predictions_model_versions;
  }
  /** What JSON shows: every column, as a plain object. */
  toJSON(): DerivedColumns {
    return this.all;
  }
}

/**
 * Evaluations kept per prepared dataset, by query: paging through a result evaluates it once. A live
 * dataset tells what each write changed; an evaluation that reads none of it is kept (its ids hold,
 * its totals are summed again), the others are dropped.
 */
const evaluations = new WeakMap<PreparedDataset, Map<string, { readonly evaluation: Evaluation; readonly reads: ReadonlySet<Read> }>>();

function keptEvaluations(ds: PreparedDataset): Map<string, { readonly evaluation: Evaluation; readonly reads: ReadonlySet<Read> }> {
  let byQuery = evaluations.get(ds);
  if (!byQuery) {
    const kept = (byQuery = new Map());
    evaluations.set(ds, kept);
    ds.watch((patch) => {
      for (const [key, entry] of kept) if (affects(entry.reads, patch)) kept.delete(key);
    });
  }
  return byQuery;
}
/** Queries kept per dataset (least recently used dropped first). */
const KEPT_QUERIES = 32;
/** Selections listing more ids than this are not kept (their key would cost what evaluating costs). */
const KEYED_IDS = 1000;

function evaluated(ds: PreparedDataset, query: QueryNode, ordering: boolean): Evaluation {
  // A long id list is a one-off body (an action on a selection): it is evaluated, not printed
  // into a key and kept.
  const selected = query.selectedItems;
  if (selected && (selected.all ? selected.excluded : selected.included).length > KEYED_IDS) return evaluate(ds, query, { ordering });
  const byQuery = keptEvaluations(ds);
  // The parser builds a query's objects in one key order: equal queries print equal. JSON
  // prints -0 as 0, which Python may not read alike: such a query is not kept.
  if (holdsNegativeZero(query)) return evaluate(ds, query, { ordering });
  // (No replacer: JSON.stringify's own walk is several times faster than one calling back per value.)
  const key = `${ordering ? "ordered" : "by id"} ${JSON.stringify(query)}`;
  const kept = byQuery.get(key);
  if (kept) {
    byQuery.delete(key);
    byQuery.set(key, kept);
    return kept.evaluation;
  }
  const fresh = evaluate(ds, query, { ordering });
  byQuery.set(key, { evaluation: fresh, reads: queryReads(query) });
  if (byQuery.size > KEPT_QUERIES) byQuery.delete(byQuery.keys().next().value as string);
  return fresh;
}

/** Does a -0 occur anywhere in the value (JSON text prints it as 0)? */
function holdsNegativeZero(value: unknown): boolean {
  if (typeof value === "number") return Object.is(value, -0);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value as readonly unknown[]) if (holdsNegativeZero(item)) return true;
    return false;
  }
  for (const key in value) if (holdsNegativeZero((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * The ordered ids a query selects, kept for the dataset's version (the store hands out a new
 * dataset after a write to the project). The engine's errors are the server's (400 for what DRF
 * refuses, 500 for what crashes); strict mode turns a 500 into a 400 naming the field.
 */
export function select(ctx: MockContext, dataset: Dataset, query: QueryNode, ordering = true): Evaluation {
  try {
    return evaluated(prepared(dataset), query, ordering);
  } catch (error) {
    // The engine's error is the server's answer (it carries it); strict mode names a 500's field instead.
    if (error instanceof EvaluationError && error.status === 500 && ctx.strict) {
      throw validationError({ [error.path]: [`expected ${error.expected}, found ${error.found}`] });
    }
    throw error;
  }
}

/** Serialised list items by task id, per dataset, project record and version of what else they read. */
const itemTexts = new WeakMap<
  PreparedDataset,
  { also: number | string; project: PreparedDataset["project"]; readonly texts: Map<number, string> }
>();
const KEPT_ITEMS = 20_000;

/**
 * A task's list item as JSON text, presented once: a page shown again (or its tasks on another page,
 * another ordering) is not presented or serialised again. A write to the project drops the items of
 * the tasks it touched (all of them when tasks came or left: an item may show its place); `also` is
 * the version of anything else the item reads (the users): another value starts afresh, as does a
 * changed project record.
 */
export function itemText(dataset: Dataset, also: number | string, id: number, present: () => unknown): string {
  const ds = prepared(dataset);
  let kept = itemTexts.get(ds);
  if (!kept) {
    const fresh = (kept = { also, project: ds.project, texts: new Map<number, string>() });
    itemTexts.set(ds, fresh);
    ds.watch((patch) => {
      if (patch.reshaped) fresh.texts.clear();
      else for (const task of patch.tasks) fresh.texts.delete(task);
    });
  }
  if (kept.also !== also || kept.project !== ds.project) {
    kept.also = also;
    kept.project = ds.project;
    kept.texts.clear();
  }
  const texts = kept.texts;
  let text = texts.get(id);
  if (text === undefined) {
    text = JSON.stringify(present());
    texts.set(id, text);
    if (texts.size > KEPT_ITEMS) texts.delete(texts.keys().next().value as number);
  }
  return text;
}

export interface TaskRelations {
  readonly annotations: readonly AnnotationRecord[];
  readonly predictions: readonly PredictionRecord[];
  readonly drafts: readonly DraftRecord[];
}

/** Each task's annotations, predictions and drafts (by id), for `fields=all` and task details. */
export function relationsIndex(dataset: Dataset): ReadonlyMap<number, TaskRelations> {
  let index = relationsCache.get(dataset);
  if (index) return index;
  const built = new Map<
    number,
    {
      annotations: Dataset["annotations"][number][];
      predictions: Dataset["predictions"][number][];
      drafts: NonNullable<Dataset["drafts"]>[number][];
    }
  >();
  const slot = (task: number) => {
    let entry = built.get(task);
    if (!entry) built.set(task, (entry = { annotations: [], predictions: [], drafts: [] }));
    return entry;
  };
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  for (const a of [...dataset.annotations].sort(byId)) slot(a.task).annotations.push(a);
  for (const p of [...dataset.predictions].sort(byId)) slot(p.task).predictions.push(p);
  for (const d of [...(dataset.drafts ?? [])].sort(byId)) slot(d.task).drafts.push(d);
  index = built;
  relationsCache.set(dataset, index);
  return index;
}

/** The counters a task stores (what an export writes for it): a picked subset of the computed columns. */
export type TaskCounters = Pick<
  DerivedColumns,
  "inner_id" | "total_annotations" | "cancelled_annotations" | "total_predictions" | "is_labeled"
>;

/** Each task's stored counters by id, read from the engine's columns without building the list's text columns. */
export function countersOf(dataset: Dataset): (id: number) => TaskCounters | undefined {
  const ds = prepared(dataset);
  const c = computed(ds);
  return (id) => {
    const i = ds.indexOf(id);
    if (i === undefined) return undefined;
    return {
      inner_id: c.innerId[i] as number,
      total_annotations: c.totalAnnotations[i] as number,
      cancelled_annotations: c.cancelledAnnotations[i] as number,
      total_predictions: c.totalPredictions[i] as number,
      is_labeled: c.isLabeled[i] === 1,
    };
  };
}
