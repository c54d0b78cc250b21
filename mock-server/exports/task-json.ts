import { jsonbKeyOrder } from "../../src/emulation/jsonb.js";
import type { Dialect } from "../../src/emulation/py-dumps.js";
import type { AnnotationRecord, DraftRecord, PredictionRecord, TaskRecord, UserRecord } from "../../src/contract/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { annotationDefaults } from "../../src/contract/annotation.js";
import { draftDefaults } from "../../src/contract/draft.js";
import { orDefault } from "../../src/contract/field.js";
import { predictionDefaults } from "../../src/contract/prediction.js";
import { taskDefaults } from "../../src/contract/task.js";
import { renderTimestamp } from "../../src/vocabulary/timestamps.js";
import type { TaskCounters, TaskRelations } from "../engine.js";
import { createdUsername } from "../present/users.js";
import { timeSince } from "../time.js";

/**
 * One task as the export serializer writes it (`BaseExportDataSerializer`, label_studio/data_export/
 * serializers.py; its field order is `exportTask` of the contract, which a test holds this to),
 * written straight to text in a dialect of `py-dumps.ts` (an export is large: no value tree is
 * built). FloatFields print as Python floats (`2.0`); JSONFields come back from PostgreSQL's jsonb
 * with their keys in jsonb's order, at every level: so do they here.
 */

export interface TaskJsonOptions {
  /** Whole drafts (`AnnotationDraftSerializer`) instead of ids. */
  readonly drafts: boolean;
  /** Whole predictions (`PredictionSerializer`) instead of ids. */
  readonly predictions: boolean;
  /** Annotation authors as `CompletedBySerializer` objects instead of ids. */
  readonly completedBy: boolean;
  /** The annotations kept (a snapshot's `annotation_filter_options`); all when absent. */
  readonly annotations?: ((a: AnnotationRecord) => boolean) | undefined;
  /** The first data key of the label config: where a `$undefined$` data key moves (`replace_task_data_undefined_with_config_field`). */
  readonly firstDataKey: string | undefined;
  /** Users by id (authors, drafts). */
  readonly user: (id: number) => UserRecord | undefined;
  /** For `created_ago`. */
  readonly now: number;
}

/** Object keys in jsonb's order: shorter first, then bytewise (kept per key list, which records share). */
const sortedKeys = new Map<string, readonly string[]>();
function jsonbKeys(object: { readonly [key: string]: JsonValue }): readonly string[] {
  const keys = Object.keys(object);
  if (keys.length < 2) return keys;
  const id = keys.join("\u0000");
  let sorted = sortedKeys.get(id);
  if (sorted === undefined) {
    sorted = [...keys].sort(jsonbKeyOrder);
    if (sortedKeys.size > 10_000) sortedKeys.clear();
    sortedKeys.set(id, sorted);
  }
  return sorted;
}

/** A number as Python reads it back from jsonb or JSON: whole ones are ints. */
const numberText = (n: number, d: Dialect) => (Number.isInteger(n) ? (Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString()) : d.float(n));

/** A JSONField's value as jsonb gives it back, in the dialect. */
export function jsonbText(value: JsonValue | undefined, d: Dialect): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return d.string(value);
    case "number":
      return numberText(value, d);
    case "boolean":
      return value ? "true" : "false";
    default:
      break;
  }
  // A plain switch: this walks every value of an export (a measured hot loop).
  if (Array.isArray(value)) {
    const list = value as readonly JsonValue[];
    if (list.length === 0) return "[]";
    let s = "[";
    for (let i = 0; i < list.length; i++) s += (i > 0 ? d.item : "") + jsonbText(list[i], d);
    return `${s}]`;
  }
  const object = value as { readonly [key: string]: JsonValue };
  const keys = jsonbKeys(object);
  if (keys.length === 0) return "{}";
  let s = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    s += (i > 0 ? d.item : "") + d.string(key) + d.key + jsonbText(object[key], d);
  }
  return `${s}}`;
}

/** `"key": ` in the dialect, kept per dialect and name. */
const keyTexts = new WeakMap<Dialect, Map<string, string>>();
function keyOf(d: Dialect, name: string): string {
  let table = keyTexts.get(d);
  if (!table) keyTexts.set(d, (table = new Map()));
  let text = table.get(name);
  if (text === undefined) table.set(name, (text = d.string(name) + d.key));
  return text;
}

/**
 * The pieces of a task's text, appended in order and joined once per task: an export writes
 * millions of small pieces, and an array of them allocates far less than a chain of concatenations.
 */
