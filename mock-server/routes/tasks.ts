import type { ProjectRecord, TaskRecord } from "../../src/contract/records.js";
import type { DerivedColumns } from "../../src/semantics/records.js";
import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import { task as taskContract, taskModel, taskOwn, taskSimple } from "../../src/contract/task.js";
import { newRecordDefaults, storedTable } from "../../src/contract/field.js";
import { derivedOfTask, derivedOne, type TaskRelations } from "../engine.js";
import { parsePyInt } from "../../src/emulation/python-text.js";
import { pydanticError, pydanticText } from "../../src/emulation/pydantic.js";
import { pyTruthy, strRepr } from "../../src/emulation/python-json.js";
import { fieldError, HttpProblem, notFound, pythonException, validationError } from "../errors.js";
import { bodyDict, intFromQuery, noContent, ok, param, type Handler, type MockContext, type MockRequest, type Reply } from "../http.js";
import { presentDmTaskDetail, presentTask, presentTaskSimple } from "../present/tasks.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pathId, projectOr404, taskOr404 } from "./lookup.js";
import { writeInput, inputValue, validateWrite } from "../drf/serializer.js";
import { sparseFields } from "../drf/flex-fields.js";
import { dataColumnsFailure, resolveUndefinedKey, validateTask } from "./task-validator.js";

/**
 * Single tasks (label_studio/tasks/api.py `TaskListAPI.post`, `TaskAPI`); the Data Manager list is
 * in dm-list.ts. Writes are validated by the contract's task fields; the mock stores `data`,
 * `meta`, `overlap`, `inner_id` and `updated_by` and computes the counters and `is_labeled`.
 */

/** A task's own records (as its project's dataset holds them), from the store's per-task index. */
export function relationsOf(ctx: MockContext, task: TaskRecord): TaskRelations {
  const mine = (r: { project: number }) => r.project === task.project;
  return {
    annotations: ctx.store.ofTask("annotations", task.id).filter(mine),
    predictions: ctx.store.ofTask("predictions", task.id).filter(mine),
    drafts: ctx.store.ofTask("drafts", task.id),
  };
}

function missingProject(task: TaskRecord): never {
  throw new Error(`store: task ${task.id} refers to project ${task.project}, which does not exist`);
}

/** A task's computed columns from its own records; work proportional to the task, not its project. */
function derivedOf(ctx: MockContext, task: TaskRecord): DerivedColumns | undefined {
  const project = ctx.store.find("projects", task.project) ?? missingProject(task);
  return derivedOfTask(project, task, relationsOf(ctx, task)) ?? derivedOne(ctx.store.dataset(project), task.id);
}

/** The mock keeps no FileUpload records: a written `file_upload` pk refers to none (the model's other pks name their collection). */
const relations = { file_upload: "none" } as const;

/** The task fields the store keeps, from a validated write. */
function stored(written: Readonly<Record<string, unknown>>): Partial<TaskRecord> {
  const keep = ["data", "meta", "overlap", "inner_id", "updated_by"] as const;
  return Object.fromEntries(keep.filter((k) => written[k] !== undefined).map((k) => [k, written[k]])) as Partial<TaskRecord>;
}

/**
 * `POST /api/tasks/`: `get_serializer_context` looks the body's `project` up first (404, before
 * any field is validated), then the fields, then `TaskValidator` against the project's config.
 */
export const createTask: Handler = (req, ctx) => {
  const body = writeInput(req.body);
  const projectId = inputValue(body, "project");
  if (pyTruthy(projectId)) {
    // Django's `int(pk)`: a float is truncated, True is 1; what int() refuses is a 404 too.
    const id =
      typeof projectId === "number"
        ? Math.trunc(projectId)
        : projectId === true
          ? 1
          : typeof projectId === "string"
            ? parsePyInt(projectId)
            : undefined;
    // DRF's get_object_or_404 turns the ValueError of a pk that is no int into a bare Http404: "Not found.".
    if (id === undefined) throw new HttpProblem(404, "Not found.");
    if (!ctx.store.find("projects", id)) throw notFound("Project");
  }
  const written = validateWrite(taskContract, body, { partial: false, strict: ctx.strict, store: ctx.store, relations });
  if (written.project === undefined || written.project === null) throw validationError({ project: ["This field is required."] });
  return insertTask(req, ctx, projectOr404(ctx, written.project as number), written);
};

/**
 * `POST /api/projects/{id}/tasks/` (`ProjectTaskListAPI.perform_create`): the project of the URL
 * (404 first); a `project` in the body is validated as a primary key, then replaced by it.
 */
export const createProjectTask: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const written = validateWrite(taskContract, writeInput(req.body), { partial: false, strict: ctx.strict, store: ctx.store, relations });
  return insertTask(req, ctx, project, written);
};

/** `TaskValidator` against the project's config, then the new task (`TaskSerializer`, 201). */
function insertTask(req: MockRequest, ctx: MockContext, project: ProjectRecord, written: Readonly<Record<string, unknown>>): Reply {
  validateTask(project, written);
  const data = written["data"];
  if (!isPlainObject(data)) throw dataColumnsFailure(ctx, data, "data");
  const now = nowTimestamp();
  const keep = stored(written);
  // TaskValidator has refused a meta that is no dict or list: the written fields go over the model's defaults as they are.
  const task = ctx.store.insert("tasks", {
    ...newRecordDefaults(storedTable(taskModel, taskOwn)),
    ...keep,
    project: project.id,
    data: resolveUndefinedKey(project, data) as Record<string, JsonValue>,
    created_at: now,
    updated_at: now,
    inner_id: keep.inner_id ? keep.inner_id : ctx.store.nextInnerId(project.id),
  });
  return ok(presentTask(task, derivedOf(ctx, task), { sparse: sparseFields(req.query) }), 201);
}

