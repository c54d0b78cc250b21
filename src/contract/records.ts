import type { JsonValue } from "../vocabulary/json.js";

/**
 * Stored records, as the mock server keeps them and as its seed file holds them
 * (docs/mock-server.md#seed-data). Field names are the server's. Derived columns (completed_at,
 * total_annotations, …) are never stored: the engine computes them (see DerivedColumns).
 */
export interface UserRecord {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly first_name: string;
  readonly last_name: string;
  /** The legacy API key of this user (secret: never log it). */
  readonly token?: string;
  readonly date_joined?: string;
  readonly last_activity?: string;
  readonly phone?: string;
  readonly allow_newsletters?: boolean | null;
  readonly custom_hotkeys?: { readonly [key: string]: JsonValue } | null;
  /** null: a user made by `POST /api/users/`, added to the organization but never switched into it (absent: the organization). */
  readonly active_organization?: null;
}

/** A stored project (the fields the engine reads, and any others). */
export interface ProjectRecord {
  readonly id: number;
  readonly title: string;
  readonly label_config: string;
  /** When set, only predictions of this model version count for predictions_score. */
  readonly model_version: string | null;
  readonly [field: string]: JsonValue | undefined;
}

/** A stored task, as a seed file holds it. */
export interface TaskRecord {
  readonly id: number;
  readonly project: number;
  readonly data: { readonly [key: string]: JsonValue };
  readonly meta?: { readonly [key: string]: JsonValue };
  readonly created_at: string;
  readonly updated_at: string;
  readonly updated_by: number | null;
  readonly file_upload: string | null;
  readonly storage_filename: string | null;
  /** Per-project id starting at 1, assigned once at creation (never renumbered). */
  readonly inner_id?: number;
  /** Annotations needed for the task to count as labeled (server default 1). */
  readonly overlap?: number;
  readonly unresolved_comment_count?: number;
  /**
   * The stored `is_labeled`, when a write set it by a rule of its own (an import counts cancelled
   * annotations too); absent, it is computed from the annotations. A change to the task's
   * annotations drops it, as the server recomputes the flag then.
   */
  readonly is_labeled?: boolean;
}

/** A stored annotation. */
export interface AnnotationRecord {
  readonly id: number;
  readonly task: number;
  readonly project: number;
  readonly result: readonly JsonValue[] | null;
  readonly completed_by: number | null;
  readonly was_cancelled: boolean;
  readonly ground_truth: boolean;
  readonly lead_time: number | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly parent_prediction?: number | null;
  /** Fields the server stores as written (AnnotationSerializer) and renders back. */
  readonly updated_by?: number | null;
  readonly draft_created_at?: string | null;
  readonly import_id?: number | null;
  readonly last_action?: string | null;
  readonly bulk_created?: boolean | null;
  readonly parent_annotation?: number | null;
  readonly last_created_by?: number | null;
  /** Model fields only the export serializer renders: a UUID drawn at creation, `prediction` (a JSONField, `{}`), `result_count` (0). */
  readonly unique_id?: string;
  readonly prediction?: { readonly [key: string]: JsonValue } | null;
  readonly result_count?: number;
}

/** A stored prediction. */
export interface PredictionRecord {
  readonly id: number;
  readonly task: number;
  readonly project: number;
  readonly result: readonly JsonValue[] | null;
  readonly score: number | null;
  readonly model_version: string | null;
  readonly created_at: string;
  readonly updated_at?: string;
  /** Fields the server stores as written (PredictionSerializer) and renders back. */
  readonly cluster?: number | null;
  readonly neighbors?: JsonValue;
  readonly mislabeling?: number;
  readonly model?: number | null;
  readonly model_run?: number | null;
}

/** A stored annotation draft (it counts for `draft_exists`). */
export interface DraftRecord {
  readonly id: number;
  readonly task: number;
  readonly user: number;
  readonly result: readonly JsonValue[] | null;
  readonly created_at: string;
  readonly updated_at?: string;
  readonly lead_time?: number | null;
  readonly was_postponed?: boolean;
  readonly import_id?: number | null;
  readonly annotation?: number | null;
}

/**
 * A registered ML backend (`MLBackend`, label_studio/ml/models.py): a model server the mock calls over
 * HTTP for predictions. `state` is the server's two-letter code (CO connected, DI disconnected, ER error,
 * TR training, PR predicting).
 */
export interface MLBackendRecord {
  readonly id: number;
  readonly project: number;
  readonly url: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly state: string;
  readonly is_interactive: boolean;
  readonly error_message: string | null;
  readonly auth_method: string;
  readonly basic_auth_user: string | null;
  /** A secret: sent to the model server only, never rendered or logged. */
  readonly basic_auth_pass: string | null;
  readonly extra_params: JsonValue;
  readonly model_version: string | null;
  readonly timeout: number;
  readonly auto_update: boolean;
  readonly created_at: string;
  readonly updated_at: string;
}
