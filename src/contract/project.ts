import { custom, defaultsOf, int32, maxLength, minLength, pick, type Declaration, type FieldSpec } from "./field.js";
import { userSimple } from "./user.js";

/** `Project.SAMPLING_CHOICES` (label_studio/projects/models.py). */
export const samplingChoices = ["Sequential sampling", "Uniform sampling", "Uncertainty sampling"] as const;
/** `Project.SkipQueue` (label_studio/projects/models.py). */
export const skipQueueChoices = ["REQUEUE_FOR_ME", "REQUEUE_FOR_OTHERS", "IGNORE_SKIPPED"] as const;

/** A setting of the model (a BooleanField with its default) the store keeps only once written. */
const bool = (value: boolean) => ({ kind: "boolean", nullable: false, access: "read-write", default: value, stored: "sparse" }) as const;
/** A field the store keeps only once written (every record falls back to the model's default). */
const sparse = <F extends FieldSpec>(spec: F) => ({ ...spec, stored: "sparse" }) as const;
/** A counter of the `Project.objects.with_counts()` queryset: null where the project was not loaded with it (a create's answer). */
const counter = { kind: "integer", nullable: true, access: "read-only" } as const;

/**
 * The project model (`Project`, label_studio/projects/models.py): its fields with kind, null-ness,
 * default, length limits and reference, in the order `ProjectSerializer` renders them. The store
 * keeps the few fields every project has, and the other settings once something writes them
 * (`stored: "sparse"`): a project's setting is its own or the model's default.
 */
export const projectModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  /** CharField(null, blank, default '', max_length PROJECT_TITLE_MAX_LEN, MinLengthValidator(PROJECT_TITLE_MIN_LEN)). */
  title: { kind: "string", nullable: true, access: "read-write", blank: true, default: "", checks: [maxLength(50), minLength(3)] },
  description: { kind: "string", nullable: true, access: "read-write", blank: true, default: "" },
  label_config: {
    kind: "string",
    nullable: true,
    access: "read-write",
    blank: true,
    default: "<View></View>",
    checks: [
      custom(
        "label_config",
        "ProjectSerializer.validate_label_config (Project.validate_label_config)",
        "the server parses the XML and checks it against its schema",
      ),
    ],
  },
  /** Cleaned with bleach (SAFE_HTML_TAGS) by `ProjectSerializer.to_internal_value`. */
  expert_instruction: sparse({ kind: "string", nullable: true, access: "read-write", blank: true, default: "" }),
  show_instruction: bool(false),
  show_skip_button: { kind: "boolean", nullable: false, access: "read-write", default: true },
  enable_empty_annotation: bool(true),
  show_annotation_history: bool(false),
  /** The mock has one organization: every project's, never stored. */
  organization: { kind: "pk", nullable: true, access: "read-write", stored: "computed" },
  color: sparse({
    kind: "string",
    nullable: true,
    access: "read-write",
    blank: true,
    default: "#FFFFFF",
    checks: [maxLength(16), custom("color", "ProjectSerializer.validate_color", 'Color must be in "#RRGGBB" format')],
  }),
  maximum_annotations: sparse({ kind: "integer", nullable: false, access: "read-write", default: 1, checks: int32 }),
  is_published: bool(false),
  /**
   * A seeded project has no model version (`seedDefault` null, the seed format's own, not the model's
   * ""): every prediction counts for predictions_score, as the engine filters by a version that is not None.
   */
  model_version: {
    kind: "string",
    nullable: true,
    access: "read-write",
    blank: true,
    default: "",
    seedDefault: null,
    checks: [
      custom(
        "model_version",
        "ProjectSerializer.validate_model_version",
        "Model version doesn't exist either as live model or as static predictions.",
      ),
    ],
  },
  is_draft: bool(false),
  /** The project's author (SET_NULL); the serializer renders it nested (`UserSimpleSerializer`). */
  created_by: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "users" },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  min_annotations_to_start_training: sparse({ kind: "integer", nullable: false, access: "read-write", default: 0, checks: int32 }),
  show_collab_predictions: bool(true),
  sampling: sparse({ kind: "choice", nullable: true, access: "read-write", default: "Sequential sampling", choices: samplingChoices }),
  show_ground_truth_first: bool(false),
  annotator_evaluation_enabled: bool(false),
  show_overlap_first: bool(false),
  overlap_cohort_percentage: sparse({ kind: "integer", nullable: false, access: "read-write", default: 100, checks: int32 }),
  task_data_login: sparse({ kind: "string", nullable: true, access: "read-write", blank: true, default: null, checks: [maxLength(256)] }),
  task_data_password: sparse({
    kind: "string",
    nullable: true,
    access: "read-write",
    blank: true,
    default: null,
    checks: [maxLength(256)],
  }),
  control_weights: sparse({ kind: "json", nullable: true, access: "read-write", default: {} }),
  evaluate_predictions_automatically: bool(false),
  skip_queue: sparse({ kind: "choice", nullable: true, access: "read-write", default: "REQUEUE_FOR_OTHERS", choices: skipQueueChoices }),
  reveal_preannotations_interactively: bool(false),
  pinned_at: sparse({ kind: "datetime", nullable: true, access: "read-write", default: null }),
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The project model's defaults (every setting's, `maximum_annotations` 1, `skip_queue` REQUEUE_FOR_OTHERS, …). */
export const projectDefaults = defaultsOf(projectModel);

