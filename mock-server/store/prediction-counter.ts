import type { PredictionRecord } from "../../src/contract/records.js";
import type { Store } from "./store.js";

/**
 * Deletes predictions the way the server deletes several at once, and leaves each task's
 * `total_predictions` where the server leaves it (docs/reference/resources.md#predictions).
 *
 * The server keeps the counter in the task row. Before each prediction is deleted, Prediction's
 * pre_delete receiver (`remove_predictions_from_project`, label_studio/tasks/models.py) sets it to the
 * task's count of predictions minus one. A delete of many at once (a queryset's `delete()`, or the
 * CASCADE from the ML backend they name) goes through Django's Collector, which sends every pre_delete
 * before it deletes a row: each receiver counts the same n, and a task that loses k of its n predictions
 * keeps n − 1, whatever k. Nothing recounts afterwards on the two routes that delete so:
 * `DELETE /api/ml/{id}` (`Prediction.model`, CASCADE) and `DELETE /api/projects/{id}/model-versions/`
 * (`Project.delete_predictions`). One prediction at a time (`DELETE /api/predictions/{id}/`) the same
 * rule gives the right count, and the Data Manager's `delete_tasks_predictions` recounts after.
 *
 * The mock stores the counter only where it differs from the count; any later change to the task's
 * predictions, or a recount, drops it (Store.#changed, Store.recomputeCounters).
 */
export function removePredictionsAtOnce(store: Store, where: (prediction: PredictionRecord) => boolean): PredictionRecord[] {
  const countBefore = new Map<number, number>();
  for (const p of store.list("predictions")) {
    if (where(p) && !countBefore.has(p.task)) countBefore.set(p.task, store.ofTask("predictions", p.task).length);
  }
  const removed = store.removeWhere("predictions", where);
  for (const [task, before] of countBefore) {
    const counted = before - 1;
    if (counted !== store.ofTask("predictions", task).length) store.update("tasks", task, { total_predictions: counted });
  }
  return removed;
}
