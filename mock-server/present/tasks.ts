import type { ProjectRecord, TaskRecord, UserRecord } from "../../src/contract/records.js";
import type { DerivedColumns } from "../../src/semantics/records.js";
import {
  detailUnevaluated,
  dmTask,
  dmTaskDetail,
  evaluatedColumns,
  nextTask,
  task,
  taskDefaults,
  taskSimple,
} from "../../src/contract/index.js";
import type { Rendered } from "../../src/contract/field.js";
import { render, type RenderContext, type Values } from "../../src/contract/render.js";
import type { TaskRelations } from "../engine.js";
import type { Store } from "../store/store.js";
import { presentAnnotation, presentAnnotationExpanded, presentDraft } from "./annotations.js";
import { presentPrediction } from "./predictions.js";
import { presentAnnotators } from "./users.js";

/**
 * Tasks in the renderings of the contract: the model form (create), the simple form (update), the
 * Data Manager form of the list and of `GET /api/tasks/{id}/`. Counters and other derived
 * columns come from the engine; nothing here recomputes them.
 */

/** The model fields every rendering shares (`file_upload` is the upload's pk, null without one). */
function modelValues(t: TaskRecord, derived: DerivedColumns | undefined): Values<typeof task> {
  return {
    id: t.id,
    data: t.data,
    // A stored null (PATCH or PUT `meta: null`; JSONField null=True) renders as null.
    meta: t.meta === undefined ? structuredClone(taskDefaults.meta) : t.meta,
    created_at: t.created_at,
    updated_at: t.updated_at,
    is_labeled: derived?.is_labeled ?? taskDefaults.is_labeled,
    overlap: t.overlap,
    inner_id: t.inner_id,
    total_annotations: derived?.total_annotations ?? taskDefaults.total_annotations,
    cancelled_annotations: derived?.cancelled_annotations ?? taskDefaults.cancelled_annotations,
    total_predictions: derived?.total_predictions ?? taskDefaults.total_predictions,
    // The mock keeps no comments: the model's defaults.
    comment_count: taskDefaults.comment_count,
    unresolved_comment_count: t.unresolved_comment_count,
    last_comment_updated_at: taskDefaults.last_comment_updated_at,
    project: t.project,
    updated_by: t.updated_by,
    file_upload: t.file_upload_id ?? taskDefaults.file_upload,
    comment_authors: [...taskDefaults.comment_authors],
  };
}

/** `BaseTaskSerializer`: the answer of `POST /api/tasks/`. */
export function presentTask(t: TaskRecord, derived: DerivedColumns | undefined, ctx?: RenderContext): Rendered<typeof task> {
  return render(task, modelValues(t, derived), ctx);
}

/** `TaskSimpleSerializer`: the answer of `PATCH /api/tasks/{id}/`, every annotation and prediction appended. */
export function presentTaskSimple(
  t: TaskRecord,
  derived: DerivedColumns | undefined,
  relations: TaskRelations,
  store: Store,
): Rendered<typeof taskSimple> {
  return render(taskSimple, {
    ...modelValues(t, derived),
    annotations: relations.annotations.map((a) => presentAnnotation(a, store)),
    predictions: relations.predictions.map(presentPrediction),
  });
}

/** The Data Manager columns from `annotators` on (shared by the list and the detail form): the model's, some computed. */
function dataManagerValues(t: TaskRecord, d: DerivedColumns, store: Store) {
  const { id: _id, ...model } = modelValues(t, d);
  return {
    ...model,
    annotators: () => presentAnnotators(d.annotators, store),
    inner_id: d.inner_id,
    completed_at: () => d.completed_at,
    annotations_results: () => d.annotations_results,
    predictions_results: () => d.predictions_results,
    predictions_score: () => d.predictions_score,
    file_upload: () => d.file_upload,
    storage_filename: d.storage_filename,
    annotations_ids: () => d.annotations_ids,
    predictions_model_versions: () => d.predictions_model_versions,
    avg_lead_time: () => d.avg_lead_time,
    draft_exists: () => d.draft_exists,
    updated_by: updatedBy(t),
  } satisfies Omit<Values<typeof dmTask>, "id" | "predictions" | "annotations" | "drafts">;
}

/** `get_updated_by`: `[{"user_id": id}]`, or `[]`. */
const updatedBy = (t: TaskRecord) => (t.updated_by === null ? [] : [{ user_id: t.updated_by }]);

/**
 * `DataManagerTaskSerializer` in the list. With `fields=all` (the `annotations`/`predictions`/
 * `drafts` context) it carries the task's annotations (the author as an id), predictions and the
 * caller's drafts; the nested annotation serializer is a root serializer too, so the request's
 * `include`/`omit` apply to it as well.
 */
export function presentDmTask(
  t: TaskRecord,
  d: DerivedColumns,
  relations: TaskRelations,
  caller: UserRecord,
  store: Store,
  ctx: RenderContext,
): Rendered<typeof dmTask> {
  const all = ctx.context?.has("drafts") === true;
  return render(
    dmTask,
    {
      id: t.id,
      predictions: () => relations.predictions.map(presentPrediction),
      annotations: () => relations.annotations.map((a) => presentAnnotation(a, store, ctx)),
      drafts: all ? relations.drafts.filter((x) => x.user === caller.id).map((x) => presentDraft(x, store)) : [],
      ...dataManagerValues(t, d, store),
    },
    ctx,
  );
}

/**
 * `GET /api/tasks/{id}/`: every column evaluated but the two `*_results` (`TaskAPI` excludes them),
 * every annotation with its author expanded, every prediction, the caller's drafts.
 */
export function presentDmTaskDetail(
  t: TaskRecord,
  d: DerivedColumns,
  relations: TaskRelations,
  caller: UserRecord,
  store: Store,
  ctx: Pick<RenderContext, "sparse">,
): Rendered<typeof dmTaskDetail> {
  return render(
    dmTaskDetail,
    {
      id: t.id,
      predictions: relations.predictions.map(presentPrediction),
      annotations: relations.annotations.map((a) => presentAnnotationExpanded(a, store)),
      drafts: relations.drafts.filter((x) => x.user === caller.id).map((x) => presentDraft(x, store)),
      ...dataManagerValues(t, d, store),
    },
    { ...ctx, evaluated: detailEvaluated },
  );
}

const detailEvaluated: ReadonlySet<string> = new Set(evaluatedColumns.filter((c) => !detailUnevaluated.includes(c)));

/**
 * `NextTaskSerializer` plus `queue`: the predictions of the project's model version when
 * collaborators see predictions (`Task.get_predictions_for_prelabeling`), no annotations, the
 * caller's drafts, and the id of the lock the server set on the task (`unique_lock_id`).
 */
export function presentNextTask(
  t: TaskRecord,
  d: DerivedColumns,
  relations: TaskRelations,
  project: ProjectRecord,
  caller: UserRecord,
  store: Store,
  queue: string,
  lock: string | null,
): Rendered<typeof nextTask> {
  const prelabel = project["show_collab_predictions"] !== false && project.model_version !== null;
  return render(nextTask, {
    ...modelValues(t, d),
    predictions: prelabel ? relations.predictions.filter((p) => p.model_version === project.model_version).map(presentPrediction) : [],
    annotations: [],
    drafts: relations.drafts.filter((x) => x.user === caller.id).map((x) => presentDraft(x, store)),
    updated_by: updatedBy(t),
    unique_lock_id: lock,
    queue,
  });
}
