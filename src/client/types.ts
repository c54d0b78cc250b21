import type { QueryBody } from "../query/nodes.js";
import type { JsonValue } from "../vocabulary/json.js";

/*
 * Request and response bodies, with the server's snake_case field names
 * (docs/reference/resources.md). Responses list the fields the client or its users rely on and
 * admit the rest (`[field: string]: unknown`): the server adds fields between versions. Request
 * bodies admit extra fields the same way, because the server accepts dozens of optional ones.
 */

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

/** A user as the server shows it. */
export interface User {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  active_organization?: number | null;
  /** Every permission string of the user, e.g. `projects.view`. */
  permissions?: string[];
  [field: string]: unknown;
}

/** A project as the server answers it (the fields dmq reads; the server sends more). */
export interface Project {
  id: number;
  title: string;
  description?: string | null;
  label_config: string;
  model_version?: string | null;
  created_at?: string;
  task_number?: number;
  [field: string]: unknown;
}

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

/** One page of `GET /api/projects/`. */
export interface ProjectPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: Project[];
}

/** One task of `POST /api/projects/{id}/import`. */
export interface ImportTask extends MoreFields {
  data: JsonObject;
  meta?: JsonObject;
  annotations?: readonly JsonObject[];
  predictions?: readonly JsonObject[];
}

/** Query parameters of a project import. */
export interface ImportParams {
  commit_to_project?: boolean;
  return_task_ids?: boolean;
  preannotated_from_fields?: readonly string[];
}

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

/** A task as the Data Manager list shows it, computed columns included. */
export interface Task {
  id: number;
  project: number;
  data: { [key: string]: JsonValue };
  meta?: { [key: string]: JsonValue };
  created_at: string;
  updated_at: string;
  inner_id?: number;
  is_labeled?: boolean;
  total_annotations?: number;
  cancelled_annotations?: number;
  total_predictions?: number;
  completed_at?: string | null;
  /** With `fields: "all"` (Data Manager list) and on a single task. */
  annotations?: Annotation[];
  predictions?: Prediction[];
  [field: string]: unknown;
}

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

/** One page of the Data Manager list: its tasks and the totals over the whole selection. */
export interface TaskPage {
  tasks: Task[];
  total: number;
  total_annotations: number;
  total_predictions: number;
}

/** An annotation. */
export interface Annotation {
  id: number;
  task: number;
  project?: number;
  result: JsonValue[];
  completed_by?: number | null;
  was_cancelled: boolean;
  ground_truth: boolean;
  lead_time: number | null;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

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

/** A prediction. */
export interface Prediction {
  id: number;
  task: number;
  project?: number;
  result: JsonValue[];
  score: number | null;
  model_version: string | null;
  created_at: string;
  [field: string]: unknown;
}

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

/** A view's `data` as the server returns it (filters, ordering, selection moved into `data`). */
export interface ViewData {
  title?: string;
  filters?: QueryBody["filters"];
  ordering?: string[];
  selectedItems?: QueryBody["selectedItems"];
  columnsDisplayType?: Record<string, string>;
  hiddenColumns?: unknown;
  [field: string]: unknown;
}

/** A saved Data Manager view; its filters and ordering are in `data`. */
export interface View {
  id: number;
  project: number;
  data: ViewData;
  order?: number | null;
  user?: number | null;
  [field: string]: unknown;
}

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

/** One entry of `GET /api/dm/actions/?project=` (docs/reference/actions-endpoint.md#listing-actions). */
export interface ActionInfo {
  id: string;
  title: string;
  order: number;
  permission: string | string[];
  experimental?: boolean;
  reload?: boolean;
  dialog?: {
    title?: string;
    text?: string;
    type?: string;
    /** Null when the form is built per project: fetch it with `actions.form(project, id)`. */
    form?: ActionFormSection[] | null;
    ok_text?: string;
  };
  [field: string]: unknown;
}

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
