import type { JsonValue } from "../vocabulary/json.js";
import type { annotationModel } from "./annotation.js";
import type { draftModel } from "./draft.js";
import type { convertedFormatModel, exportModel } from "./export.js";
import type { mlBackendModel } from "./ml-backend.js";
import type { viewModel } from "./view.js";
import type { FieldSpec, KindTypes } from "./field.js";
import type { predictionModel } from "./prediction.js";
import type { projectModel } from "./project.js";
import type { taskModel } from "./task.js";
import type { userModel } from "./user.js";

/** Kinds whose stored value differs from the rendered one (read-only containers; nested serializers are never stored). */
type Containers = "dict" | "list" | "pks" | "integers" | "strings" | "string-or-strings" | "nested" | "nested-list";

/**
 * The value the store keeps for a field kind (before null-ness): the rendered kind map (field.ts
 * `KindTypes`), with read-only arrays and objects. A `datetime` is kept in the server's timestamp
 * form (src/vocabulary/timestamps.ts).
 */
interface StoredKinds<F extends FieldSpec> extends Omit<KindTypes<F>, Containers> {
  dict: { readonly [key: string]: JsonValue };
  list: readonly JsonValue[];
  pks: readonly number[];
  integers: readonly number[];
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
 * (docs/mock-server.md#seed-data): each the `StoredRecord` of its model table. Field names are the
 * server's. Derived columns (completed_at, total_annotations, …) are never stored: the engine
 * computes them (see DerivedColumns).
 */

/** A stored user: the user model's fields (src/contract/user.ts) and the user's legacy API key. */
export interface UserRecord
  extends StoredRecord<
    typeof userModel,
    {
      /**
       * The legacy API key (the server keeps it in authtoken's `Token`, one per user). A secret: never
       * log it; the engine's records never hold a user.
       */
      readonly token?: string;
    }
  > {}

/**
 * A stored project: the project model's fields (src/contract/project.ts), the settings no one wrote
 * left out (the model's default), and any other field a seed gives, kept as it is.
 */
export interface ProjectRecord
  extends StoredRecord<
    typeof projectModel,
    {
      /** Never null in the store: a seed and a write refuse it (`validate_label_config` parses the text). */
      readonly label_config: string;
    }
  > {
  readonly [field: string]: JsonValue | undefined;
}

/**
 * A stored task: the task model's fields (src/contract/task.ts) but the counters the engine computes,
 * `is_labeled` once a write set it, and the task's file and storage link in the mock's own form.
 */
export interface TaskRecord
  extends StoredRecord<
    typeof taskModel,
    {
      /**
       * The upload's file path, null without one. The server keeps a `FileUpload` record and the task
       * its pk; the mock keeps no uploads, only the path the Data Manager's `file_upload` column shows
       * (its basename) and filters.
       */
      readonly file_upload: string | null;
      /**
       * Not a Task field: the key of the task's import storage link (the server keeps the links in
       * io_storages and `annotate_storage_filename` joins them); the mock keeps the one link with the
       * task, null without one.
       */
      readonly storage_filename: string | null;
      /**
       * Numbered per project when the task is created, never null (the model's default 0 is never
       * what a task gets): a seed's tasks without one are numbered after the load.
       */
      readonly inner_id: number;
    }
  > {}

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
 * HTTP for predictions; the ML backend model's fields (src/contract/ml-backend.ts). `basic_auth_pass`
 * is a secret: sent to the model server only, never rendered or logged.
 */
export interface MLBackendRecord extends StoredRecord<typeof mlBackendModel> {}

/**
 * A saved Data Manager view as the mock keeps it: the view model's fields (src/contract/view.ts).
 * `data` holds the wire form the server reads back (`title`, `filters` with plural `child_filters`,
 * `ordering`, `selectedItems`, `columnsDisplayType`, …), never null; `order` is numbered per project
 * when a view is created or seeded, never null.
 */
export interface ViewRecord
  extends StoredRecord<typeof viewModel, { readonly data: { readonly [key: string]: JsonValue }; readonly order: number }> {}

/**
 * An export snapshot (`Export`): the snapshot model's fields (src/contract/export.ts), plus the file
 * it wrote. The server keeps the file in its media storage under `file`; the mock keeps the text with
 * the record, so a snapshot survives a restart of a persisting mock as it does there.
 */
export interface ExportRecord
  extends StoredRecord<
    typeof exportModel,
    {
      /** The file's text (the standard library's JSON of the exported tasks); null until written. */
      readonly content: string | null;
    }
  > {}

/**
 * A conversion of a snapshot (`ConvertedFormat`, src/contract/export.ts): the mock converts on
 * download, as the server does (see docs/reference/exports.md).
 */
export interface ConvertedFormatRecord extends StoredRecord<typeof convertedFormatModel, { readonly created_at: string }> {}
