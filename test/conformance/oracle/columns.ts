/**
 * The server's columns as the spec describes them (docs/reference/columns.md#task-columns,
 * docs/reference/filters.md#special-columns). Restated here
 * on purpose: the oracle must not read src/vocabulary, so a wrong table there cannot pass both.
 */
import type { TaskFacts } from "./facts.js";

/** How a plain (non-data, non-special) column compares. */
export type PlainKind = "int" | "float" | "datetime" | "text" | "bool" | "userFk";

/** Every value a column may hold for a task (usually one; more where the spec is open), or "unclear". */
export type Values = readonly (number | string | boolean | null)[] | "unclear";

export const plainColumns: Readonly<Record<string, { kind: PlainKind; values: (f: TaskFacts) => Values }>> = {
  id: { kind: "int", values: (f) => [f.task.id] },
  inner_id: { kind: "int", values: (f) => (f.task.inner_id === undefined ? "unclear" : [f.task.inner_id]) },
  total_annotations: { kind: "int", values: (f) => [f.totalAnnotations] },
  cancelled_annotations: { kind: "int", values: (f) => [f.cancelledAnnotations] },
  total_predictions: { kind: "int", values: (f) => [f.totalPredictions] },
  // A real Task column with default 0.
  unresolved_comment_count: { kind: "int", values: (f) => [f.task.unresolved_comment_count ?? 0] },
  completed_at: { kind: "datetime", values: (f) => f.completedAt },
  created_at: { kind: "datetime", values: (f) => [f.createdAt] },
  updated_at: { kind: "datetime", values: (f) => [f.updatedAt] },
  predictions_score: { kind: "float", values: (f) => [f.predictionsScore] },
  avg_lead_time: { kind: "float", values: (f) => [f.avgLeadTime] },
  draft_exists: { kind: "bool", values: (f) => [f.drafts > 0] },
  file_upload: { kind: "text", values: (f) => [f.task.file_upload] },
  // Concat of the five import-storage link keys joined by ';': never NULL. The record holds
  // the task's one link key; which of the five slots it sits in is not pinned, so every slot.
  storage_filename: { kind: "text", values: (f) => storageFilenames(f.task.storage_filename) },
  updated_by: { kind: "userFk", values: (f) => [f.task.updated_by] },
};

const STORAGE_SLOTS = 5;
function storageFilenames(key: string | null): string[] {
  if (key === null) return [";".repeat(STORAGE_SLOTS - 1)];
  return Array.from({ length: STORAGE_SLOTS }, (_, slot) =>
    Array.from({ length: STORAGE_SLOTS }, (_, i) => (i === slot ? key : "")).join(";"),
  );
}

/** Counters: `empty` means == 0 (docs/reference/filters.md#counters). */
export const counterColumns = new Set(["total_annotations", "cancelled_annotations", "total_predictions"]);

/** User-list fields (docs/reference/filters.md#user-columns); `skipped_by_annotator` has no `empty`. */
export const userFields = new Set(["annotators", "updated_by", "reviewers", "comment_authors", "skipped_by_annotator"]);
export const userEmptyFields = new Set(["annotators", "updated_by", "reviewers", "comment_authors"]);
export const legacyUserOperators = new Set(["equal", "not_equal", "in_list", "not_in_list"]);

/** in_list / not_in_list allow-list (docs/reference/filters.md#in_list-and-not_in_list), plus every `data.*`. */
export const inListColumns = new Set(["id", "inner_id", "total_annotations", "total_predictions", "cancelled_annotations"]);

export const resultColumns = new Set(["annotations_results", "predictions_results"]);

/** LSE agreement columns: a community server skips filters on them and orders by id instead. */
export const isAgreementColumn = (c: string) => c === "agreement" || c === "agreement_selected" || c.startsWith("dimension_agreement_");

/** Columns the community server has no field for (a filter or ordering on them is a FieldError, 500). */
export const enterpriseColumns = new Set([
  "comments",
  "ground_truth",
  "reviewed",
  "reviewers",
  "reviews_rejected",
  "reviews_accepted",
  "comment_authors",
  "skipped_by_annotator",
]);

/** Orderings on aggregated list columns sort Postgres arrays: the spec does not pin that order. */
export const arrayColumns = new Set([
  "annotators",
  "annotations_results",
  "predictions_results",
  "annotations_ids",
  "predictions_model_versions",
]);
