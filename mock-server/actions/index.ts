import { actions, type ActionId, type ParamShape } from "../../src/vocabulary/actions.js";
import { describeValue } from "../../src/vocabulary/json.js";
import { validationError } from "../errors.js";
import { QUERY_KEYS } from "../prepare.js";
import { deleteTasks, deleteTasksAnnotations } from "./delete.js";
import { removeDuplicates } from "./duplicates.js";
import { addDataField, cacheLabels, propagateAnnotations, renameLabels } from "./experimental.js";
import { nextTask } from "./next-task.js";
import { deleteTasksPredictions, predictionsToAnnotations, retrieveTasksPredictions } from "./predictions.js";
import type { ActionEffect } from "./types.js";

/** What each registered community action does to the store and answers. */
export const effects: Readonly<Partial<Record<ActionId, ActionEffect>>> = {
  retrieve_tasks_predictions: retrieveTasksPredictions,
  predictions_to_annotations: predictionsToAnnotations,
  remove_duplicates: removeDuplicates,
  delete_tasks: deleteTasks,
  delete_tasks_annotations: deleteTasksAnnotations,
  delete_tasks_predictions: deleteTasksPredictions,
  next_task: nextTask,
  propagate_annotations: propagateAnnotations,
  rename_labels: renameLabels,
  cache_labels: cacheLabels,
  add_data_field: addDataField,
};

/** The actions that keep the query's ordering (the server drops it for the others). */
export const keepsOrdering: ReadonlySet<string> = new Set<ActionId>(["next_task", "remove_duplicates"]);

const isInt = (v: unknown) => Number.isSafeInteger(v) || (typeof v === "string" && /^\d+$/.test(v));
/** Runtime checks of the table's parameter shapes (strict mode), with what each expects. */
const shapeChecks: { readonly [S in ParamShape]: readonly [(v: unknown) => boolean, string] } = {
  modelVersions: [
    (v) => typeof v === "string" || (Array.isArray(v) && v.every((x) => typeof x === "string")),
    "a model version or a list of them",
  ],
  userId: [isInt, "a user id (integer or digit string)"],
  integer: [(v) => Number.isSafeInteger(v), "an integer"],
  string: [(v) => typeof v === "string", "a string"],
  yesNo: [(v) => v === "Yes" || v === "No", '"Yes" or "No"'],
  resultSource: [(v) => v === "Annotations" || v === "Predictions", '"Annotations" or "Predictions"'],
  valueType: [(v) => v === "String" || v === "Number" || v === "Expression", '"String", "Number" or "Expression"'],
  integers: [(v) => Array.isArray(v) && v.every((x) => Number.isSafeInteger(x)), "a list of integers"],
};

/** Body keys every action request may carry besides the query and the action's own fields. */
const requestKeys = new Set<string>([...QUERY_KEYS, "view", "project"]);

/**
 * Strict mode: the action's own body fields must have the table's shapes, required ones must be
 * there, and nothing else may be sent (the server would ignore it).
 */
export function checkActionFields(id: ActionId, body: Readonly<Record<string, unknown>>): void {
  const params = actions[id].params as Readonly<Record<string, { shape: ParamShape; required: boolean }>>;
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (requestKeys.has(key)) continue;
    const spec = params[key];
    if (!spec) {
      const known = Object.keys(params);
      errors[key] = [`nothing: ${id} ignores "${key}"${known.length ? ` (its fields: ${known.join(", ")})` : " (it takes no fields)"}`];
      continue;
    }
    const [check, expected] = shapeChecks[spec.shape];
    if (value !== null && !check(value)) errors[key] = [`expected ${expected}, found ${describeValue(value)}`];
  }
  for (const [key, spec] of Object.entries(params)) {
    if (spec.required && body[key] === undefined)
      errors[key] = [`expected ${shapeChecks[spec.shape][1]}, found nothing (${id} requires it)`];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
