import { pyRepr, pyType } from "../../src/emulation/python-json.js";
import { parsePyFloat } from "../../src/emulation/python-text.js";
import { QueryDict } from "../../src/emulation/query-dict.js";
import { describeValue, isPlainObject } from "../../src/vocabulary/json.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { fieldError, pythonException, validationError } from "../errors.js";
import { ok, type Handler } from "../http.js";
import { predictionChecker } from "../prediction-check.js";
import { versionOf } from "./import.js";
import { pathId, projectOr404 } from "./lookup.js";

/**
 * `POST /api/projects/{id}/import/predictions` (data_import/api.py `ImportPredictionsAPI._create_legacy`, the
 * community's default: the memory-efficient variant and prediction validation are behind flags that are off).
 *
 * The body is a list of `{task, result, score, model_version}`. A task that is not the project's stops the
 * request (400, nothing stored); a prediction `LabelInterface.validate_prediction` refuses is left out without
 * a word (the server only logs it); the rest are stored in one batch as given (`model_version` "undefined"
 * when absent), and the answer counts them: `201 {"created": n}`. The loop calls `item.get`, so an item that
 * is not an object is Python's AttributeError (a 500; strict: 400), and so is iterating a body that is not a
 * list (a dict iterates its keys).
 */
export const importPredictions: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const body = req.body instanceof QueryDict ? Object.keys(req.body.toJSON()) : req.body;
  const items = iterate(body, ctx.strict);
  const tasks = new Set(
    ctx.store
      .list("tasks")
      .filter((t) => t.project === project.id)
      .map((t) => t.id),
  );
  const passes = predictionChecker(project.label_config);
  const kept: Record<string, unknown>[] = [];
  for (const [i, item] of items.entries()) {
    if (!isPlainObject(item)) {
      const message = `'${pyType(item)}' object has no attribute 'get'`;
      if (ctx.strict)
        throw fieldError(`[${i}]`, `expected a prediction object, found ${describeValue(item)} (the server answers 500: ${message})`);
      throw pythonException("AttributeError", message);
    }
    if (taskId(item["task"], tasks) === undefined) {
      throw validationError({
        non_field_errors: [
          `${pyRepr(item)} contains invalid "task" field: corresponding task ID couldn't be retrieved from project ${project.title} (id=${project.id}) tasks`,
        ],
      });
    }
    if (passes(item)) kept.push(item);
  }
  const now = nowTimestamp();
  for (const item of kept) {
    const score = item["score"];
    ctx.store.insert("predictions", {
      task: taskId(item["task"], tasks) as number,
      project: project.id,
      result: item["result"] as never,
      // FloatField: float() of what passed the check (a number, a bool, a numeric text).
      score: score === null || score === undefined ? null : typeof score === "string" ? (parsePyFloat(score) as number) : Number(score),
      model_version: versionOf(item),
      created_at: now,
      updated_at: now,
    });
  }
  return ok({ created: kept.length }, 201);
};

/** `item.get('task') in tasks_ids`: Python's set membership, where 3, 3.0 and True-as-1 are equal. */
function taskId(value: unknown, tasks: ReadonlySet<number>): number | undefined {
  const id = typeof value === "boolean" ? Number(value) : value;
  return typeof id === "number" && tasks.has(id) ? id : undefined;
}

/** `for item in request.data`: a list's items, a dict's or a text's keys and characters; anything else raises. */
function iterate(body: unknown, strict: boolean): readonly unknown[] {
  if (Array.isArray(body)) return body;
  if (isPlainObject(body)) return Object.keys(body);
  if (typeof body === "string") return [...body];
  const message = `'${pyType(body)}' object is not iterable`;
  if (strict) throw fieldError("body", `expected a list of predictions, found ${describeValue(body)} (the server answers 500: ${message})`);
  throw pythonException("TypeError", message);
}
