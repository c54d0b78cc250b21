import type {
  AnnotationRecord,
  DerivedColumns,
  DraftRecord,
  PredictionRecord,
  TaskRecord,
  UserRecord,
} from "../../src/semantics/records.js";
import type { Store } from "../store/store.js";
import type { ViewRecord } from "../store/state.js";
import { timeSince } from "../time.js";

/**
 * Records rendered as the server's serializers render them (field names and shapes from
 * docs/reference/resources.md and the server's `tasks/openapi_schema.py` examples). Counters and
 * other derived columns come from the engine; nothing here recomputes them.
 */

/** `created_username` as the server builds it: "<first> <last> <email>, <id>". */
function createdUsername(user: UserRecord | undefined): string {
  if (!user) return "";
  const name = [user.first_name, user.last_name].filter((s) => s.length > 0).join(" ");
  return `${name} ${user.email}, ${user.id}`.trimStart();
}

/** The DM serializers nest the annotator (CompletedByDMSerializer). */
function completedByDm(user: UserRecord | undefined, id: number | null): unknown {
  if (!user) return id;
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    avatar: null,
    email: user.email,
    initials: (user.first_name[0] ?? "") + (user.last_name[0] ?? "") || user.username.slice(0, 2),
  };
}

export function presentAnnotation(a: AnnotationRecord, store: Store, nestUser = false): Record<string, unknown> {
  const user = a.completed_by === null ? undefined : store.find("users", a.completed_by);
  return {
    id: a.id,
    result: a.result,
    created_username: createdUsername(user),
    created_ago: timeSince(a.created_at),
    completed_by: nestUser ? completedByDm(user, a.completed_by) : a.completed_by,
    was_cancelled: a.was_cancelled,
    ground_truth: a.ground_truth,
    created_at: a.created_at,
    updated_at: a.updated_at,
    draft_created_at: null,
    lead_time: a.lead_time,
    import_id: null,
    last_action: null,
    bulk_created: false,
    task: a.task,
    project: a.project,
    updated_by: a.completed_by,
    parent_prediction: a.parent_prediction ?? null,
    parent_annotation: null,
    last_created_by: null,
  };
}

export function presentPrediction(p: PredictionRecord): Record<string, unknown> {
  return {
    id: p.id,
    result: p.result,
    model_version: p.model_version,
    created_ago: timeSince(p.created_at),
    score: p.score,
    cluster: null,
    neighbors: null,
    mislabeling: 0,
    created_at: p.created_at,
    updated_at: p.updated_at ?? p.created_at,
    model: null,
    model_run: null,
    task: p.task,
    project: p.project,
  };
}

function presentDraft(d: DraftRecord): Record<string, unknown> {
  return { id: d.id, user: d.user, result: d.result, created_at: d.created_at, updated_at: d.created_at, task: d.task };
}

/** `TaskSerializer` (task create / patch answers). */
export function presentTask(t: TaskRecord, derived: DerivedColumns | undefined): Record<string, unknown> {
  return {
    id: t.id,
    data: t.data,
    meta: t.meta ?? {},
    created_at: t.created_at,
    updated_at: t.updated_at,
    is_labeled: derived?.is_labeled ?? false,
    overlap: t.overlap ?? 1,
    inner_id: t.inner_id ?? null,
    total_annotations: derived?.total_annotations ?? 0,
    cancelled_annotations: derived?.cancelled_annotations ?? 0,
    total_predictions: derived?.total_predictions ?? 0,
    comment_count: 0,
    unresolved_comment_count: t.unresolved_comment_count ?? 0,
    last_comment_updated_at: null,
    project: t.project,
    updated_by: t.updated_by,
    file_upload: t.file_upload,
    comment_authors: [],
  };
}

export interface TaskRelations {
  readonly annotations: readonly AnnotationRecord[];
  readonly predictions: readonly PredictionRecord[];
  readonly drafts: readonly DraftRecord[];
}

/**
 * `DataManagerTaskSerializer`: the Data Manager list item and `GET /api/tasks/{id}/`. With
 * `relations` (the list's `fields=all`) it carries the task's annotations, predictions and drafts.
 */
export function presentDmTask(t: TaskRecord, derived: DerivedColumns, store: Store, relations?: TaskRelations): Record<string, unknown> {
  const item: Record<string, unknown> = { id: t.id };
  if (relations) {
    item["predictions"] = relations.predictions.map(presentPrediction);
    item["annotations"] = relations.annotations.map((a) => presentAnnotation(a, store, true));
    item["drafts"] = relations.drafts.map(presentDraft);
  }
  Object.assign(item, {
    annotators: derived.annotators,
    inner_id: derived.inner_id,
    cancelled_annotations: derived.cancelled_annotations,
    total_annotations: derived.total_annotations,
    total_predictions: derived.total_predictions,
    completed_at: derived.completed_at,
    annotations_results: derived.annotations_results,
    predictions_results: derived.predictions_results,
    predictions_score: derived.predictions_score,
    file_upload: derived.file_upload,
    storage_filename: derived.storage_filename,
    annotations_ids: derived.annotations_ids,
    predictions_model_versions: derived.predictions_model_versions,
    avg_lead_time: derived.avg_lead_time,
    draft_exists: derived.draft_exists,
    updated_by: t.updated_by === null ? [] : [{ user_id: t.updated_by }],
    data: t.data,
    meta: t.meta ?? {},
    created_at: t.created_at,
    updated_at: t.updated_at,
    is_labeled: derived.is_labeled,
    overlap: t.overlap ?? 1,
    comment_count: 0,
    unresolved_comment_count: t.unresolved_comment_count ?? 0,
    last_comment_updated_at: null,
    project: t.project,
    comment_authors: [],
  });
  return item;
}

/**
 * A view as `ViewSerializer.to_representation` gives it: filters, ordering and selected items
 * live inside `data` (filters only when there is a filter group, the others only when non-empty).
 */
export function presentView(v: ViewRecord): Record<string, unknown> {
  const { filters, ordering, selectedItems, ...rest } = v.data;
  const data: Record<string, unknown> = { ...rest };
  if (filters !== undefined && filters !== null) data["filters"] = filters;
  if (selectedItems && typeof selectedItems === "object" && Object.keys(selectedItems).length > 0) data["selectedItems"] = selectedItems;
  if (Array.isArray(ordering) && ordering.length > 0) data["ordering"] = ordering;
  return {
    id: v.id,
    data,
    order: v.order,
    is_locked: false,
    locked_at: null,
    user: v.user,
    project: v.project,
    locked_by: null,
  };
}
