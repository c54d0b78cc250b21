import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import { annotationDefaults } from "../../src/contract/annotation.js";
import { newRecordDefaults, storedTable } from "../../src/contract/field.js";
import { taskModel, taskOwn } from "../../src/contract/task.js";
import { randomUUID } from "node:crypto";
import { fieldError, pythonException, pythonExceptionOrStrict, SERVER_VERSION, validationError } from "../errors.js";
import { ok, param, type MockContext, type MockRequest, type Reply } from "../http.js";
import { pyRepr, pyStr, pyType } from "../../src/emulation/python-json.js";
import { errorAnswer, pythonFailure, validationFailure } from "../../src/emulation/error-answer.js";
import { parsePyFloat } from "../../src/emulation/python-text.js";
import { ServerException } from "../../src/emulation/exceptions.js";
import { overlapSetting, updateTasksStates } from "../overlap.js";
import { prepareResult } from "./predictions.js";
import { dataColumnsFailure, metaProblem, ROOT, taskDataProblem, wrongClass } from "./task-validator.js";
import { parseConfig } from "../label-config.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";

/**
 * `POST /api/projects/{id}/import` with a JSON body (docs/reference/resources.md#projects): a list
 * of tasks or one task. An item with a `data` key is a task (`data`, `meta`, `annotations`,
 * `predictions`); any other object is taken as the task data itself, as the server does. Community
 * answers synchronously.
 */
interface ImportItem {
  /** The item as sent, and whether it is the data itself (no `data` key). */
  raw: JsonValue;
  root: boolean;
  /** A dict, or a list the validator passed (importTasks refuses it before storing). */
  data: Record<string, JsonValue>;
  /** As sent (a dict or a list once checkItems passed it; the model's {} when absent). */
  meta: JsonValue;
  /** As sent, a list: entries that are not objects pass the validator and fail in `authors`. */
  annotations: readonly unknown[];
  /** As sent: `TaskValidator` and `add_predictions` judge them (checkItems, importTasks). */
  predictions: unknown;
}

/** `load_tasks` (label_studio/data_import/uploader.py): a JSON object is one task, a list many, anything else none. */
function items(body: unknown): unknown[] {
  if (body !== undefined && !Array.isArray(body) && !isPlainObject(body)) {
    throw validationError({ non_field_errors: ["load_tasks: No data found in DATA or in FILES"] });
  }
  const list = Array.isArray(body) ? body : body === undefined ? [] : [body];
  if (Array.isArray(body) && body.length === 0) throw validationError({ non_field_errors: ["load_tasks: No tasks added"] });
  // BaseTaskSerializer.validate asks `'data' not in task` first: for a number, a boolean or null that is a TypeError.
  const scalar = list.find((raw) => raw === null || typeof raw === "number" || typeof raw === "boolean");
  if (scalar !== undefined) throw pythonException("TypeError", `argument of type '${pyType(scalar)}' is not iterable`);
  return list;
}

/** `list_of_strings_from_request` (core/utils/params.py): split at the first of `,` `;` `|` the text holds. */
function listOfStrings(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const splitter = [",", ";", "|"].find((s) => value.includes(s));
  return splitter === undefined ? [value] : value.split(splitter);
}

/**
 * `reformat_predictions` (data_import/functions.py), for `?preannotated_from_fields=a,b`: each item becomes its data
 * (its `data`, or the item itself) and one prediction per named field that the data holds and is not null, scored
 * 1.0 with model version `preannotated`, under the control of that name (its first `toName` and its type; `text` and
 * `choices` when the config has none). A dict value is the result's value; a `rating`, `number` or `datetime` value
 * goes as is under its type, any other is wrapped in a list (`textarea` under `text`). Fields the data lacks are
 * skipped (the server reports them only behind a flag that is off).
 */
function preannotated(body: unknown, fields: readonly string[], project: ProjectRecord): unknown {
  const list = Array.isArray(body) ? body : body === undefined ? [] : [body];
  const controls = parseConfig(project.label_config);
  return list.map((raw) => {
    if (!isPlainObject(raw)) return raw;
    const data = ("data" in raw ? raw["data"] : raw) as JsonValue;
    const predictions = !isPlainObject(data)
      ? []
      : fields.flatMap((field) => {
          const value = data[field];
          if (value === undefined || value === null) return [];
          const control = controls.get(field);
          const toName = control?.to_name[0] ?? "text";
          const type = control ? control.type.toLowerCase() : "choices";
          const key = type === "textarea" ? "text" : type;
          const shaped = isPlainObject(value)
            ? value
            : ["rating", "number", "datetime"].includes(type)
              ? { [key]: value }
              : { [key]: Array.isArray(value) ? value : [value] };
          return [{ result: [{ from_name: field, to_name: toName, type, value: shaped }], score: 1.0, model_version: "preannotated" }];
        });
    return { data, predictions };
  });
}

