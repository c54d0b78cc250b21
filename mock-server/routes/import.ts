import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import { annotationDefaults } from "../../src/contract/annotation.js";
import { newRecordDefaults, storedTable } from "../../src/contract/field.js";
import { taskModel, taskOwn } from "../../src/contract/task.js";
import { randomUUID } from "node:crypto";
import { fieldError, pythonException, pythonExceptionOrStrict, SERVER_VERSION, validationError } from "../errors.js";
import { boolFromQuery, ok, param, type MockContext, type MockRequest, type Reply } from "../http.js";
import { pyRepr, pyStr, pyTruthy, pyType } from "../../src/emulation/python-json.js";
import { errorAnswer, pythonFailure, validationFailure } from "../../src/emulation/error-answer.js";
import { parsePyFloat } from "../../src/emulation/python-text.js";
import { ServerException } from "../../src/emulation/exceptions.js";
import { overlapSetting, updateTasksStates } from "../overlap.js";
import { prepareResult } from "./predictions.js";
import { dataColumnsFailure, metaProblem, resolveUndefinedKey, ROOT, taskDataProblem, wrongClass } from "./task-validator.js";
import { QueryDict } from "../../src/emulation/query-dict.js";
import { isUploadedFile, type UploadedFile } from "../../src/emulation/multipart.js";
import { checkTaskNumber, couldBeTasksList, loadUploads, storeUploads } from "../uploads.js";
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
  /** The item's `file_upload_id` (a task read from an uploaded file names it), when it names an upload. */
  fileUpload: number | null;
}

/** What `load_tasks` (label_studio/data_import/uploader.py) read: the tasks and what the files said. */
interface Loaded {
  readonly list: unknown[];
  readonly fileUploadIds: number[];
  readonly couldBeTasksList: boolean;
  /** `{".csv": 1}` once files were read, `[]` for a body. */
  readonly foundFormats: Record<string, number> | [];
  readonly dataColumns: string[];
}

/** `request.FILES.items()`: each key's last file, keys in the order the body first named them. */
function filesOf(body: unknown): UploadedFile[] {
  if (!(body instanceof QueryDict)) return [];
  return body.keys().flatMap((key) => body.getList(key).filter(isUploadedFile).slice(-1));
}

/**
 * `load_tasks`: the uploaded files (each kept as a FileUpload, `made` collects their ids), else a form's `url`
 * (a JSON text is kept as `inplace.json`; the mock downloads nothing), else a JSON body: an object is one task, a
 * list many, anything else none. No tasks at all is a 400.
 */
function loadTasks(req: MockRequest, ctx: MockContext, project: ProjectRecord, made: number[]): Loaded {
  const body = req.body;
  const files = filesOf(body);
  const fromFiles = (uploads: readonly { id: number }[], couldBe: boolean): Loaded => {
    made.push(...uploads.map((u) => u.id));
    const loaded = loadUploads(
      ctx,
      project,
      uploads.map((u) => u.id),
      true,
    );
    return {
      list: loaded.tasks,
      fileUploadIds: uploads.map((u) => u.id),
      couldBeTasksList: couldBe,
      foundFormats: loaded.foundFormats,
      dataColumns: loaded.dataColumns,
    };
  };
  let loaded: Loaded;
  const contentType = String(req.headers["content-type"] ?? "");
  if (files.length > 0) {
    const uploads = storeUploads(ctx, req.user.id, project, files);
    loaded = fromFiles(uploads, uploads.some(couldBeTasksList));
  } else if (contentType.includes("application/x-www-form-urlencoded")) {
    const url = body instanceof QueryDict ? body.get("url") : undefined;
    if (typeof url !== "string" || url === "") throw validationError({ non_field_errors: ['"url" is not found in request data'] });
    if (!inlineJson(url))
      throw validationError({ non_field_errors: [`dmq mock: importing from a URL downloads it, which the mock does not do (${url})`] });
    const bytes = new TextEncoder().encode(url);
    const inline = { kind: "file", name: "inplace.json", contentType: "application/json", size: bytes.length, content: bytes } as const;
    loaded = fromFiles(storeUploads(ctx, req.user.id, project, [inline]), false);
  } else {
    // A form without files (a QueryDict) is no JSON body either.
    if (body instanceof QueryDict || (!Array.isArray(body) && !isPlainObject(body)))
      throw validationError({ non_field_errors: ["load_tasks: No data found in DATA or in FILES"] });
    const list = Array.isArray(body) ? body : [body];
    loaded = { list, fileUploadIds: [], couldBeTasksList: false, foundFormats: [], dataColumns: [] };
  }
  if (loaded.list.length === 0) throw validationError({ non_field_errors: ["load_tasks: No tasks added"] });
  checkTaskNumber(loaded.list);
  return loaded;
}

