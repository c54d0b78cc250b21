import type { JsonValue } from "../../src/vocabulary/json.js";
import { validationError } from "../errors.js";
import { bodyObject, noContent, ok, param, type Handler } from "../http.js";
import { presentAnnotation } from "../present/records.js";
import { nowTimestamp } from "../time.js";
import { FieldErrors, givenFields, parse, refuseUnknownFields } from "./fields.js";
import { annotationOr404, pathId, projectOr404, taskOr404 } from "./lookup.js";

/** Annotations (docs/reference/resources.md#annotations). */

const createFields = new Set(["result", "was_cancelled", "ground_truth", "lead_time", "completed_by", "draft_id", "project", "task", "parent_prediction", "parent_annotation", "unique_id", "import_id", "last_action", "updated_by"]);
const patchFields = new Set(["result", "was_cancelled", "ground_truth", "lead_time", "completed_by", "project", "task", "updated_by", "last_action"]);

/** `GET /api/tasks/{id}/annotations/`: a bare array of the task's non-cancelled annotations by id. */
export const listTaskAnnotations: Handler = (req, ctx) => {
  const task = taskOr404(ctx, pathId(req.params));
  const rows = ctx.store
    .list("annotations")
    .filter((a) => a.task === task.id && !a.was_cancelled)
    .sort((a, b) => a.id - b.id);
  return ok(rows.map((a) => presentAnnotation(a, ctx.store)));
};

/** `POST /api/tasks/{id}/annotations/`: 201; the author is `completed_by` when given, else the caller. */
export const createAnnotation: Handler = (req, ctx) => {
  const task = taskOr404(ctx, pathId(req.params));
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, createFields);
  const errors = new FieldErrors();
  const result = errors.check(body, "result", parse.nullableList, false);
  let cancelled = errors.check(body, "was_cancelled", parse.boolean, false);
  const groundTruth = errors.check(body, "ground_truth", parse.boolean, false);
  const leadTime = errors.check(body, "lead_time", parse.number(true), false);
  const draftId = errors.check(body, "draft_id", parse.integer, false);
  const author = errors.check(body, "completed_by", parse.pk(ctx.store, "users", true), false);
  errors.throwIfAny();
  const flag = param(req.query, "was_cancelled");
  if (flag !== undefined && ["1", "true", "yes", "on"].includes(flag.toLowerCase())) cancelled = true;
  const project = projectOr404(ctx, task.project);
  if (cancelled && project["show_skip_button"] === false) {
    throw validationError({ detail: ["This task cannot be skipped."] });
  }
  const now = nowTimestamp();
  const annotation = ctx.store.insert("annotations", {
    task: task.id,
    project: task.project,
    result: (result === undefined ? [] : result) as JsonValue[] | null,
    completed_by: author === undefined ? req.user.id : author,
    was_cancelled: cancelled ?? false,
    ground_truth: groundTruth ?? false,
    lead_time: leadTime ?? null,
    created_at: now,
    updated_at: now,
    parent_prediction: null,
  });
  if (draftId !== undefined) ctx.store.removeWhere("drafts", (d) => d.id === draftId);
  ctx.store.update("tasks", task.id, { updated_at: now, updated_by: req.user.id });
  return ok(presentAnnotation(annotation, ctx.store), 201);
};

export const getAnnotation: Handler = (req, ctx) => ok(presentAnnotation(annotationOr404(ctx, pathId(req.params)), ctx.store));

export const patchAnnotation: Handler = (req, ctx) => {
  const annotation = annotationOr404(ctx, pathId(req.params));
  const body = bodyObject(req);
  refuseUnknownFields(ctx.strict, body, patchFields);
  const errors = new FieldErrors();
  const result = errors.check(body, "result", parse.nullableList, false);
  const cancelled = errors.check(body, "was_cancelled", parse.boolean, false);
  const groundTruth = errors.check(body, "ground_truth", parse.boolean, false);
  const leadTime = errors.check(body, "lead_time", parse.number(true), false);
  errors.throwIfAny();
  const given = givenFields({ result: result as JsonValue[] | null | undefined, was_cancelled: cancelled, ground_truth: groundTruth, lead_time: leadTime });
  const patch = { updated_at: nowTimestamp(), ...given };
  return ok(presentAnnotation(ctx.store.update("annotations", annotation.id, patch), ctx.store));
};

export const deleteAnnotation: Handler = (req, ctx) => {
  const annotation = annotationOr404(ctx, pathId(req.params));
  ctx.store.removeWhere("annotations", (a) => a.id === annotation.id);
  return noContent();
};
