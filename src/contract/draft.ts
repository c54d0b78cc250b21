import type { Declaration } from "./field.js";

/**
 * `label_studio/tasks/serializers.py` `AnnotationDraftSerializer` (`__all__`, the FSM `state`
 * dropped while its flags are off) over `AnnotationDraft` (label_studio/tasks/models.py). `user`
 * is a CharField over the user object, so it renders `str(user)`: the user's email
 * (`User.USERNAME_FIELD`). The Data Manager renders only the caller's drafts
 * (`DataManagerTaskSerializer.get_drafts_queryset`).
 */
export const draft = {
  source: "label_studio/tasks/serializers.py AnnotationDraftSerializer",
  routes: [
    "GET /api/tasks/{id}/",
    "GET /api/tasks/ (fields=all)",
    "GET /api/tasks/{id}/drafts",
    "POST /api/tasks/{id}/drafts",
    "POST /api/tasks/{id}/annotations/{annotation_id}/drafts",
    "GET /api/drafts/{id}/",
    "PATCH /api/drafts/{id}/",
    "PUT /api/drafts/{id}/",
    "POST /api/annotations/{id}/convert-to-draft",
  ],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    user: { kind: "string", nullable: false, access: "read-write" },
    /** `get_created_username`: "<first>[ <last>] <email>, <id>". */
    created_username: { kind: "string", nullable: false, access: "read-only" },
    created_ago: { kind: "string", nullable: false, access: "read-only" },
    result: { kind: "json", nullable: false, access: "read-write", required: true },
    lead_time: { kind: "float", nullable: true, access: "read-write", default: null },
    was_postponed: { kind: "boolean", nullable: false, access: "read-write", default: false },
    import_id: { kind: "integer", nullable: true, access: "read-write", default: null },
    created_at: { kind: "datetime", nullable: false, access: "read-only" },
    updated_at: { kind: "datetime", nullable: false, access: "read-only" },
    task: { kind: "pk", nullable: true, access: "read-write", default: null },
    annotation: { kind: "pk", nullable: true, access: "read-write", default: null },
  },
} as const satisfies Declaration;
