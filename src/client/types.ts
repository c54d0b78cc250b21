import type { ExportedFile, QueryBody } from "../query/nodes.js";
import type { JsonValue } from "../vocabulary/json.js";
import type { Rendered } from "../contract/field.js";
import type { ExportType } from "../vocabulary/export-formats.js";
import type {
  actionEntry,
  annotation,
  configChange,
  draft,
  mlBackend,
  exportConverted,
  exportCreate,
  exportFormat,
  exportSnapshot,
  fileUpload,
  fileUploadsDeleted,
  projectImport,
  reimportResult,
  dmTask,
  dmTaskDetail,
  hotkeys,
  prediction,
  project,
  projectPage,
  task,
  taskPage,
  taskSimple,
  user,
  userToken,
  view,
  whoAmI,
} from "../contract/index.js";

/*
 * Request and response bodies, with the server's snake_case field names. Response bodies are the
 * declared wire contract's renderings (src/contract): every field the server's serializer
 * emits, with its null-ness, derived from the same declaration the mock server renders from, so
 * a field the contract drops or renames is gone here too. Request bodies admit extra fields
 * (`MoreFields`): the server accepts dozens of optional ones.
 */

export type { ExportType };

/** A JSON object. */
export type JsonObject = { readonly [key: string]: JsonValue };
/** Extra request fields: any JSON, or undefined to leave the field out. */
type MoreFields = { readonly [field: string]: JsonValue | undefined };

/** `filters`/`ordering`/`selectedItems` as a plain body, or a selection (anything with `toJSON()`). */
export type QueryInput =
  | QueryBody
  | {
      /** The body the selection stands for. */
      toJSON(): QueryBody;
    };

/** A user (`BaseUserSerializer`). */
export type User = Rendered<typeof user>;
/** `GET /api/current-user/whoami`: the user and every permission string of the server, e.g. `projects.view`. */
export type WhoAmI = Rendered<typeof whoAmI>;

/**
 * A project (`ProjectSerializer`). The counters (`task_number`, …) are null in the answer of a
 * create, which the server does not load with its counters.
 */
export type Project = Rendered<typeof project>;

/** The body of `POST /api/projects/`. */
export interface ProjectCreate extends MoreFields {
  title?: string;
  description?: string;
  /** The labeling interface, e.g. `<View>…</View>`. */
  label_config?: string;
  expert_instruction?: string;
  maximum_annotations?: number;
  model_version?: string;
  color?: string;
}
/** The body of `PATCH /api/projects/<id>/`. */
export type ProjectUpdate = ProjectCreate;

/** `GET /api/projects/` parameters (the first page to fetch is `page`, default 1). */
export interface ProjectListParams {
  page?: number;
  /** Default 30 on the server, at most 100. */
  page_size?: number;
  /** Case-insensitive substring of the title. */
  title?: string;
  search?: string;
  ids?: readonly number[];
  ordering?: string;
  filter?: "all" | "pinned_only" | "exclude_pinned";
  include?: string;
}

/** `GET /api/projects/`: one page, `next`/`previous` as absolute URLs. */
export type ProjectPage = Rendered<typeof projectPage>;

/** One task of `POST /api/projects/{id}/import`. */
export interface ImportTask extends MoreFields {
  data: JsonObject;
  meta?: JsonObject;
  annotations?: readonly JsonObject[];
  predictions?: readonly JsonObject[];
}

/** One prediction of `POST /api/projects/{id}/import/predictions`: for a task the project has. */
export interface ImportPrediction extends MoreFields {
  task: number;
  result: readonly JsonValue[];
  score?: number | null;
  model_version?: string;
}

/** What `POST /api/projects/{id}/import/predictions` answers: how many predictions it stored. */
export interface ImportPredictionsResult {
  created: number;
}

/** Query parameters of a project import. */
export interface ImportParams {
  commit_to_project?: boolean;
  return_task_ids?: boolean;
  preannotated_from_fields?: readonly string[];
}

/** A file a multipart import sends: its name (the extension decides how the server reads it) and its bytes or text. */
export interface UploadSource {
  readonly name: string;
  readonly content: string | Uint8Array | Blob;
}

/** An uploaded file the server keeps (`FileUploadSerializer`): `file` is its stored name, `upload/<project>/<8 hex>-<name>`. */
export type FileUpload = Rendered<typeof fileUpload>;

