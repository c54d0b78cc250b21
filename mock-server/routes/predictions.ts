import type { PredictionRecord, ProjectRecord } from "../../src/contract/records.js";
import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import { prediction as predictionContract } from "../../src/contract/index.js";
import { newRecordDefaults } from "../../src/contract/field.js";
import { predictionModel } from "../../src/contract/prediction.js";
import { pyRepr, pyType } from "../../src/emulation/python-json.js";
import { validationError } from "../errors.js";
import { noContent, ok, param, type Handler, type MockContext, type MockRequest } from "../http.js";
import { parseConfig } from "../label-config.js";
import { presentPrediction } from "../present/predictions.js";
import type { CollectionName } from "../../src/contract/state.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pathId, predictionOr404, projectOr404 } from "./lookup.js";
import { writeInput, validateWrite } from "../drf/serializer.js";

/**
 * Predictions (label_studio/tasks/api.py `PredictionAPI`, a ModelViewSet): a bare array filtered by
 * `task` / `task__project` / `project`, and CRUD validated by the contract's `PredictionSerializer`
 * fields; `Prediction.save` normalises `result` and makes the caller the task's `updated_by`.
 */

const INVALID_CHOICE = "Select a valid choice. That choice is not one of the available choices.";

/** django-filter's ModelChoiceFilter: a value naming no record is a 400 on that parameter. */
const filters: readonly (readonly [string, CollectionName, (p: PredictionRecord) => number])[] = [
  ["task", "tasks", (p) => p.task],
  ["project", "projects", (p) => p.project],
  ["task__project", "projects", (p) => p.project],
];

export const listPredictions: Handler = (req, ctx) => {
  let rows = [...ctx.store.list("predictions")];
  const errors: Record<string, string[]> = {};
  for (const [name, collection, key] of filters) {
    const raw = param(req.query, name);
    if (raw === undefined || raw === "") continue;
    const id = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!ctx.store.find(collection, id)) errors[name] = [INVALID_CHOICE];
    else rows = rows.filter((p) => key(p) === id);
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return ok(rows.sort((a, b) => a.id - b.id).map(presentPrediction));
};

/** SINGLE_VALUED_TAGS (label_studio/core/label_config.py): a bare string or number goes under the first such tag. */
const SINGLE_VALUED: Readonly<Record<string, (v: unknown) => boolean>> = {
  choices: (v) => typeof v === "string",
  rating: (v) => typeof v === "boolean" || typeof v === "number",
  // `float`: a float never gets this far (only strings and integers do).
  number: () => false,
  textarea: (v) => typeof v === "string",
};

/**
 * `Prediction.prepare_prediction_result`: a list of dicts as it is; a dict under the first control
 * tag whose type is one of its keys; a string or integer under the first single-valued tag that
 * takes it; nothing matching stores null. Other values are refused (400 from `save`).
 */
export function prepareResult(result: unknown, project: ProjectRecord): JsonValue[] | null {
  const refuse = (message: string) => validationError({ non_field_errors: [message] });
  if (Array.isArray(result)) {
    if (!result.every(isPlainObject)) throw refuse("Each item in prediction result should be dict");
    return result as JsonValue[];
  }
  const tags = [...parseConfig(project.label_config)];
  const region = (name: string, type: string, to: readonly string[], value: JsonValue) => [
    { from_name: name, to_name: to.join(","), type, value },
  ];
  if (isPlainObject(result)) {
    for (const [name, tag] of tags) {
      const type = tag.type.toLowerCase();
      if (Object.hasOwn(result, type)) return region(name, type, tag.to_name, result as JsonValue);
    }
    return null;
  }
  if (typeof result === "string" || typeof result === "boolean" || (typeof result === "number" && Number.isInteger(result))) {
    for (const [name, tag] of tags) {
      const type = tag.type.toLowerCase();
      if (SINGLE_VALUED[type]?.(result)) return region(name, type, tag.to_name, { [type]: [result] });
    }
    return null;
  }
  throw refuse(`Incorrect format <class '${pyType(result)}'> for prediction result ${pyRepr(result)}`);
}

function written(req: MockRequest, ctx: MockContext, partial: boolean) {
  return validateWrite(predictionContract, writeInput(req.body), { partial, strict: ctx.strict, store: ctx.store });
}

export const createPrediction: Handler = (req, ctx) => {
  const fields = written(req, ctx, false);
  const task = ctx.store.find("tasks", fields.task as number);
  if (!task) throw new Error("unreachable: the pk check found the task");
  const project = projectOr404(ctx, task.project);
  const result = prepareResult(fields.result, project);
  const now = nowTimestamp();
  const { task: _t, project: _p, result: _r, ...rest } = fields;
  const prediction = ctx.store.insert("predictions", {
    ...newRecordDefaults(predictionModel),
    ...(rest as Partial<PredictionRecord>),
    task: task.id,
    project: task.project,
    result,
    created_at: now,
    updated_at: now,
  });
  ctx.store.update("tasks", task.id, { updated_at: now, updated_by: req.user.id });
  return ok(presentPrediction(prediction), 201);
};

export const getPrediction: Handler = (req, ctx) => ok(presentPrediction(predictionOr404(ctx, pathId(req.params))));

export const patchPrediction: Handler = (req, ctx) => {
  const found = predictionOr404(ctx, pathId(req.params));
  const fields = written(req, ctx, req.method === "PATCH");
  const { task, project: _p, result, ...rest } = fields;
  // A written task moves the prediction; the mock keeps it in that task's project.
  const target = task === undefined ? undefined : ctx.store.find("tasks", task as number);
  const project = projectOr404(ctx, target?.project ?? found.project);
  const now = nowTimestamp();
  const patch: Partial<PredictionRecord> = {
    ...(rest as Partial<PredictionRecord>),
    ...(target ? { task: target.id, project: target.project } : {}),
    ...(result === undefined ? {} : { result: prepareResult(result, project) }),
    updated_at: now,
  };
  const updated = ctx.store.update("predictions", found.id, patch);
  ctx.store.update("tasks", found.task, { updated_at: now, updated_by: req.user.id });
  return ok(presentPrediction(updated));
};

export const deletePrediction: Handler = (req, ctx) => {
  const found = predictionOr404(ctx, pathId(req.params));
  ctx.store.removeWhere("predictions", (p) => p.id === found.id);
  ctx.store.update("tasks", found.task, { updated_at: nowTimestamp(), updated_by: req.user.id });
  return noContent();
};
