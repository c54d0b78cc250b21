import type { QueryNode } from "../query/nodes.js";
import { unhandled } from "./errors.js";

/**
 * Django's FieldError for a name the task queryset cannot resolve (`Query.names_to_path`): it lists
 * the model's field names (`get_field_names_from_opts`: fields, foreign-key attnames and reverse
 * relations) and the queryset's annotations, sorted. The fields are Label Studio 1.22's `Task`
 * (label_studio/tasks/models.py and the models that point at it), as a running server lists them.
 */
export const TASK_MODEL_FIELDS = [
  "annotations",
  "cancelled_annotations",
  "comment_authors",
  "comment_count",
  "created_at",
  "data",
  "drafts",
  "failed_predictions",
  "file_upload",
  "file_upload_id",
  "id",
  "inner_id",
  "io_storages_azureblobimportstoragelink",
  "io_storages_gcsimportstoragelink",
  "io_storages_localfilesimportstoragelink",
  "io_storages_redisimportstoragelink",
  "io_storages_s3importstoragelink",
  "is_labeled",
  "last_comment_updated_at",
  "locks",
  "meta",
  "overlap",
  "predictions",
  "project",
  "project_id",
  "total_annotations",
  "total_predictions",
  "unresolved_comment_count",
  "updated_at",
  "updated_by",
  "updated_by_id",
] as const;

/**
 * `DATA_MANAGER_ANNOTATIONS_MAP` (label_studio/data_manager/managers.py): the columns the Data
 * Manager annotates when a filter or the ordering names them, and the alias each annotation adds.
 */
const ANNOTATION_ALIASES: Readonly<Record<string, string>> = {
  avg_lead_time: "avg_lead_time",
  completed_at: "completed_at",
  annotations_results: "annotations_results",
  predictions_results: "predictions_results",
  predictions_model_versions: "predictions_model_versions",
  predictions_score: "predictions_score",
  annotators: "annotators",
  annotations_ids: "annotations_ids",
  file_upload: "file_upload_field",
  draft_exists: "draft_exists",
  storage_filename: "storage_filename",
};

/** The alias a column's annotation adds, when the Data Manager annotates that column. */
export function annotationAlias(column: string): string | undefined {
  return Object.hasOwn(ANNOTATION_ALIASES, column) ? ANNOTATION_ALIASES[column] : undefined;
}

/**
 * The annotations a query's queryset carries (`get_fields_for_filter_ordering`: every root filter's
 * column and the first ordering key; `annotate_queryset` annotates those in the map).
 */
export function annotatedAliases(query: Pick<QueryNode, "filters" | "ordering">): string[] {
  const columns = [...(query.filters?.items ?? []).map((i) => i.column), ...(query.ordering?.slice(0, 1) ?? []).map((o) => o.column)];
  return [...new Set(columns.flatMap((c) => (Object.hasOwn(ANNOTATION_ALIASES, c) ? [ANNOTATION_ALIASES[c] as string] : [])))];
}

/** The server's `Cannot resolve keyword` FieldError (a 500) for a name it has no field for. */
export function cannotResolve(path: string, name: string, annotated: readonly string[] = []): ReturnType<typeof unhandled> {
  const choices = [...new Set([...TASK_MODEL_FIELDS, ...annotated])].sort().join(", ");
  return unhandled(
    { path, expected: `a field of the task (${choices}) or data.<key>`, found: JSON.stringify(name) },
    `Cannot resolve keyword '${name}' into field. Choices are: ${choices}`,
  );
}
