import { columnKinds, dataKindByType, type ColumnKindName, type DataTypeName } from "./column-kinds.js";

/**
 * Task columns (docs/reference/columns.md#task-columns). The id is the `<id>` of
 * `filter:tasks:<id>` and `tasks:<id>`. `edition`: "community" columns exist on every server;
 * "enterprise" ones only on Label Studio Enterprise (a community server answers a filter on most of
 * them with a 500 FieldError). `source` says where the value comes from, for docs and the engine.
 */
export const columns = {
  id: { kind: "id", edition: "community", title: "ID", source: "Task.id" },
  inner_id: { kind: "id", edition: "community", title: "Inner ID", source: "per-project id starting at 1" },
  completed_at: {
    kind: "datetime",
    edition: "community",
    title: "Completed",
    source: "created_at of the newest annotation (by id), only while the task is labeled",
  },
  total_annotations: {
    kind: "counter",
    edition: "community",
    title: "Annotations",
    source: "annotations that are not cancelled",
  },
  cancelled_annotations: { kind: "counter", edition: "community", title: "Cancelled", source: "cancelled annotations" },
  total_predictions: { kind: "counter", edition: "community", title: "Predictions", source: "predictions" },
  annotators: {
    kind: "users",
    edition: "community",
    title: "Annotated by",
    source: "completed_by of every annotation, cancelled ones included",
  },
  annotations_results: {
    kind: "results",
    edition: "community",
    title: "Annotation results",
    source: "the results of the task's annotations",
  },
  annotations_ids: { kind: "annotationIds", edition: "community", title: "Annotation IDs", source: "annotation ids" },
  predictions_score: {
    kind: "number",
    edition: "community",
    title: "Prediction score",
    source: "average prediction score (only the project's model_version when it is set)",
  },
  predictions_model_versions: {
    kind: "modelVersions",
    edition: "community",
    title: "Prediction model versions",
    source: "model_version of every prediction",
  },
  predictions_results: {
    kind: "results",
    edition: "community",
    title: "Prediction results",
    source: "the results of the task's predictions",
  },
  file_upload: { kind: "text", edition: "community", title: "Upload filename", source: "the stored upload path" },
  storage_filename: {
    kind: "text",
    edition: "community",
    title: "Storage filename",
    source: "import-storage link keys joined by ';'",
  },
  created_at: { kind: "datetime", edition: "community", title: "Created at", source: "Task.created_at" },
  updated_at: { kind: "datetime", edition: "community", title: "Updated at", source: "Task.updated_at" },
  updated_by: {
    kind: "users",
    edition: "community",
    title: "Updated by",
    source: "Task.updated_by (nullable user)",
  },
  avg_lead_time: { kind: "number", edition: "community", title: "Lead Time", source: "average annotation lead_time" },
  draft_exists: { kind: "boolean", edition: "community", title: "Drafts", source: "the task has a draft" },
  unresolved_comment_count: {
    kind: "number",
    edition: "community",
    title: "Unresolved comments",
    source: "Task.unresolved_comment_count (not listed by the community column list)",
  },
  comments: { kind: "number", edition: "enterprise", title: "Comments", source: "Enterprise comment count" },
  ground_truth: { kind: "boolean", edition: "enterprise", title: "Ground truth", source: "Enterprise" },
  reviewed: { kind: "boolean", edition: "enterprise", title: "Reviewed", source: "Enterprise" },
  agreement: { kind: "number", edition: "enterprise", title: "Agreement", source: "Enterprise" },
  reviewers: { kind: "users", edition: "enterprise", title: "Reviewers", source: "Enterprise" },
  reviews_rejected: { kind: "number", edition: "enterprise", title: "Rejected", source: "Enterprise" },
  reviews_accepted: { kind: "number", edition: "enterprise", title: "Accepted", source: "Enterprise" },
  comment_authors: { kind: "users", edition: "enterprise", title: "Comment authors", source: "Enterprise" },
  skipped_by_annotator: {
    kind: "usersNoEmpty",
    edition: "enterprise",
    title: "Skipped by",
    source: "Enterprise",
  },
} as const satisfies Record<string, { kind: ColumnKindName; edition: "community" | "enterprise"; title: string; source: string }>;

/** A task column id: the `<id>` of `filter:tasks:<id>` and `tasks:<id>`. */
export type ColumnName = keyof typeof columns;
export type ColumnKindOf<C extends ColumnName> = (typeof columns)[C]["kind"];
export type Edition = (typeof columns)[ColumnName]["edition"];

/** Every task column, in table order. */
export const columnNames = Object.keys(columns) as readonly ColumnName[];
export const DATA_PREFIX = "data.";

export function isColumnName(name: unknown): name is ColumnName {
  return typeof name === "string" && Object.hasOwn(columns, name);
}

/**
 * The kind of a column given the filter `type` it is sent with: `data.*` columns take their kind
 * from the type; other columns have a fixed kind. Undefined for unknown columns or data types
 * without a kind (e.g. Datetime on a data key).
 */
export function kindOf(column: string, type?: string): ColumnKindName | undefined {
  if (column.startsWith(DATA_PREFIX)) {
    if (type === undefined) return "dataAny";
    return Object.hasOwn(dataKindByType, type) ? dataKindByType[type as DataTypeName] : undefined;
  }
  return isColumnName(column) ? columns[column].kind : undefined;
}

/** The filter `type` the builder sends for a known column. */
export function typeOfColumn(column: ColumnName): (typeof columnKinds)[ColumnKindName]["type"] {
  return columnKinds[columns[column].kind].type;
}

/** Columns that allow `in_list`/`not_in_list` (docs/reference/filters.md#in_list-and-not_in_list), derived from the kinds. */
export const inListColumns = columnNames.filter((c) => "in_list" in columnKinds[columns[c].kind].operators);
