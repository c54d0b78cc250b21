import type { QueryNode } from "../src/query/nodes.js";
import { deriveColumns, evaluate, EvaluationError, PreparedDataset, type Evaluation } from "../src/semantics/index.js";
import type { AnnotationRecord, Dataset, DerivedColumns, DraftRecord, PredictionRecord } from "../src/semantics/records.js";
import { HttpProblem, serverError, validationError, type ValidationErrors } from "./errors.js";
import type { MockContext } from "./http.js";

/**
 * The one place the mock calls the semantics engine. Results are cached per dataset object: the
 * store hands out a new dataset after every write, so a cache entry is never stale, and a request
 * that lists and presents tasks derives the columns once.
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

/**
 * The ordered ids a query selects. The engine's errors are the server's (400 for what DRF
 * refuses, 500 for what crashes); strict mode turns a 500 into a 400 naming the field.
 */
export function select(ctx: MockContext, dataset: Dataset, query: QueryNode, ordering = true): Evaluation {
  try {
    return evaluate(prepared(dataset), query, { ordering });
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    const fields = error.validationErrors as ValidationErrors | undefined;
    if (error.status === 400) return failWith(new HttpProblem(400, error.detail, fields ? { validationErrors: fields } : {}));
    if (ctx.strict) return failWith(validationError({ [error.path]: [`expected ${error.expected}, found ${error.found}`] }));
    return failWith(serverError("Exception", error.detail));
  }
}

function failWith(problem: HttpProblem): never {
  throw problem;
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
