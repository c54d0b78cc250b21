export { createClient, type Client } from "./client.js";
export type { AuthMode } from "./auth.js";
export {
  ApiError,
  ClientConfigError,
  NetworkError,
  PaginationError,
  RequestTimeoutError,
  UnexpectedResponseError,
  type ApiErrorInit,
  type ResponseHeaders,
} from "./errors.js";
export type { ClientOptions, ClientRoutes, RequestOptions } from "./options.js";
export type { Clock } from "../vocabulary/clock.js";
export type { Paginated } from "./pager.js";
export type { ClientProject } from "./project-handle.js";
export type { ActionsResource } from "./resources/actions.js";
export type { AnnotationsResource } from "./resources/annotations.js";
export type { DraftsResource } from "./resources/drafts.js";
export type { MLResource } from "./resources/ml.js";
export type { FilesResource } from "./resources/files.js";
export type { ExportsResource } from "./resources/exports.js";
export type { PredictionsResource } from "./resources/predictions.js";
export type { ProjectsResource } from "./resources/projects.js";
export type { TasksResource } from "./resources/tasks.js";
export type { TokensResource } from "./resources/tokens.js";
export type { UsersResource } from "./resources/users.js";
export type { ViewsResource } from "./resources/views.js";
export type * from "./types.js";
