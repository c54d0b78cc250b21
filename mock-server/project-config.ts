import type { ProjectRecord } from "../src/contract/records.js";
import { pyStr } from "../src/emulation/python-json.js";
import type { JsonValue } from "../src/vocabulary/json.js";
import { dataTypes, labelConfigProblem, parseConfig } from "./label-config.js";
import type { Store } from "./store/store.js";

/**
 * A new labeling config against what a project already holds: `Project.validate_config`
 * (label_studio/projects/models.py), which the server runs on `PATCH /api/projects/{id}/` (strict off) and
 * `POST /api/projects/{id}/validate/` (strict on). After `validate_label_config`, nothing more is checked
 * while the project has no tasks, the config reads no data key, or nothing was annotated or drafted; then
 * every kind of result the annotations hold (`from_name|to_name|type`, the summary's `created_annotations`)
 * must still have its control, object and type in the config, and every label the annotations and drafts
 * use (`created_labels`, `created_labels_drafts`) its control; strict, the label itself too. The server
 * keeps these counts in `ProjectSummary`; the mock counts them from the records. Control names with a
 * `regex` attribute are compared literally.
 */
export function projectConfigProblem(store: Store, project: ProjectRecord, config: string | null, strict: boolean): string | undefined {
  const problem = labelConfigProblem(config);
  if (problem !== undefined || config === null) return problem;
  const { tasks, annotations, drafts = [] } = store.dataset(project);
  if (tasks.length === 0 || dataTypes(config).size === 0) return undefined;
  if (annotations.length === 0 && drafts.length === 0) return undefined;

  const tags = parseConfig(config);
  const tuples = new Set([...tags].map(([name, tag]) => `${name}|${tag.to_name.join(",")}|${tag.type.toLowerCase()}`));
  if (tuples.size === 0) return undefined;
  const types = new Set([...tags.values()].map((t) => t.type.toLowerCase()));
  const toNames = new Set([...tags.values()].flatMap((t) => t.to_name));

  const created = new Map<string, number>();
  const annotationLabels = new Map<string, Map<string, number>>();
  for (const a of annotations) {
    for (const result of a.result ?? []) {
      const key = annotationKey(result);
      if (key === undefined) continue;
      created.set(key, (created.get(key) ?? 0) + 1);
      count(annotationLabels, result as Record<string, JsonValue>);
    }
  }
  const incompatible = [...created].flatMap(([key, n]) => {
    if (tuples.has(key)) return [];
    const [fromName = "", toName = "", type = ""] = key.split("|");
    if ((fromName === toName && type === "chatmessage") || type === "textarea") return [];
    if (tags.has(fromName) && toNames.has(toName) && types.has(type)) return [];
    return [`${n} with from_name=${fromName}, to_name=${toName}, type=${type}`];
  });
  if (incompatible.length > 0)
    return `Created annotations are incompatible with provided labeling schema, we found:\n${incompatible.join("\n")}`;

  const draftLabels = new Map<string, Map<string, number>>();
  for (const d of drafts) for (const result of d.result ?? []) if (isObject(result) && "from_name" in result) count(draftLabels, result);
  const videoLabels = [...tags.values()].some((t) => t.type === "VideoRectangle") ? [...tags.values()].flatMap((t) => t.labels) : [];
  for (const control of new Set([...annotationLabels.keys(), ...draftLabels.keys()])) {
    const used = new Map<string, number>();
    for (const source of [annotationLabels, draftLabels])
      for (const [label, n] of source.get(control) ?? []) used.set(label, (used.get(label) ?? 0) + n);
    const tag = tags.get(control);
    const total = [...used.values()].reduce((a, b) => a + b, 0);
    if (used.size > 0 && !tag) return `There are ${total} annotation(s) created with tag "${control}", you can't remove it`;
    const known = new Set([...(tag?.labels ?? []), ...videoLabels]);
    const missing = [...used.keys()].filter((label) => !known.has(label));
    if (missing.length === 0 || !strict || tag?.dynamic_labels) continue;
    const lines = missing.map((label) => {
      const shown = [
        plural(annotationLabels.get(control)?.get(label) ?? 0, "annotation"),
        plural(draftLabels.get(control)?.get(label) ?? 0, "draft"),
      ].filter((s) => s !== undefined);
      return `${label} (${shown.join(", ")})\n`;
    });
    return `These labels still exist in annotations or drafts:\n${lines.join("")}Please add labels to tag with name="${control}".`;
  }
  return undefined;
}

/**
 * `config_essential_data_has_changed` (core/label_config.py): True when a control of the new config is new,
 * or changed its type, its inputs, or lost a label; otherwise None (the server never answers false).
 */
export function essentialDataChanged(newConfig: string, oldConfig: string | null): true | null {
  const before = parseConfig(oldConfig);
  for (const [name, tag] of parseConfig(newConfig)) {
    const old = before.get(name);
    if (!old || old.type !== tag.type || JSON.stringify(old.inputs) !== JSON.stringify(tag.inputs)) return true;
    if (!old.labels.every((l) => tag.labels.includes(l))) return true;
  }
  return null;
}

const isObject = (v: unknown): v is Record<string, JsonValue> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `ProjectSummary._get_annotation_key`: `from_name|to_name|type` of a result (relations and untyped results count nothing). */
function annotationKey(result: JsonValue): string | undefined {
  if (!isObject(result)) return undefined;
  const type = result["type"];
  if (type === "relation" || type === "pairwise" || type === undefined || type === null) return undefined;
  if (!("from_name" in result) || !("to_name" in result)) return undefined;
  const toName = Array.isArray(result["to_name"]) ? result["to_name"].join(",") : String(result["to_name"]);
  return `${String(result["from_name"])}|${toName}|${String(type).toLowerCase()}`;
}

/** `ProjectSummary._get_labels`: the labels of a result's value under its type (a list; text areas hold no labels). */
function count(into: Map<string, Map<string, number>>, result: Record<string, JsonValue>): void {
  const control = String(result["from_name"]);
  const byLabel = into.get(control) ?? new Map<string, number>();
  into.set(control, byLabel);
  const type = result["type"] === "videorectangle" ? "labels" : String(result["type"]);
  const value = isObject(result["value"]) ? result["value"][type] : undefined;
  if (!Array.isArray(value) || value.length === 0 || type === "text") return;
  for (const label of value) {
    for (const one of type === "taxonomy" && Array.isArray(label) ? label : [label]) {
      const text = pyStr(one);
      byLabel.set(text, (byLabel.get(text) ?? 0) + 1);
    }
  }
}

const plural = (n: number, what: string) => (n === 0 ? undefined : `${n} ${what}${n > 1 ? "s" : ""}`);
