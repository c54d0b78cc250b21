import { ClientConfigError } from "../errors.js";
import type { RequestOptions } from "../options.js";
import { paginate, type Paginated } from "../pager.js";
import { anything, arrayOf, nullable, number, object, record, string } from "../shape.js";
import type { Send } from "../transport.js";
import type {
  ConfigCheck,
  ImportParams,
  ImportPrediction,
  ImportPredictionsResult,
  ImportResult,
  ImportTask,
  Project,
  ProjectCreate,
  ProjectListParams,
  ProjectPage,
  ProjectImport,
  ProjectUpdate,
  ReimportBody,
  ReimportResult,
  UploadSource,
} from "../types.js";
import { uploadForm } from "./files.js";
import { checkId, checkObject } from "./common.js";
import { exportsResource, type ExportsResource } from "./exports.js";
import { recordMethods, type RecordMethods } from "./record.js";
import { describeValue } from "../../vocabulary/json.js";

/** Projects: the paginated list, create, get, update, delete. */
export interface ProjectsResource extends RecordMethods<Project, ProjectUpdate> {
  /** `GET /api/projects/`: iterate every project, or fetch one page with `.page(n)`. */
  list(params?: ProjectListParams): Paginated<Project, ProjectPage>;
  /** Create a project. */
  create(body: ProjectCreate, options?: RequestOptions): Promise<Project>;
  /**
   * Check a labeling config against a project and what its annotations use (`POST /api/projects/{id}/validate/`):
   * whether a control changed (`true` or `null`), or a 400 with the server's reason.
   */
  validateLabelConfig(id: number, body: { label_config: string }, options?: RequestOptions): Promise<ConfigCheck>;
  /** Check a labeling config on its own (`POST /api/projects/validate/`, no credentials needed): resolves when valid. */
  validateConfig(body: { label_config: string }, options?: RequestOptions): Promise<void>;
  /** `POST /api/projects/{id}/import` (no trailing slash) with a JSON array of tasks. */
  importTasks(id: number, tasks: readonly ImportTask[], params?: ImportParams, options?: RequestOptions): Promise<ImportResult>;
  /**
   * `POST /api/projects/{id}/import` with files (multipart): the server reads each by its extension (JSON, CSV, TSV, TXT
   * as tasks; any other supported file as one task) and keeps it as an uploaded file (`client.files`); the answer
   * lists them in `file_upload_ids`. With `commit_to_project: false` it only keeps the files, for `reimport`.
   */
  importFiles(id: number, files: readonly UploadSource[], params?: ImportParams, options?: RequestOptions): Promise<ImportResult>;
  /**
   * `POST /api/projects/{id}/reimport`: read uploaded files again, replacing the tasks they made before (how the web UI
   * finishes an import made with `commit_to_project: false`).
   */
  reimport(id: number, body: ReimportBody, options?: RequestOptions): Promise<ReimportResult>;
  /**
   * `GET /api/projects/{id}/imports/{importId}/` (the SDK's `tasks.create_many_status`): the record of an asynchronous import.
   * A community server imports at once and keeps none: it answers 404 for every id.
   */
  importStatus(id: number, importId: number, options?: RequestOptions): Promise<ProjectImport>;
  /**
   * `POST /api/projects/{id}/import/predictions`: predictions for tasks the project has, in one batch. A task of
   * another project refuses the batch (400); a prediction the server's `validate_prediction` refuses (unknown
   * control, undeclared label, a value of the wrong shape, a score outside [0, 1]) is left out without a word:
   * compare `created` with what you sent.
   */
  importPredictions(id: number, predictions: readonly ImportPrediction[], options?: RequestOptions): Promise<ImportPredictionsResult>;
  /** Exports and snapshots (the SDK's `client.projects.exports`). */
  readonly exports: ExportsResource;
}

export const project = record<Project>({ title: string });
const projectPage = object<ProjectPage>({
  results: arrayOf(project),
  count: number,
  next: nullable(anything),
  previous: nullable(anything),
});
const importResult = object<ImportResult>();

