import { parsePyInt } from "../../src/emulation/python-text.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { fieldError, validationError } from "../errors.js";
import { bodyObject, isPlainObject, noContent, ok, param, type Handler, type MockContext, type MockRequest } from "../http.js";
import { settle } from "../prepare.js";
import { presentView } from "../present/records.js";
import type { ViewRecord } from "../store/state.js";
import { drf, FieldErrors, parse, refuseUnknownFields } from "./fields.js";
import { pathId, projectOr404, viewOr404 } from "./lookup.js";

/**
 * Saved views (docs/reference/views.md): filters are validated on write as the
 * server's serializers do (prefix rule, `__` traversal, `in_list` columns and values → 400),
 * legacy `child_filter` is stored as `child_filters`, and reads give the server's representation.
 * A view's stored selection is the top-level `selected_items` of a write; it reads back as
 * `data.selectedItems`.
 */
const INVALID_CHOICE = "Select a valid choice. That choice is not one of the available choices.";
const writable = new Set(["project", "data", "selected_items", "ordering", "order", "user", "filter_group", "is_locked"]);

type Data = Record<string, JsonValue>;
const truthy = (v: unknown) =>
  v !== undefined && v !== null && v !== false && v !== 0 && v !== "" && !(Array.isArray(v) && v.length === 0) && !(isPlainObject(v) && Object.keys(v).length === 0);

/** A filter item as the server stores and reads it back: plural `child_filters`, one level. */
function storedItem(raw: unknown, root: boolean): Data {
  const item = isPlainObject(raw) ? raw : {};
  const out: Data = {
    filter: (item["filter"] ?? "") as JsonValue,
    operator: (item["operator"] ?? "") as JsonValue,
    type: (item["type"] ?? "") as JsonValue,
    value: (item["value"] ?? {}) as JsonValue,
  };
  if (root) {
    const children = "child_filters" in item ? item["child_filters"] : "child_filter" in item ? (item["child_filter"] === null ? [] : [item["child_filter"]]) : [];
    out["child_filters"] = Array.isArray(children) ? children.map((c) => storedItem(c, false)) : [];
  }
  return out;
}

interface Written {
  /** The view's data without the filter group and ordering. */
  readonly rest: Data;
  /** undefined: no filter group written (the server keeps or creates none). */
  readonly filters: Data | undefined;
  readonly ordering: JsonValue | undefined;
  readonly selection: JsonValue | undefined;
}

/** Validate a write the way ViewSerializer does; returns what it stores. */
function written(req: MockRequest, ctx: MockContext): Written {
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, writable);
  const rawData = body["data"];
  const data: Record<string, unknown> = isPlainObject(rawData) ? { ...rawData } : {};
  if (rawData !== undefined && rawData !== null && !isPlainObject(rawData) && ctx.strict) throw fieldError("data", drf.dict(rawData));
  if (ctx.strict && "selectedItems" in data) {
    throw fieldError("data.selectedItems", "nothing here: the server keeps data.selectedItems as plain data and never applies it; send the selection as top-level selected_items");
  }
  delete data["selectedItems"];
  const selection = body["selected_items"];
  const input: Record<string, unknown> = { ...data };
  if (truthy(selection)) input["selectedItems"] = selection;
  settle(ctx, input, "view", "data.");

  const { filters, ordering, ...rest } = data;
  const group = isPlainObject(filters) && truthy(filters["conjunction"]) ? filters : undefined;
  return {
    rest: rest as Data,
    filters: group
      ? { conjunction: group["conjunction"] as JsonValue, items: (Array.isArray(group["items"]) ? group["items"] : []).map((i) => storedItem(i, true)) }
      : undefined,
    ordering: truthy(ordering) ? (ordering as JsonValue) : undefined,
    selection: selection === undefined ? undefined : (selection as JsonValue),
  };
}