/** What `DELETE /api/projects/{id}/file-uploads` answers. */
export type FileUploadsDeleted = Rendered<typeof fileUploadsDeleted>;

/** Which of a project's uploads `GET /api/projects/{id}/file-uploads` lists: those `ids` names, or all of the caller's. */
export interface FileUploadListParams {
  readonly ids?: readonly number[];
  readonly all?: boolean;
}

/** The body of `POST /api/projects/{id}/reimport`. */
export interface ReimportBody {
  readonly file_upload_ids: readonly number[];
  /** Default true: a CSV, TSV or TXT file is many tasks; false: every file is one task. */
  readonly files_as_tasks_list?: boolean;
}

/** What a reimport answers (`ReImportAPI.sync_reimport`). */
export type ReimportResult = Rendered<typeof reimportResult>;

/** The record of an asynchronous import (`ProjectImportSerializer`): a community server never makes one. */
export type ProjectImport = Rendered<typeof projectImport>;

/** Counts of a synchronous import (community), or `{ import: <job id> }` when queued. */
export interface ImportResult {
  task_count?: number;
  annotation_count?: number;
  prediction_count?: number;
  duration?: number;
  file_upload_ids?: number[];
  could_be_tasks_list?: boolean;
  found_formats?: unknown;
  data_columns?: string[];
  task_ids?: number[];
  import?: number;
  [field: string]: unknown;
}

/**
 * `GET /api/tasks/{id}/` (`DataManagerTaskSerializer`): the task with every annotation (its author
 * expanded), prediction and the caller's drafts, and the Data Manager's computed columns.
 */
export type Task = Rendered<typeof dmTaskDetail>;
/**
 * One task of the Data Manager list: `annotations` and `predictions` only with `fields: "all"`;
 * computed columns such as `completed_at` only when evaluated (used by the query, or `fields: "all"`).
 */
export type TaskListItem = Rendered<typeof dmTask>;
/** The answer of `POST /api/tasks/` (`BaseTaskSerializer`). */
export type CreatedTask = Rendered<typeof task>;
/** The answer of `PATCH /api/tasks/{id}/` (`TaskSimpleSerializer`): every annotation and prediction appended. */
export type UpdatedTask = Rendered<typeof taskSimple>;

/** The body of `POST /api/tasks/`. */
export interface TaskCreate extends MoreFields {
  project: number;
  data: JsonObject;
  meta?: JsonObject;
}

/** The body of `PATCH /api/tasks/<id>/`. */
export interface TaskUpdate extends MoreFields {
  data?: JsonObject;
  meta?: JsonObject;
}

/** The Data Manager task list `GET /api/tasks/`. */
export interface TaskListParams {
  project: number;
  /** A saved view: its filters, ordering and selection win over `query`. */
  view?: number;
  /** Filters, ordering and selected ids: a body or a selection; sent as the JSON `query` parameter. */
  query?: QueryInput;
  /** First page to fetch (default 1). */
  page?: number;
  /** Default 100 on the server. */
  page_size?: number;
  /** `all` adds annotations, predictions and drafts to every task. */
  fields?: "all" | "task_only";
  resolve_uri?: boolean;
  only_annotated?: boolean;
  review?: boolean;
  include?: readonly string[];
}

/** One page of the Data Manager list; the totals are over the whole selection. */
export type TaskPage = Rendered<typeof taskPage>;

/** An annotation (`AnnotationSerializer`): `result` is null when it was created without one. */
export type Annotation = Rendered<typeof annotation>;

/** The body of `POST /api/tasks/<task>/annotations/`. */
export interface AnnotationCreate extends MoreFields {
  result: readonly JsonValue[];
  was_cancelled?: boolean;
  ground_truth?: boolean;
  lead_time?: number;
  completed_by?: number;
}

/** The body of `PATCH /api/annotations/<id>/`. */
export interface AnnotationUpdate extends MoreFields {
  result?: readonly JsonValue[];
  was_cancelled?: boolean;
  ground_truth?: boolean;
  lead_time?: number;
}

/** A prediction (`PredictionSerializer`). */
export type Prediction = Rendered<typeof prediction>;