/** `str_to_json(url)`: the text with every `'` made `"` read as JSON, when that gives a truthy value. */
function inlineJson(url: string): boolean {
  try {
    return pyTruthy(JSON.parse(url.replace(/'/g, '"')));
  } catch {
    return false;
  }
}

/** `BaseTaskSerializer.validate` asks `'data' not in task` first: for a number, a boolean or null that is a TypeError. */
function refuseScalars(list: readonly unknown[]): readonly unknown[] {
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
function preannotated(list: readonly unknown[], fields: readonly string[], project: ProjectRecord): unknown[] {
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
      fileUpload: typeof item["file_upload_id"] === "number" ? item["file_upload_id"] : null,
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
  const commit = boolFromQuery(req.query, "commit_to_project", true);
  const returnTaskIds = boolFromQuery(req.query, "return_task_ids", false);
  const made: number[] = [];
  try {
    return syncImport(req, ctx, project, commit, returnTaskIds, made);
  } catch (error) {
    // The uploads were saved before the tasks were read: the server keeps them whatever fails after.
    if (made.length === 0 || !(error instanceof ServerException)) throw error;
    const answer = errorAnswer(error.error, { id: randomUUID(), version: SERVER_VERSION });
    return { status: answer.status, body: answer.body, headers: answer.headers, commit: true };
  }
}

/**
 * `ImportAPI.sync_import`: the tasks read (`loadTasks`), reformatted for `preannotated_from_fields`, then stored
 * unless `commit_to_project` is false (then only the uploads stay, for a later reimport, and the counts are null).
 */
function syncImport(
  req: MockRequest,
  ctx: MockContext,
  project: ProjectRecord,
  commit: boolean,
  returnTaskIds: boolean,
  made: number[],
): Reply {
  const started = Date.now();
  const fields = listOfStrings(param(req.query, "preannotated_from_fields"));
  const loaded = loadTasks(req, ctx, project, made);
  const parsed = fields === undefined ? loaded.list : preannotated(loaded.list, fields, project);
  const files = {
    file_upload_ids: loaded.fileUploadIds,
    could_be_tasks_list: loaded.couldBeTasksList,
    found_formats: loaded.foundFormats,
    data_columns: loaded.dataColumns,
  };
  if (!commit) {
    const duration = (Date.now() - started) / 1000;
    return ok({ task_count: parsed.length, annotation_count: null, prediction_count: null, duration, ...files }, 201);
  }
  const saved = saveTasks(req, ctx, project, parsed);
  if ("failure" in saved) return saved.failure;
  const body: Record<string, unknown> = {
    task_count: saved.taskIds.length,
    annotation_count: saved.annotationCount,
    prediction_count: saved.predictionCount,
    duration: (Date.now() - started) / 1000,
    ...files,
  };
  if (returnTaskIds && saved.taskIds.length > 0) body["task_ids"] = saved.taskIds;
  return ok(body, 201);
}

/** What `_save` stored, or the 500 the view then answers (with everything stored kept). */
export type Saved = { taskIds: number[]; annotationCount: number; predictionCount: number } | { failure: Reply };

/**
 * `ImportAPI._save` and the counters after it: the items through `TaskSerializerBulk` (checked, then stored) and
 * the project's task states updated. Shared by the import and the reimport.
 */
export function saveTasks(req: MockRequest, ctx: MockContext, project: ProjectRecord, parsed: readonly unknown[]): Saved {
  const tasks = checkItems(project, refuseScalars(parsed));
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
    const upload = item.fileUpload === null ? undefined : store.find("file_uploads", item.fileUpload);
    return store.insert("tasks", {
      ...newRecordDefaults(storedTable(taskModel, taskOwn)),
      project: project.id,
      // The validator moved a plain file's `$undefined$` to the config's first data key (in place: that is stored).
      data: resolveUndefinedKey(project, item.data) as Record<string, JsonValue>,
      file_upload_id: upload?.id ?? null,
      file_upload: upload?.file ?? null,
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
    return { failure: { status: answer.status, body: answer.body, headers: answer.headers, commit: true } };
  }
  return { taskIds, annotationCount, predictionCount };
}