function compose(w: Written, previous: ViewRecord["data"] | undefined, replaceAll: boolean): Data {
  const data: Data = { ...w.rest };
  const filters = w.filters ?? (replaceAll ? undefined : previous?.["filters"]);
  const ordering = w.ordering ?? (replaceAll ? undefined : previous?.["ordering"]);
  const selection = w.selection !== undefined ? w.selection : previous?.["selectedItems"];
  if (filters !== undefined) data["filters"] = filters;
  if (ordering !== undefined) data["ordering"] = ordering;
  if (truthy(selection)) data["selectedItems"] = selection as JsonValue;
  return data;
}

/** `GET /api/dm/views/?project=`: a bare array ordered by `order`, then id. */
export const listViews: Handler = (req, ctx) => {
  const raw = param(req.query, "project");
  let rows = [...ctx.store.list("views")];
  if (raw !== undefined && raw !== "") {
    // django-filter's ModelChoiceField: the pk lookup reads the text with int().
    const id = parsePyInt(raw) ?? Number.NaN;
    if (!ctx.store.find("projects", id)) throw validationError({ project: [INVALID_CHOICE] });
    rows = rows.filter((v) => v.project === id);
  }
  rows.sort((a, b) => a.order - b.order || a.id - b.id);
  return ok(rows.map(presentView));
};

export const createView: Handler = (req, ctx) => {
  const errors = new FieldErrors();
  const project = errors.check(bodyObject(req), "project", parse.pk(ctx.store, "projects"), true);
  errors.throwIfAny();
  const w = written(req, ctx);
  const siblings = ctx.store.list("views").filter((v) => v.project === project);
  const order = siblings.reduce((max, v) => Math.max(max, v.order), -1) + 1;
  const view = ctx.store.insert("views", { project: project as number, user: req.user.id, order, data: compose(w, undefined, true) });
  return ok(presentView(view), 201);
};

export const getView: Handler = (req, ctx) => ok(presentView(viewOr404(ctx, pathId(req.params))));

/** PATCH/PUT: `data` is replaced; filters and ordering only when the write carries them (as the server). */
export const updateView: Handler = (req, ctx) => {
  const view = viewOr404(ctx, pathId(req.params));
  const body = bodyObject(req);
  const w = written(req, ctx);
  const data = "data" in body ? compose(w, view.data, false) : compose({ ...w, rest: stripQuery(view.data) }, view.data, false);
  return ok(presentView(ctx.store.update("views", view.id, { data })));
};

function stripQuery(data: ViewRecord["data"]): Data {
  const { filters: _f, ordering: _o, selectedItems: _s, ...rest } = data;
  return rest as Data;
}

export const deleteView: Handler = (req, ctx) => {
  const view = viewOr404(ctx, pathId(req.params));
  ctx.store.removeWhere("views", (v) => v.id === view.id);
  return noContent();
};

/** `DELETE /api/dm/views/reset/` with `project` in the body or, failing that, the query string. */
export const resetViews: Handler = (req, ctx) => {
  const body = bodyObject(req);
  const source = "project" in body ? body : { project: param(req.query, "project") };
  const errors = new FieldErrors();
  const project = errors.check(source, "project", parse.pk(ctx.store, "projects"), true);
  errors.throwIfAny();
  projectOr404(ctx, project as number);
  ctx.store.removeWhere("views", (v) => v.project === project);
  return noContent();
};

/** `POST /api/dm/views/order/` `{project, ids}` → 204 (views of the project get their list position). */
export const orderViews: Handler = (req, ctx) => {
  const body = bodyObject(req);
  const errors = new FieldErrors();
  const project = errors.check(body, "project", parse.integer, true);
  const ids = errors.check(body, "ids", parse.list, true);
  errors.throwIfAny();
  projectOr404(ctx, project as number);
  (ids as unknown[]).forEach((id, order) => {
    const view = typeof id === "number" ? ctx.store.find("views", id) : undefined;
    if (view && view.project === project) ctx.store.update("views", view.id, { order });
  });
  return noContent();
};
