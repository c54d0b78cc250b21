import { serverError } from "../errors.js";
import { ok } from "../http.js";
import type { Store } from "../store/store.js";
import { nowTimestamp } from "../time.js";
import { pyTruthy } from "../../src/emulation/python-json.js";
import type { ActionEffect } from "./types.js";

/** Deleting actions (server-api §1.4; data_manager/actions/basic.py). */

/**
 * Delete tasks; when the project is left without tasks the server also deletes all its views and
 * tells the client to reload.
 */
export function deleteTasksOf(store: Store, project: number, ids: ReadonlySet<number>): { count: number; reload: boolean } {
  const count = store.deleteTasks(ids);
  const empty = !store.list("tasks").some((t) => t.project === project);
  if (empty) store.removeWhere("views", (v) => v.project === project);
  return { count, reload: empty };
}

export const deleteTasks: ActionEffect = ({ ctx, project, ids }) => {
  const { count, reload } = deleteTasksOf(ctx.store, project.id, new Set(ids));
  return ok({ processed_items: count, reload, detail: `Deleted ${count} tasks` });
};

/**
 * Python's `int(value)` on the `annotator` field, with its errors (the server lets them escape,
 * so they become 500s).
 */
function pyInt(value: unknown): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value === "string") {
    if (/^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
    throw serverError("ValueError", `invalid literal for int() with base 10: '${value}'`);
  }
  const type = Array.isArray(value) ? "list" : "dict";
  throw serverError("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${type}'`);
}

/**
 * Delete the selected tasks' annotations and drafts — only those of `annotator` when given — and
 * mark the tasks that lost annotations as updated by the caller.
 */
export const deleteTasksAnnotations: ActionEffect = ({ ctx, ids, body, user }) => {
  const store = ctx.store;
  const raw = body["annotator"];
  const annotator = pyTruthy(raw) ? pyInt(raw) : undefined;
  const selected = new Set(ids);
  const removed = store.removeWhere("annotations", (a) => selected.has(a.task) && (annotator === undefined || a.completed_by === annotator));
  store.removeWhere("drafts", (d) => selected.has(d.task) && (annotator === undefined || d.user === annotator));
  const now = nowTimestamp();
  for (const task of new Set(removed.map((a) => a.task))) store.update("tasks", task, { updated_at: now, updated_by: user.id });
  return ok({ processed_items: removed.length, detail: `Deleted ${removed.length} annotations` });
};
