import type { EvaluationError } from "./errors.js";
import type { PreparedDataset } from "./dataset.js";
import type { AnnotationRecord, PredictionRecord } from "./records.js";
import type { Inline, InlineRead } from "./fused.js";

/**
 * A compiled filter: the Django `Q` it stands for, in a form the engine evaluates. Conditions on a
 * joined annotation (or prediction) row are kept apart: the conditions of one filter line share
 * one joined row (they are one `.filter()` call), while separate lines may match different rows.
 */
export type Piece =
  /** A test on the task (columns, EXISTS / NOT EXISTS subqueries); `lookup` when it is an equality. */
  | {
      readonly k: "task";
      readonly test: (i: number) => boolean;
      readonly lookup?: Lookup;
      readonly cost?: number;
      /** The test as a fused scan writes it inline (fused.ts). */
      readonly inline?: Inline;
      /** It reads an aggregate (`Avg`, `ArrayAgg`): Django puts it in HAVING. */
      readonly having?: boolean;
    }
  /**
   * A condition on the joined annotation row (null: the LEFT JOIN's row of a task without annotations).
   * `key` reads the joined column it tests: in HAVING, that column joins the GROUP BY (see GroupedRows).
   */
  | {
      readonly k: "ann";
      readonly test: (a: AnnotationRecord | null) => boolean;
      readonly key: (a: AnnotationRecord | null) => unknown;
      /** The test is `of(a)` in `keys` (never true of the NULL row): an index of the tasks by their annotations' values answers it. */
      readonly lookup?: RowLookup;
    }
  | { readonly k: "pred"; readonly test: (p: PredictionRecord | null) => boolean; readonly key: (p: PredictionRecord | null) => unknown }
  /** `Q(pk__in=[])`: matches nothing. */
  | { readonly k: "false" }
  /** `Q()`: adds nothing (a line of only these drops out). */
  | { readonly k: "emptyQ" };

/**
 * A test that is `read(i) = key` for one of a set of scalar keys (equal, in_list), which a hash
 * set answers in one read, and an index over the target answers without a scan. Keys compare as
 * the target's equality does: SameValueZero on the prepared values (NaN equals NaN like float8,
 * a string never equals a number like jsonb).
 */
export interface Lookup {
  /** What is read (`json:data__x`, `number:x`, `column:id`): lookups on one target can merge. */
  readonly target: string;
  readonly get: (i: number) => unknown;
  readonly keys: ReadonlySet<unknown>;
  /** How a fused scan reads the target inline (fused.ts), when it can. */
  readonly read?: InlineRead;
}

/** A joined-row test that is `of(row)` in a set of scalar keys: the tasks having such a row come from an index. */
export interface RowLookup {
  /** What is read (`annotations:completed_by`): names the index. */
  readonly target: string;
  readonly of: (a: AnnotationRecord) => unknown;
  readonly keys: ReadonlySet<unknown>;
}

export const FALSE: Piece = Object.freeze({ k: "false" });
export const EMPTY_Q: Piece = Object.freeze({ k: "emptyQ" });

/** Three-valued SQL truth. */
export type Tri = boolean | null;

export function and3(a: Tri, b: Tri): Tri {
  if (a === false || b === false) return false;
  if (a === null || b === null) return null;
  return true;
}

/**
 * Errors by the moment the server meets them. Errors raised while `apply_filters` loops are thrown
 * at once; these wait: "filter" (a lookup value Django cannot prepare, at `.filter()`), "compile"
 * (while building the SQL, after ordering), "sql" (Postgres, when rows are read).
 */
export class Pending {
  readonly filter: EvaluationError[] = [];
  readonly compile: EvaluationError[] = [];
  /** An entry may be a check made when rows are read (a cast of every task): undefined when it passes. */
  readonly sql: (EvaluationError | (() => EvaluationError | undefined))[] = [];
  /** The annotations the queryset carries (they are among a FieldError's choices). */
  constructor(readonly annotated: readonly string[] = []) {}
}

export interface Ctx {
  readonly ds: PreparedDataset;
  /** The filter's path in the body, e.g. `filters.items[0].child_filters[1]`. */
  readonly path: string;
  readonly pending: Pending;
}

/** Annotation rows of a task as the LEFT JOIN yields them. */
export const NULL_ROW = [null] as const;
