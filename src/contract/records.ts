import type { JsonValue } from "../vocabulary/json.js";
import type { annotationModel } from "./annotation.js";
import type { draftModel } from "./draft.js";
import type { FieldSpec } from "./field.js";
import type { predictionModel } from "./prediction.js";

/** The value the store keeps for a field kind (before null-ness): read-only arrays and objects. */
interface StoredKinds<F extends FieldSpec> {
  integer: number;
  float: number;
  pk: number;
  string: string;
  /** In the server's timestamp form (src/vocabulary/timestamps.ts). */
  datetime: string;
  boolean: boolean;
  json: JsonValue;
  dict: { readonly [key: string]: JsonValue };
  list: readonly JsonValue[];
  pks: readonly number[];
  integers: readonly number[];
  choice: F["choices"] extends readonly (infer C)[] ? C : string;
  strings: readonly string[];
  "string-or-strings": string | readonly string[];
  nested: never;
  "nested-list": never;
}

type Table = Readonly<Record<string, FieldSpec>>;
/** A field whose stored value may be null: null-able in the model, and not an owned reference (never null in the store). */
type Nullable = { readonly nullable: true; readonly owner?: undefined };
/** The fields every stored record holds, and those it holds once written (`stored: "sparse"`). */
type Kept<M extends Table, Own> = Exclude<{ [K in keyof M]: M[K] extends { readonly stored: string } ? never : K }[keyof M], keyof Own>;
type Sparse<M extends Table, Own> = Exclude<{ [K in keyof M]: M[K] extends { readonly stored: "sparse" } ? K : never }[keyof M], keyof Own>;

/**
 * The record the store keeps for a model table: every field but the `computed` ones, typed by kind
 * and null-ness, `sparse` ones optional. `Own` gives the fields the mock keeps in a form of its own
 * (a narrower kind, a field the server keeps elsewhere), with a comment at the use saying why.
 */
export type StoredRecord<M extends Table, Own = {}> = {
  readonly [K in Kept<M, Own>]: StoredKinds<M[K]>[M[K]["kind"]] | (M[K] extends Nullable ? null : never);
} & {
  readonly [K in Sparse<M, Own>]?: StoredKinds<M[K]>[M[K]["kind"]] | (M[K] extends Nullable ? null : never);
} & Own;

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

/** A stored annotation: the annotation model's fields (src/contract/annotation.ts). */
export interface AnnotationRecord extends StoredRecord<typeof annotationModel> {}

/** A stored prediction: the prediction model's fields (src/contract/prediction.ts). */
export interface PredictionRecord extends StoredRecord<typeof predictionModel> {}

/**
 * A stored annotation draft (it counts for `draft_exists`): the draft model's fields
 * (src/contract/draft.ts). The model's `result` is any JSON; the mock keeps a list (or null, a
 * converted annotation's), and refuses other drafts with a message saying so.
 */
export interface DraftRecord extends StoredRecord<typeof draftModel, { readonly result: readonly JsonValue[] | null }> {}

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
