import { parsePyInt } from "../../src/emulation/python-text.js";
import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import { pyType } from "../../src/emulation/python-json.js";
import { view as viewContract, viewOrder, viewReset } from "../../src/contract/index.js";
import { fieldError, validationError } from "../errors.js";
import { bodyObject, noContent, ok, param, type Handler, type MockContext, type MockRequest } from "../http.js";
import { settle } from "../prepare.js";
import { presentView } from "../present/views.js";
import type { ViewRecord } from "../../src/contract/state.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pathId, projectOr404, viewOr404 } from "./lookup.js";
import { writeInput, inputValue, validateWrite } from "../drf/serializer.js";

/**
 * Saved views (label_studio/data_manager/api.py `ViewAPI`, serializers.py `ViewSerializer`): filters
 * are validated on write as the server's serializers do (prefix rule, `__` traversal, `in_list`
 * columns and values → 400), legacy `child_filter` is stored as `child_filters`, and reads give the
 * server's representation. A view's stored selection is the top-level `selected_items` of a write;
 * it reads back as `data.selectedItems`. A locked view takes only `columnsWidth` from a write that
 * does not unlock it.
 */
const INVALID_CHOICE = "Select a valid choice. That choice is not one of the available choices.";
/** `LOCKED_VIEW_ALLOWED_DATA_KEYS`. */
const LOCKED_VIEW_ALLOWED_DATA_KEYS = ["columnsWidth"];
const relations = { project: "projects", user: "users" } as const;

type Data = Record<string, JsonValue>;
const truthy = (v: unknown) =>
  v !== undefined &&
  v !== null &&
  v !== false &&
  v !== 0 &&
  v !== "" &&
  !(Array.isArray(v) && v.length === 0) &&
  !(isPlainObject(v) && Object.keys(v).length === 0);

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
    const children =
      "child_filters" in item
        ? item["child_filters"]
        : "child_filter" in item
          ? item["child_filter"] === null
            ? []
            : [item["child_filter"]]
          : [];
    out["child_filters"] = Array.isArray(children) ? children.map((c) => storedItem(c, false)) : [];
  }
  return out;
}

interface Written {
  /** The serializer's plain fields (`project`, `order`, `user`, `is_locked`). */
  readonly fields: { readonly project?: JsonValue; readonly is_locked?: JsonValue };
  /** The view's data without the filter group and ordering. */
  readonly rest: Data;
  /** undefined: no filter group written (the server keeps or creates none). */
  readonly filters: Data | undefined;
  readonly ordering: JsonValue | undefined;
  readonly selection: JsonValue | undefined;
}

/** Validate a write the way ViewSerializer does; returns what it stores. */
function written(req: MockRequest, ctx: MockContext, partial: boolean): Written {
  const body = writeInput(req.body);
  const fields = validateWrite(viewContract, body, { partial, strict: ctx.strict, store: ctx.store, relations });
  const rawData = inputValue(body, "data");
  const data: Record<string, unknown> = isPlainObject(rawData) ? { ...rawData } : {};
  if (rawData !== undefined && rawData !== null && !isPlainObject(rawData) && ctx.strict) {
    throw fieldError("data", `expected a JSON object, found ${pyType(rawData)}: the server stores it and its answers break`);
  }
  if (ctx.strict && "selectedItems" in data) {
    throw fieldError(
      "data.selectedItems",
      "nothing here: the server keeps data.selectedItems as plain data and never applies it; send the selection as top-level selected_items",
    );
  }
  delete data["selectedItems"];
  const selection = inputValue(body, "selected_items");
  const input: Record<string, unknown> = { ...data };
  if (truthy(selection)) input["selectedItems"] = selection;
  settle(ctx, input, "view", "data");

  const { filters, ordering, ...rest } = data;
  const group = isPlainObject(filters) && truthy(filters["conjunction"]) ? filters : undefined;
  return {
    fields,
    rest: rest as Data,
    filters: group
      ? {
          conjunction: group["conjunction"] as JsonValue,
          items: (Array.isArray(group["items"]) ? group["items"] : []).map((i) => storedItem(i, true)),
        }
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
  return ok(rows.map((v) => presentView(v, ctx.store)));
};

/** `perform_create`: the caller owns the view, which goes last (`order` = max + 1); a locked one is locked by the caller. */
export const createView: Handler = (req, ctx) => {
  const w = written(req, ctx, false);
  const project = w.fields.project as number;
  const siblings = ctx.store.list("views").filter((v) => v.project === project);
  const order = siblings.reduce((max, v) => Math.max(max, v.order), -1) + 1;
  const lock = w.fields.is_locked === true ? { is_locked: true, locked_by: req.user.id, locked_at: nowTimestamp() } : {};
  const view = ctx.store.insert("views", { project, user: req.user.id, order, data: compose(w, undefined, true), ...lock });
  return ok(presentView(view, ctx.store), 201);
};

export const getView: Handler = (req, ctx) => ok(presentView(viewOr404(ctx, pathId(req.params)), ctx.store));

/**
 * PATCH/PUT (`ViewSerializer.update`): `data` is replaced; filters and ordering only when the write
 * carries them. `is_locked` locks or unlocks first; a locked view that stays locked takes only the
 * allow-listed `data` keys and ignores the rest of the write.
 */
export const updateView: Handler = (req, ctx) => {
  const view = viewOr404(ctx, pathId(req.params));
  const body = bodyObject(req);
  const w = written(req, ctx, req.method === "PATCH");
  const locking = w.fields.is_locked;
  const unlocking = locking !== undefined && !truthy(locking) && view.is_locked === true;
  if (view.is_locked === true && !unlocking) {
    const written = inputValue(body, "data");
    const incoming = isPlainObject(written) ? written : {};
    const kept: Data = { ...view.data };
    for (const key of LOCKED_VIEW_ALLOWED_DATA_KEYS) if (Object.hasOwn(incoming, key)) kept[key] = incoming[key] as JsonValue;
    return ok(presentView(ctx.store.update("views", view.id, { data: kept }), ctx.store));
  }
  const lock =
    locking === undefined || truthy(locking) === (view.is_locked === true)
      ? {}
      : truthy(locking)
        ? { is_locked: true, locked_by: req.user.id, locked_at: nowTimestamp() }
        : { is_locked: false, locked_by: null, locked_at: null };
  const data = "data" in body ? compose(w, view.data, false) : compose({ ...w, rest: stripQuery(view.data) }, view.data, false);
  return ok(presentView(ctx.store.update("views", view.id, { data, ...lock }), ctx.store));
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
  const source = "project" in body ? body : { project: param(req.query, "project") ?? null };
  const { project } = validateWrite(viewReset, source, { partial: false, strict: false, store: ctx.store, relations });
  projectOr404(ctx, project as number);
  ctx.store.removeWhere("views", (v) => v.project === project);
  return noContent();
};

/** `POST /api/dm/views/order/` `{project, ids}` → 200 with no body (`Response(status=200)`; views of the project get their list position). */
export const orderViews: Handler = (req, ctx) => {
  const { project, ids } = validateWrite(viewOrder, writeInput(req.body), {
    partial: false,
    strict: ctx.strict,
    store: ctx.store,
    relations: {},
  });
  projectOr404(ctx, project as number);
  (ids as number[]).forEach((id, order) => {
    const view = ctx.store.find("views", id);
    if (view && view.project === project) ctx.store.update("views", view.id, { order });
  });
  return { status: 200 };
};
