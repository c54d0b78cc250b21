import { PyException } from "../../../src/emulation/exceptions.js";
import { PyFloat, type PyValue } from "../../../src/emulation/py-dumps.js";
import type { ControlTag } from "../../label-config.js";

/**
 * The converter's reading of an exported task (label_studio_sdk `converter/converter.py`,
 * `Converter.annotation_result_from_task` and `get_data`): one item per annotation that was not
 * skipped, newest first; a task without annotations gives one item without output, and a task
 * whose annotations were all skipped gives none. The converter reads the JSON file back; these
 * read the same values from the tasks as they were written.
 */

export type PyObject = { readonly [key: string]: PyValue };

export interface Item {
  readonly id: PyValue;
  readonly input: PyObject;
  /** Per control tag name (`from_name`): the values of its results, each with the tag's `type`. */
  readonly output: ReadonlyMap<string, readonly PyObject[]>;
  /** The annotation's `completed_by` (an id, or an author object), `{}` without an annotation. */
  readonly completed_by: PyValue;
  readonly annotation_id: PyValue;
  readonly created_at: PyValue;
  readonly updated_at: PyValue;
  readonly lead_time: PyValue;
  readonly history: PyValue;
  readonly was_cancelled: PyValue;
}

export type Schema = ReadonlyMap<string, ControlTag>;

export const isObject = (v: PyValue | undefined): v is PyObject =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);

/** Python's `dict.get(key)` of a task or annotation read from JSON. */
const get = (o: PyObject, key: string): PyValue => (Object.hasOwn(o, key) ? (o[key] as PyValue) : null);

function item(task: PyObject, output: ReadonlyMap<string, readonly PyObject[]>, annotation: PyObject): Item {
  return {
    id: get(task, "id"),
    input: get(task, "data") as PyObject,
    output,
    completed_by: Object.hasOwn(annotation, "completed_by") ? (annotation["completed_by"] as PyValue) : {},
    annotation_id: get(annotation, "id"),
    created_at: get(annotation, "created_at"),
    updated_at: get(annotation, "updated_at"),
    lead_time: get(annotation, "lead_time"),
    history: get(annotation, "history"),
    was_cancelled: get(annotation, "was_cancelled"),
  };
}

/**
 * `annotation_result_from_task` over one exported task. `keypoints`: the YOLO conversion of a
 * keypoint config has set `is_keypoints`, so each value also carries its region's `id` and `parentID`.
 */
export function* itemsOf(task: PyObject, schema: Schema, keypoints = false): Generator<Item> {
  const annotations = (task["annotations"] ?? []) as readonly PyObject[];
  if (annotations.length === 0) yield item(task, new Map(), {});
  const kept = annotations.filter((a) => !(truthy(a["skipped"]) || truthy(a["was_cancelled"])));
  // sorted(..., key=created_at, reverse=True): stable, so equal times keep their order.
  const newestFirst = kept
    .map((a, i) => ({ a, i }))
    .sort((x, y) => compareDesc(x.a["created_at"], y.a["created_at"]) || x.i - y.i)
    .map((x) => x.a);
  for (const annotation of newestFirst) {
    const outputs = new Map<string, PyObject[]>();
    const result = annotation["result"];
    // `for r in result`: a result the model left None cannot be iterated.
    if (!Array.isArray(result))
      throw new PyException("TypeError", `'${result === null ? "NoneType" : typeof result}' object is not iterable`);
    for (const r of result as readonly PyObject[]) {
      if (!isObject(r) || !Object.hasOwn(r, "from_name")) continue;
      const name = r["from_name"] as string;
      const tag = schema.get(name);
      if (!tag) continue;
      if (!Object.hasOwn(r, "value")) throw new PyException("KeyError", "'value'");
      const v: Record<string, PyValue> = { ...(r["value"] as PyObject), type: tag.type };
      if (Object.hasOwn(r, "original_width")) v["original_width"] = r["original_width"] as PyValue;
      if (Object.hasOwn(r, "original_height")) v["original_height"] = r["original_height"] as PyValue;
      if (keypoints) {
        v["id"] = Object.hasOwn(r, "id") ? (r["id"] as PyValue) : null;
        v["parentID"] = Object.hasOwn(r, "parentID") ? (r["parentID"] as PyValue) : null;
      }
      const list = outputs.get(name);
      if (list) list.push(v);
      else outputs.set(name, [v]);
    }
    yield item(task, outputs, annotation);
  }
}

/** Every item of every task, in task order. */
export function* itemsOfAll(tasks: Iterable<PyObject>, schema: Schema, keypoints = false): Generator<Item> {
  for (const task of tasks) yield* itemsOf(task, schema, keypoints);
}

function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** Descending by Python's comparison of the two values (ISO strings compare as text; a missing one is 0). */
function compareDesc(a: PyValue | undefined, b: PyValue | undefined): number {
  const x = a ?? 0;
  const y = b ?? 0;
  if (x === y) return 0;
  return (x as string) < (y as string) ? 1 : -1;
}

/**
 * `get_annotator` (converter/utils.py): an author object gives its email (or `fallback`); an int
 * stays one with `intId`; anything else is Python's `str()` of it.
 */
export function annotator(completedBy: PyValue, fallback: PyValue, intId: boolean): PyValue {
  if (typeof completedBy === "object" && completedBy !== null && !Array.isArray(completedBy)) {
    const o = completedBy as PyObject;
    return Object.hasOwn(o, "email") ? (o["email"] as PyValue) : fallback;
  }
  if (typeof completedBy === "number" && Number.isInteger(completedBy) && intId) return completedBy;
  return pyStrOf(completedBy);
}

/** Python's `str()` of a JSON-read value (only ids and None reach it in practice). */
function pyStrOf(v: PyValue): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  return String(v);
}

/**
 * `prettify_result` (converter/utils.py): a single Choices or TextArea value becomes its one choice
 * or text; otherwise the list of values, each without its `type`.
 */
export function prettify(values: readonly PyObject[]): PyValue {
  const out: PyValue[] = [];
  let type: PyValue = null;
  for (const value of values) {
    const { type: t, ...rest } = value;
    if (t === undefined) throw new PyException("KeyError", "'type'");
    type = t;
    const list = (key: string) => {
      if (!Object.hasOwn(rest, key)) throw new PyException("KeyError", `'${key}'`);
      return rest[key] as readonly PyValue[];
    };
    if (t === "Choices" && list("choices").length === 1) out.push(list("choices")[0] as PyValue);
    else if (t === "TextArea" && list("text").length === 1) out.push(list("text")[0] as PyValue);
    else out.push(rest);
  }
  return (type === "Choices" || type === "TextArea") && out.length === 1 ? (out[0] as PyValue) : out;
}
