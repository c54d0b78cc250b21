import { defaultsOf, pick, resultField, type Declaration, type FieldSpec } from "./field.js";

/**
 * The draft model (`AnnotationDraft`, label_studio/tasks/models.py): its fields with kind, null-ness,
 * default and reference, in the order `AnnotationDraftSerializer` renders them. `user` is the
 * author (CASCADE); the serializer renders it as a CharField (below).
 */
export const draftModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  user: { kind: "pk", nullable: false, access: "read-write", ref: "users", owner: true },
  result: { kind: "json", nullable: false, access: "read-write", required: true },
  lead_time: { kind: "float", nullable: true, access: "read-write", default: null, stored: "sparse" },
  was_postponed: { kind: "boolean", nullable: false, access: "read-write", default: false, stored: "sparse" },
  import_id: { kind: "integer", nullable: true, access: "read-write", default: null, stored: "sparse" },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  updated_at: { kind: "datetime", nullable: false, access: "read-only" },
  /** CASCADE: the task owns its drafts (null-able in the model, never null in the store). */
  task: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "tasks", owner: true },
  /** The annotation the draft edits (CASCADE), null for a draft of a new one. */
  annotation: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "annotations", stored: "sparse" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The draft model's defaults. */
export const draftDefaults = defaultsOf(draftModel);

/** What the mock keeps with a draft in a form of its own (the stored `DraftRecord`, records.ts). */
export const draftOwn = {
  /**
   * The model's `result` is any JSON; the mock keeps a list (or null, a converted annotation's), and
   * refuses other drafts with a message saying so.
   */
  result: resultField,
} as const satisfies Readonly<Record<string, FieldSpec>>;

/**
 * `label_studio/tasks/serializers.py` `AnnotationDraftSerializer` (`__all__`, the FSM `state`
 * dropped while its flags are off) over `AnnotationDraft`. `user` is a CharField over the user
 * object, so it renders `str(user)`: the user's email (`User.USERNAME_FIELD`). The Data Manager
 * renders only the caller's drafts (`DataManagerTaskSerializer.get_drafts_queryset`).
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
    id: draftModel.id,
    user: { kind: "string", nullable: false, access: "read-write" },
    /** `get_created_username`: "<first>[ <last>] <email>, <id>". */
    created_username: { kind: "string", nullable: false, access: "read-only" },
    created_ago: { kind: "string", nullable: false, access: "read-only" },
    ...pick(draftModel, "result", "lead_time", "was_postponed", "import_id", "created_at", "updated_at", "task", "annotation"),
  },
} as const satisfies Declaration;