/** The body of `POST /api/predictions/`. */
export interface PredictionCreate extends MoreFields {
  task: number;
  result: readonly JsonValue[];
  score?: number;
  model_version?: string;
}

/** The body of `PATCH /api/predictions/<id>/`. */
export interface PredictionUpdate extends MoreFields {
  result?: readonly JsonValue[];
  score?: number;
  model_version?: string;
}

/** Filters of `GET /api/predictions/`. */
export interface PredictionListParams {
  task?: number;
  project?: number;
}

/**
 * A view's `data` read as the Data Manager writes it: the server moves the view's filters, ordering
 * and stored selection into it; every other key is the view's own (`title`, `hiddenColumns`, …).
 */
export type ViewData = {
  readonly title?: string;
  readonly filters?: QueryBody["filters"];
  readonly ordering?: string[];
  readonly selectedItems?: QueryBody["selectedItems"];
  readonly columnsDisplayType?: Record<string, string>;
  readonly [key: string]: unknown;
};

/** A saved view (`ViewSerializer`); `data` is null only when a write stored null. */
export type View = Omit<Rendered<typeof view>, "data"> & { data: ViewData | null };

/** `data` of a view to create or update: `title`, `hiddenColumns`… */
export interface ViewDataInput extends MoreFields {
  title?: string;
}

/** The body of `POST /api/dm/views/`; `query` may be a selection. */
export interface ViewCreate {
  project: number;
  data?: ViewDataInput;
  /** Filters, ordering and selected ids for the view: a body or a selection (filters/ordering go into `data`, the ids into `selected_items`). */
  query?: QueryInput;
}

/** The body of `PATCH /api/dm/views/<id>/`. */
export interface ViewUpdate {
  data?: ViewDataInput;
  query?: QueryInput;
}

/** One entry of `GET /api/dm/actions/?project=`: the registered keys of the action. */
export type ActionInfo = Rendered<typeof actionEntry>;

/** One section of an action's dialog form. */
export interface ActionFormSection {
  columnCount?: number;
  fields: ActionFormField[];
  [field: string]: unknown;
}

/** One field of an action's dialog form. */
export interface ActionFormField {
  type: string;
  name: string;
  label?: string;
  options?: unknown[];
  [field: string]: unknown;
}

/** The body of a successful action; `selection(handle).run()` types it per action. */
export type ActionResponse = { [field: string]: unknown };

/** The answer of `POST /api/token/`: a new personal access token. */
export interface TokenCreated {
  /** The new personal access token (secret). */
  token: string;
}
/** One entry of `GET /api/token/` (without the signature). */
export interface TokenListItem {
  /** Header and payload only: the server never returns a stored token whole. */
  token: string;
  [field: string]: unknown;
}
/** The answer of `POST /api/token/refresh/`. */
export interface AccessToken {
  access: string;
}
/** The answer of `POST /api/token/rotate/`. */
export interface RotatedToken {
  refresh: string;
}

/** The body of `POST /api/users/` (`username` required) and of `PATCH /api/users/{id}/` (where `email` is read-only: 405). */
export interface UserWrite extends MoreFields {
  username?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  allow_newsletters?: boolean | null;
}

/**
 * `GET`/`PATCH /api/current-user/hotkeys/`: the caller's keyboard shortcuts of the labeling UI, keyed `section:action`,
 * each `{ key: "ctrl+enter", active?: boolean }`.
 */
export type Hotkeys = Rendered<typeof hotkeys>;

/** `GET /api/current-user/token`, `POST /api/current-user/reset-token/`: the caller's legacy API key. */
export type UserToken = Rendered<typeof userToken>;

/** An annotation draft (`AnnotationDraftSerializer`): `user` is the author's email. */
export type Draft = Rendered<typeof draft>;

/** The body of a draft create or update. */
export interface DraftWrite extends MoreFields {
  result?: JsonValue[];
  lead_time?: number | null;
  was_postponed?: boolean;
  import_id?: number | null;
}

/** A registered ML backend (`MLBackendSerializer`); `state` is CO, DI, ER, TR or PR. */
export type MLBackend = Rendered<typeof mlBackend>;

