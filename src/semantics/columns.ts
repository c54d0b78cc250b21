import { columns, type ColumnName } from "../vocabulary/columns.js";
import type { JsonValue } from "../vocabulary/json.js";
import { computed, innerIdAt, TIMESTAMP_COLUMNS, type PreparedDataset } from "./dataset.js";
import type { InlineRead } from "./fused.js";
import { timestampMicros } from "../vocabulary/timestamps.js";
import { jsonbCompare } from "../emulation/jsonb.js";
import type { Read } from "./changes.js";
import type { AnnotationRecord, PredictionRecord, TaskRecord } from "./records.js";
import { taskDefaults } from "../contract/task.js";

/**
 * How the engine reads each community column, as the database column or annotation the server
 * filters and orders on (docs/reference/columns.md#task-columns, managers.py
 * `DATA_MANAGER_ANNOTATIONS_MAP`). The table is keyed by the vocabulary's community columns, so a
 * new column there is a compile error here until the engine knows how to read it.
 */
export type ScalarDb = "int" | "float" | "timestamp" | "bool" | "text";
export type Scalar = number | string | boolean;

export interface ScalarColumn {
  readonly db: ScalarDb;
  /** The Django field name, as it appears in the server's error texts. */
  readonly field: string;
  /** A nullable model foreign key: Django adds `OR col IS NULL` when it negates a lookup. */
  readonly nullableFk?: boolean;
  /** An aggregate annotation (`Avg`): Django tests it in HAVING, not WHERE. */
  readonly aggregate?: boolean;
  /** The value of task `i` (timestamps in microseconds; null = SQL NULL). */
  readonly read: (ds: PreparedDataset) => (i: number) => Scalar | null;
  /** The values as a typed column (NaN = NULL, never a value), for comparisons without a read per task. */
  readonly numbers?: (ds: PreparedDataset) => ArrayLike<number>;
  /** The primary key: never NULL, read by `PreparedDataset.idAt`. */
  readonly primaryKey?: true;
  /** One task's value, read without building the column `read` may build. */
  readonly one?: (ds: PreparedDataset, i: number) => Scalar | null;
  /** How a fused scan reads it straight from the task record (fused.ts). */
  readonly inline?: InlineRead;
  /**
   * The values read one task at a time, for a dataset that keeps no column of them and was never
   * asked for one (a one-off evaluation): undefined once the column pays (the second ask builds it).
   */
  readonly streamed?: (ds: PreparedDataset) => ((i: number) => number | null) | undefined;
  /** What the value derives from: a write that changes none of these leaves it (see `affects`). */
  readonly reads: readonly Read[];
}

/** An `ArrayAgg` annotation: one element per joined row, `[NULL]` for a task with no rows. */
export interface ArrayColumn {
  readonly db: "array";
  readonly field: string;
  readonly element: "int" | "text" | "json";
  readonly read: (ds: PreparedDataset) => (i: number) => readonly (Scalar | JsonValue)[];
  readonly reads: readonly Read[];
}

export type EngineColumn = ScalarColumn | ArrayColumn;

type CommunityColumn = { [C in ColumnName]: (typeof columns)[C]["edition"] extends "community" ? C : never }[ColumnName];

const nanToNull = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);

/** A typed computed column (NaN = NULL): its reader and the column itself. */
function numbers(pick: (c: ReturnType<typeof computed>) => ArrayLike<number>) {
  return {
    // The column is built on the first read (a fused scan may read the records instead).
    read: (ds: PreparedDataset) => {
      let arr: ArrayLike<number> | undefined;
      return (i: number) => nanToNull((arr ??= pick(computed(ds)))[i]);
    },
    numbers: (ds: PreparedDataset) => pick(computed(ds)),
  };
}

/**
 * A task timestamp column: its typed computed column (`pick`), and read one task at a time
 * (microseconds; null when it does not parse) by a fused scan or a one-off evaluation.
 */
