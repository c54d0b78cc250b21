import type { HttpMethod, ServerPath } from "../../src/contract/routes.js";
import type { Handler } from "../http.js";
import { getActionForm, listActions, listActionsPublished, performAction } from "./actions.js";
import { createAnnotation, deleteAnnotation, getAnnotation, listTaskAnnotations, patchAnnotation } from "./annotations.js";
import { listTasks } from "./dm-list.js";
import {
  createMLBackend,
  deleteMLBackend,
  getMLBackend,
  interactiveAnnotating,
  listMLBackends,
  listMLVersions,
  predictTest,
  trainMLBackend,
  updateMLBackend,
} from "./ml.js";
import { convertToDraft, convertToDraftGet, createDraft, deleteDraft, getDraft, listTaskDrafts, updateDraft } from "./drafts.js";
import { getColumns, getProjectState } from "./dm-project.js";
import { getHotkeys, updateHotkeys } from "./hotkeys.js";
import { importPredictions } from "./import-predictions.js";
import {
  deleteFileUpload,
  deleteFileUploads,
  downloadUpload,
  getFileUpload,
  getImport,
  getReimport,
  listFileUploads,
  reimport,
  updateFileUpload,
} from "./file-uploads.js";
import { deleteModelVersion, getModelVersions } from "./model-versions.js";
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
import {
  createOrganization,
  deleteMember,
  getInvite,
  getMember,
  getOrganization,
  listMembers,
  listOrganizations,
  resetInviteToken,
  updateOrganization,
} from "./organizations.js";
import { createPrediction, deletePrediction, getPrediction, listPredictions, patchPrediction } from "./predictions.js";
import {
  createProject,
  deleteAllTasks,
  deleteProject,
  getProject,
  getProjectLabelConfig,
  importIntoProject,
  listProjects,
  patchProject,
  validateLabelConfig,
  validateProjectLabelConfig,
} from "./projects.js";
import { createProjectTask, createTask, deleteTask, getTask, listProjectTasks, patchTask } from "./tasks.js";
import { blacklist, createToken, listTokens, refresh, rotate } from "./tokens.js";
import { createUser, deleteUser, getToken, getUser, getVersion, getWhoAmI, listUsers, patchUser, resetToken } from "./users.js";
import { createView, deleteView, getView, listViews, orderViews, resetViews, updateView } from "./views.js";

export type Method = HttpMethod;

export interface Route {
  /** An Express path; non-strict routing makes every one match with and without the trailing slash. */
  readonly path: string;
  /** The server route it serves (src/contract/routes.ts); absent for the published interface's `/api/actions` aliases. */
  readonly server?: ServerPath;
  /** The path of a published alias as the interface writes it, parameters in braces. */
  readonly name?: string;
  readonly methods: Partial<Record<Method, Handler>>;
  /** `Allow` when the view's differs from its served methods (HEAD with GET, OPTIONS). */
  readonly allow?: string;
  /**
   * Who may call it when not every caller must authenticate: `none` reads no credentials at all (the view has no
   * `authentication_classes`); `optional` lets an anonymous caller in (`AllowAny`) but still refuses bad credentials.
   */
  readonly auth?: "none" | "optional";
  /**
   * `false`: the server's URL pattern has no trailing slash, and the mock answers that as the server
   * does: the path with one is not routed, and a 404 of the view reaches the client as the 404 page
   * (see `slashRetried` in app.ts). The export routes say so; the other slash-less patterns still
   * take both forms.
   */
  readonly slash?: false;
}

/**
 * The Express path of a server route: without its trailing slash, `{pk}` as `:id`, `{action_id}` as
 * `:action`, any other parameter by its name; numeric parameters match digits only.
 */
export function expressPath(server: string): string {
  return server
    .replace(/\/$/, "")
    .replace(/\{(\w+)\}/g, (_m, name: string) => (name === "action_id" ? ":action" : `:${name === "pk" ? "id" : name}(\\d+)`));
}

const serve = (server: ServerPath, methods: Route["methods"], extra: Pick<Route, "allow" | "auth" | "slash"> = {}): Route => ({
  path: expressPath(server),
  server,
  methods,
  ...extra,
});

