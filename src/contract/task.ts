import { annotation, annotationExpanded } from "./annotation.js";
import { draft } from "./draft.js";
import { defaultsOf, int32, int64, minValue, nestedList, pick, type Declaration, type FieldSpec } from "./field.js";
import { prediction } from "./prediction.js";
import { annotatorDm } from "./user.js";

/**
 * Tasks in their four renderings. The model is `Task` (label_studio/tasks/models.py): every model
 * field but `precomputed_agreement` and `allow_skip` is rendered, and every one without
 * `editable=False` is writable through a ModelSerializer, counters included.
 */

const counter = { kind: "integer", nullable: false, access: "read-write", default: 0, checks: int32 } as const;
/**
 * A counter the engine computes from the task's records (never stored). The comment counters and
 * authors are computed too: the mock keeps no comments, so they are the model's defaults.
 */
const computed = <F extends FieldSpec>(spec: F) => ({ ...spec, stored: "computed" }) as const;
/** The model's plain fields from `data` to `overlap`, rendered together after a serializer's declared fields. */
const dataToOverlap = ["data", "meta", "created_at", "updated_at", "is_labeled", "overlap"] as const;
/** `get_updated_by` of the Data Manager and next-task serializers: `[{"user_id": id}]`, or `[]`. */
const updatedByList = { kind: "list", nullable: false, access: "read-only" } as const;

/**
 * The task model (`Task`): its fields in the order a ModelSerializer renders them (plain fields,
 * then relations), with kind, null-ness and default. Every serializer below picks from it.
 */
export const taskModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  /**
   * JSONField(null=False), required on create. `TaskValidator` (label_studio/tasks/validation.py)
   * takes a dict or a list on create and a PATCH any JSON; a dict is what every import and the
   * Data Manager produce, and the only form the mock stores.
   */
  data: { kind: "dict", nullable: false, access: "read-write", required: true },
  meta: { kind: "json", nullable: true, access: "read-write", default: {} },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  updated_at: { kind: "datetime", nullable: false, access: "read-only" },
  /**
   * Stored only when a write sets it by a rule of its own (an import counts cancelled annotations
   * too); absent, the engine computes it from the annotations. A change to the task's annotations
   * drops it, as the server recomputes the flag then.
   */
  is_labeled: { kind: "boolean", nullable: false, access: "read-write", default: false, stored: "sparse" },
  overlap: { kind: "integer", nullable: false, access: "read-write", default: 1, checks: int32 },
  inner_id: { kind: "integer", nullable: true, access: "read-write", default: 0, checks: int64 },
  total_annotations: computed(counter),
  cancelled_annotations: computed(counter),
  /**
   * Stored only when a delete of several predictions at once leaves the server's counter off (see
   * `removePredictionsAtOnce`, mock-server/store/prediction-counter.ts); absent, the engine counts the
   * task's predictions. A change to the task's predictions drops it, as the server recounts then.
   */
  total_predictions: { ...counter, stored: "sparse" },
  comment_count: computed(counter),
  unresolved_comment_count: counter,
  last_comment_updated_at: computed({ kind: "datetime", nullable: true, access: "read-write", default: null }),
  /** CASCADE: the project owns its tasks (null-able in the model, never null in the store). */
  project: { kind: "pk", nullable: true, access: "read-write", ref: "projects", owner: true },
  updated_by: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "users" },
  file_upload: { kind: "pk", nullable: true, access: "read-write", default: null },
  comment_authors: computed({ kind: "pks", nullable: false, access: "read-write", default: [] }),
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The task model's defaults (`overlap` 1, `meta` {}, …): read by the seed loader, the routes and the presenters. */
export const taskDefaults = defaultsOf(taskModel);

