import type { QueryNode } from "../src/query/nodes.js";
import { deriveColumns, evaluate, EvaluationError, PreparedDataset, type Evaluation } from "../src/semantics/index.js";
import type { AnnotationRecord, Dataset, DerivedColumns, DraftRecord, PredictionRecord } from "../src/semantics/records.js";
import { validationError } from "./errors.js";
import type { MockContext } from "./http.js";

/**
 * The one place the mock calls the semantics engine. Results are cached per dataset object: the
 * store hands out a new dataset of a project after every write to it, so a cache entry is never
 * stale, and a request that lists and presents tasks derives the columns once.
 */
const preparedCache = new WeakMap<Dataset, PreparedDataset>();
const derivedCache = new WeakMap<Dataset, ReadonlyMap<number, DerivedColumns>>();
const relationsCache = new WeakMap<Dataset, ReadonlyMap<number, TaskRelations>>();

/** The engine's indexes over a dataset, built once per dataset. */
function prepared(dataset: Dataset): PreparedDataset {
  let ds = preparedCache.get(dataset);
  if (!ds) {
    ds = new PreparedDataset(dataset);
    preparedCache.set(dataset, ds);
  }
  return ds;
}

export function derivedById(dataset: Dataset): ReadonlyMap<number, DerivedColumns> {
  let byId = derivedCache.get(dataset);
  if (!byId) {
    byId = deriveColumns(prepared(dataset));
    derivedCache.set(dataset, byId);
  }
  return byId;
}

/**
 * Computed columns task by task, without rendering every other task's (a task page, a created
 * task, the next task of a stream). Undefined for a task of another project.
 */
export function deriver(dataset: Dataset): (id: number) => DerivedColumns | undefined {
  const all = derivedCache.get(dataset);
  if (all) return (id) => all.get(id);
  const ds = prepared(dataset);
  const evaluation = evaluate(ds, {}, { ordering: false });
  return (id) => (ds.indexById.has(id) ? evaluation.derived(id) : undefined);
}

export function derivedOne(dataset: Dataset, id: number): DerivedColumns | undefined {
  return deriver(dataset)(id);
}

export function derivedList(dataset: Dataset): readonly DerivedColumns[] {
  return [...derivedById(dataset).values()];
}

/** Evaluations kept per prepared dataset, by query: paging through a result evaluates it once. */
const evaluations = new WeakMap<PreparedDataset, Map<string, Evaluation>>();
/** Queries kept per dataset version (least recently used dropped first). */
const KEPT_QUERIES = 32;

function evaluated(ds: PreparedDataset, query: QueryNode, ordering: boolean): Evaluation {
  let byQuery = evaluations.get(ds);
  if (!byQuery) evaluations.set(ds, (byQuery = new Map()));
  // The parser builds a query's objects in one key order: equal queries print equal. JSON
  // prints -0 as 0, which Python may not read alike: such a query is not kept.
  let negativeZero = false;
  const text = JSON.stringify(query, (_key, value: unknown) => (Object.is(value, -0) ? (negativeZero = true, value) : value));
  if (negativeZero) return evaluate(ds, query, { ordering });
  const key = `${ordering ? "ordered" : "by id"} ${text}`;
  const kept = byQuery.get(key);
  if (kept) {
    byQuery.delete(key);
    byQuery.set(key, kept);
    return kept;
  }
  const fresh = evaluate(ds, query, { ordering });
  byQuery.set(key, fresh);
  if (byQuery.size > KEPT_QUERIES) byQuery.delete(byQuery.keys().next().value as string);
  return fresh;
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

/** Serialised list items by task id, per dataset version and version of what else they read. */
const itemTexts = new WeakMap<PreparedDataset, { readonly also: number | string; readonly texts: Map<number, string> }>();
const KEPT_ITEMS = 20_000;

/**
 * A task's list item as JSON text, presented once per dataset version: a page shown again (or
 * its tasks on another page, another ordering) is not presented or serialised again. `also` is
 * the version of anything else the item reads (the users): another value starts afresh.
 */
export function itemText(dataset: Dataset, also: number | string, id: number, present: () => unknown): string {
  const ds = prepared(dataset);
  let kept = itemTexts.get(ds);
  if (!kept || kept.also !== also) itemTexts.set(ds, (kept = { also, texts: new Map() }));
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
  const built = new Map<number, { annotations: Dataset["annotations"][number][]; predictions: Dataset["predictions"][number][]; drafts: NonNullable<Dataset["drafts"]>[number][] }>();
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
