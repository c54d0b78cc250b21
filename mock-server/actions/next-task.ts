import { randomUUID } from "node:crypto";
import { deriver, relationsIndex } from "../engine.js";
import { HttpProblem } from "../errors.js";
import { ok } from "../http.js";
import { presentNextTask } from "../present/tasks.js";
import { pyTruthy } from "../../src/emulation/python-json.js";
import type { ActionEffect } from "./types.js";

/**
 * `next_task` (hidden; data_manager/actions/next_task.py → get_next_task in
 * projects/functions/next_task.py): from the selection, the tasks the caller has not annotated
 * (nor postponed a draft of) and that are not labeled; with filters, ordering or a selection in the
 * body the first of them in the queue's order ("Data manager queue"), otherwise the first by id
 * ("Sequence queue"). The answer is `NextTaskSerializer`'s task plus `queue`; none left is the
 * action's NotFound.
 */
export const nextTask: ActionEffect = ({ ctx, project, ids, body, user }) => {
  const dataset = ctx.store.dataset(project);
  const derived = deriver(dataset);
  const dmQueue = pyTruthy(body["filters"]) || pyTruthy(body["ordering"]) || pyTruthy(body["selectedItems"]);
  // get_not_solved_tasks_qs: the caller's annotated tasks and postponed drafts out, then is_labeled=False.
  const mine = new Set(dataset.annotations.filter((a) => a.completed_by === user.id).map((a) => a.task));
  const postponed = new Set((dataset.drafts ?? []).filter((d) => d.user === user.id && d.was_postponed === true).map((d) => d.task));
  const open = ids.filter((id) => !mine.has(id) && !postponed.has(id) && derived(id)?.is_labeled === false);
  const queue = dmQueue ? "Data manager queue" : "Sequence queue";
  const chosen = dmQueue ? open[0] : [...open].sort((a, b) => a - b)[0];
  const task = chosen === undefined ? undefined : ctx.store.find("tasks", chosen);
  const columns = chosen === undefined ? undefined : derived(chosen);
  if (!task || !columns) {
    throw new HttpProblem(
      404,
      `There are still some tasks to complete for the user=${user.email}, but they seem to be locked by another user.`,
    );
  }
  const relations = relationsIndex(dataset).get(task.id) ?? { annotations: [], predictions: [], drafts: [] };
  // set_lock: the task is locked for the caller, and the answer carries the lock's id.
  return ok(presentNextTask(task, columns, relations, project, user, ctx.store, queue, randomUUID()));
};