class Pieces {
  readonly out: string[] = [];
  #first: boolean[] = [];
  constructor(readonly d: Dialect) {}
  open(bracket: "{" | "["): void {
    this.out.push(bracket);
    this.#first.push(true);
  }
  close(bracket: "}" | "]"): void {
    this.out.push(bracket);
    this.#first.pop();
  }
  /** Before the next item of the innermost object or list. */
  #sep(): void {
    const last = this.#first.length - 1;
    if (this.#first[last]) this.#first[last] = false;
    else this.out.push(this.d.item);
  }
  /** A field of the innermost object: its key, then the value's pieces (`text`, or what `write` appends). */
  field(name: string, text?: string): this {
    this.#sep();
    this.out.push(keyOf(this.d, name));
    if (text !== undefined) this.out.push(text);
    return this;
  }
  /** An item of the innermost list. */
  item(text?: string): this {
    this.#sep();
    if (text !== undefined) this.out.push(text);
    return this;
  }
}

const nullable = (v: number | string | null | undefined, d: Dialect) =>
  v === null || v === undefined ? "null" : typeof v === "string" ? d.string(v) : numberText(v, d);
/** A FloatField: Python prints it with its `.0`. */
const float = (v: number | null | undefined, d: Dialect) => (v === null || v === undefined ? "null" : d.float(v));
const time = (v: string | null | undefined, d: Dialect) => (v ? d.string(renderTimestamp(v)) : "null");
const bool = (v: boolean) => (v ? "true" : "false");
const nullableBool = (v: boolean | null) => (v === null ? "null" : bool(v));

/** `CompletedBySerializer`. */
function completedBy(p: Pieces, u: UserRecord): void {
  const d = p.d;
  p.open("{");
  p.field("id", String(u.id))
    .field("email", d.string(u.email))
    .field("first_name", d.string(u.first_name))
    .field("last_name", d.string(u.last_name));
  p.close("}");
}

/**
 * `AnnotationSerializer` of the export app. `unique_id` is a UUID the server draws at creation; a
 * record without one gets a UUID made from its id, the same on every export.
 */
function annotation(p: Pieces, a: AnnotationRecord, o: TaskJsonOptions): void {
  const d = p.d;
  const author = a.completed_by !== null && o.completedBy ? o.user(a.completed_by) : undefined;
  p.open("{");
  p.field("id", String(a.id));
  if (author) {
    p.field("completed_by");
    completedBy(p, author);
  } else p.field("completed_by", nullable(a.completed_by, d));
  p.field("result", a.result === null ? "null" : jsonbText(a.result as JsonValue, d))
    .field("was_cancelled", bool(a.was_cancelled))
    .field("ground_truth", bool(a.ground_truth))
    .field("created_at", time(a.created_at, d))
    .field("updated_at", time(a.updated_at, d))
    .field("draft_created_at", time(a.draft_created_at, d))
    .field("lead_time", float(a.lead_time, d))
    .field("prediction", jsonbText(orDefault(a.prediction, annotationDefaults.prediction), d))
    .field("result_count", String(orDefault(a.result_count, annotationDefaults.result_count)))
    .field("unique_id", d.string(a.unique_id ?? uuidOf(a.id)))
    .field("import_id", nullable(a.import_id, d))
    .field("last_action", nullable(a.last_action, d))
    .field("bulk_created", nullableBool(orDefault(a.bulk_created, annotationDefaults.bulk_created)))
    .field("task", String(a.task))
    .field("project", String(a.project))
    .field("updated_by", nullable(a.updated_by, d))
    .field("parent_prediction", nullable(a.parent_prediction, d))
    .field("parent_annotation", nullable(a.parent_annotation, d))
    .field("last_created_by", nullable(a.last_created_by, d));
  p.close("}");
}

/** `PredictionSerializer`, as `presentPrediction` renders it, with its floats. */
function prediction(p: Pieces, x: PredictionRecord, now: number): void {
  const d = p.d;
  p.open("{");
  p.field("id", String(x.id))
    .field("result", x.result === null ? "null" : jsonbText(x.result as JsonValue, d))
    .field("model_version", nullable(x.model_version, d))
    .field("created_ago", d.string(timeSince(x.created_at, now)))
    .field("score", float(x.score, d))
    .field("cluster", nullable(x.cluster, d))
    .field("neighbors", jsonbText(orDefault(x.neighbors, predictionDefaults.neighbors), d))
    .field("mislabeling", float(orDefault(x.mislabeling, predictionDefaults.mislabeling), d))
    .field("created_at", time(x.created_at, d))
    .field("updated_at", time(x.updated_at, d))
    .field("model", nullable(x.model, d))
    .field("model_run", nullable(x.model_run, d))
    .field("task", String(x.task))
    .field("project", String(x.project));
  p.close("}");
}