/** What the mock keeps with a project in a form of its own (the stored `ProjectRecord`, records.ts). */
export const projectOwn = {
  /** Never null in the store: a seed and a write refuse it (`validate_label_config` parses the text). */
  label_config: { ...projectModel.label_config, nullable: false },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/**
 * `label_studio/projects/serializers.py` `ProjectSerializer` (a drf-flex-fields serializer) over
 * the `Project` model: the model gives null-ness, defaults and length limits, the serializer its
 * `validate_<field>` methods and the computed fields. `ProjectListAPI` and `ProjectAPI`
 * (`label_studio/projects/api.py`) render it.
 */
export const project = {
  source: "label_studio/projects/serializers.py ProjectSerializer",
  routes: ["GET /api/projects/", "POST /api/projects/", "GET /api/projects/{id}/", "PATCH /api/projects/{id}/", "PUT /api/projects/{id}/"],
  flex: true,
  fields: {
    ...pick(
      projectModel,
      "id",
      "title",
      "description",
      "label_config",
      "expert_instruction",
      "show_instruction",
      "show_skip_button",
      "enable_empty_annotation",
      "show_annotation_history",
      "organization",
      "color",
      "maximum_annotations",
      "is_published",
      "model_version",
      "is_draft",
    ),
    /** Nested `UserSimpleSerializer(default=CreatedByFromContext())`: the caller on create. */
    created_by: { kind: "nested", nullable: true, access: "read-write", of: userSimple },
    ...pick(projectModel, "created_at", "min_annotations_to_start_training"),
    /** A method field: `bool(min_annotations_to_start_training)`; a write sets that field to `int(value)`. */
    start_training_on_annotation_update: { kind: "boolean", nullable: false, access: "read-only" },
    show_collab_predictions: projectModel.show_collab_predictions,
    num_tasks_with_annotations: counter,
    task_number: counter,
    useful_annotation_number: counter,
    ground_truth_number: counter,
    skipped_annotations_number: counter,
    total_annotations_number: counter,
    total_predictions_number: counter,
    ...pick(
      projectModel,
      "sampling",
      "show_ground_truth_first",
      "annotator_evaluation_enabled",
      "show_overlap_first",
      "overlap_cohort_percentage",
      "task_data_login",
      "task_data_password",
      "control_weights",
    ),
    /** `Project.get_parsed_config()`: the control tags of the label config. */
    parsed_label_config: { kind: "json", nullable: true, access: "read-only" },
    evaluate_predictions_automatically: projectModel.evaluate_predictions_automatically,
    config_has_control_tags: { kind: "boolean", nullable: false, access: "read-only" },
    ...pick(projectModel, "skip_queue", "reveal_preannotations_interactively", "pinned_at"),
    finished_task_number: counter,
    /** Per caller: tasks not labeled and not annotated by the caller, plus tasks the caller annotated. */
    queue_total: { kind: "integer", nullable: false, access: "read-only" },
    /** Per caller: tasks the caller annotated (not counting skips under REQUEUE_FOR_ME). */
    queue_done: { kind: "integer", nullable: false, access: "read-only" },
    config_suitable_for_bulk_annotation: { kind: "boolean", nullable: false, access: "read-only" },
    /** `FSMStateField`: null while the FSM feature flags are off (their default). */
    state: { kind: "string", nullable: true, access: "read-only" },
  },
} as const satisfies Declaration;

const validateLabelConfig = custom(
  "label_config",
  "ProjectLabelConfigSerializer.validate_label_config (Project.validate_label_config)",
  "the server parses the XML and checks it against its schema",
);

/**
 * `label_studio/projects/serializers.py` `ProjectLabelConfigSerializer`: the body of both validate routes,
 * and what `GET /api/projects/{id}/validate/` renders.
 */
export const projectLabelConfig = {
  source: "label_studio/projects/serializers.py ProjectLabelConfigSerializer",
  routes: ["POST /api/projects/validate/", "GET /api/projects/{id}/validate/", "POST /api/projects/{id}/validate/"],
  flex: false,
  fields: {
    label_config: { kind: "string", nullable: false, access: "read-write", required: true, checks: [validateLabelConfig] },
  },
} as const satisfies Declaration;

/**
 * `ProjectLabelConfigValidateAPI.post` (label_studio/projects/api.py): whether the new config changes a control
 * (`config_essential_data_has_changed`), `true` or `null`, never `false`.
 */
export const configChange = {
  source: "label_studio/projects/api.py ProjectLabelConfigValidateAPI.post",
  routes: ["POST /api/projects/{id}/validate/"],
  flex: false,
  fields: {
    config_essential_data_has_changed: { kind: "boolean", nullable: true, access: "read-only" },
  },
} as const satisfies Declaration;

/**
 * `label_studio/projects/serializers.py` `ProjectModelVersionExtendedSerializer`: one model version of
 * `GET /api/projects/{id}/model-versions/?extended=1` (`static`), newest prediction first.
 */
export const modelVersionExtended = {
  source: "label_studio/projects/serializers.py ProjectModelVersionExtendedSerializer",
  routes: ["GET /api/projects/{id}/model-versions/?extended=1"],
  flex: false,
  fields: {
    model_version: { kind: "string", nullable: false, access: "read-only" },
    count: { kind: "integer", nullable: false, access: "read-only" },
    latest: { kind: "datetime", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

/**
 * `label_studio/data_manager/api.py` `ProjectStateAPI.get`: the Data Manager's project state, `ProjectSerializer`
 * (without a request: the counters render null) and these keys after it.
 */
export const dmProjectState = {
  source: "label_studio/data_manager/api.py ProjectStateAPI.get",
  routes: ["GET /api/dm/project/"],
  flex: false,
  fields: {
    ...project.fields,
    can_delete_tasks: { kind: "boolean", nullable: false, access: "read-only" },
    can_manage_annotations: { kind: "boolean", nullable: false, access: "read-only" },
    can_manage_tasks: { kind: "boolean", nullable: false, access: "read-only" },
    source_syncing: { kind: "boolean", nullable: false, access: "read-only" },
    target_syncing: { kind: "boolean", nullable: false, access: "read-only" },
    /** `project.tasks.count()`. */
    task_count: { kind: "integer", nullable: false, access: "read-only" },
    /** Every annotation of the project, cancelled ones too. */
    annotation_count: { kind: "integer", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;