function timestampColumn(field: "created_at" | "updated_at", pick: (c: ReturnType<typeof computed>) => ArrayLike<number>): ScalarColumn {
  const at = (t: TaskRecord) => timestampMicros(t[field]);
  return {
    reads: [`task.${field}`],
    db: "timestamp",
    field,
    ...numbers(pick),
    one: (ds, i) => at(ds.tasks[i] as TaskRecord),
    inline: { r: "micros", field, parse: timestampMicros },
    streamed: (ds) => {
      if (ds.keeps(TIMESTAMP_COLUMNS[field]) || ds.firstAsk(`micros:${field}`) === false) return undefined;
      const tasks = ds.tasks;
      return (i: number) => at(tasks[i] as TaskRecord);
    },
  };
}

function taskField<T extends Scalar | null>(get: (t: TaskRecord) => T) {
  return (ds: PreparedDataset) => (i: number) => get(ds.tasks[i] as TaskRecord);
}

/** `ArrayAgg(rel__field [, distinct])` over a task's rows; NULL elements kept, `[NULL]` without rows. */
function aggregate<R, V extends Scalar | JsonValue>(
  rows: (ds: PreparedDataset) => readonly (readonly R[])[],
  get: (r: R) => V | null,
  distinct?: (a: V, b: V) => number,
) {
  return (ds: PreparedDataset) => {
    const all = rows(ds);
    const cache = new Map<number, readonly (V | null)[]>();
    return (i: number): readonly (V | null)[] => {
      let out = cache.get(i);
      if (out) return out;
      const list = all[i] as readonly R[];
      if (list.length === 0) out = [null];
      else {
        const values = list.map(get);
        if (distinct) {
          const present = values.filter((v): v is V => v !== null).sort(distinct);
          const unique = present.filter((v, k) => k === 0 || distinct(present[k - 1] as V, v) !== 0);
          out = values.some((v) => v === null) ? [...unique, null] : unique;
        } else out = values;
      }
      cache.set(i, out);
      return out;
    };
  };
}

const annotationRows = (ds: PreparedDataset) => ds.annotations;
const predictionRows = (ds: PreparedDataset) => ds.predictions;
const byNumber = (a: number, b: number) => a - b;

/** Import-storage link slots concatenated by `annotate_storage_filename` (settings.IO_STORAGES_IMPORT_LINK_NAMES). */
export const STORAGE_LINK_SLOTS = 5;

/**
 * is_labeled and completed_at: the annotations, the task fields the labeled test reads and the
 * project's skip_queue.
 */
const LABELED: readonly Read[] = ["annotations", "project", "task.overlap", "task.is_labeled"];

