import type { ProjectRecord } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { derivedList } from "../engine.js";
import { validationError } from "../errors.js";
import { bodyObject, noContent, ok, pageLink, pageSize, paginate, param, type Handler, type MockContext, type MockRequest } from "../http.js";
import { presentProject, projectDefaults, writableProjectFields } from "../present/project.js";
import { nowTimestamp } from "../time.js";
import { FieldErrors, parse, refuseUnknownFields } from "./fields.js";
import { pathId, projectOr404 } from "./lookup.js";
import { importTasks } from "./import.js";

/** Projects (docs/reference/resources.md#projects): list paginated 30 per page (max 100), CRUD, import, delete all tasks. */
const PAGE_SIZE = 30;
const MAX_PAGE_SIZE = 100;
/** settings.PROJECT_TITLE_MAX_LEN */
const TITLE_MAX = 50;

export function present(ctx: MockContext, project: ProjectRecord): Record<string, unknown> {
  return presentProject(project, ctx.store, derivedList(ctx.store.dataset(project)));
}

/** `ordering=` fields the list accepts; DRF's OrderingFilter drops any other. */
const orderable = new Set(["id", "title", "created_at", "pinned_at"]);

function compare(a: JsonValue | undefined, b: JsonValue | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return a < b ? -1 : 1;
}

export const listProjects: Handler = (req, ctx) => {
  let rows = [...ctx.store.list("projects")];
  const ids = param(req.query, "ids");
  if (ids !== undefined) {
    const wanted = new Set(ids.split(",").map((s) => Number.parseInt(s.trim(), 10)));
    rows = rows.filter((p) => wanted.has(p.id));
  }
  const title = param(req.query, "title");
  if (title !== undefined) rows = rows.filter((p) => p.title.toLowerCase().includes(title.toLowerCase()));
  const search = param(req.query, "search");
  if (search !== undefined) {
    const needle = search.toLowerCase();
    rows = rows.filter((p) => p.title.toLowerCase().includes(needle) || String(p["description"] ?? "").toLowerCase().includes(needle));
  }
  const ordering = (param(req.query, "ordering") ?? "").split(",").map((s) => s.trim()).filter((s) => orderable.has(s.replace(/^-/, "")));
  // Default: pinned first, then newest first (id breaks ties between equal timestamps).
  const keys = ordering.length > 0 ? ordering : ["pinned_at", "-created_at", "-id"];
  rows.sort((a, b) => {
    for (const key of keys) {
      const field = key.replace(/^-/, "");
      const sign = key.startsWith("-") ? -1 : 1;
      const c = compare(a[field], b[field]);
      if (c !== 0) return sign * c;
    }
    return 0;
  });
  const page = paginate(rows, req.query, pageSize(req.query, PAGE_SIZE, MAX_PAGE_SIZE));
  return ok({
    count: rows.length,
    next: page.number < page.pages ? pageLink(req, page.number + 1) : null,
    previous: page.number > 1 ? pageLink(req, page.number - 1) : null,
    results: page.items.map((p) => present(ctx, p)),
  });
};

/** Validate the writable project fields of a body; unknown fields are ignored (refused when strict). */
function projectFields(req: MockRequest, ctx: MockContext): Partial<ProjectRecord> {
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, writableProjectFields);
  const errors = new FieldErrors();
  const out: Record<string, unknown> = {};
  const title = errors.check(body, "title", parse.string(TITLE_MAX), false);
  if (title !== undefined) out["title"] = title;
  const config = errors.check(body, "label_config", parse.string(), false);
  if (config !== undefined) out["label_config"] = config;
  const version = errors.check(body, "model_version", parse.nullableString, false);
  if (version !== undefined) out["model_version"] = version;
  for (const [field, fallback] of Object.entries(projectDefaults)) {
    if (!(field in body)) continue;
    const value = body[field];
    const expectsBool = typeof fallback === "boolean";
    const expectsNumber = typeof fallback === "number";
    const parsed = expectsBool ? parse.boolean(value) : expectsNumber ? parse.number(false)(value) : { ok: true as const, value };
    if (parsed.ok) out[field] = parsed.value;
    else errors.add(field, parsed.message);
  }
  errors.throwIfAny();
  return out as Partial<ProjectRecord>;
}

export const createProject: Handler = (req, ctx) => {
  if (req.body !== undefined && (typeof req.body !== "object" || req.body === null || Array.isArray(req.body))) {
    throw validationError({ non_field_errors: ["Invalid data. Expected a dictionary, but got list."] });
  }
  const fields = projectFields(req, ctx);
  const project = ctx.store.insert("projects", {
    title: "",
    label_config: "<View></View>",
    model_version: null,
    ...fields,
    created_by: req.user.id,
    created_at: nowTimestamp(),
  } as Omit<ProjectRecord, "id">);
  return ok(present(ctx, project), 201);
};

export const getProject: Handler = (req, ctx) => ok(present(ctx, projectOr404(ctx, pathId(req.params))));

export const patchProject: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const updated = ctx.store.update("projects", project.id, projectFields(req, ctx));
  return ok(present(ctx, updated));
};

export const deleteProject: Handler = (req, ctx) => {
  ctx.store.deleteProject(projectOr404(ctx, pathId(req.params)).id);
  return noContent();
};

/** `DELETE /api/projects/{id}/tasks/`: every task of the project (views stay). */
export const deleteAllTasks: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  ctx.store.deleteTasks(new Set(ctx.store.dataset(project).tasks.map((t) => t.id)));
  return noContent();
};

export const importIntoProject: Handler = (req, ctx) => importTasks(req, ctx, projectOr404(ctx, pathId(req.params)));
