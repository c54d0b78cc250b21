import type { PredictionRecord } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { validationError } from "../errors.js";
import { bodyObject, noContent, ok, param, type Handler } from "../http.js";
import { presentPrediction } from "../present/records.js";
import type { CollectionName } from "../store/state.js";
import { nowTimestamp } from "../time.js";
import { FieldErrors, givenFields, parse, refuseUnknownFields } from "./fields.js";
import { pathId, predictionOr404 } from "./lookup.js";

/** Predictions (docs/reference/resources.md#predictions): a bare array filtered by `task` / `project`, and CRUD. */

const INVALID_CHOICE = "Select a valid choice. That choice is not one of the available choices.";
const writable = new Set(["task", "result", "score", "model_version", "project", "model", "model_run", "cluster", "mislabeling", "neighbors"]);

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

export const createPrediction: Handler = (req, ctx) => {
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, writable);
  const errors = new FieldErrors();
  const taskId = errors.check(body, "task", parse.pk(ctx.store, "tasks"), true);
  const result = errors.check(body, "result", parse.list, true);
  const score = errors.check(body, "score", parse.number(true), false);
  const version = errors.check(body, "model_version", parse.nullableString, false);
  errors.throwIfAny();
  const task = ctx.store.find("tasks", taskId as number);
  if (!task) throw new Error("unreachable: the pk check found the task");
  const project = ctx.store.find("projects", task.project);
  const now = nowTimestamp();
  const prediction = ctx.store.insert("predictions", {
    task: task.id,
    project: task.project,
    result: result as JsonValue[],
    score: score ?? null,
    model_version: version ?? project?.model_version ?? "",
    created_at: now,
    updated_at: now,
  });
  return ok(presentPrediction(prediction), 201);
};

export const getPrediction: Handler = (req, ctx) => ok(presentPrediction(predictionOr404(ctx, pathId(req.params))));

export const patchPrediction: Handler = (req, ctx) => {
  const prediction = predictionOr404(ctx, pathId(req.params));
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, writable);
  const errors = new FieldErrors();
  const result = errors.check(body, "result", parse.list, false);
  const score = errors.check(body, "score", parse.number(true), false);
  const version = errors.check(body, "model_version", parse.nullableString, false);
  errors.throwIfAny();
  const given = givenFields({ result: result as JsonValue[] | undefined, score, model_version: version });
  const patch = { updated_at: nowTimestamp(), ...given };
  return ok(presentPrediction(ctx.store.update("predictions", prediction.id, patch)));
};

export const deletePrediction: Handler = (req, ctx) => {
  const prediction = predictionOr404(ctx, pathId(req.params));
  ctx.store.removeWhere("predictions", (p) => p.id === prediction.id);
  return noContent();
};