/** The body of `POST /api/ml/`; an update must also carry `url` and `project` (the server checks the model server with them). */
export interface MLBackendWrite extends MoreFields {
  url: string;
  project: number;
  title?: string | null;
  description?: string | null;
  is_interactive?: boolean;
  auth_method?: "NONE" | "BASIC_AUTH";
  basic_auth_user?: string | null;
  basic_auth_pass?: string | null;
  extra_params?: JsonValue;
  timeout?: number;
  auto_update?: boolean;
}

/** `GET /api/ml/{id}/versions`. */
export interface MLVersions {
  versions: JsonValue[];
  message?: string;
}

/** `POST /api/ml/{id}/interactive-annotating`: the first result, or the errors. */
export interface InteractiveAnswer {
  data?: JsonValue;
  errors?: string[];
}

/** `POST /api/projects/{id}/validate/`. */
export type ConfigCheck = Rendered<typeof configChange>;

/** An export format the formats list offers (`disabled` when the project's label config cannot produce it). */
export type ExportFormatInfo = Rendered<typeof exportFormat>;
/** An export snapshot (`ExportSerializer`): its status, counters and conversions. */
export type ExportSnapshot = Rendered<typeof exportSnapshot>;
/** The answer of a snapshot's creation (`ExportCreateSerializer`): the snapshot, its option sets rendered null. */
export type ExportSnapshotCreated = Rendered<typeof exportCreate>;
/** The answer of a conversion: the format and the id of its `converted_formats` entry. */
export type ExportConverted = Rendered<typeof exportConverted>;

/** "only" keeps the tasks that match, "exclude" those that do not; null (or absent) does not filter. */
export type OnlyOrExclude = "only" | "exclude" | null;

/** Which tasks a snapshot keeps (`TaskFilterOptionsSerializer`). */
export interface ExportTaskFilterOptions {
  /** A saved view of the project: its filters and selection (a view of another project is ignored). */
  view?: number;
  /** Tasks with a skipped (cancelled) annotation. */
  skipped?: OnlyOrExclude;
  /** Tasks the server counts as labeled (`is_labeled`). */
  finished?: OnlyOrExclude;
  /** Tasks with an annotation that was not skipped. */
  annotated?: OnlyOrExclude;
  /** Drop the tasks left without an annotation once `annotation_filter_options` has filtered them. */
  only_with_annotations?: boolean;
}

/** Which annotations a snapshot keeps: any of the kinds set (`AnnotationFilterOptionsSerializer`; `usual` defaults to true once the object is given). */
export interface ExportAnnotationFilterOptions {
  /** Annotations neither skipped nor ground truth. */
  usual?: boolean | null;
  ground_truth?: boolean | null;
  skipped?: boolean | null;
}

/** Ids only, or whole objects. */
export interface ExportSerializationOption {
  only_id?: boolean;
}

/** How a snapshot writes drafts, predictions and annotation authors (`SerializationOptionsSerializer`): ids unless an option says `only_id: false`. */
export interface ExportSerializationOptions {
  drafts?: ExportSerializationOption;
  predictions?: ExportSerializationOption;
  annotations__completed_by?: ExportSerializationOption;
  include_annotation_history?: boolean;
  interpolate_key_frames?: boolean;
}

/** The body of `POST /api/projects/{id}/exports/`. */
export interface ExportCreate {
  title?: string;
  task_filter_options?: ExportTaskFilterOptions;
  annotation_filter_options?: ExportAnnotationFilterOptions;
  serialization_options?: ExportSerializationOptions;
}

/** Query parameters of the one-step export `GET /api/projects/{id}/export`. */
export interface ExportDownloadSyncParams {
  /** The format (default JSON); sent as `exportType`. */
  export_type?: ExportType;
  /** Every task, not only those with an annotation. */
  download_all_tasks?: boolean;
  download_resources?: boolean;
  /** Only these tasks (sent as `ids[]`, the key the server reads). */
  ids?: readonly number[];
}

/** Query parameters of a snapshot download. */
export interface ExportDownloadParams {
  /** Convert to this format on the way (absent: the snapshot's JSON file as it was written). */
  export_type?: ExportType;
}

/** The body of `POST /api/projects/{id}/exports/{export_pk}/convert`. */
export interface ExportConvert {
  export_type: ExportType;
  download_resources?: boolean;
}

/**
 * A file the server sends (an export): the builder's `ExportedFile`, one interface for the client, the CLI and
 * `.export()`.
 */
export type ExportFile = ExportedFile;