/**
 * `TaskSerializerBulk.to_internal_value`: every item through `TaskValidator.validate` against the project's config;
 * the 400 lists one entry per item, `{}` for a good one, else `Error at item <i>: <reason> :: <the item as Python
 * prints it>` (`format_error`), cut at the hundredth entry, which becomes `...`. The items, once all pass.
 */
function checkItems(project: ProjectRecord, list: readonly unknown[]): ImportItem[] {
  const errors: (string | Record<string, never>)[] = [];
  for (const [i, raw] of list.entries()) {
    const problem = itemProblem(project, raw);
    errors.push(problem === undefined ? {} : `Error at item ${i}: ${problem} :: ${pyStr(raw)}`);
    // The server's "do not print to user too many errors".
    if (problem !== undefined && errors.length >= 100) {
      errors[99] = "...";
      break;
    }
  }
  if (errors.some((e) => typeof e === "string")) throw new ServerException(validationFailure({ non_field_errors: errors }));
  return list.map((raw) => {
    const item = raw as Record<string, JsonValue>;
    const root = !Object.hasOwn(item, "data");
    const task = root ? { data: item } : item;
    return {
      raw: item,
      root,
      data: task["data"] as Record<string, JsonValue>,
      meta: Object.hasOwn(task, "meta") ? (task["meta"] as JsonValue) : {},
      annotations: (task["annotations"] ?? []) as unknown[],
      predictions: task["predictions"] ?? [],
    };
  });
}

/**
 * `TaskValidator.validate` (tasks/validation.py) on one import item, in its order: an object; with a `data` key, that
 * data (a dict or a list, then `check_data`), `annotations`, `predictions`, `meta`; without one, the item is the
 * data. The reason, or undefined.
 */
function itemProblem(project: ProjectRecord, raw: unknown): string | undefined {
  if (!isPlainObject(raw)) return 'Task root must be dict with "data", "meta", "annotations", "predictions" fields';
  if (!Object.hasOwn(raw, "data")) {
    const problem = taskDataProblem(project, raw);
    return problem === undefined ? undefined : `${problem} [assume: item as is = task root with values] `;
  }
  const data = raw["data"];
  if (!isPlainObject(data) && !Array.isArray(data)) return wrongClass("data");
  const problem = taskDataProblem(project, data);
  if (problem !== undefined) return problem + ROOT;
  return annotationsProblem(raw) ?? predictionsProblem(raw["predictions"] ?? []) ?? metaProblem(raw);
}

/** `TaskValidator.validate` on `task['annotations']`: a list, each object in it with `result`, a list (other entries pass, with a warning). */
function annotationsProblem(task: Readonly<Record<string, unknown>>): string | undefined {
  if (!Object.hasOwn(task, "annotations")) return undefined;
  const annotations = task["annotations"];
  if (!Array.isArray(annotations)) return "Task[annotations] must be list";
  for (const a of annotations) {
    if (!isPlainObject(a)) continue;
    if (!Object.hasOwn(a, "result")) return 'Annotation must have "result" fields';
    if (!Array.isArray(a["result"])) return '"result" field in annotation must be list';
  }
  return undefined;
}

/** `TaskValidator.validate` on `task['predictions']`: a list, each object in it with `result` (other entries pass, with a warning). */
function predictionsProblem(predictions: unknown): string | undefined {
  if (!Array.isArray(predictions)) return "Task[predictions] must be list";
  if (predictions.some((p) => isPlainObject(p) && !Object.hasOwn(p, "result"))) return 'Prediction must have "result" fields';
  return undefined;
}

const resultOf = (v: unknown): JsonValue[] => (Array.isArray(v) ? (v as JsonValue[]) : []);