/**
 * `GET /api/projects/{id}/tasks/` (`ProjectTaskListAPI`): a bare array of `TaskSimpleSerializer`
 * tasks (with every annotation and prediction), newest update first, cut by the deprecated
 * `paginator` of `core/utils/common.py`: `page_size` (or `length`, default 50; `-1` for all),
 * `page` or a `start` offset; an empty page, an empty project included, is a 404.
 */
export const listProjectTasks: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const tasks = [...ctx.store.dataset(project).tasks].sort((a, b) =>
    a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : b.id - a.id,
  );
  const rows = deprecatedPage(tasks, req.query);
  if (rows.length === 0) throw new HttpProblem(404, "Not found.");
  return ok(rows.map((t) => presentTaskSimple(t, derivedOf(ctx, t), relationsOf(ctx, t), ctx.store)));
};

/** `paginator(objects, request)`: Django's Paginator over `page_size`, with its failures as the view meets them. */
function deprecatedPage<T>(rows: readonly T[], query: MockRequest["query"]): readonly T[] {
  const size = param(query, "page_size") ?? param(query, "length") ?? "50";
  let page: number;
  if (param(query, "start") !== undefined) {
    const start = intFromQuery(query, "start", 1);
    page = start && start > pyIntOr500(size) && pyIntOr500(size) > 0 ? Math.trunc(start / pyIntOr500(size)) + 1 : start + 1;
  } else page = intFromQuery(query, "page", 1);
  if (size === "-1") return rows;
  const perPage = pyIntOr500(size);
  if (perPage === 0) return []; // ZeroDivisionError
  const pages = perPage < 0 ? 0 : Math.max(1, Math.ceil(rows.length / perPage));
  if (page < 1 || (page > pages && page !== 1)) return []; // EmptyPage
  if (perPage < 0) return []; // a negative slice: the view's empty answer
  return rows.slice((page - 1) * perPage, page * perPage);
}

/** Python's `int(text)`; what it refuses is the server's 500 ValueError. */
function pyIntOr500(text: string): number {
  const n = parsePyInt(text);
  if (n === undefined) throw pythonException("ValueError", `invalid literal for int() with base 10: ${strRepr(text)}`);
  return n;
}

/**
 * `TaskAPI.get_queryset` narrows to the project of the query string or body, else the task's own:
 * a task asked for under another project is not found.
 */
function taskInProject(req: MockRequest, ctx: MockContext): TaskRecord {
  const task = taskOr404(ctx, pathId(req.params));
  const fromQuery = param(req.query, "project");
  // `query_params.get('project') or request.data.get('project')`: the body only when the query string has none.
  const asked = pyTruthy(fromQuery) ? fromQuery : readProjectKey(req, ctx);
  if (pyTruthy(asked) && prepareParamsProject(asked) !== task.project) throw notFound("Task");
  return task;
}

/**
 * The lookup reads only `project` from the body. On a read or delete nothing else does, so strict mode refuses any
 * other key (the server ignores it); PATCH/PUT bodies go on to the serializer, which checks them.
 */
function readProjectKey(req: MockRequest, ctx: MockContext): unknown {
  const body = bodyDict(req, ctx);
  const lookupOnly = req.method === "GET" || req.method === "DELETE" || req.method === "HEAD";
  const ignored = Object.keys(body).filter((key) => key !== "project");
  if (ctx.strict && lookupOnly && ignored.length > 0) {
    throw fieldError(
      "body",
      `expected at most a project key: ${req.method} ${req.path} reads only body.project; the server ignores ${ignored.join(", ")}`,
    );
  }
  return body["project"];
}

/** `PrepareParams(project=…)`: pydantic's lax int, a 500 where it refuses. */
function prepareParamsProject(value: unknown): number {
  const fail = (type: "int_parsing" | "int_from_float" | "int_type") =>
    pythonException("ValidationError", pydanticText([pydanticError(["project"], type, value)]));
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw fail("int_from_float");
    return value;
  }
  if (typeof value !== "string") throw fail("int_type");
  const trimmed = value.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) throw fail("int_parsing");
  return Number(trimmed);
}

export const getTask: Handler = (req, ctx) => {
  const task = taskInProject(req, ctx);
  const derived = derivedOf(ctx, task);
  if (!derived) throw new Error(`engine: no derived columns for task ${task.id}`);
  return ok(presentDmTaskDetail(task, derived, relationsOf(ctx, task), req.user, ctx.store, { sparse: sparseFields(req.query) }));
};

/** `PATCH`/`PUT /api/tasks/{id}/`: `TaskSimpleSerializer` (no TaskValidator); the answer carries every annotation and prediction. */
export const patchTask: Handler = (req, ctx) => {
  const task = taskInProject(req, ctx);
  const body = writeInput(req.body);
  const written = validateWrite(taskSimple, body, { partial: req.method === "PATCH", strict: ctx.strict, store: ctx.store, relations });
  if (written.project === null) {
    throw new HttpProblem(400, "Validation error", {
      validationErrors: {
        project: ["expected the task's project: the server would detach the task from every project; the mock keeps each task in one"],
      },
    });
  }
  if (written.data !== undefined && !isPlainObject(written.data)) throw dataColumnsFailure(ctx, written.data, "data");
  const updated = ctx.store.update("tasks", task.id, { updated_at: nowTimestamp(), ...stored(written) });
  return ok(presentTaskSimple(updated, derivedOf(ctx, updated), relationsOf(ctx, updated), ctx.store));
};

export const deleteTask: Handler = (req, ctx) => {
  ctx.store.deleteTasks(new Set([taskInProject(req, ctx).id]));
  return noContent();
};