/** What the mock keeps with a task in a form of its own (the stored `TaskRecord`, records.ts), each entry saying why. */
export const taskOwn = {
  /**
   * The upload's stored file name, null without one: what the Data Manager's `file_upload` column shows (its
   * basename) and filters, which the server joins from the `FileUpload` record (`file_upload_id` below).
   */
  file_upload: { kind: "string", nullable: true, access: "read-only", blank: true, default: null },
  /**
   * The upload the task was read from (the server's `file_upload` foreign key, SET_NULL), null without one; a
   * seed may give a task a `file_upload` path alone. The routes that change an upload keep the path in step.
   */
  file_upload_id: { kind: "pk", nullable: true, access: "read-only", default: null, ref: "file_uploads" },
  /**
   * Not a Task field: the key of the task's import storage link (the server keeps the links in
   * io_storages and `annotate_storage_filename` joins them); the mock keeps the one link with the
   * task, null without one.
   */
  storage_filename: { kind: "string", nullable: true, access: "read-only", blank: true, default: null },
  /** Numbered per project from 1 when the task is created, never null (the model's default 0 is never what a task gets). */
  inner_id: { kind: "integer", nullable: false, access: "read-write", stored: "numbered", checks: [minValue(1)] },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/**
 * `label_studio/tasks/serializers.py` `BaseTaskSerializer` (settings.TASK_SERIALIZER, drf-flex-fields):
 * the answer of `POST /api/tasks/` (`TaskListAPI` in label_studio/tasks/api.py).
 */
export const task = {
  source: "label_studio/tasks/serializers.py BaseTaskSerializer",
  routes: ["POST /api/tasks/", "POST /api/projects/{id}/tasks/"],
  flex: true,
  fields: taskModel,
} as const satisfies Declaration;

/**
 * `label_studio/tasks/serializers.py` `TaskSimpleSerializer`: the answer of `PATCH`/`PUT
 * /api/tasks/{id}/` (`TaskAPI.get_serializer_class`), with every annotation (cancelled ones too)
 * and prediction of the task appended.
 */
export const taskSimple = {
  source: "label_studio/tasks/serializers.py TaskSimpleSerializer",
  routes: ["PATCH /api/tasks/{id}/", "PUT /api/tasks/{id}/", "GET /api/projects/{id}/tasks/"],
  flex: false,
  fields: {
    ...taskModel,
    annotations: nestedList(annotation),
    predictions: nestedList(prediction),
  },
} as const satisfies Declaration;

/**
 * `label_studio/tasks/serializers.py` `NextTaskSerializer` (over `TaskWithAnnotationsAndPredictionsAndDraftsSerializer`):
 * the `next_task` action's answer (label_studio/data_manager/actions/next_task.py), which adds
 * `queue`. Predictions are those of the project's model version (`Task.get_predictions_for_prelabeling`),
 * annotations are left out (the action's context sets `annotations: False`), drafts are the caller's.
 */
export const nextTask = {
  source: "label_studio/tasks/serializers.py NextTaskSerializer",
  routes: ["POST /api/dm/actions/?id=next_task"],
  flex: true,
  fields: {
    id: taskModel.id,
    predictions: nestedList(prediction),
    annotations: nestedList(annotation),
    drafts: nestedList(draft),
    updated_by: updatedByList,
    /** The caller's lock on the task (`TaskLock.unique_id`), null without one. */
    unique_lock_id: { kind: "string", nullable: true, access: "read-only" },
    ...pick(
      taskModel,
      ...dataToOverlap,
      "inner_id",
      "total_annotations",
      "cancelled_annotations",
      "total_predictions",
      "comment_count",
      "unresolved_comment_count",
      "last_comment_updated_at",
      "project",
      "file_upload",
      "comment_authors",
    ),
    /** Added by the action: "Data manager queue", "Sequence queue", … */
    queue: { kind: "string", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

/** A Data Manager column the list computes only when it is evaluated (see `Condition`). */
const evaluated = <F extends string, V>(column: F, fallback: V) => ({ evaluated: column, fallback }) as const;

/**
 * The fields of `DataManagerTaskSerializer` (label_studio/data_manager/serializers.py) from
 * `annotators` on: declared fields first, then the remaining model fields. Columns the queryset
 * annotates (`PreparedTaskManager.annotate_queryset`, label_studio/data_manager/managers.py) render
 * their real value only when evaluated: in the list, the columns its filters and ordering use,
 * every column with `fields=all`; `GET /api/tasks/{id}/` evaluates all but the two `*_results`.
 */
const dataManagerFields = {
  annotators: { kind: "nested-list", nullable: false, access: "read-only", of: annotatorDm, when: evaluated("annotators", []) },
  inner_id: { kind: "integer", nullable: true, access: "read-write" },
  cancelled_annotations: { kind: "integer", nullable: false, access: "read-write" },
  total_annotations: { kind: "integer", nullable: false, access: "read-write" },
  total_predictions: { kind: "integer", nullable: false, access: "read-write" },
  completed_at: { kind: "datetime", nullable: true, access: "read-write", when: evaluated("completed_at", "omit") },
  annotations_results: { kind: "string", nullable: false, access: "read-only", when: evaluated("annotations_results", "") },
  predictions_results: { kind: "string", nullable: false, access: "read-only", when: evaluated("predictions_results", "") },
  predictions_score: { kind: "float", nullable: true, access: "read-write", when: evaluated("predictions_score", "omit") },
  /** The upload's file name (`os.path.basename`), null without one. */
  file_upload: { kind: "string", nullable: true, access: "read-only", when: evaluated("file_upload", null) },
  storage_filename: { kind: "string", nullable: true, access: "read-only" },
  annotations_ids: { kind: "string", nullable: false, access: "read-only", when: evaluated("annotations_ids", "") },
  predictions_model_versions: { kind: "string", nullable: false, access: "read-only", when: evaluated("predictions_model_versions", "") },
  avg_lead_time: { kind: "float", nullable: true, access: "read-write", when: evaluated("avg_lead_time", "omit") },
  draft_exists: { kind: "boolean", nullable: false, access: "read-write", when: evaluated("draft_exists", "omit") },
  updated_by: updatedByList,
  ...pick(
    taskModel,
    ...dataToOverlap,
    "comment_count",
    "unresolved_comment_count",
    "last_comment_updated_at",
    "project",
    "comment_authors",
  ),
} as const;

/**
 * `label_studio/data_manager/serializers.py` `DataManagerTaskSerializer` in the Data Manager list
 * (`TaskListAPI.get`, label_studio/data_manager/api.py): `annotations` and `predictions` only with
 * `fields=all` (the serializer pops them otherwise), `drafts` always (empty without `fields=all`,
 * else the caller's own). A list's annotations keep `completed_by` as an id.
 */
export const dmTask = {
  source: "label_studio/data_manager/serializers.py DataManagerTaskSerializer",
  routes: ["GET /api/tasks/"],
  flex: true,
  fields: {
    id: taskModel.id,
    predictions: { kind: "nested-list", nullable: false, access: "read-only", of: prediction, when: { context: "predictions" } },
    annotations: { kind: "nested-list", nullable: false, access: "read-only", of: annotation, when: { context: "annotations" } },
    drafts: nestedList(draft),
    ...dataManagerFields,
  },
} as const satisfies Declaration;

/**
 * `DataManagerTaskSerializer` as `TaskAPI.get` (label_studio/tasks/api.py) renders one task: with
 * every annotation (the author expanded), prediction and the caller's drafts.
 */
export const dmTaskDetail = {
  source: "label_studio/data_manager/serializers.py DataManagerTaskSerializer (TaskAPI.get)",
  routes: ["GET /api/tasks/{id}/"],
  flex: true,
  fields: {
    id: taskModel.id,
    predictions: nestedList(prediction),
    annotations: nestedList(annotationExpanded),
    drafts: nestedList(draft),
    ...dataManagerFields,
  },
} as const satisfies Declaration;

/** The columns `PreparedTaskManager.annotate_queryset` computes (DATA_MANAGER_ANNOTATIONS_MAP). */
export const evaluatedColumns: readonly string[] = Object.values(dataManagerFields).flatMap((f) => ("when" in f ? [f.when.evaluated] : []));

/** `TaskAPI.get_excluded_fields_for_evaluation` (label_studio/tasks/api.py): the detail evaluates every other column. */
export const detailUnevaluated: readonly string[] = ["annotations_results", "predictions_results"];
