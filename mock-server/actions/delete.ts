import { ok } from "../http.js";
import type { Store } from "../store/store.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pyTruthy } from "../../src/emulation/python-json.js";
import { pyInt } from "../../src/emulation/python-text.js";
import type { ActionEffect } from "./types.js";

/** Deleting actions (docs/reference/actions-endpoint.md#community-actions; data_manager/actions/basic.py). */

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
 * Delete the selected tasks' annotations and drafts — only those of `annotator` when given — and
 * mark the tasks that lost annotations as updated by the caller.
 */
export const deleteTasksAnnotations: ActionEffect = ({ ctx, ids, body, user }) => {
  const store = ctx.store;
  const raw = body["annotator"];
  // Python's int() on the field; its errors escape the action, so they are 500s.
  const annotator = pyTruthy(raw) ? pyInt(raw) : undefined;
  const selected = new Set(ids);
  const removed = store.removeWhere(
    "annotations",
    (a) => selected.has(a.task) && (annotator === undefined || a.completed_by === annotator),
  );
  store.removeWhere("drafts", (d) => selected.has(d.task) && (annotator === undefined || d.user === annotator));
  const now = nowTimestamp();
  const touched = new Set(removed.map((a) => a.task));
  for (const task of touched) store.update("tasks", task, { updated_at: now, updated_by: user.id });
  // update_tasks_counters_and_is_labeled(real_task_ids): every counter of those tasks, total_predictions too.
  store.recomputeCounters(touched);
  return ok({ processed_items: removed.length, detail: `Deleted ${removed.length} annotations` });
};
