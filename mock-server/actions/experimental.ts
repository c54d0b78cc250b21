import type { AnnotationRecord, PredictionRecord } from "../../src/contract/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { HttpProblem, pythonException, validationError } from "../errors.js";
import { ok } from "../http.js";
import { parseConfig } from "../label-config.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pyStr, pyType, strRepr } from "../../src/emulation/python-json.js";
import { parsePyInt } from "../../src/emulation/python-text.js";
import { insertCopiedAnnotation, type ActionEffect } from "./types.js";

/**
 * The experimental community actions (data_manager/actions/experimental.py, cache_labels.py,
 * data_columns.py). The server never lists them by default but performs them when POSTed.
 */

/** Copy one annotation (by id, of this project) to every other selected task. */
export const propagateAnnotations: ActionEffect = (run) => {
  const { ctx, project, ids, body } = run;
  const raw = body["source_annotation_id"];
  // Django's IntegerField.get_prep_value: int(value), or "Field 'id' expected a number but got …".
  const id = typeof raw === "string" ? parsePyInt(raw) : Number(raw);
  if (id === undefined) throw pythonException("ValueError", `Field 'id' expected a number but got ${strRepr(raw as string)}.`);
  const source = ctx.store.list("annotations").find((a) => a.project === project.id && a.id === id);
  if (!source) throw pythonException("DataManagerException", `Source annotation ${pyStr(raw)} not found in the current project`);
  const targets = [...new Set(ids)].filter((t) => t !== source.task);
  const now = nowTimestamp();
  for (const task of targets) insertCopiedAnnotation(run, task, source.result, null, now);
  // update_tasks_counters_and_is_labeled(tasks): every counter of the targets, total_predictions too.
  ctx.store.recomputeCounters(targets);
  return ok({ detail: `Created ${targets.length} annotations` });
};

type Region = { from_name?: unknown; value?: Record<string, unknown> };

/** Rename a label of one control tag in every annotation of the project. */
export const renameLabels: ActionEffect = ({ ctx, project, body, user }) => {
  const oldName = body["old_label_name"];
  const newName = body["new_label_name"];
  const control = body["control_tag"];
  const tags = parseConfig(project.label_config);
  const tag = typeof control === "string" ? tags.get(control) : undefined;
  if (!tag) {
    if (typeof oldName !== "string") throw pythonException("TypeError", `can only concatenate str (not "${pyType(oldName)}") to str`);
    throw validationError({ non_field_errors: [`Wrong old label name, it is not from labeling config: ${oldName}`] });
  }
  const key = tag.type.toLowerCase();
  let labels = 0;
  let annotations = 0;
  for (const a of ctx.store.list("annotations").filter((x) => x.project === project.id)) {
    let changed = false;
    const result = (a.result ?? []).map((r) => {
      const region = r as Region;
      const list = region.value?.[key];
      if (region.from_name !== control || !Array.isArray(list) || !list.includes(oldName)) return r;
      changed = true;
      return {
        ...(r as Record<string, JsonValue>),
        value: { ...(region.value as Record<string, JsonValue>), [key]: list.map((l) => (l === oldName ? (labels++, newName) : l)) },
      } as JsonValue;
    });
    if (changed) {
      // annotation.save(update_fields=['result']): Annotation.save makes the caller its updater, and
      // update_task the task's (label_studio/tasks/models.py).
      const now = nowTimestamp();
      ctx.store.update("annotations", a.id, { result, updated_by: user.id });
      ctx.store.update("tasks", a.task, { updated_by: user.id, updated_at: now });
      annotations++;
    }
  }
  return ok({ detail: `Updated ${labels} labels in ${annotations}` });
};

/** Labels of one region list: the first list of strings (or taxonomy paths) in each region's value. */
function extractLabels(result: readonly JsonValue[] | null, control: string | undefined): string[] {
  const labels: string[] = [];
  for (const r of result ?? []) {
    const region = r as Region;
    if ((control !== undefined && region.from_name !== control) || !region.value) continue;
    for (const [key, v] of Object.entries(region.value)) {
      if (!Array.isArray(v) || v.length === 0) continue;
      if (key === "taxonomy") for (const path of v) labels.push(Array.isArray(path) ? String(path.at(-1)) : String(path));
      else if (typeof v[0] === "string") labels.push(...(v as string[]));
      break;
    }
  }
  return labels;
}

/** Write the labels of each selected task into `data.cache_<tag>` (or `cache_predictions_<tag>`). */
export const cacheLabels: ActionEffect = ({ ctx, project, ids, body }) => {
  const source = String(body["source"] ?? "annotations").toLowerCase();
  if (source !== "annotations" && source !== "predictions")
    throw pythonException("AssertionError", "Source must be annotations or predictions");
  const custom = body["custom_control_tag"];
  const chosen = custom ? custom : body["control_tag"];
  const control = chosen === "ALL" || chosen === undefined || chosen === null ? undefined : String(chosen);
  const counters = String(body["with_counters"] ?? "Yes").toLowerCase() === "yes";
  const column = `${source === "annotations" ? "cache" : "cache_predictions"}_${control ?? "all"}`;
  const dataset = ctx.store.dataset(project);
  const rows: readonly (AnnotationRecord | PredictionRecord)[] = source === "annotations" ? dataset.annotations : dataset.predictions;
  for (const id of ids) {
    const task = ctx.store.find("tasks", id);
    if (!task) continue;
    const labels = rows.filter((r) => r.task === id).flatMap((r) => extractLabels(r.result, control));
    const distinct = [...new Set(labels)];
    const text = counters
      ? distinct
          .map((l) => `${l}: ${labels.filter((x) => x === l).length}`)
          .sort()
          .join(", ")
      : distinct.sort().join(", ");
    ctx.store.update("tasks", id, { data: { ...task.data, [column]: text } });
  }
  return ok({});
};

/** Hidden behind a feature flag that is off by default: the server refuses it. */
export const addDataField: ActionEffect = () => {
  throw new HttpProblem(403, "Action is not allowed for the current user: add_data_field");
};
