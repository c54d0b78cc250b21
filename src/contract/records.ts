import type { JsonValue } from "../vocabulary/json.js";
import type { annotationModel } from "./annotation.js";
import type { draftModel, draftOwn } from "./draft.js";
import type { convertedFormatModel, convertedFormatOwn, exportModel, exportOwn } from "./export.js";
import type { fileUploadModel, fileUploadOwn } from "./file-upload.js";
import type { mlBackendModel } from "./ml-backend.js";
import type { organizationModel } from "./organization.js";
import type { viewModel, viewOwn } from "./view.js";
import type { FieldSpec, KindTypes } from "./field.js";
import type { predictionModel } from "./prediction.js";
import type { projectModel, projectOwn } from "./project.js";
import type { taskModel, taskOwn } from "./task.js";
import type { userModel, userOwn } from "./user.js";

/** Nested serializers are never stored. */
type NotStored = "nested" | "nested-list";
/** A rendered array or object as the store keeps it: read-only (the store replaces a value, never changes it in place). */
type ReadOnly<T> = T extends readonly (infer E)[] ? readonly E[] : T extends object ? { readonly [K in keyof T]: T[K] } : T;

/**
 * The value the store keeps for a field kind (before null-ness): the rendered kind map (field.ts
 * `KindTypes`, the one kind map), its arrays and objects read-only; a `json` value as it is. A
 * `datetime` is kept in the server's timestamp form (src/vocabulary/timestamps.ts).
 */
type StoredKinds<F extends FieldSpec> = {
  [K in Exclude<keyof KindTypes<F>, NotStored>]: K extends "json" ? KindTypes<F>[K] : ReadOnly<KindTypes<F>[K]>;
} & { [K in NotStored]: never };

type Table = Readonly<Record<string, FieldSpec>>;
/** A field whose stored value may be null: null-able in the model, and not an owned reference (never null in the store). */
type Nullable = { readonly nullable: true; readonly owner?: undefined };
/** The fields every stored record holds, and those it holds once written (`stored: "sparse"`). */
type Kept<T> = { [K in keyof T]: T[K] extends { readonly stored: "sparse" | "computed" } ? never : K }[keyof T];
type Sparse<T> = { [K in keyof T]: T[K] extends { readonly stored: "sparse" } ? K : never }[keyof T];
type Of<T extends Table> = {
  readonly [K in Kept<T>]: StoredKinds<T[K]>[T[K]["kind"]] | (T[K] extends Nullable ? null : never);
} & {
  readonly [K in Sparse<T>]?: StoredKinds<T[K]>[T[K]["kind"]] | (T[K] extends Nullable ? null : never);
};

/**
 * The record the store keeps for a model table: every field but the `computed` ones, typed by kind
 * and null-ness, `sparse` ones optional. `Own` is the table of the fields the mock keeps in a form of
 * its own (a narrower kind, a field the server keeps elsewhere), each saying why at its entry; the
 * store's whole table is `storedTable(model, own)` (field.ts).
 */
export type StoredRecord<M extends Table, Own extends Table = {}> = Of<Omit<M, keyof Own> & Own>;

/**
 * Stored records, as the mock server keeps them and as its seed file holds them
 * (docs/mock-server.md#seed-data): each the `StoredRecord` of its model table. Field names are the
 * server's. Derived columns (completed_at, total_annotations, …) are never stored: the engine
 * computes them (see DerivedColumns).
 */

/** A stored user: the user model's fields (src/contract/user.ts) and the user's legacy API key (`userOwn`). */
export interface UserRecord extends StoredRecord<typeof userModel, typeof userOwn> {}

/**
 * A stored organization (src/contract/organization.ts): the mock's own (id 1) once a write changed it, and those
 * `POST /api/organizations/` made.
 */
export interface OrganizationRecord extends StoredRecord<typeof organizationModel> {}

/**
 * A stored project: the project model's fields (src/contract/project.ts; `projectOwn` for what the
 * mock keeps its own way), the settings no one wrote left out (the model's default), and any other
 * field a seed gives, kept as it is.
 */
export interface ProjectRecord extends StoredRecord<typeof projectModel, typeof projectOwn> {
  readonly [field: string]: JsonValue | undefined;
}

/**
 * A stored task: the task model's fields (src/contract/task.ts) but the counters the engine computes,
 * `is_labeled` once a write set it, and the task's file, storage link and inner id in the mock's own
 * form (`taskOwn`).
 */
export interface TaskRecord extends StoredRecord<typeof taskModel, typeof taskOwn> {}

/** A stored uploaded file (src/contract/file-upload.ts): the FileUpload model and the file itself (`fileUploadOwn`). */
export interface FileUploadRecord extends StoredRecord<typeof fileUploadModel, typeof fileUploadOwn> {}

/** A stored annotation: the annotation model's fields (src/contract/annotation.ts). */
export interface AnnotationRecord extends StoredRecord<typeof annotationModel> {}

/** A stored prediction: the prediction model's fields (src/contract/prediction.ts). */
export interface PredictionRecord extends StoredRecord<typeof predictionModel> {}

/** A stored annotation draft (it counts for `draft_exists`): the draft model's fields (src/contract/draft.ts), `result` a list (`draftOwn`). */
export interface DraftRecord extends StoredRecord<typeof draftModel, typeof draftOwn> {}

/**
 * A registered ML backend (`MLBackend`, label_studio/ml/models.py): a model server the mock calls over
 * HTTP for predictions; the ML backend model's fields (src/contract/ml-backend.ts). `basic_auth_pass`
 * is a secret: sent to the model server only, never rendered or logged.
 */
export interface MLBackendRecord extends StoredRecord<typeof mlBackendModel> {}

/** A saved Data Manager view as the mock keeps it: the view model's fields (src/contract/view.ts), `data` and `order` never null (`viewOwn`). */
export interface ViewRecord extends StoredRecord<typeof viewModel, typeof viewOwn> {}

/** An export snapshot (`Export`): the snapshot model's fields (src/contract/export.ts), plus the file's text (`exportOwn`). */
export interface ExportRecord extends StoredRecord<typeof exportModel, typeof exportOwn> {}

/**
 * A conversion of a snapshot (`ConvertedFormat`, src/contract/export.ts): the mock converts on
 * download, as the server does (see docs/reference/exports.md).
 */
export interface ConvertedFormatRecord extends StoredRecord<typeof convertedFormatModel, typeof convertedFormatOwn> {}
