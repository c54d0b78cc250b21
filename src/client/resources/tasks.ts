import { ClientConfigError } from "../errors.js";
import type { RequestOptions } from "../options.js";
import { paginate, type Paginated } from "../pager.js";
import { arrayOf, number, object, record } from "../shape.js";
import type { ChildFiltersGuard } from "../server-release.js";
import type { Send } from "../transport.js";
import type { CreatedTask, Task, TaskCreate, TaskListItem, TaskListParams, TaskPage, TaskUpdate, UpdatedTask } from "../types.js";
import { nearest } from "../../vocabulary/nearest.js";
import { endpointKeys } from "../../wire/parse-keys.js";
import { boundTo, checkId, checkObject, queryBody } from "./common.js";
import { recordMethods, type RecordMethods } from "./record.js";

/** Tasks: the Data Manager list, create, get, update, delete. */
export interface TasksResource extends RecordMethods<Task, TaskUpdate, UpdatedTask> {
  /**
   * The Data Manager list `GET /api/tasks/?project=`: iterate every task the query selects, in its
   * order, or fetch one page with `.page(n)`. `query` may be a selection.
   */
  list(params: TaskListParams): Paginated<TaskListItem, TaskPage>;
  /** Create one task in a project. */
  create(body: TaskCreate, options?: RequestOptions): Promise<CreatedTask>;
}

/** The parameters `list` takes, each once (the compiler checks the list against TaskListParams). */
const LIST_PARAMS = [
  "project",
  "view",
  "query",
  "page",
  "page_size",
  "fields",
  "resolve_uri",
  "only_annotated",
  "review",
  "include",
] as const satisfies readonly (keyof TaskListParams)[];
type Unlisted = Exclude<keyof TaskListParams, (typeof LIST_PARAMS)[number]>;
const everyParamListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyParamListed;

/** The query's own keys (and the SDK's spelling of one): the list reads them inside `query` only. */
const QUERY_KEYS: readonly string[] = [...endpointKeys.tasks, "selected_items"];

/**
 * A parameter the server would drop without a word: a selection key given as a URL parameter, or a
 * near miss of a parameter. Either way every task would be listed, so it is refused. Other unknown
 * names go through (a server may read parameters this version does not know).
 */
function checkListParam(key: string): void {
  if ((LIST_PARAMS as readonly string[]).includes(key)) return;
  if (QUERY_KEYS.includes(key)) {
    throw new ClientConfigError(
      `params.${key}`,
      "the selection in params.query (the task list reads filters, ordering and selectedItems only inside its query parameter)",
      `${key} as a URL parameter, which the server ignores`,
    );
  }
  const near = nearest(key, [...LIST_PARAMS, ...QUERY_KEYS]);
  if (near === undefined) return;
  throw new ClientConfigError(
    `params.${key}`,
    `a parameter of the task list (${LIST_PARAMS.join(", ")})`,
    `an unknown parameter "${key}" (did you mean ${QUERY_KEYS.includes(near) ? `${near}, inside params.query` : near}?), which the server ignores`,
  );
}

const data = object({});
export const task = record<Task>({ data });
const listItem = record<TaskListItem>({ data });
const created = record<CreatedTask>({ data });
const updated = record<UpdatedTask>({ data });
const taskPage = object<TaskPage>({ tasks: arrayOf(listItem), total: number });

export function tasksResource(send: Send, guard: ChildFiltersGuard): TasksResource {
  return Object.freeze({
    list(params: TaskListParams): Paginated<TaskListItem, TaskPage> {
      checkObject("params", params);
      for (const key of Object.keys(params)) checkListParam(key);
      const { project, view, query, page = 1, include, ...flags } = params;
      checkId("params.project", project);
      if (view !== undefined) checkId("params.view", view);
      const bound = boundTo(query);
      if (bound.project !== undefined && bound.project !== project) {
        throw new ClientConfigError("params.query", `a selection of project ${project}`, `a selection of project ${bound.project}`);
      }
      if (bound.view !== undefined && view !== undefined && bound.view !== view) {
        throw new ClientConfigError("params.view", `the view of the selection (${bound.view})`, `view ${view}`);
      }
      const body = query === undefined ? undefined : queryBody("params.query", query, { endpoint: "tasks" });
      const fixed = {
        ...flags,
        project,
        view: view ?? bound.view,
        include: include?.join(","),
        // An empty query says nothing (a view's selection has none): not sent.
        query: body === undefined || Object.keys(body).length === 0 ? undefined : JSON.stringify(body),
      };
      return paginate<TaskListItem, TaskPage>({
        firstPage: checkId("params.page", page),
        path: "/api/tasks/",
        items: (body) => body.tasks,
        fetch: async (n, options) => {
          await guard(body?.filters, options);
          return send({ method: "GET", path: "/api/tasks/", query: { ...fixed, page: checkId("page", n) }, expect: taskPage }, options);
        },
      });
    },
    async create(body: TaskCreate, options?: RequestOptions) {
      checkObject("body", body);
      checkId("body.project", body.project);
      checkObject("body.data", body.data);
      return send({ method: "POST", path: "/api/tasks/", body, expect: created }, options);
    },
    ...recordMethods<Task, TaskUpdate, UpdatedTask>(send, "/api/tasks/", task, (body) => body, updated),
  });
}
