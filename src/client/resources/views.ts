import { ClientConfigError } from "../errors.js";
import type { RequestOptions } from "../options.js";
import { arrayOf, number, object, record } from "../shape.js";
import type { ChildFiltersGuard } from "../server-release.js";
import type { Send } from "../transport.js";
import type { QueryInput, View, ViewCreate, ViewDataInput, ViewUpdate } from "../types.js";
import { boundTo, checkId, checkObject, checkReadKeys, queryBody } from "./common.js";
import { recordMethods, type RecordMethods } from "./record.js";

/** Saved Data Manager views: list, create (from a selection), get, update, delete. */
export interface ViewsResource extends RecordMethods<View, ViewUpdate> {
  /** Saved Data Manager views, of one project or all: `GET /api/dm/views/?project=`. */
  list(project?: number, options?: RequestOptions): Promise<View[]>;
  /** `POST /api/dm/views/ {project, data, selected_items?}`; `query` (a body or a selection) gives filters, ordering and selected ids. */
  create(body: ViewCreate, options?: RequestOptions): Promise<View>;
  /** `PATCH`: the view's `data` is replaced by the given data and query. */
  update(id: number, body: ViewUpdate, options?: RequestOptions): Promise<View>;
  /** Deletes every saved view of a project: `DELETE /api/dm/views/reset/ {project}` (the SDK's `views.delete_all`). */
  deleteAll(project: number, options?: RequestOptions): Promise<void>;
}

const view = record<View>({ project: number, data: object() });

/**
 * The write payload: the caller's `data` plus the query's filters and ordering (the server pops
 * those out of `data`), and the query's selection as top-level `selected_items` — the server keeps
 * a `data.selectedItems` as plain data and never applies it. A field given both ways is refused.
 */
function viewPayload(
  data: ViewDataInput | undefined,
  query: QueryInput | undefined,
  project: number | undefined,
): { data: Record<string, unknown>; selected_items?: unknown } {
  const { selectedItems, ...rest } = viewData(data, query, project);
  return selectedItems === undefined ? { data: rest } : { data: rest, selected_items: selectedItems };
}

/** `data` on the wire: the caller's fields plus the query body; a field given both ways is refused. */
function viewData(data: ViewDataInput | undefined, query: QueryInput | undefined, project: number | undefined): Record<string, unknown> {
  if (data !== undefined) {
    checkObject("body.data", data);
    // The web UI's keys (title, columnsWidth…) are stored as given; a near miss of the query's is refused.
    checkReadKeys("body.data", data, { context: "view" });
  }
  if (query === undefined) return { ...data };
  const bound = boundTo(query).project;
  if (project !== undefined && bound !== undefined && bound !== project) {
    throw new ClientConfigError("body.query", `a selection of project ${project}`, `a selection of project ${bound}`);
  }
  const body = queryBody("body.query", query, { context: "view" });
  for (const key of Object.keys(body)) {
    if (data && key in data) throw new ClientConfigError(`body.data.${key}`, "to be given once", "it in both body.data and body.query");
  }
  return { ...data, ...body };
}

export function viewsResource(send: Send, guard: ChildFiltersGuard): ViewsResource {
  const records = recordMethods<View, ViewUpdate>(send, "/api/dm/views/", view, (body) => viewPayload(body.data, body.query, undefined));
  return Object.freeze({
    async list(project?: number, options?: RequestOptions) {
      const query = { project: project === undefined ? undefined : checkId("project", project) };
      return send({ method: "GET", path: "/api/dm/views/", query, expect: arrayOf(view) }, options);
    },
    async create(body: ViewCreate, options?: RequestOptions) {
      checkObject("body", body);
      const project = checkId("body.project", body.project);
      const payload = { project, ...viewPayload(body.data, body.query, project) };
      // A 1.22 view keeps only child_filter (data_manager/serializers.py ViewSerializer): saved, it selects more.
      await guard(payload.data["filters"], options);
      return send({ method: "POST", path: "/api/dm/views/", body: payload, expect: view }, options);
    },
    ...records,
    async update(id: number, body: ViewUpdate, options?: RequestOptions) {
      if (typeof body === "object" && body !== null) await guard(viewPayload(body.data, body.query, undefined).data["filters"], options);
      return records.update(id, body, options);
    },
    async deleteAll(project: number, options?: RequestOptions) {
      const body = { project: checkId("project", project) };
      return send<void>({ method: "DELETE", path: "/api/dm/views/reset/", body }, options);
    },
  });
}
