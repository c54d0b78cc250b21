import { custom, resultField, type Declaration } from "./field.js";

/**
 * `label_studio/tasks/serializers.py` `PredictionSerializer` (a plain ModelSerializer, `__all__`)
 * over the `Prediction` model of `label_studio/tasks/models.py`. `result` is a required
 * JSONField that `Prediction.prepare_prediction_result` normalises on save (a list of dicts, a
 * dict under the first control tag whose type it names, a string or integer for a single-valued
 * tag); `model_version` is a CharField that accepts "" but not null, and defaults to "".
 */
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
    /** `Prediction.created_ago`: Django's `timesince(created_at)`. */
    created_ago: { kind: "string", nullable: false, access: "read-only" },
    score: { kind: "float", nullable: true, access: "read-write", default: null },
    cluster: { kind: "integer", nullable: true, access: "read-write", default: null },
    neighbors: { kind: "json", nullable: true, access: "read-write", default: null },
    mislabeling: { kind: "float", nullable: false, access: "read-write", default: 0 },
    created_at: { kind: "datetime", nullable: false, access: "read-only" },
    updated_at: { kind: "datetime", nullable: false, access: "read-only" },
    model: { kind: "pk", nullable: true, access: "read-write", default: null },
    model_run: { kind: "pk", nullable: true, access: "read-write", default: null },
    task: { kind: "pk", nullable: false, access: "read-write", required: true },
    project: { kind: "pk", nullable: true, access: "read-write", default: null },
  },
} as const satisfies Declaration;
