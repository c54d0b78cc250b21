import type { DraftRecord } from "../../src/contract/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { pyType, strRepr } from "../../src/emulation/python-json.js";
import { draft as draftContract } from "../../src/contract/index.js";
import { pythonException, validationError } from "../errors.js";
import { noContent, ok, type Handler, type MockContext, type MockRequest } from "../http.js";
import { presentDraft } from "../present/annotations.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { annotationOr404, pathId, recordOr404 } from "./lookup.js";
import { inputHas, inputValue, validateWrite, writeInput } from "../drf/serializer.js";

/**
 * Annotation drafts (label_studio/tasks/api.py `AnnotationDraftListAPI`, `AnnotationDraftAPI`,
 * `AnnotationConvertAPI`; `AnnotationDraftSerializer`). A task's drafts are every user's, not only the
 * caller's; a new draft is the caller's, on the URL's task and (on the annotation route) annotation.
 */

/** What the store keeps of a validated draft write. */
function draftFields(req: MockRequest, ctx: MockContext, partial: boolean): Partial<DraftRecord> {
  const input = writeInput(req.body);
  const written = validateWrite(draftContract, input, {
    partial,
    strict: ctx.strict,
    store: ctx.store,
  });
  const result = written.result;
  if (result !== undefined) {
    if (!Array.isArray(result)) {
      throw validationError({
        result: [`expected a list of results: the mock stores draft results as lists (the server takes any JSON here)`],
      });
    }
    // ProjectSummary.update_created_labels_drafts tests `'from_name' not in result` on every item: a number or null raises.
    const scalar = result.find((item) => item === null || typeof item === "number" || typeof item === "boolean");
    if (scalar !== undefined) throw pythonException("TypeError", `argument of type '${pyType(scalar)}' is not iterable`);
  }
  const keep: Record<string, unknown> = {};
  for (const key of ["result", "lead_time", "was_postponed", "import_id"] as const)
    if (written[key] !== undefined) keep[key] = written[key];
  return keep as Partial<DraftRecord>;
}

/** `GET /api/tasks/{id}/drafts` (and under an annotation): every draft of the task, any user's; none for an unknown task. */
export const listTaskDrafts: Handler = (req, ctx) => {
  const drafts = ctx.store.ofTask("drafts", pathId(req.params));
  return ok(drafts.map((d) => presentDraft(d, ctx.store)));
};

/**
 * `POST /api/tasks/{id}/drafts` and `/api/tasks/{id}/annotations/{annotation_id}/drafts`: the caller's new draft.
 * The task and annotation come from the URL; the server looks them up only when it saves (a 500 for either
 * missing: the task's DoesNotExist, the annotation's foreign key).
 */
export const createDraft: Handler = (req, ctx) => {
  const fields = draftFields(req, ctx, false);
  const task = pathId(req.params);
  if (!ctx.store.find("tasks", task)) throw pythonException("DoesNotExist", "Task matching query does not exist.");
  const annotation = req.params["annotation_id"] === undefined ? null : pathId(req.params, "annotation_id");
  if (annotation !== null && !ctx.store.find("annotations", annotation)) {
    throw pythonException(
      "IntegrityError",
      `insert or update on table "tasks_annotationdraft" violates foreign key constraint "tasks_annotationdraf_annotation_id_86db74e5_fk_task_comp"\nDETAIL:  Key (annotation_id)=(${annotation}) is not present in table "task_completion".\n`,
    );
  }
  const now = nowTimestamp();
  const created = ctx.store.insert("drafts", {
    ...fields,
    // Required on create: validateWrite has refused a draft without it.
    result: fields.result as DraftRecord["result"],
    task,
    ...(annotation === null ? {} : { annotation }),
    user: req.user.id,
    created_at: now,
    updated_at: now,
  });
  return ok(presentDraft(created, ctx.store), 201);
};

const draftOr404 = (req: MockRequest, ctx: MockContext) => recordOr404(ctx, "drafts", pathId(req.params));

export const getDraft: Handler = (req, ctx) => ok(presentDraft(draftOr404(req, ctx), ctx.store));

/**
 * `PATCH`/`PUT /api/drafts/{id}/`: `user` is a CharField the model cannot take (the server's 500); `task` and
 * `annotation` move the draft.
 */
export const updateDraft: Handler = (req, ctx) => {
  const found = draftOr404(req, ctx);
  const input = writeInput(req.body);
  const fields: Record<string, unknown> = { ...draftFields(req, ctx, req.method === "PATCH") };
  if (inputHas(input, "user")) {
    throw pythonException(
      "ValueError",
      `Cannot assign ${strRepr(`${strRepr(String(inputValue(input, "user")))}`)}: "AnnotationDraft.user" must be a "User" instance.`,
    );
  }
  for (const key of ["task", "annotation"] as const) if (inputHas(input, key)) fields[key] = inputValue(input, key) as JsonValue;
  const updated = ctx.store.update("drafts", found.id, { ...fields, updated_at: nowTimestamp() } as Partial<DraftRecord>);
  return ok(presentDraft(updated, ctx.store));
};

export const deleteDraft: Handler = (req, ctx) => {
  const found = draftOr404(req, ctx);
  ctx.store.removeWhere("drafts", (d) => d.id === found.id);
  return noContent();
};

/**
 * `POST /api/annotations/{id}/convert-to-draft`: the annotation becomes the caller's draft of its task (its
 * result and lead time) and is deleted; 201 with the draft. `GET` is the view's 500: it has no serializer.
 */
export const convertToDraft: Handler = (req, ctx) => {
  const annotation = annotationOr404(ctx, pathId(req.params));
  const now = nowTimestamp();
  const created = ctx.store.insert("drafts", {
    result: annotation.result === null ? null : [...annotation.result],
    lead_time: annotation.lead_time,
    task: annotation.task,
    user: req.user.id,
    created_at: now,
    updated_at: now,
  });
  ctx.store.removeWhere("drafts", (d) => d.annotation === annotation.id);
  ctx.store.removeWhere("annotations", (a) => a.id === annotation.id);
  // Annotation.delete → update_task: the task's updated_at, and the caller as its updated_by.
  ctx.store.update("tasks", annotation.task, { updated_at: now, updated_by: req.user.id });
  return ok(presentDraft(created, ctx.store), 201);
};

export const convertToDraftGet: Handler = () => {
  throw pythonException(
    "AssertionError",
    "'AnnotationConvertAPI' should either include a `serializer_class` attribute, or override the `get_serializer_class()` method.",
  );
};