export const engineColumns: { readonly [C in CommunityColumn]: EngineColumn } = {
  id: { reads: [], db: "int", field: "id", primaryKey: true, read: (ds) => (i) => ds.idAt(i), inline: { r: "id" } },
  inner_id: {
    reads: ["task.inner_id"],
    db: "int",
    field: "inner_id",
    ...numbers((c) => c.innerId),
    one: (ds, i) => innerIdAt(ds.tasks[i] as TaskRecord, i),
    inline: { r: "inner" },
  },
  completed_at: {
    reads: LABELED,
    db: "timestamp",
    field: "completed_at",
    read: (ds) => {
      const c = computed(ds);
      return (i) => nanToNull(c.completedAt(i));
    },
  },
  total_annotations: { reads: ["annotations"], db: "int", field: "total_annotations", ...numbers((c) => c.totalAnnotations) },
  cancelled_annotations: {
    reads: ["annotations"],
    db: "int",
    field: "cancelled_annotations",
    ...numbers((c) => c.cancelledAnnotations),
  },
  total_predictions: {
    reads: ["predictions", "task.total_predictions"],
    db: "int",
    field: "total_predictions",
    ...numbers((c) => c.totalPredictions),
  },
  annotators: {
    reads: ["annotations"],
    db: "array",
    field: "annotators",
    element: "int",
    read: aggregate(annotationRows, (a: AnnotationRecord) => a.completed_by, byNumber),
  },
  annotations_results: {
    reads: ["annotations"],
    db: "array",
    field: "annotations_results",
    element: "json",
    read: aggregate(annotationRows, (a: AnnotationRecord) => a.result as JsonValue, jsonbCompare),
  },
  annotations_ids: {
    reads: ["annotations"],
    db: "array",
    field: "annotations_ids",
    element: "int",
    read: aggregate(annotationRows, (a: AnnotationRecord) => a.id),
  },
  predictions_score: {
    reads: ["predictions", "project"],
    db: "float",
    field: "predictions_score",
    aggregate: true,
    read: numbers((c) => c.predictionsScore).read,
  },
  predictions_model_versions: {
    reads: ["predictions"],
    db: "array",
    field: "predictions_model_versions",
    element: "text",
    read: aggregate(predictionRows, (p: PredictionRecord) => p.model_version),
  },
  predictions_results: {
    reads: ["predictions"],
    db: "array",
    field: "predictions_results",
    element: "json",
    read: aggregate(predictionRows, (p: PredictionRecord) => p.result as JsonValue, jsonbCompare),
  },
  // Filtering reads F('file_upload__file'), the stored path (the list shows its basename).
  file_upload: { reads: ["task.file_upload"], db: "text", field: "file_upload_field", read: taskField((t) => t.file_upload) },
  // CONCAT over the import-storage link keys joined by ';' (NULL keys print as ''); the record's
  // key sits in the first slot. The server's value is never NULL and never ''.
  storage_filename: {
    reads: ["task.storage_filename"],
    db: "text",
    field: "storage_filename",
    read: taskField((t) => `${t.storage_filename ?? ""}${";".repeat(STORAGE_LINK_SLOTS - 1)}`),
  },
  created_at: timestampColumn("created_at", (c) => c.createdAt),
  updated_at: timestampColumn("updated_at", (c) => c.updatedAt),
  updated_by: { reads: ["task.updated_by"], db: "int", field: "id", nullableFk: true, read: taskField((t) => t.updated_by) },
  avg_lead_time: { reads: ["annotations"], db: "float", field: "avg_lead_time", aggregate: true, read: numbers((c) => c.avgLeadTime).read },
  draft_exists: {
    reads: ["drafts"],
    db: "bool",
    field: "draft_exists",
    read: (ds) => {
      const d = ds.draftExists;
      return (i) => d[i] === 1;
    },
  },
  unresolved_comment_count: {
    reads: ["task.unresolved_comment_count"],
    db: "int",
    field: "unresolved_comment_count",
    read: taskField((t) => t.unresolved_comment_count ?? taskDefaults.unresolved_comment_count),
  },
};

export function engineColumn(name: string): EngineColumn | undefined {
  return Object.hasOwn(engineColumns, name) ? engineColumns[name as CommunityColumn] : undefined;
}

/** LSE agreement columns: a community server skips such a filter and orders by id instead (`is_agreement_related_field`). */
export function isAgreementRelated(name: string): boolean {
  return ["agreement", "agreement_selected", "_agreement", "_agreement_selected"].includes(name) || name.startsWith("dimension_agreement_");
}

/** The kind of a known column (from the vocabulary). */
export function kindOfColumn(name: string): (typeof columns)[ColumnName]["kind"] | undefined {
  return Object.hasOwn(columns, name) ? columns[name as ColumnName].kind : undefined;
}

/**
 * `annotations__completed_by`, the one traversal the default DATA_MANAGER_FILTER_ALLOWLIST lets
 * through that the engine can evaluate: a condition on the joined annotation row.
 */
export const ANNOTATION_AUTHOR_TRAVERSAL = "annotations__completed_by";
