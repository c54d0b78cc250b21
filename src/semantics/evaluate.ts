import type { QueryNode, SelectedItemsNode } from "../query/nodes.js";
import { checkPending, checkTasks, computed, PreparedDataset, settleCheck, uncheckedDataset } from "./dataset.js";
import { derivedAt } from "./derived.js";
import { EvaluationError } from "./errors.js";
import { compileFilters, type FilterSet } from "./filters.js";
import { annotatedAliases } from "./field-error.js";
import { compileOrdering } from "./ordering.js";
import { fusedScan } from "./fused.js";
import { Pending } from "./pieces.js";
import type { Candidates } from "./plan.js";
import type { Dataset, DerivedColumns, TaskRecord } from "./records.js";

/** Options of `evaluate`. */
export interface EvaluateOptions {
  /**
   * Order the result (default true). The actions endpoint drops the ordering for most actions
   * (docs/reference/actions-endpoint.md#performing-an-action): with `false` the ids come by id and
   * ordering errors cannot occur.
   */
  readonly ordering?: boolean;
}

/** What `evaluate` answers: the selected ids in order, and the list's computed columns and totals. */
export interface Evaluation {
  /** The task ids the server would list or act on: filtered, ordered, then narrowed by selectedItems. */
  readonly ids: readonly number[];
  /**
   * The rows the server's list shows: `ids`, with a task repeated where the SQL gives it more than one
   * row (an OR that reads an aggregate and a joined column; docs/reference/filters.md#repeated-rows).
   * The same array as `ids` when no task repeats.
   */
  readonly rows: readonly number[];
  /** The computed columns of one task of the project (as the list endpoint shows them). */
  derived(id: number): DerivedColumns;
  /** The list endpoint's totals over `rows`: count and the sums of the two counters. */
  totals(): { readonly total: number; readonly total_annotations: number; readonly total_predictions: number };
}

/**
 * Evaluate a query against one project's data the way the server does
 * (docs/reference/request.md#the-pipeline):
 * filters, then ordering, then selectedItems. Throws EvaluationError where the server answers
 * 400 or 500. Pass a PreparedDataset to reuse its indexes across calls.
 */
export function evaluate(dataset: Dataset | PreparedDataset, query: QueryNode, options: EvaluateOptions = {}): Evaluation {
  if (dataset instanceof PreparedDataset) return evaluateOn(dataset, query, options);
  // A one-off evaluation takes the task array as given (one project's, ascending by id) and checks
  // that while its scan reads every task, rather than in a pass of its own first. Evaluation is pure:
  // on records that are not so, it starts again from a dataset prepared the usual way.
  const ds = uncheckedDataset(dataset);
  let out: Evaluation;
  try {
    out = evaluateOn(ds, query, options);
  } catch (e) {
    if (checkTasks(ds)) throw e;
    return evaluateOn(new PreparedDataset(dataset), query, options);
  }
  return checkTasks(ds) ? out : evaluateOn(new PreparedDataset(dataset), query, options);
}

function evaluateOn(ds: PreparedDataset, query: QueryNode, options: EvaluateOptions): Evaluation {
  const pending = new Pending(annotatedAliases(query));
  const filter = compileFilters(ds, query.filters, pending);
  if (filter.k === "none") return result(ds, [], undefined);
  // Django prepares lookup values at .filter(); the SQL compiler then resolves ORDER BY, then WHERE.
  throwFirst(pending.filter);
  const order = options.ordering === false ? undefined : compileOrdering(ds, query.ordering, query.columnsDisplayType, pending.annotated);
  if (order?.k === "error") throw order.error;
  throwFirst(pending.compile);
  // Postgres fails when it reads the rows: checks that read every task (a cast) wait for the scan,
  // which casts on the way, unless an error found already comes first.
  const scanFirst = pending.sql.every((e) => typeof e === "function");
  if (ds.size > 0 && !scanFirst) throwFirst(pending.sql);

  let indexes = filtered(ds, filter, query.selectedItems);
  if (ds.size > 0 && scanFirst) throwFirst(pending.sql);
  const selected = indexes;
  if (order?.k === "ok") indexes = order.sort(indexes);
  // `{all: false, included}` already narrowed the filter to the included ids (filtered reads them).
  const ids = select(ds, indexes, query.selectedItems?.all === false ? undefined : query.selectedItems);
  // The totals read the counters by index when the selection dropped nothing (any order sums alike).
  // (A typed copy: a kept evaluation's arrays are copied by every young-generation GC until promoted.)
  return result(
    ds,
    ids,
    filter.k === "test" ? filter.rows : undefined,
    ids.length === indexes.length ? Int32Array.from(selected) : undefined,
  );
}

/** `ids` with each task repeated as many times as the server's SQL gives it rows (adjacent: equal sort keys). */
function repeated(ds: PreparedDataset, ids: readonly number[], rows: ((i: number) => number) | undefined): readonly number[] {
  if (rows === undefined) return ids;
  const out: number[] = [];
  for (const id of ids) {
    const n = Math.max(1, rows(ds.indexOf(id) as number));
    for (let k = 0; k < n; k++) out.push(id);
  }
  return out.length === ids.length ? ids : out;
}

