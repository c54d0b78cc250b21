import type { JsonValue } from "../../src/vocabulary/json.js";
import type { TaskRecord } from "../../src/semantics/records.js";
import { derivedOne, relationsIndex } from "../engine.js";
import { bodyObject, noContent, ok, type Handler, type MockContext } from "../http.js";
import { presentDmTask, presentTask, type TaskRelations } from "../present/records.js";
import { nowTimestamp } from "../time.js";
import { FieldErrors, givenFields, parse, refuseUnknownFields } from "./fields.js";
import { pathId, taskOr404 } from "./lookup.js";

/** Single tasks (docs/reference/resources.md#tasks); the Data Manager list is in dm-list.ts. */

export function relationsOf(ctx: MockContext, task: TaskRecord): TaskRelations {
  const dataset = ctx.store.dataset(ctx.store.find("projects", task.project) ?? missingProject(task));
  return relationsIndex(dataset).get(task.id) ?? { annotations: [], predictions: [], drafts: [] };
}

function missingProject(task: TaskRecord): never {
  throw new Error(`store: task ${task.id} refers to project ${task.project}, which does not exist`);
}

/** A task rendered by `TaskSerializer` (create/patch answers). */
export function presentStoredTask(ctx: MockContext, task: TaskRecord): Record<string, unknown> {
  const project = ctx.store.find("projects", task.project) ?? missingProject(task);
  return presentTask(task, derivedOne(ctx.store.dataset(project), task.id));
}

const createFields = new Set(["project", "data", "meta", "overlap", "inner_id", "file_upload", "updated_by", "is_labeled"]);
const patchFields = new Set(["data", "meta", "overlap", "project", "is_labeled", "updated_by"]);

export const createTask: Handler = (req, ctx) => {
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, createFields);
  const errors = new FieldErrors();
  const project = errors.check(body, "project", parse.pk(ctx.store, "projects"), true);
  const data = errors.check(body, "data", parse.dict, true);
  const meta = errors.check(body, "meta", parse.dict, false);
  const overlap = errors.check(body, "overlap", parse.integer, false);
  errors.throwIfAny();
  const now = nowTimestamp();
  const task = ctx.store.insert("tasks", {
    project: project as number,
    data: data as Record<string, JsonValue>,
    meta: (meta ?? {}) as Record<string, JsonValue>,
    created_at: now,
    updated_at: now,
    updated_by: null,
    file_upload: null,
    storage_filename: null,
    inner_id: ctx.store.nextInnerId(project as number),
    overlap: overlap ?? 1,
    unresolved_comment_count: 0,
  });
  return ok(presentStoredTask(ctx, task), 201);
};

export const getTask: Handler = (req, ctx) => {
  const task = taskOr404(ctx, pathId(req.params));
  const project = ctx.store.find("projects", task.project) ?? missingProject(task);
  const derived = derivedOne(ctx.store.dataset(project), task.id);
  if (!derived) throw new Error(`engine: no derived columns for task ${task.id}`);
  return ok(presentDmTask(task, derived, ctx.store, relationsOf(ctx, task)));
};

export const patchTask: Handler = (req, ctx) => {
  const task = taskOr404(ctx, pathId(req.params));
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, patchFields);
  const errors = new FieldErrors();
  const data = errors.check(body, "data", parse.dict, false);
  const meta = errors.check(body, "meta", parse.dict, false);
  const overlap = errors.check(body, "overlap", parse.integer, false);
  errors.throwIfAny();
  const given = givenFields({ data: data as Record<string, JsonValue> | undefined, meta: meta as Record<string, JsonValue> | undefined, overlap });
  const patch = { updated_at: nowTimestamp(), updated_by: req.user.id, ...given };
  return ok(presentStoredTask(ctx, ctx.store.update("tasks", task.id, patch)));
};

export const deleteTask: Handler = (req, ctx) => {
  ctx.store.deleteTasks(new Set([taskOr404(ctx, pathId(req.params)).id]));
  return noContent();
};
