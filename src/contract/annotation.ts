import { custom, int64, resultField, type Declaration, type FieldSpec } from "./field.js";
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

const ref = { kind: "pk", nullable: true, access: "read-write", default: null } as const;

/** The fields of `AnnotationSerializer`, with `completed_by` left to the variant. */
function annotationFields<C extends FieldSpec>(completedBy: C) {
  return {
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
    /** `get_created_username`: "<first>[ <last>] <email>, <id>" ("" without an author). */
    created_username: { kind: "string", nullable: false, access: "read-only" },
    /** `Annotation.created_ago`: Django's `timesince(created_at)`. */
    created_ago: { kind: "string", nullable: false, access: "read-only" },
    completed_by: completedBy,
    unique_id: { kind: "string", nullable: false, access: "write-only" },
    was_cancelled: { kind: "boolean", nullable: false, access: "read-write", default: false },
    ground_truth: { kind: "boolean", nullable: false, access: "read-write", default: false },
    created_at: { kind: "datetime", nullable: false, access: "read-only" },
    updated_at: { kind: "datetime", nullable: false, access: "read-only" },
    draft_created_at: { kind: "datetime", nullable: true, access: "read-write", default: null },
    lead_time: { kind: "float", nullable: true, access: "read-write", default: null },
    import_id: { kind: "integer", nullable: true, access: "read-write", default: null, checks: int64 },
    last_action: { kind: "choice", nullable: true, access: "read-write", default: null, choices: actionTypeChoices },
    bulk_created: { kind: "boolean", nullable: true, access: "read-write", default: false },
    task: ref,
    project: ref,
    updated_by: ref,
    parent_prediction: ref,
    parent_annotation: ref,
    last_created_by: ref,
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
  fields: annotationFields({ kind: "pk", nullable: true, allowNull: false, access: "read-write" } as const),
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
