import type { JsonValue } from "../../src/vocabulary/json.js";
import type { ProjectRecord } from "../../src/semantics/records.js";
import { validationError } from "../errors.js";
import { isPlainObject, ok, param, type MockContext, type MockRequest, type Reply } from "../http.js";
import { pyType } from "../../src/emulation/python-json.js";
import { nowTimestamp } from "../time.js";

/**
 * `POST /api/projects/{id}/import` with a JSON body (docs/reference/resources.md#projects): a list
 * of tasks or one task. An item with a `data` key is a task (`data`, `meta`, `annotations`,
 * `predictions`); any other object is taken as the task data itself, as the server does. Community
 * answers synchronously.
 */
interface ImportItem {
  data: Record<string, JsonValue>;
  meta: Record<string, JsonValue>;
  annotations: Record<string, unknown>[];
  predictions: Record<string, unknown>[];
}

function items(body: unknown): ImportItem[] {
  const list = Array.isArray(body) ? body : body === undefined ? [] : [body];
  const problems: Record<string, string[]> = {};
  const out: ImportItem[] = [];
  list.forEach((raw, i) => {
    if (!isPlainObject(raw)) {
      problems[`[${i}]`] = [`Task must be a JSON object, got ${pyType(raw)}.`];
      return;
    }
    const task = "data" in raw ? raw : { data: raw };
    if (!isPlainObject(task["data"])) {
      problems[`[${i}].data`] = [`Task data must be a JSON object, got ${pyType(task["data"])}.`];
      return;
    }
    const annotations = task["annotations"] ?? [];
    const predictions = task["predictions"] ?? [];
    if (!Array.isArray(annotations) || !annotations.every(isPlainObject)) {
      problems[`[${i}].annotations`] = ["Expected a list of annotation objects."];
      return;
    }
    if (!Array.isArray(predictions) || !predictions.every(isPlainObject)) {
      problems[`[${i}].predictions`] = ["Expected a list of prediction objects."];
      return;
    }
    out.push({
      data: task["data"] as Record<string, JsonValue>,
      meta: isPlainObject(task["meta"]) ? (task["meta"] as Record<string, JsonValue>) : {},
      annotations,
      predictions,
    });
  });
  if (Object.keys(problems).length > 0) throw validationError(problems);
  return out;
}

const resultOf = (v: unknown): JsonValue[] => (Array.isArray(v) ? (v as JsonValue[]) : []);
const numberOr = (v: unknown, fallback: number | null): number | null => (typeof v === "number" && Number.isFinite(v) ? v : fallback);

export function importTasks(req: MockRequest, ctx: MockContext, project: ProjectRecord): Reply {
  const started = Date.now();
  const tasks = items(req.body);
  const now = nowTimestamp();
  const store = ctx.store;
  let innerId = store.nextInnerId(project.id);
  let annotationCount = 0;
  let predictionCount = 0;
  const taskIds: number[] = [];
  const columns = new Set<string>();
  for (const item of tasks) {
    const task = store.insert("tasks", {
      project: project.id,
      data: item.data,
      meta: item.meta,
      created_at: now,
      updated_at: now,
      updated_by: null,
      file_upload: null,
      storage_filename: null,
      inner_id: innerId++,
      overlap: 1,
      unresolved_comment_count: 0,
    });
    taskIds.push(task.id);
    for (const key of Object.keys(item.data)) columns.add(key);
    for (const p of item.predictions) {
      store.insert("predictions", {
        task: task.id,
        project: project.id,
        result: resultOf(p["result"]),
        score: numberOr(p["score"], null),
        model_version: typeof p["model_version"] === "string" ? p["model_version"] : (project.model_version ?? ""),
        created_at: now,
        updated_at: now,
      });
      predictionCount++;
    }
    for (const a of item.annotations) {
      const author = typeof a["completed_by"] === "number" && store.find("users", a["completed_by"]) ? a["completed_by"] : req.user.id;
      store.insert("annotations", {
        task: task.id,
        project: project.id,
        result: resultOf(a["result"]),
        completed_by: author,
        was_cancelled: a["was_cancelled"] === true,
        ground_truth: a["ground_truth"] === true,
        lead_time: numberOr(a["lead_time"], null),
        created_at: now,
        updated_at: now,
        parent_prediction: null,
      });
      annotationCount++;
    }
  }
  const body: Record<string, unknown> = {
    task_count: tasks.length,
    annotation_count: annotationCount,
    prediction_count: predictionCount,
    duration: (Date.now() - started) / 1000,
    file_upload_ids: [],
    could_be_tasks_list: false,
    found_formats: [],
    data_columns: [...columns].sort(),
  };
  if (param(req.query, "return_task_ids") === "true") body["task_ids"] = taskIds;
  return ok(body, 201);
}
