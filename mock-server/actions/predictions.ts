import { ok } from "../http.js";
import { callbackHost, predictTasks } from "../ml/backend.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pyStr } from "../../src/emulation/python-json.js";
import { insertCopiedAnnotation, type ActionEffect } from "./types.js";

/**
 * Actions on predictions (docs/reference/actions-endpoint.md#community-actions;
 * data_manager/actions/basic.py, predictions_to_annotations.py).
 */

/**
 * `retrieve_tasks_predictions` (`evaluate_predictions`): the project's first ML backend, if any, predicts the
 * selected tasks (mock-server/ml/backend.ts `predictTasks`); the answer counts the selection either way.
 */
export const retrieveTasksPredictions: ActionEffect = async ({ ctx, project, ids, origin }) => {
  const backend = ctx.store.list("ml_backends").find((b) => b.project === project.id);
  if (backend && ids.length > 0) {
    const wanted = new Set(ids);
    await predictTasks(
      ctx,
      backend,
      ctx.store.dataset(project).tasks.filter((t) => wanted.has(t.id)),
      callbackHost(origin),
    );
  }
  return ok({ processed_items: ids.length, detail: `Retrieved ${ids.length} predictions` });
};

/**
 * One annotation per prediction of the selected tasks that has no annotation made from it yet,
 * owned by the caller; `model_version` (a string or a list) narrows the predictions.
 */
export const predictionsToAnnotations: ActionEffect = (run) => {
  const { ctx, project, ids, body } = run;
  const store = ctx.store;
  const dataset = store.dataset(project);
  const selected = new Set(ids);
  const converted = new Set(dataset.annotations.flatMap((a) => (a.parent_prediction ? [a.parent_prediction] : [])));
  const version = body["model_version"];
  // Django compares a text column with str(value): 5 matches "5".
  const versions = version === undefined || version === null ? undefined : (Array.isArray(version) ? version : [version]).map(pyStr);
  const predictions = dataset.predictions
    .filter((p) => selected.has(p.task) && !converted.has(p.id))
    .filter((p) => versions === undefined || (p.model_version !== null && versions.includes(p.model_version)))
    .sort((a, b) => a.id - b.id);
  const now = nowTimestamp();
  for (const p of predictions) insertCopiedAnnotation(run, p.task, p.result, p.id, now);
  // `Task.objects.filter(id__in=tasks_ids).update(updated_at=now(), updated_by=request.user)`.
  const touched = new Set(predictions.map((p) => p.task));
  for (const task of touched) store.update("tasks", task, { updated_at: now, updated_by: run.user.id });
  // update_tasks_counters_and_is_labeled(tasks_ids): every counter of those tasks, total_predictions too.
  store.recomputeCounters(touched);
  return ok({ detail: `Created ${predictions.length} annotations` });
};

export const deleteTasksPredictions: ActionEffect = ({ ctx, ids }) => {
  const selected = new Set(ids);
  const removed = ctx.store.removeWhere("predictions", (p) => selected.has(p.task));
  return ok({ processed_items: removed.length, detail: `Deleted ${removed.length} predictions` });
};
