import type { Handler } from "../http.js";
import { getActionForm, listActions, listActionsPublished, performAction } from "./actions.js";
import { createAnnotation, deleteAnnotation, getAnnotation, listTaskAnnotations, patchAnnotation } from "./annotations.js";
import { listTasks } from "./dm-list.js";
import { createPrediction, deletePrediction, getPrediction, listPredictions, patchPrediction } from "./predictions.js";
import {
  convertGet,
  convertSnapshotRoute,
  createSnapshot,
  deleteSnapshot,
  downloadSnapshot,
  getSnapshot,
  listFormats,
  listSnapshots,
  oneStepExport,
} from "./exports.js";
import { createProject, deleteAllTasks, deleteProject, getProject, importIntoProject, listProjects, patchProject } from "./projects.js";
import { createTask, deleteTask, getTask, patchTask } from "./tasks.js";
import { blacklist, createToken, listTokens, refresh, rotate } from "./tokens.js";
import { getUser, getVersion, getWhoAmI, listUsers } from "./users.js";
import { createView, deleteView, getView, listViews, orderViews, resetViews, updateView } from "./views.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Route {
  /** An Express path; non-strict routing makes every one match with and without the trailing slash. */
  readonly path: string;
  readonly methods: Partial<Record<Method, Handler>>;
  /** `Allow` when the view's differs from its served methods (HEAD with GET, OPTIONS). */
  readonly allow?: string;
  /**
   * `false`: the server's URL pattern has no trailing slash. The path with one is not routed, and
   * a 404 of the view reaches the client as the 404 page (see `slashRetried` in app.ts).
   */
  readonly slash?: false;
}

const ID = "(\\d+)";

/** Every route the mock serves, in the server's URL layout (docs/reference/resources.md and the pages it links). */
export const routes: readonly Route[] = [
  { path: "/api/token/refresh", methods: { POST: refresh } },
  { path: "/api/token/blacklist", methods: { POST: blacklist } },
  { path: "/api/token/rotate", methods: { POST: rotate } },
  { path: "/api/token", methods: { GET: listTokens, POST: createToken } },
  { path: "/api/current-user/whoami", methods: { GET: getWhoAmI } },
  // UserAPI narrows http_method_names to get, post, head, patch, delete (no OPTIONS, no PUT).
  { path: "/api/users", methods: { GET: listUsers }, allow: "GET, POST, HEAD" },
  { path: `/api/users/:id${ID}`, methods: { GET: getUser }, allow: "GET, PATCH, DELETE, HEAD" },
  { path: "/api/version", methods: { GET: getVersion } },

  { path: "/api/projects", methods: { GET: listProjects, POST: createProject } },
  { path: `/api/projects/:id${ID}`, methods: { GET: getProject, PATCH: patchProject, PUT: patchProject, DELETE: deleteProject } },
  { path: `/api/projects/:id${ID}/import`, methods: { POST: importIntoProject } },
  { path: `/api/projects/:id${ID}/tasks`, methods: { DELETE: deleteAllTasks } },
  // The export app (label_studio/data_export/urls.py): its patterns but the list's have no trailing slash.
  { path: `/api/projects/:id${ID}/export`, methods: { GET: oneStepExport }, slash: false },
  { path: `/api/projects/:id${ID}/export/formats`, methods: { GET: listFormats }, slash: false },
  { path: `/api/projects/:id${ID}/exports`, methods: { GET: listSnapshots, POST: createSnapshot } },
  { path: `/api/projects/:id${ID}/exports/:export_pk${ID}`, methods: { GET: getSnapshot, DELETE: deleteSnapshot }, slash: false },
  { path: `/api/projects/:id${ID}/exports/:export_pk${ID}/download`, methods: { GET: downloadSnapshot }, slash: false },
  {
    path: `/api/projects/:id${ID}/exports/:export_pk${ID}/convert`,
    methods: { GET: convertGet, POST: convertSnapshotRoute },
    allow: "GET, POST, HEAD, OPTIONS",
    slash: false,
  },

  { path: "/api/tasks", methods: { GET: listTasks, POST: createTask } },
  { path: `/api/tasks/:id${ID}`, methods: { GET: getTask, PATCH: patchTask, PUT: patchTask, DELETE: deleteTask } },
  { path: `/api/tasks/:id${ID}/annotations`, methods: { GET: listTaskAnnotations, POST: createAnnotation } },
  {
    path: `/api/annotations/:id${ID}`,
    methods: { GET: getAnnotation, PATCH: patchAnnotation, PUT: patchAnnotation, DELETE: deleteAnnotation },
  },

  { path: "/api/predictions", methods: { GET: listPredictions, POST: createPrediction } },
  {
    path: `/api/predictions/:id${ID}`,
    methods: { GET: getPrediction, PATCH: patchPrediction, PUT: patchPrediction, DELETE: deletePrediction },
  },

  { path: "/api/dm/views", methods: { GET: listViews, POST: createView } },
  { path: "/api/dm/views/reset", methods: { DELETE: resetViews } },
  { path: "/api/dm/views/order", methods: { POST: orderViews } },
  { path: `/api/dm/views/:id${ID}`, methods: { GET: getView, PATCH: updateView, PUT: updateView, DELETE: deleteView } },

  { path: "/api/dm/actions", methods: { GET: listActions, POST: performAction } },
  { path: "/api/dm/actions/:action/form", methods: { GET: getActionForm } },
  { path: "/api/actions", methods: { GET: listActionsPublished, POST: performAction } },
  { path: "/api/actions/:action/form", methods: { GET: getActionForm } },
];