export function projectsResource(send: Send): ProjectsResource {
  return Object.freeze({
    list(params: ProjectListParams = {}): Paginated<Project, ProjectPage> {
      checkObject("params", params);
      const { page = 1, ids, ...rest } = params;
      const idList = ids?.map((id, i) => checkId(`params.ids[${i}]`, id)).join(",");
      return paginate<Project, ProjectPage>({
        firstPage: checkId("params.page", page),
        path: "/api/projects/",
        items: (body) => body.results,
        fetch: async (n, options) =>
          send(
            { method: "GET", path: "/api/projects/", query: { ...rest, ids: idList, page: checkId("page", n) }, expect: projectPage },
            options,
          ),
      });
    },
    async create(body: ProjectCreate, options?: RequestOptions) {
      checkObject("body", body);
      return send({ method: "POST", path: "/api/projects/", body, expect: project }, options);
    },
    ...recordMethods<Project, ProjectUpdate>(send, "/api/projects/", project),
    async validateLabelConfig(id: number, body: { label_config: string }, options?: RequestOptions) {
      const path = `/api/projects/${checkId("id", id)}/validate/`;
      checkObject("body", body);
      return send({ method: "POST", path, body, expect: object<ConfigCheck>() }, options);
    },
    async validateConfig(body: { label_config: string }, options?: RequestOptions) {
      checkObject("body", body);
      return send<void>({ method: "POST", path: "/api/projects/validate/", body }, options);
    },
    async importTasks(id: number, tasks: readonly ImportTask[], params: ImportParams = {}, options?: RequestOptions) {
      const path = `/api/projects/${checkId("id", id)}/import`;
      if (!Array.isArray(tasks)) throw new ClientConfigError("tasks", "an array of { data } objects", describeValue(tasks));
      for (const [i, task] of tasks.entries()) checkObject(`tasks[${i}]`, task);
      checkObject("params", params);
      return send({ method: "POST", path, query: { ...params }, body: tasks, expect: importResult }, options);
    },
    async importFiles(id: number, files: readonly UploadSource[], params: ImportParams = {}, options?: RequestOptions) {
      const path = `/api/projects/${checkId("id", id)}/import`;
      if (!Array.isArray(files) || files.length === 0)
        throw new ClientConfigError("files", "a non-empty array of { name, content } files", describeValue(files));
      checkObject("params", params);
      // One field per file: the server takes each field's last file only.
      const body = uploadForm(files, (i) => `file${i + 1}`);
      return send({ method: "POST", path, query: { ...params }, body, expect: importResult }, options);
    },
    async reimport(id: number, body: ReimportBody, options?: RequestOptions) {
      const path = `/api/projects/${checkId("id", id)}/reimport`;
      checkObject("body", body);
      if (!Array.isArray(body.file_upload_ids) || !body.file_upload_ids.every((u, i) => checkId(`body.file_upload_ids[${i}]`, u)))
        throw new ClientConfigError("body.file_upload_ids", "an array of upload ids", describeValue(body.file_upload_ids));
      return send({ method: "POST", path, body, expect: object<ReimportResult>({ task_count: number }) }, options);
    },
    async importStatus(id: number, importId: number, options?: RequestOptions) {
      const path = `/api/projects/${checkId("id", id)}/imports/${checkId("importId", importId)}/`;
      return send({ method: "GET", path, expect: record<ProjectImport>({ id: number }) }, options);
    },
    async importPredictions(id: number, predictions: readonly ImportPrediction[], options?: RequestOptions) {
      const path = `/api/projects/${checkId("id", id)}/import/predictions`;
      if (!Array.isArray(predictions))
        throw new ClientConfigError("predictions", "an array of { task, result } objects", describeValue(predictions));
      for (const [i, p] of predictions.entries()) {
        checkObject(`predictions[${i}]`, p);
        checkId(`predictions[${i}].task`, p.task);
      }
      return send({ method: "POST", path, body: predictions, expect: object<ImportPredictionsResult>({ created: number }) }, options);
    },
    exports: exportsResource(send),
  });
}
