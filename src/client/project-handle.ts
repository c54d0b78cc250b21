import type { ActionRequest, ExportedFile, ExportOptions, ExportRequest, ProjectHandle, QueryBody } from "../query/nodes.js";
import type { CustomAction } from "../query/types.js";
import type { ActionId } from "../vocabulary/actions.js";
import { ClientConfigError } from "./errors.js";
import type { RequestOptions } from "./options.js";
import type { Paginated } from "./pager.js";
import type { ActionsResource } from "./resources/actions.js";
import { checkId } from "./resources/common.js";
import { fileFromBytes } from "./resources/exports.js";
import type { ProjectsResource } from "./resources/projects.js";
import type { TasksResource } from "./resources/tasks.js";
import type { ViewsResource } from "./resources/views.js";
import type {
  ActionFormSection,
  ActionInfo,
  ActionResponse,
  ExportType,
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
  /**
   * Export the tasks a selection selects (what `selection(…).export()` calls): a snapshot of a saved
   * view (the selection's own, or one made for it), downloaded in the format, then removed.
   */
  exportSelection(request: ExportRequest, options?: ExportOptions): Promise<ExportedFile>;
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
    exportSelection: (request: ExportRequest, options?: ExportOptions) => exportSelection(id, request, resources, options),
  });
}

/** Whether a body narrows the project's tasks at all (filters or ids); ordering does not change what an export holds. */
function narrows(body: QueryBody): boolean {
  const ids = body.selectedItems;
  return (body.filters?.items.length ?? 0) > 0 || (ids !== undefined && (!ids.all || ids.excluded.length > 0));
}

/**
 * The server's own way to export a selection: a view holding it (made here unless the selection
 * is a saved view), a snapshot of that view (`task_filter_options.view`) with whole predictions and
 * drafts, the snapshot downloaded in the format; then the snapshot and the view made for it are
 * removed (unless `keep`), also when a step fails.
 */
async function exportSelection(
  id: number,
  request: ExportRequest,
  resources: HandleResources,
  options: ExportOptions = {},
): Promise<ExportedFile> {
  if (request.project !== id) throw new ClientConfigError("request.project", `project ${id} (this handle's)`, String(request.project));
  const { title, annotations, idsOnly = {}, keep = false, ...run } = options;
  const { projects, views } = resources;
  let made: number | undefined;
  let snapshot: number | undefined;
  try {
    let view = request.view;
    if (view === undefined && narrows(request.query)) {
      made = (await views.create({ project: id, data: { title: "dmq export" }, query: request.query }, run)).id;
      view = made;
    }
    const created = await projects.exports.create(
      id,
      {
        ...(title === undefined ? {} : { title }),
        ...(view === undefined ? {} : { task_filter_options: { view } }),
        ...(annotations === undefined ? {} : { annotation_filter_options: { ...annotations } }),
        serialization_options: {
          drafts: { only_id: idsOnly.drafts === true },
          predictions: { only_id: idsOnly.predictions === true },
          annotations__completed_by: { only_id: idsOnly.annotations__completed_by !== false },
        },
      },
      run,
    );
    snapshot = created.id;
    if (created.status !== "completed") {
      throw new ClientConfigError(`snapshot ${created.id}`, "a completed export", `status ${JSON.stringify(created.status)}`);
    }
    const file = await projects.exports.download(id, created.id, { export_type: request.format as ExportType }, run);
    if (keep) return file;
    return fileFromBytes(await file.bytes(), file.filename, file.contentType);
  } finally {
    if (!keep) {
      // Removed even when a step failed; a failure to remove does not hide the first one.
      if (snapshot !== undefined) await projects.exports.delete(id, snapshot, run).catch(() => undefined);
      if (made !== undefined) await views.delete(made, run).catch(() => undefined);
    }
  }
}
