import { ujsonLoads } from "../../src/emulation/ujson.js";
import type { AnnotationRecord } from "../../src/contract/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { annotation as annotationContract } from "../../src/contract/index.js";
import { annotationModel } from "../../src/contract/annotation.js";
import { newRecordDefaults } from "../../src/contract/field.js";
import { pyStr, pyTruthy } from "../../src/emulation/python-json.js";
import { HttpProblem, pythonException, validationError } from "../errors.js";
import { boolFromQuery, noContent, ok, param, type Handler, type MockContext, type MockRequest } from "../http.js";
import { presentAnnotation } from "../present/annotations.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { annotationOr404, pathId, projectOr404, taskOr404 } from "./lookup.js";
import { writeInput, inputValue, validateWrite, type CustomRules } from "../drf/serializer.js";
import { sparseFields } from "../drf/flex-fields.js";

/**
 * Annotations (label_studio/tasks/api.py `AnnotationsListAPI`, `AnnotationAPI`), validated by the
 * contract's `AnnotationSerializer` fields. Saving an annotation makes the caller its `updated_by`
 * and the task's (`Annotation.save`, `update_task`).
 */

/** `AnnotationSerializer.validate_result`: a string is parsed with ujson (a 500 where it fails), then it must be a list. */
const rules: CustomRules = {
  annotation_result: (value) => {
    let data = value;
    if (typeof value === "string") {
      try {
        data = ujsonLoads(value);
      } catch {
        throw pythonException("ValueError", `annotation "result" can't be parse from str to JSON`);
      }
    }
    return Array.isArray(data) ? { value: data } : { errors: ['annotation "result" field in annotation must be list'] };
  },
};

function validate(req: MockRequest, ctx: MockContext, partial: boolean) {
  const written = validateWrite(annotationContract, writeInput(req.body), {
    partial,
    strict: ctx.strict,
    store: ctx.store,
    rules,
    extra: ["draft_id"],
  });
  // The task and project come from the route, not the body; the author only when given.
  const { task: _task, project: _project, unique_id: _unique, ...fields } = written;
  return fields as Partial<Record<keyof AnnotationRecord, JsonValue>>;
}

export const listTaskAnnotations: Handler = (req, ctx) => {
  const task = taskOr404(ctx, pathId(req.params));
  const rows = ctx.store
    .list("annotations")
    .filter((a) => a.task === task.id && !a.was_cancelled)
    .sort((a, b) => a.id - b.id);
  const render = { sparse: sparseFields(req.query) };
  return ok(rows.map((a) => presentAnnotation(a, ctx.store, render)));
};

/**
 * `bool_from_request(request.GET, 'was_cancelled', False)` when the query names it (AnnotationsListAPI.perform_create,
 * label_studio/tasks/api.py), else undefined: the annotation keeps its own `was_cancelled`.
 */
function wasCancelledParam(req: MockRequest): boolean | undefined {
  return param(req.query, "was_cancelled") === undefined ? undefined : boolFromQuery(req.query, "was_cancelled", false);
}

/**
 * `POST /api/tasks/{id}/annotations/`: fields first, then `perform_create`: the skip check (on the
 * raw `was_cancelled` of the body or the query string), the draft's owner (403), the save.
 */
export const createAnnotation: Handler = (req, ctx) => {
  const task = taskOr404(ctx, pathId(req.params));
  const body = writeInput(req.body);
  const fields = validate(req, ctx, false);
  const cancelledParam = wasCancelledParam(req);
  const project = projectOr404(ctx, task.project);
  if ((cancelledParam === true || pyTruthy(inputValue(body, "was_cancelled") ?? false)) && project["show_skip_button"] === false) {
    throw validationError({ detail: ["This task cannot be skipped."] });
  }
  const draftId = inputValue(body, "draft_id");
  const draft = draftId === undefined || draftId === null ? undefined : findDraft(ctx, draftId);
  if (draft && (draft.task !== task.id || draft.user !== req.user.id))
    throw new HttpProblem(403, `You have no permission to draft id:${pyStr(draftId)}`);
  const now = nowTimestamp();
  const created = ctx.store.insert("annotations", {
    ...newRecordDefaults(annotationModel),
    task: task.id,
    project: task.project,
    completed_by: req.user.id,
    created_at: now,
    updated_at: now,
    ...fields,
    ...(cancelledParam === undefined ? {} : { was_cancelled: cancelledParam }),
    ...(draft ? { draft_created_at: draft.created_at } : {}),
    updated_by: req.user.id,
  } as Omit<AnnotationRecord, "id">);
  if (draft) ctx.store.removeWhere("drafts", (d) => d.id === draft.id);
  if (pyTruthy(inputValue(body, "ground_truth"))) uniqueGroundTruth(ctx, created);
  ctx.store.update("tasks", task.id, { updated_at: now, updated_by: req.user.id });
  return ok(presentAnnotation(created, ctx.store, { sparse: sparseFields(req.query) }), 201);
};

/** `AnnotationDraft.objects.filter(id=draft_id).first()`: Django's `int()` of the id (a 500 where it raises). */
function findDraft(ctx: MockContext, raw: unknown) {
  const id = typeof raw === "number" ? Math.trunc(raw) : typeof raw === "string" && /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : undefined;
  if (id === undefined)
    throw pythonException("ValueError", `Field 'id' expected a number but got ${typeof raw === "string" ? `'${raw}'` : pyStr(raw)}.`);
  return ctx.store.find("drafts", id);
}

/** `Task.ensure_unique_groundtruth`: the task's other annotations stop being ground truth. */
function uniqueGroundTruth(ctx: MockContext, keep: AnnotationRecord): void {
  for (const other of ctx.store.list("annotations")) {
    if (other.task === keep.task && other.id !== keep.id && other.ground_truth)
      ctx.store.update("annotations", other.id, { ground_truth: false });
  }
}

export const getAnnotation: Handler = (req, ctx) =>
  ok(presentAnnotation(annotationOr404(ctx, pathId(req.params)), ctx.store, { sparse: sparseFields(req.query) }));

/**
 * `AnnotationAPI.update`: the caller becomes `updated_by`, a truthy raw `ground_truth` drops the task's
 * other ground truths, the task is saved. (The server does the last two before validating the fields,
 * so they stay when it refuses the write; the mock keeps nothing of a refused request.)
 */
export const patchAnnotation: Handler = (req, ctx) => {
  const found = annotationOr404(ctx, pathId(req.params));
  const body = writeInput(req.body);
  const fields = validate(req, ctx, req.method === "PATCH");
  const now = nowTimestamp();
  const updated = ctx.store.update("annotations", found.id, {
    ...fields,
    updated_at: now,
    updated_by: req.user.id,
  } as Partial<AnnotationRecord>);
  if (pyTruthy(inputValue(body, "ground_truth"))) uniqueGroundTruth(ctx, updated);
  ctx.store.update("tasks", updated.task, { updated_at: now, updated_by: req.user.id });
  return ok(presentAnnotation(updated, ctx.store, { sparse: sparseFields(req.query) }));
};

export const deleteAnnotation: Handler = (req, ctx) => {
  const found = annotationOr404(ctx, pathId(req.params));
  ctx.store.removeWhere("annotations", (a) => a.id === found.id);
  // AnnotationDraft.annotation is on_delete CASCADE.
  ctx.store.removeWhere("drafts", (d) => d.annotation === found.id);
  ctx.store.update("tasks", found.task, { updated_at: nowTimestamp(), updated_by: req.user.id });
  return noContent();
};
