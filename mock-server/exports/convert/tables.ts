import { dumps, PyFloat, pyFloatText, ujsonCompact, ujsonIndented, write, type PyValue } from "../../../src/emulation/py-dumps.js";
import { annotator, isObject, prettify, type Item, type PyObject } from "./items.js";

/**
 * JSON_MIN, CSV and TSV (label_studio_sdk `converter/converter.py` `convert_to_json_min`,
 * `converter/exports/csv2.py`): one record per converter item, the task's data flattened next to
 * the tag values and the annotation's fields.
 */

/** `convert_to_json_min`: a record per item, `ujson.dump(record, indent=2)` each, in `[\n…\n]`. */
export function jsonMin(items: Iterable<Item>): string {
  const out: string[] = ["[\n"];
  let first = true;
  for (const item of items) {
    const record: Record<string, PyValue> = { ...item.input };
    if (item.id !== null) record["id"] = item.id;
    for (const [name, values] of item.output) record[name] = prettify(values);
    record["annotator"] = annotator(item.completed_by, null, true);
    record["annotation_id"] = item.annotation_id;
    record["created_at"] = item.created_at;
    record["updated_at"] = item.updated_at;
    record["lead_time"] = item.lead_time;
    if (!first) out.push(",\n");
    write(record, ujsonIndented, out, 0);
    first = false;
  }
  out.push("\n]");
  return out.join("");
}

/** The columns every CSV has (`keys` in csv2.convert). */
const ALWAYS = ["annotator", "annotation_id", "created_at", "updated_at", "lead_time"];

/** `prepare_annotation_keys`: the columns one item adds. */
function keysOf(item: Item, into: Set<string>): void {
  for (const key of Object.keys(item.input)) into.add(key);
  if (item.id !== null) into.add("id");
  for (const name of item.output.keys()) into.add(name);
  if (truthyHistory(item.history)) into.add("history");
}

const truthyHistory = (h: PyValue): boolean => h !== null && h !== false && h !== "" && h !== 0 && !(Array.isArray(h) && h.length === 0);

/** `prepare_annotation`: one row; lists and dicts as ujson text. */
function rowOf(item: Item): Map<string, PyValue> {
  const record = new Map<string, PyValue>();
  if (item.id !== null) record.set("id", item.id);
  for (const [name, values] of item.output) {
    const pretty = prettify(values);
    record.set(name, typeof pretty === "string" ? pretty : dumps(pretty, ujsonCompact));
  }
  for (const [name, value] of Object.entries(item.input)) {
    record.set(name, Array.isArray(value) || isObject(value) ? dumps(value, ujsonCompact) : value);
  }
  record.set("annotator", annotator(item.completed_by, null, false));
  record.set("annotation_id", item.annotation_id);
  record.set("created_at", item.created_at);
  record.set("updated_at", item.updated_at);
  record.set("lead_time", item.lead_time);
  if (truthyHistory(item.history)) record.set("history", dumps(item.history, ujsonCompact));
  return record;
}

/** Python's `sorted()` of strings: by code point (JavaScript's default sort compares UTF-16 units). */
export function codePointCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * One field as Python's `csv.writer` writes it with `QUOTE_NONNUMERIC`: numbers (bools too) bare
 * as `str()` prints them, everything else quoted with `"` doubled; None is an empty quoted field.
 */
function field(value: PyValue | undefined): string {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloatText(value);
  if (value instanceof PyFloat) return pyFloatText(value.value);
  if (typeof value === "boolean") return value ? "True" : "False";
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : String(value);
  return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
}

/** csv2.convert: two passes, the columns sorted, a header, one row per item; `\r\n` ends every row. */
export function delimited(items: () => Iterable<Item>, separator: "," | "\t"): string {
  const keys = new Set(ALWAYS);
  for (const item of items()) keysOf(item, keys);
  const columns = [...keys].sort(codePointCompare);
  const out: string[] = [columns.map(field).join(separator), "\r\n"];
  for (const item of items()) {
    const row = rowOf(item);
    out.push(columns.map((c) => field(row.get(c) ?? "")).join(separator), "\r\n");
  }
  return out.join("");
}

/** The object a JSON_MIN record writes as (for readers of this module's output in tests). */
export type JsonMinRecord = PyObject;
