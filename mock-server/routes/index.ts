import type { Handler } from "../http.js";
import type { RouteKey } from "./keys.js";
import { getActionForm, listActions, listActionsPublished, performAction } from "./actions.js";
import { createAnnotation, deleteAnnotation, getAnnotation, listTaskAnnotations, patchAnnotation } from "./annotations.js";
import { listTasks } from "./dm-list.js";
import { createPrediction, deletePrediction, getPrediction, listPredictions, patchPrediction } from "./predictions.js";
import { createProject, deleteAllTasks, deleteProject, getProject, importIntoProject, listProjects, patchProject } from "./projects.js";
import { createTask, deleteTask, getTask, patchTask } from "./tasks.js";
import { blacklist, createToken, listTokens, refresh, rotate } from "./tokens.js";
import { getUser, getVersion, getWhoAmI, listUsers } from "./users.js";
import { createView, deleteView, getView, listViews, orderViews, resetViews, updateView } from "./views.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Route {
  /**
   * The path as the server writes it (its trailing slash or none), with `{id}` for an integer id and
   * `{action}` for an action id. Every route answers with and without the trailing slash (`expressPath`).
   */
  readonly path: string;
  readonly methods: Partial<Record<Method, Handler>>;
  /** `Allow` when the view's differs from its served methods (HEAD with GET, OPTIONS). */
  readonly allow?: string;
}

/** Every route the mock serves, in the server's URL layout (docs/reference/resources.md and the pages it links). */
export const routes = [
  { path: "/api/token/refresh/", methods: { POST: refresh } },
  { path: "/api/token/blacklist/", methods: { POST: blacklist } },
  { path: "/api/token/rotate/", methods: { POST: rotate } },
  { path: "/api/token/", methods: { GET: listTokens, POST: createToken } },
  { path: "/api/current-user/whoami", methods: { GET: getWhoAmI } },
  // UserAPI narrows http_method_names to get, post, head, patch, delete (no OPTIONS, no PUT).
  { path: "/api/users/", methods: { GET: listUsers }, allow: "GET, POST, HEAD" },
  { path: "/api/users/{id}/", methods: { GET: getUser }, allow: "GET, PATCH, DELETE, HEAD" },
  { path: "/api/version/", methods: { GET: getVersion } },

  { path: "/api/projects/", methods: { GET: listProjects, POST: createProject } },
  { path: "/api/projects/{id}/", methods: { GET: getProject, PATCH: patchProject, PUT: patchProject, DELETE: deleteProject } },
  { path: "/api/projects/{id}/import", methods: { POST: importIntoProject } },
  { path: "/api/projects/{id}/tasks/", methods: { DELETE: deleteAllTasks } },

  { path: "/api/tasks/", methods: { GET: listTasks, POST: createTask } },
  { path: "/api/tasks/{id}/", methods: { GET: getTask, PATCH: patchTask, PUT: patchTask, DELETE: deleteTask } },
  { path: "/api/tasks/{id}/annotations/", methods: { GET: listTaskAnnotations, POST: createAnnotation } },
  {
    path: "/api/annotations/{id}/",
    methods: { GET: getAnnotation, PATCH: patchAnnotation, PUT: patchAnnotation, DELETE: deleteAnnotation },
  },

  { path: "/api/predictions/", methods: { GET: listPredictions, POST: createPrediction } },
  {
    path: "/api/predictions/{id}/",
    methods: { GET: getPrediction, PATCH: patchPrediction, PUT: patchPrediction, DELETE: deletePrediction },
  },

  { path: "/api/dm/views/", methods: { GET: listViews, POST: createView } },
  { path: "/api/dm/views/reset/", methods: { DELETE: resetViews } },
  { path: "/api/dm/views/order/", methods: { POST: orderViews } },
  { path: "/api/dm/views/{id}/", methods: { GET: getView, PATCH: updateView, PUT: updateView, DELETE: deleteView } },

  { path: "/api/dm/actions/", methods: { GET: listActions, POST: performAction } },
  { path: "/api/dm/actions/{action}/form/", methods: { GET: getActionForm } },
  { path: "/api/actions", methods: { GET: listActionsPublished, POST: performAction } },
  { path: "/api/actions/{action}/form", methods: { GET: getActionForm } },
] as const satisfies readonly Route[];

/** The names of the routes the table serves. */
type KeysOf<R> = R extends { readonly path: infer P extends string; readonly methods: infer M } ? `${keyof M & string} ${P}` : never;
type Served = KeysOf<(typeof routes)[number]>;
/** The table serves exactly the named routes (keys.ts): a route added to one and not the other is a compile error here. */
const servesTheNamedRoutes: [Exclude<Served, RouteKey>, Exclude<RouteKey, Served>] extends [never, never] ? true : never = true;
void servesTheNamedRoutes;

/** The Express pattern of a route path: `{id}` an integer, `{action}` one segment, the trailing slash optional. */
export function expressPath(path: string): string {
  return path.replace(/\/$/, "").replaceAll("{id}", ":id(\\d+)").replaceAll("{action}", ":action");
}
