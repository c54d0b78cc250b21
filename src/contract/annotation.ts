import type { CollectionName } from "./collections.js";
import { custom, defaultsOf, int64, pick, resultField, type Declaration, type FieldSpec } from "./field.js";
import { completedByDm } from "./user.js";

/** `ActionType` (label_studio/tasks/choices.py): an annotation's `last_action`. */
export const actionTypeChoices = [
  "prediction",
  "propagated_annotation",
  "imported",
  "submitted",
  "updated",
  "skipped",
  "accepted",
  "rejected",
  "fixed_and_accepted",
  "deleted_review",
] as const;

/** A nullable ForeignKey (SET_NULL) to a record of `to`. */
const ref = <C extends CollectionName>(to: C) => ({ kind: "pk", nullable: true, access: "read-write", default: null, ref: to }) as const;
/** A field the store keeps only once written (most records never set it): the model default otherwise. */
const sparse = <F extends FieldSpec>(spec: F) => ({ ...spec, stored: "sparse" }) as const;

/**
 * The annotation model (`Annotation`, label_studio/tasks/models.py): its fields with kind, null-ness,
 * default and reference, in the order `AnnotationSerializer` renders them. The serializers below pick
 * from it; the stored record (src/contract/records.ts), the seed loader and the routes read it.
 */
export const annotationModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  /**
   * `AnnotationResultField` (a JSONField, not null on write) and `validate_result`: a string is
   * parsed with ujson, anything but a list is refused. The model default is None: a create
   * without `result` stores null.
   */
  result: {
    ...resultField,
    default: null,
    checks: [custom("annotation_result", "AnnotationSerializer.validate_result", 'annotation "result" field in annotation must be list')],
  },
  /** The author (SET_NULL): null once the user is gone. */
  completed_by: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "users" },
  /** `UUIDField(default=uuid4, editable=False)`: drawn at creation; the mock draws it when an export first needs it. */
  unique_id: sparse({ kind: "string", nullable: false, access: "write-only" }),
  was_cancelled: { kind: "boolean", nullable: false, access: "read-write", default: false },
  ground_truth: { kind: "boolean", nullable: false, access: "read-write", default: false },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  updated_at: { kind: "datetime", nullable: false, access: "read-only" },
  draft_created_at: sparse({ kind: "datetime", nullable: true, access: "read-write", default: null }),
  lead_time: { kind: "float", nullable: true, access: "read-write", default: null },
  import_id: sparse({ kind: "integer", nullable: true, access: "read-write", default: null, checks: int64 }),
  last_action: sparse({ kind: "choice", nullable: true, access: "read-write", default: null, choices: actionTypeChoices }),
  bulk_created: sparse({ kind: "boolean", nullable: true, access: "read-write", default: false }),
  /** CASCADE: the task owns its annotations (null-able in the model, never null in the store). */
  task: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "tasks", owner: true },
  /** The task's project, kept on the annotation for speed (CASCADE). */
  project: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "projects", owner: true },
  updated_by: sparse(ref("users")),
  parent_prediction: ref("predictions"),
  parent_annotation: sparse(ref("annotations")),
  last_created_by: sparse(ref("users")),
  /** JSONField(default=dict): rendered by the export only (`AnnotationSerializer` excludes it). */
  prediction: sparse({ kind: "dict", nullable: true, access: "read-only", default: {} }),
  /** Rendered by the export only. */
  result_count: sparse({ kind: "integer", nullable: false, access: "read-only", default: 0 }),
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The annotation model's defaults. */
export const annotationDefaults = defaultsOf(annotationModel);

/** The fields of `AnnotationSerializer`, with `completed_by` left to the variant. */
function annotationFields<C extends FieldSpec>(completedBy: C) {
  const m = annotationModel;
  return {
    id: m.id,
    result: m.result,
    /** `get_created_username`: "<first>[ <last>] <email>, <id>" ("" without an author). */
    created_username: { kind: "string", nullable: false, access: "read-only" },
    /** `Annotation.created_ago`: Django's `timesince(created_at)`. */
    created_ago: { kind: "string", nullable: false, access: "read-only" },
    completed_by: completedBy,
    ...pick(
      m,
      "unique_id",
      "was_cancelled",
      "ground_truth",
      "created_at",
      "updated_at",
      "draft_created_at",
      "lead_time",
      "import_id",
      "last_action",
      "bulk_created",
      "task",
      "project",
      "updated_by",
      "parent_prediction",
      "parent_annotation",
      "last_created_by",
    ),
  } as const;
}

/**
 * `label_studio/tasks/serializers.py` `AnnotationSerializer` (drf-flex-fields; Meta excludes
 * `prediction` and `result_count`, the FSM `state` is dropped while its flags are off) over the
 * `Annotation` model of `label_studio/tasks/models.py`. `completed_by` is a PrimaryKeyRelatedField
 * that refuses null on write.
 */
export const annotation = {
  source: "label_studio/tasks/serializers.py AnnotationSerializer",
  routes: [
    "GET /api/tasks/{id}/annotations/",
    "POST /api/tasks/{id}/annotations/",
    "GET /api/annotations/{id}/",
    "PATCH /api/annotations/{id}/",
    "PUT /api/annotations/{id}/",
    "GET /api/tasks/ (fields=all)",
  ],
  flex: true,
  fields: annotationFields({ ...annotationModel.completed_by, allowNull: false } as const),
} as const satisfies Declaration;

/**
 * The annotations of `GET /api/tasks/{id}/`: `TaskAPI.get` expands `annotations.completed_by`
 * (drf-flex-fields), so the author is a `CompletedByDMSerializer` object.
 */
export const annotationExpanded = {
  source: "label_studio/tasks/serializers.py AnnotationSerializer (expand=['completed_by'])",
  routes: ["GET /api/tasks/{id}/"],
  flex: true,
  fields: annotationFields({ kind: "nested", nullable: true, access: "read-only", of: completedByDm } as const),
} as const satisfies Declaration;