/** `AnnotationDraftSerializer`: `user` is the author's email (`str(user)`). */
function draft(p: Pieces, x: DraftRecord, o: TaskJsonOptions): void {
  const d = p.d;
  const author = o.user(x.user);
  p.open("{");
  p.field("id", String(x.id))
    .field("user", d.string(author?.email ?? ""))
    .field("created_username", d.string(createdUsername(author, "draft")))
    .field("created_ago", d.string(timeSince(x.created_at, o.now)))
    .field("result", x.result === null ? "null" : jsonbText(x.result as JsonValue, d))
    .field("lead_time", float(x.lead_time, d))
    .field("was_postponed", bool(orDefault(x.was_postponed, draftDefaults.was_postponed)))
    .field("import_id", nullable(x.import_id, d))
    .field("created_at", time(x.created_at, d))
    .field("updated_at", time(x.updated_at, d))
    .field("task", String(x.task))
    .field("annotation", nullable(x.annotation, d));
  p.close("}");
}

/** The task's data with `$undefined$` moved to the config's first data key (which then comes last). */
function dataText(data: TaskRecord["data"], firstKey: string | undefined, d: Dialect): string {
  if (firstKey === undefined || !Object.hasOwn(data, "$undefined$")) return jsonbText(data, d);
  let s = "{";
  let first = true;
  const put = (key: string, value: JsonValue | undefined) => {
    s += (first ? "" : d.item) + d.string(key) + d.key + jsonbText(value, d);
    first = false;
  };
  for (const key of jsonbKeys(data)) if (key !== "$undefined$" && key !== firstKey) put(key, data[key]);
  put(firstKey, data["$undefined$"]);
  return `${s}}`;
}

/** One task of an export file, as text in the dialect. */
export function taskText(t: TaskRecord, c: TaskCounters, relations: TaskRelations, o: TaskJsonOptions, d: Dialect): string {
  const keep = o.annotations;
  const p = new Pieces(d);
  p.open("{");
  p.field("id", String(t.id)).field("annotations");
  p.open("[");
  for (const a of relations.annotations) {
    if (keep && !keep(a)) continue;
    p.item();
    annotation(p, a, o);
  }
  p.close("]");
  // `file_upload_name` raises for a task without an upload: DRF skips the field.
  if (typeof t.file_upload === "string" && t.file_upload !== "") p.field("file_upload", d.string(basename(t.file_upload)));
  p.field("drafts");
  p.open("[");
  for (const x of relations.drafts) {
    if (!o.drafts) p.item(String(x.id));
    else draft(p.item(), x, o);
  }
  p.close("]");
  p.field("predictions");
  p.open("[");
  for (const x of relations.predictions) {
    if (!o.predictions) p.item(String(x.id));
    else prediction(p.item(), x, o.now);
  }
  p.close("]");
  p.field("data", dataText(t.data, o.firstDataKey, d))
    .field("meta", jsonbText(orDefault(t.meta, taskDefaults.meta), d))
    .field("created_at", time(t.created_at, d))
    .field("updated_at", time(t.updated_at, d))
    .field("inner_id", String(c.inner_id))
    .field("total_annotations", String(c.total_annotations))
    .field("cancelled_annotations", String(c.cancelled_annotations))
    .field("total_predictions", String(c.total_predictions))
    .field("comment_count", "0")
    .field("unresolved_comment_count", String(orDefault(t.unresolved_comment_count, taskDefaults.unresolved_comment_count)))
    .field("last_comment_updated_at", "null")
    .field("project", String(t.project))
    .field("updated_by", nullable(t.updated_by, d))
    .field("comment_authors", "[]");
  p.close("}");
  return p.out.join("");
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * A version 4 UUID made from an annotation id (the server draws a random one at creation and keeps
 * it): stable across exports of the mock, distinct per annotation.
 */
export function uuidOf(id: number): string {
  let h1 = 0x811c9dc5 ^ id;
  let h2 = 0x01000193 + id;
  const words: number[] = [];
  for (let i = 0; i < 4; i++) {
    h1 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d) ^ i;
    h2 = Math.imul(h2 ^ (h2 >>> 13), 0x297a2d39) + h1;
    words.push((h1 ^ h2) >>> 0);
  }
  const hex = words.map((w) => w.toString(16).padStart(8, "0")).join("");
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