/**
 * `add_predictions` (tasks/serializers.py) with the community's flags: each prediction must be an object whose
 * `result` `prepare_prediction_result` reads and whose `score` `float()` takes (a text it cannot read becomes
 * null). Where one fails, none of the import's predictions is stored, and the view then fails reading the
 * serializer's `db_predictions` (a 500, with the tasks and annotations kept). The predictions to store, or
 * where the first failure is.
 */
function preparedPredictions(
  tasks: readonly ImportItem[],
  project: ProjectRecord,
):
  | { ok: true; rows: { task: number; result: JsonValue[] | null; score: number | null; model_version: string | null }[] }
  | { ok: false; where: string; why: string } {
  const rows: { task: number; result: JsonValue[] | null; score: number | null; model_version: string | null }[] = [];
  for (const [t, item] of tasks.entries()) {
    for (const [j, p] of (item.predictions as unknown[]).entries()) {
      const where = `[${t}].predictions[${j}]`;
      if (!isPlainObject(p)) return { ok: false, where, why: `a prediction object, found ${pyType(p)}` };
      let result: JsonValue[] | null;
      try {
        result = prepareResult(p["result"], project);
      } catch {
        return {
          ok: false,
          where: `${where}.result`,
          why: `a list of region objects, a text, an integer or an object, found ${pyRepr(p["result"])}`,
        };
      }
      const given = p["score"];
      let score: number | null = null;
      if (typeof given === "number") score = given;
      else if (typeof given === "boolean") score = given ? 1 : 0;
      else if (typeof given === "string") score = parsePyFloat(given) ?? null;
      else if (given !== undefined && given !== null)
        return { ok: false, where: `${where}.score`, why: `a number, found ${pyType(given)}` };
      rows.push({ task: t, result, score, model_version: versionOf(p) });
    }
  }
  return { ok: true, rows };
}

/**
 * `TaskSerializerBulk._insert_valid_completed_by`: each annotation's author, before anything is saved
 * (the server refuses the whole import inside its transaction). None or absent: the caller; an
 * `{email}` of a member; an int that is a member's id (Python's `True` is the int 1); anything else
 * is a 400 naming the value.
 */
function authors(tasks: readonly ImportItem[], ctx: MockContext, caller: number): number[][] {
  const members = ctx.store.list("users");
  const refuse = (message: string) => validationError({ non_field_errors: [message] });
  return tasks.map((task, t) =>
    task.annotations.map((a, j) => {
      // `annotation.get('completed_by')` on an entry the validator let through with a warning.
      if (!isPlainObject(a)) {
        const type = pyType(a);
        throw pythonExceptionOrStrict(
          ctx,
          "AttributeError",
          `'${type}' object has no attribute 'get'`,
          `[${t}].annotations[${j}]`,
          `expected an annotation object, found ${type} (the server answers 500)`,
        );
      }
      const by = a["completed_by"];
      if (by === undefined || by === null) return caller;
      if (isPlainObject(by)) {
        if (!("email" in by)) throw refuse("It's expected to have 'email' field in 'completed_by' data in annotations");
        const member = members.find((u) => u.email === by["email"]);
        if (member === undefined) throw refuse(`Unknown annotator's email ${pyStr(by["email"])}`);
        return member.id;
      }
      const id = by === true ? 1 : by === false ? 0 : by;
      if (typeof id === "number" && Number.isInteger(id) && members.some((u) => u.id === id)) return id;
      throw refuse(`Import data contains completed_by=${pyStr(by)} which is not a valid annotator's email or ID`);
    }),
  );
}

/** `prediction.get('model_version', 'undefined')`: a missing version is the text "undefined". */
export const versionOf = (p: Record<string, unknown>): string | null => {
  const v = p["model_version"];
  return v === undefined ? "undefined" : typeof v === "string" ? v : v === null ? null : pyStr(v);
};
const numberOr = (v: unknown, fallback: number | null): number | null => (typeof v === "number" && Number.isFinite(v) ? v : fallback);

/**
 * The server's bulk import (`TaskSerializerBulk.create` in label_studio/tasks/serializers.py):
 * every task first (`add_tasks`), then every annotation (`add_annotations`), then every prediction
 * (`add_predictions`), each row stamped on its own. Its defaults differ from the single-record APIs:
 * an annotation is a ground truth unless it says otherwise, a prediction without a model version
 * gets "undefined", the project takes the last prediction's model version when it has none, and a
 * task is labeled when it has as many annotations as the project's overlap — cancelled ones count.
 */
