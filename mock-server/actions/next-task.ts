import { deriver, relationsIndex } from "../engine.js";
import { HttpProblem } from "../errors.js";
import { ok } from "../http.js";
import { presentNextTask } from "../present/tasks.js";
import { pyTruthy } from "../../src/emulation/python-json.js";
import { parsePyInt } from "../../src/emulation/python-text.js";
import type { ActionEffect } from "./types.js";

/**
 * `next_task` (hidden; data_manager/actions/next_task.py): with filters, ordering or a selection
 * in the body it walks the Data Manager queue (the task after `currentTaskId`); otherwise it asks
 * the labeling stream, here the first selected task that is not labeled and that the caller has
 * not annotated. The answer is `NextTaskSerializer`'s task plus `queue`; none left is a 404.
 */
export const nextTask: ActionEffect = ({ ctx, project, ids, body, user }) => {
  const dataset = ctx.store.dataset(project);
  const derived = deriver(dataset);
  const dmQueue = pyTruthy(body["filters"]) || pyTruthy(body["ordering"]) || pyTruthy(body["selectedItems"]);
  let chosen: number | undefined;
  let queue: string;
  if (dmQueue) {
    queue = "Data manager queue";
    const raw = body["currentTaskId"];
    const current = typeof raw === "number" ? Math.trunc(raw) : typeof raw === "string" ? parsePyInt(raw) : undefined;
    const at = current === undefined ? -1 : ids.indexOf(current);
    chosen = pyTruthy(raw) && at >= 0 ? ids[at + 1] : ids[0];
  } else {
    queue = "Sequence queue";
    const mine = new Set(dataset.annotations.filter((a) => a.completed_by === user.id).map((a) => a.task));
    chosen = ids.find((id) => !mine.has(id) && derived(id)?.is_labeled === false);
  }
  const task = chosen === undefined ? undefined : ctx.store.find("tasks", chosen);
  const columns = chosen === undefined ? undefined : derived(chosen);
  if (!task || !columns) throw new HttpProblem(404, `There are no tasks for ${user.email}`);
  const relations = relationsIndex(dataset).get(task.id) ?? { annotations: [], predictions: [], drafts: [] };
  return ok(presentNextTask(task, columns, relations, project, user, ctx.store, queue));
};
