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
  ProjectUpdate,
} from "../types.js";
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
