import { custom, defaultsOf, pick, resultField, type Declaration, type FieldSpec } from "./field.js";

/**
 * The prediction model (`Prediction`, label_studio/tasks/models.py): its fields with kind, null-ness,
 * default and reference, in the order `PredictionSerializer` (`__all__`) renders them. `result` is a
 * required JSONField that `Prediction.prepare_prediction_result` normalises on save (a list of dicts,
 * a dict under the first control tag whose type it names, a string or integer for a single-valued
 * tag); `model_version` is a CharField that accepts "" but not null, and defaults to "".
 */
export const predictionModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  result: {
    ...resultField,
    required: true,
    checks: [
      custom(
        "prediction_result",
        "Prediction.prepare_prediction_result (label_studio/tasks/models.py)",
        "Each item in prediction result should be dict",
      ),
    ],
  },
  model_version: { kind: "string", nullable: true, allowNull: false, access: "read-write", blank: true, default: "" },
  score: { kind: "float", nullable: true, access: "read-write", default: null },
  cluster: { kind: "integer", nullable: true, access: "read-write", default: null, stored: "sparse" },
  neighbors: { kind: "json", nullable: true, access: "read-write", default: null, stored: "sparse" },
  mislabeling: { kind: "float", nullable: false, access: "read-write", default: 0, stored: "sparse" },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  updated_at: { kind: "datetime", nullable: false, access: "read-only" },
  /** The ML backend that made it (`MLBackend`, any project's; CASCADE: deleting the backend deletes its predictions). */
  model: { kind: "pk", nullable: true, access: "read-write", default: null, stored: "sparse", ref: "ml_backends" },
  /** A run of a model version (`ml_models.ModelRun`): the community server has no route that makes one, so no id exists. */
  model_run: { kind: "pk", nullable: true, access: "read-write", default: null, stored: "sparse" },
  task: { kind: "pk", nullable: false, access: "read-write", required: true, ref: "tasks", owner: true },
  /** The task's project, kept on the prediction for speed (CASCADE; null-able in the model, never null in the store). */
  project: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "projects", owner: true },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The prediction model's defaults. */
export const predictionDefaults = defaultsOf(predictionModel);

/** `label_studio/tasks/serializers.py` `PredictionSerializer` (a plain ModelSerializer, `__all__`). */
export const prediction = {
  source: "label_studio/tasks/serializers.py PredictionSerializer",
  routes: [
    "GET /api/predictions/",
    "POST /api/predictions/",
    "GET /api/predictions/{id}/",
    "PATCH /api/predictions/{id}/",
    "PUT /api/predictions/{id}/",
    "GET /api/tasks/{id}/",
    "GET /api/tasks/ (fields=all)",
  ],
  flex: false,
  fields: {
    ...pick(predictionModel, "id", "result", "model_version"),
    /** `Prediction.created_ago`: Django's `timesince(created_at)`. */
    created_ago: { kind: "string", nullable: false, access: "read-only" },
    ...pick(
      predictionModel,
      "score",
      "cluster",
      "neighbors",
      "mislabeling",
      "created_at",
      "updated_at",
      "model",
      "model_run",
      "task",
      "project",
    ),
  },
} as const satisfies Declaration;