export function importTasks(req: MockRequest, ctx: MockContext, project: ProjectRecord): Reply {
  const started = Date.now();
  const fields = listOfStrings(param(req.query, "preannotated_from_fields"));
  const tasks = checkItems(project, items(fields === undefined ? req.body : preannotated(req.body, fields, project)));
  const prepared = preparedPredictions(tasks, project);
  if (!prepared.ok && ctx.strict)
    throw fieldError(prepared.where, `expected ${prepared.why} (the server stores the tasks, none of the predictions, and answers 500)`);
  const taskAuthors = authors(tasks, ctx, req.user.id);
  // List data passed the validator only where the config reads no key: `update_data_columns` fails on it after the
  // bulk insert (the server keeps the rows; the mock holds object data only and keeps nothing).
  const listed = tasks.findIndex((item) => !isPlainObject(item.data));
  if (listed >= 0) throw dataColumnsFailure(ctx, tasks[listed]?.data, `[${listed}].data`);
  const store = ctx.store;
  // TaskSerializerBulk: a new task needs the project's maximum_annotations.
  const overlap = overlapSetting(project, "maximum_annotations");
  let innerId = store.nextInnerId(project.id);
  // Each row is stamped on its own (distinct, increasing timestamps), tasks first (`add_tasks`).
  const created = tasks.map((item) => {
    const created_at = nowTimestamp();
    return store.insert("tasks", {
      ...newRecordDefaults(storedTable(taskModel, taskOwn)),
      project: project.id,
      data: item.data,
      meta: item.meta,
      created_at,
      updated_at: nowTimestamp(),
      inner_id: innerId++,
      overlap,
    });
  });
  const taskIds = created.map((t) => t.id);
  let annotationCount = 0;
  tasks.forEach((item, t) => {
    for (const [i, entry] of item.annotations.entries()) {
      const a = entry as Record<string, unknown>; // authors() refused any other entry
      const now = nowTimestamp();
      store.insert("annotations", {
        task: taskIds[t] as number,
        project: project.id,
        result: resultOf(a["result"]),
        completed_by: taskAuthors[t]![i]!,
        was_cancelled: a["was_cancelled"] === true,
        // `annotation.pop('ground_truth', True)`: imported annotations are ground truth unless told otherwise.
        ground_truth: a["ground_truth"] === undefined || a["ground_truth"] === true,
        lead_time: numberOr(a["lead_time"], annotationDefaults.lead_time),
        created_at: now,
        updated_at: now,
        parent_prediction: annotationDefaults.parent_prediction,
      });
      annotationCount++;
    }
  });
  // add_tasks stores is_labeled by its own rule; set after the annotations, whose insertion would recompute it.
  tasks.forEach((item, t) => store.update("tasks", taskIds[t] as number, { is_labeled: item.annotations.length >= overlap }));
  // Predictions after annotations, in one batch (`add_predictions`).
  let predictionCount = 0;
  let lastVersion: string | null | undefined;
  for (const row of prepared.ok ? prepared.rows : []) {
    const now = nowTimestamp();
    store.insert("predictions", {
      task: taskIds[row.task] as number,
      project: project.id,
      result: row.result as JsonValue[],
      score: row.score,
      model_version: (lastVersion = row.model_version),
      created_at: now,
      updated_at: now,
    });
    predictionCount++;
  }
  // `add_predictions`: a project without a model version takes the last imported prediction's.
  if (!project.model_version && lastVersion !== undefined && lastVersion !== null)
    store.update("projects", project.id, { model_version: lastVersion });
  updateTasksStates(store, project, false, false, tasks.length > 0);
  if (!prepared.ok) {
    const answer = errorAnswer(pythonFailure("AttributeError", "'BaseTaskSerializerBulk' object has no attribute 'db_predictions'"), {
      id: randomUUID(),
      version: SERVER_VERSION,
    });
    return { status: answer.status, body: answer.body, headers: answer.headers, commit: true };
  }
  const body: Record<string, unknown> = {
    task_count: tasks.length,
    annotation_count: annotationCount,
    prediction_count: predictionCount,
    duration: (Date.now() - started) / 1000,
    file_upload_ids: [],
    could_be_tasks_list: false,
    found_formats: [],
    // `load_tasks` collects data keys from uploaded files only: a JSON body's import lists none.
    data_columns: [],
  };
  if (param(req.query, "return_task_ids") === "true") body["task_ids"] = taskIds;
  return ok(body, 201);
}