/** Every route the mock serves, in the server's URL layout (the inventory in src/contract/routes.ts; docs/reference/routes.md). */
export const routes: readonly Route[] = [
  // The organizations app (label_studio/organizations/urls.py): patterns without a trailing slash but the membership's.
  serve("/api/organizations/", { GET: listOrganizations, POST: createOrganization }),
  serve("/api/organizations/{pk}", { GET: getOrganization, PATCH: updateOrganization, PUT: updateOrganization }, { slash: false }),
  serve("/api/organizations/{pk}/memberships", { GET: listMembers }, { slash: false }),
  // OrganizationMemberDetailAPI narrows http_method_names to delete and get.
  serve("/api/organizations/{pk}/memberships/{user_pk}/", { GET: getMember, DELETE: deleteMember }, { allow: "DELETE, GET" }),
  serve("/api/invite", { GET: getInvite }, { slash: false }),
  serve("/api/invite/reset-token", { POST: resetInviteToken }, { slash: false }),
  serve("/api/token/refresh/", { POST: refresh }, { auth: "none" }),
  // simplejwt's TokenViewBase: no authentication classes, AllowAny (a caller's bad key is never read).
  serve("/api/token/blacklist/", { POST: blacklist }, { auth: "none" }),
  serve("/api/token/rotate/", { POST: rotate }),
  serve("/api/token/", { GET: listTokens, POST: createToken }),
  serve("/api/current-user/whoami", { GET: getWhoAmI }),
  serve("/api/current-user/token", { GET: getToken }),
  serve("/api/current-user/reset-token/", { POST: resetToken }),
  serve("/api/current-user/hotkeys/", { GET: getHotkeys, PATCH: updateHotkeys }),
  // UserAPI narrows http_method_names to get, post, head, patch, delete (no OPTIONS, no PUT).
  serve("/api/users/", { GET: listUsers, POST: createUser }, { allow: "GET, POST, HEAD" }),
  serve("/api/users/{pk}/", { GET: getUser, PATCH: patchUser, DELETE: deleteUser }, { allow: "GET, PATCH, DELETE, HEAD" }),
  // core/views.py version_page: a plain Django view, no DRF authentication.
  serve("/api/version/", { GET: getVersion }, { auth: "none" }),

  serve("/api/projects/", { GET: listProjects, POST: createProject }),
  serve("/api/projects/{pk}/", { GET: getProject, PATCH: patchProject, PUT: patchProject, DELETE: deleteProject }),
  serve("/api/projects/validate/", { POST: validateLabelConfig }, { auth: "optional" }),
  serve("/api/projects/{pk}/validate/", { GET: getProjectLabelConfig, POST: validateProjectLabelConfig }),
  serve("/api/projects/{pk}/model-versions/", { GET: getModelVersions, DELETE: deleteModelVersion }),
  serve("/api/projects/{pk}/import", { POST: importIntoProject }),
  serve("/api/projects/{pk}/import/predictions", { POST: importPredictions }, { slash: false }),
  // Uploaded files and re-imports (data_import/urls.py: no trailing slashes) and the import records (projects/urls.py).
  serve(
    "/api/import/file-upload/{pk}",
    { GET: getFileUpload, PATCH: updateFileUpload, PUT: updateFileUpload, DELETE: deleteFileUpload },
    { slash: false },
  ),
  serve("/api/projects/{pk}/file-uploads", { GET: listFileUploads, DELETE: deleteFileUploads }, { slash: false }),
  serve("/api/projects/{pk}/reimport", { POST: reimport }, { slash: false }),
  serve("/api/projects/{pk}/imports/{import_pk}/", { GET: getImport }),
  serve("/api/projects/{pk}/reimports/{reimport_pk}/", { GET: getReimport }),
  serve("/api/projects/{pk}/tasks/", { GET: listProjectTasks, POST: createProjectTask, DELETE: deleteAllTasks }),
  // TasksBulkCreateAPI is ImportAPI under an older name.
  serve("/api/projects/{pk}/tasks/bulk/", { POST: importIntoProject }),
  // The export app (label_studio/data_export/urls.py).
  serve("/api/projects/{pk}/export", { GET: oneStepExport }, { slash: false }),
  serve("/api/projects/{pk}/export/formats", { GET: listFormats }, { slash: false }),
  serve("/api/projects/{pk}/exports/", { GET: listSnapshots, POST: createSnapshot }),
  serve("/api/projects/{pk}/exports/{export_pk}", { GET: getSnapshot, DELETE: deleteSnapshot }, { slash: false }),
  serve("/api/projects/{pk}/exports/{export_pk}/download", { GET: downloadSnapshot }, { slash: false }),
  serve("/api/projects/{pk}/exports/{export_pk}/convert", { GET: convertGet, POST: convertSnapshotRoute }, { slash: false }),

  serve("/api/tasks/", { GET: listTasks, POST: createTask }),
  serve("/api/tasks/{pk}/", { GET: getTask, PATCH: patchTask, PUT: patchTask, DELETE: deleteTask }),
  serve("/api/tasks/{pk}/annotations/", { GET: listTaskAnnotations, POST: createAnnotation }),
  serve("/api/tasks/{pk}/drafts", { GET: listTaskDrafts, POST: createDraft }),
  serve("/api/tasks/{pk}/annotations/{annotation_id}/drafts", { GET: listTaskDrafts, POST: createDraft }),
  serve("/api/annotations/{pk}/convert-to-draft", { GET: convertToDraftGet, POST: convertToDraft }),
  serve("/api/drafts/{pk}/", { GET: getDraft, PATCH: updateDraft, PUT: updateDraft, DELETE: deleteDraft }),
  serve("/api/annotations/{pk}/", { GET: getAnnotation, PATCH: patchAnnotation, PUT: patchAnnotation, DELETE: deleteAnnotation }),

  serve("/api/predictions/", { GET: listPredictions, POST: createPrediction }),
  serve("/api/predictions/{pk}/", { GET: getPrediction, PATCH: patchPrediction, PUT: patchPrediction, DELETE: deletePrediction }),

  serve("/api/dm/views/", { GET: listViews, POST: createView }),
  serve("/api/dm/views/reset/", { DELETE: resetViews }),
  serve("/api/dm/views/order/", { POST: orderViews }),
  serve("/api/dm/views/{pk}/", { GET: getView, PATCH: updateView, PUT: updateView, DELETE: deleteView }),

  serve("/api/ml/", { GET: listMLBackends, POST: createMLBackend }),
  // ml/urls.py patterns have no trailing slash: a view's 404 reaches the client as the HTML 404 page.
  serve("/api/ml/{pk}", { GET: getMLBackend, PATCH: updateMLBackend, PUT: updateMLBackend, DELETE: deleteMLBackend }, { slash: false }),
  serve("/api/ml/{pk}/train", { POST: trainMLBackend }, { slash: false }),
  serve("/api/ml/{pk}/predict/test", { POST: predictTest }, { slash: false }),
  serve("/api/ml/{pk}/interactive-annotating", { POST: interactiveAnnotating }, { slash: false }),
  serve("/api/ml/{pk}/versions", { GET: listMLVersions }, { slash: false }),

  serve("/api/dm/columns/", { GET: getColumns }),
  serve("/api/dm/project/", { GET: getProjectState }),
  serve("/api/dm/actions/", { GET: listActions, POST: performAction }),
  serve("/api/dm/actions/{action_id}/form/", { GET: getActionForm }),
  // The published interface's paths (not server routes): the same views.
  // Not an /api/ route (data_import/urls.py `data/upload/<path:filename>`): an uploaded file's bytes.
  { path: "/data/upload/:filename(.+)", name: "/data/upload/{filename}", methods: { GET: downloadUpload }, allow: "GET, HEAD, OPTIONS" },
  { path: "/api/actions", name: "/api/actions", methods: { GET: listActionsPublished, POST: performAction } },
  { path: "/api/actions/:action/form", name: "/api/actions/{action_id}/form", methods: { GET: getActionForm } },
];

/** The path a route is named by (`mock.use`): the server's pattern, or the published interface's. */
export function nameOf(route: Route): string {
  return route.server ?? route.name ?? route.path;
}
