import type { ActionRequest, ProjectHandle } from "../query/nodes.js";
import type { CustomAction } from "../query/types.js";
import type { ActionId } from "../vocabulary/actions.js";
import { ClientConfigError } from "./errors.js";
import type { RequestOptions } from "./options.js";
import type { Paginated } from "./pager.js";
import type { ActionsResource } from "./resources/actions.js";
import { checkId } from "./resources/common.js";
import type { ProjectsResource } from "./resources/projects.js";
import type { TasksResource } from "./resources/tasks.js";
import type { ViewsResource } from "./resources/views.js";
import type {
  ActionFormSection,
  ActionInfo,
  ActionResponse,
  ImportResult,
  ImportTask,
  ImportParams,
  Project,
  TaskListItem,
  TaskListParams,
  TaskPage,
  View,
} from "./types.js";

/**
 * One project on one client. `selection(client.project(1))` binds a selection to it, so `.run()`
 * performs actions through this client; the shortcuts fill in the project id.
 */
export interface ClientProject extends ProjectHandle {
  readonly id: number;
  /** Performs a selection's action request on this project (what `selection(…).run()` calls). */
  perform(request: ActionRequest, options?: RequestOptions): Promise<ActionResponse>;
  /** The project (`GET /api/projects/<id>/`). */
  get(options?: RequestOptions): Promise<Project>;
  /** The project's Data Manager task list, page by page or task by task. */
  tasks(params?: Omit<TaskListParams, "project">): Paginated<TaskListItem, TaskPage>;
  /** The project's saved views. */
  views(options?: RequestOptions): Promise<View[]>;
  /** The actions the server lists for the project. */
  actions(options?: RequestOptions): Promise<ActionInfo[]>;
  /** The form an action's dialog shows (`GET /api/dm/actions/<id>/form/`). */
  actionForm(action: ActionId | CustomAction, options?: RequestOptions): Promise<ActionFormSection[]>;
  /** Import tasks into the project (`POST /api/projects/<id>/import`). */
  importTasks(tasks: readonly ImportTask[], params?: ImportParams, options?: RequestOptions): Promise<ImportResult>;
}

export interface HandleResources {
  readonly projects: ProjectsResource;
  readonly tasks: TasksResource;
  readonly views: ViewsResource;
  readonly actions: ActionsResource;
}

export function projectHandle(id: number, resources: HandleResources): ClientProject {
  checkId("project id", id);
  const { projects, tasks, views, actions } = resources;
  return Object.freeze({
    id,
    async perform(request: ActionRequest, options?: RequestOptions) {
      if (request?.query?.project !== id) {
        throw new ClientConfigError("request.query.project", `project ${id} (this handle's)`, String(request?.query?.project));
      }
      return actions.perform(request, options);
    },
    get: (options?: RequestOptions) => projects.get(id, options),
    tasks: (params: Omit<TaskListParams, "project"> = {}) => tasks.list({ ...params, project: id }),
    views: (options?: RequestOptions) => views.list(id, options),
    actions: (options?: RequestOptions) => actions.list(id, options),
    actionForm: (action: ActionId | CustomAction, options?: RequestOptions) => actions.form(id, action, options),
    importTasks: (list: readonly ImportTask[], params?: ImportParams, options?: RequestOptions) =>
      projects.importTasks(id, list, params, options),
  });
}
