import { custom, defaultsOf, pick, type Declaration, type FieldSpec } from "./field.js";

/** `MLBackendState` (label_studio/ml/models.py): the stored code and its display name (`readable_state`). */
export const mlBackendStates = { CO: "Connected", DI: "Disconnected", ER: "Error", TR: "Training", PR: "Predicting" } as const;
/** `MLBackendAuth`. */
export const mlBackendAuthMethods = ["NONE", "BASIC_AUTH"] as const;

/**
 * The ML backend model (`MLBackend`, label_studio/ml/models.py): its fields with kind, null-ness,
 * default and reference, in the order `MLBackendSerializer` renders them. A write is checked against
 * the model server itself (`validate`: basic auth complete, `GET /health`, `POST /setup`); the password
 * is write-only, its presence rendered as `basic_auth_pass_is_set`.
 */
export const mlBackendModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  state: {
    kind: "choice",
    nullable: false,
    access: "read-write",
    choices: Object.keys(mlBackendStates) as (keyof typeof mlBackendStates)[],
    default: "DI",
  },
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
    default: "",
    checks: [
      custom(
        "basic_auth_pass",
        "MLBackendSerializer.validate_basic_auth_pass",
        "Authentication password is required for Basic Authentication.",
      ),
    ],
  },
  description: { kind: "string", nullable: true, access: "read-write", blank: true, default: "" },
  extra_params: { kind: "json", nullable: true, access: "read-write", default: null },
  model_version: { kind: "string", nullable: true, access: "read-write", blank: true, default: "" },
  timeout: { kind: "float", nullable: false, access: "read-write", default: 100 },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  updated_at: { kind: "datetime", nullable: false, access: "read-only" },
  auto_update: { kind: "boolean", nullable: false, access: "read-write", default: true },
  project: { kind: "pk", nullable: false, access: "read-write", required: true, ref: "projects", owner: true },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The ML backend model's defaults. */
export const mlBackendDefaults = defaultsOf(mlBackendModel);

/** `label_studio/ml/serializers.py` `MLBackendSerializer` over `MLBackend`. */
export const mlBackend = {
  source: "label_studio/ml/serializers.py MLBackendSerializer",
  routes: ["GET /api/ml/", "POST /api/ml/", "GET /api/ml/{id}", "PATCH /api/ml/{id}", "PUT /api/ml/{id}"],
  flex: false,
  fields: {
    ...pick(mlBackendModel, "id", "state"),
    /** `get_state_display()`. */
    readable_state: { kind: "string", nullable: false, access: "read-only" },
    ...pick(mlBackendModel, "is_interactive", "url", "error_message", "title", "auth_method", "basic_auth_user", "basic_auth_pass"),
    basic_auth_pass_is_set: { kind: "boolean", nullable: false, access: "read-only" },
    ...pick(
      mlBackendModel,
      "description",
      "extra_params",
      "model_version",
      "timeout",
      "created_at",
      "updated_at",
      "auto_update",
      "project",
    ),
  },
} as const satisfies Declaration;