/** The indexes the filter selects, ascending: from the candidates of an index when there are any. */
function filtered(ds: PreparedDataset, filter: FilterSet, selected: SelectedItemsNode | undefined): number[] {
  const out: number[] = [];
  // An explicit list of ids reads the primary key: only those tasks can be selected.
  const only = selected?.all === false && selected.included.length > 0 ? includedIndexes(ds, selected.included) : undefined;
  const test = filter.k === "test" ? filter.test : undefined;
  const found = filter.k === "test" ? filter.candidates : undefined;
  if (only !== undefined || found !== undefined) {
    const list = only ?? (found as Candidates).indexes;
    const exact = only === undefined && (found as Candidates).exact;
    for (let k = 0; k < list.length; k++) {
      const i = list[k] as number;
      if (exact || test === undefined || test(i)) out.push(i);
    }
    return out;
  }
  const n = ds.size;
  const scan = test === undefined ? undefined : fusedScan((filter as Extract<FilterSet, { k: "test" }>).fused, n);
  if (scan !== undefined) {
    // One generated loop: reads each task once, tests inline, checks the tasks on the way.
    const found = scan(ds.tasks, ds.project.id);
    if (found !== undefined || checkPending(ds)) {
      settleCheck(ds, found !== undefined);
      return found ?? out;
    }
  }
  if (checkPending(ds)) {
    // The scan reads every task: it checks them on the way (see evaluate).
    const tasks = ds.tasks,
      project = ds.project.id;
    let last = -Infinity;
    for (let i = 0; i < n; i++) {
      const t = tasks[i] as TaskRecord;
      if (t.project !== project || !(t.id > last)) {
        settleCheck(ds, false);
        return out;
      }
      last = t.id;
      if (test === undefined || test(i)) out.push(i);
    }
    settleCheck(ds, true);
    return out;
  }
  if (test === undefined) {
    for (let i = 0; i < n; i++) out.push(i);
    return out;
  }
  for (let i = 0; i < n; i++) if (test(i)) out.push(i);
  return out;
}

function includedIndexes(ds: PreparedDataset, ids: readonly number[]): number[] {
  const out: number[] = [];
  for (const id of ids) {
    const i = ds.indexOf(id);
    if (i !== undefined) out.push(i);
  }
  out.sort((a, b) => a - b);
  // Repeated ids select a task once.
  return out.filter((i, k) => k === 0 || out[k - 1] !== i);
}

function throwFirst(errors: readonly (EvaluationError | (() => EvaluationError | undefined))[]): void {
  for (const e of errors) {
    const error = typeof e === "function" ? e() : e;
    if (error !== undefined) throw error;
  }
}

/**
 * selectedItems after filtering and ordering (docs/reference/selection.md#when-it-applies):
 * `{all: false, included}` keeps the included ids, `{all: true, excluded}` drops the excluded; an
 * empty list restricts nothing (so `{all: false, included: []}` selects every filtered task).
 */
function select(ds: PreparedDataset, indexes: number[], selected: SelectedItemsNode | undefined): readonly number[] {
  const ids = new Array<number>(indexes.length);
  for (let k = 0; k < indexes.length; k++) ids[k] = ds.idAt(indexes[k] as number);
  if (!selected) return ids;
  if (selected.all === true && selected.excluded.length > 0) {
    const drop = listed(ids, selected.excluded);
    return ids.filter((id) => !drop.has(id));
  }
  return ids;
}

/**
 * The ids of `ids` that `list` names, as a set. A hash set of the shorter side: a body listing a
 * million ids against a small project builds a set of the project's ids, not of the list.
 */
function listed(ids: readonly number[], list: readonly number[]): ReadonlySet<number> {
  if (list.length <= ids.length) return new Set(list);
  const candidates = new Set(ids);
  const found = new Set<number>();
  for (let k = 0; k < list.length; k++) {
    const id = list[k] as number;
    if (candidates.has(id)) found.add(id);
  }
  return found;
}

function result(
  ds: PreparedDataset,
  ids: readonly number[],
  rowsOf: ((i: number) => number) | undefined,
  indexes?: Int32Array,
): Evaluation {
  let totals: ReturnType<Evaluation["totals"]> | undefined;
  const rows = repeated(ds, ids, rowsOf);
  let summedAt = ds.version;
  // The tasks' indexes hold while the dataset has not changed (a write may move rows).
  const indexesAt = rows === ids ? ds.version : -1;
  return Object.freeze({
    ids: Object.freeze(ids),
    rows: rows === ids ? ids : Object.freeze(rows),
    derived(id: number): DerivedColumns {
      const i = ds.indexOf(id);
      if (i === undefined) throw new RangeError(`derived(${id}): task ${id} is not a task of project ${ds.project.id}`);
      return derivedAt(ds, i);
    },
    totals() {
      // Summed once per dataset version: an evaluation kept for paging answers every page's totals from
      // here, and one kept across a write that cannot change its ids sums the counters again.
      if (totals !== undefined && summedAt === ds.version) return totals;
      summedAt = ds.version;
      const c = computed(ds);
      // The columns once (each getter finds its kept column), then one read per row.
      const annotations = c.totalAnnotations,
        predictions = c.totalPredictions;
      let total_annotations = 0,
        total_predictions = 0;
      if (indexes !== undefined && indexesAt === ds.version) {
        for (let k = 0; k < indexes.length; k++) {
          const i = indexes[k] as number;
          total_annotations += annotations[i] as number;
          total_predictions += predictions[i] as number;
        }
      } else {
        for (let k = 0; k < rows.length; k++) {
          const i = ds.indexOf(rows[k] as number) as number;
          total_annotations += annotations[i] as number;
          total_predictions += predictions[i] as number;
        }
      }
      return (totals = Object.freeze({ total: rows.length, total_annotations, total_predictions }));
    },
  });
}

export { EvaluationError };
