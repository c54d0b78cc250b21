import { custom, type Declaration } from "./field.js";

/** `MLBackendState` (label_studio/ml/models.py): the stored code and its display name (`readable_state`). */
export const mlBackendStates = { CO: "Connected", DI: "Disconnected", ER: "Error", TR: "Training", PR: "Predicting" } as const;
/** `MLBackendAuth`. */
export const mlBackendAuthMethods = ["NONE", "BASIC_AUTH"] as const;

/**
 * `label_studio/ml/serializers.py` `MLBackendSerializer` over `MLBackend` (label_studio/ml/models.py). A write
 * is checked against the model server itself (`validate`: basic auth complete, `GET /health`, `POST /setup`);
 * the password is write-only, its presence rendered as `basic_auth_pass_is_set`.
 */
export const mlBackend = {
  source: "label_studio/ml/serializers.py MLBackendSerializer",
  routes: ["GET /api/ml/", "POST /api/ml/", "GET /api/ml/{id}", "PATCH /api/ml/{id}", "PUT /api/ml/{id}"],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    state: {
      kind: "choice",
      nullable: false,
      access: "read-write",
      choices: Object.keys(mlBackendStates) as (keyof typeof mlBackendStates)[],
      default: "DI",
    },
    /** `get_state_display()`. */
    readable_state: { kind: "string", nullable: false, access: "read-only" },
    is_interactive: { kind: "boolean", nullable: false, access: "read-write", default: false },
    url: {
      kind: "string",
      nullable: false,
      access: "read-write",
      required: true,
      checks: [custom("url", "MLBackendSerializer.validate_url (core/utils/io.py validate_upload_url)", "Invalid URL")],
    },
    error_message: { kind: "string", nullable: true, access: "read-write", blank: true, default: null },
    title: { kind: "string", nullable: true, access: "read-write", blank: true, default: "default" },
    auth_method: { kind: "choice", nullable: false, access: "read-write", choices: mlBackendAuthMethods, default: "NONE" },
    basic_auth_user: { kind: "string", nullable: true, access: "read-write", blank: true, default: "" },
    basic_auth_pass: {
      kind: "string",
      nullable: true,
      access: "write-only",
      blank: true,
      checks: [
        custom(
          "basic_auth_pass",
          "MLBackendSerializer.validate_basic_auth_pass",
          "Authentication password is required for Basic Authentication.",
        ),
      ],
    },
    basic_auth_pass_is_set: { kind: "boolean", nullable: false, access: "read-only" },
    description: { kind: "string", nullable: true, access: "read-write", blank: true, default: "" },
    extra_params: { kind: "json", nullable: true, access: "read-write", default: null },
    model_version: { kind: "string", nullable: true, access: "read-write", blank: true, default: "" },
    timeout: { kind: "float", nullable: false, access: "read-write", default: 100 },
    created_at: { kind: "datetime", nullable: false, access: "read-only" },
    updated_at: { kind: "datetime", nullable: false, access: "read-only" },
    auto_update: { kind: "boolean", nullable: false, access: "read-write", default: true },
    project: { kind: "pk", nullable: false, access: "read-write", required: true },
  },
} as const satisfies Declaration;
