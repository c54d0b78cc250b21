import { jsonbKeyOrder } from "../../src/emulation/jsonb.js";
import { pyFloat, type PyValue } from "../../src/emulation/py-dumps.js";
import type { AnnotationRecord, DraftRecord, PredictionRecord, TaskRecord, UserRecord } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { renderDatetime } from "../../src/wire/contract/render.js";
import type { TaskCounters, TaskRelations } from "../engine.js";
import { createdUsername } from "../present/users.js";
import { timeSince } from "../time.js";

/**
 * One task as the export serializer writes it (`BaseExportDataSerializer`, label_studio/data_export/
 * serializers.py; its field order is `exportTask` of the contract, which a test holds this to).
 * Values are Python values (`PyValue`): FloatFields are `PyFloat`s, so a file prints `2.0` where the
 * server does. JSONFields come back from PostgreSQL's jsonb with their keys in jsonb's order, at
 * every level: so do they here.
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

/** DRF's DateTimeField output of a stored timestamp (fast path for the stored form `…SS.ffffffZ`). */
export function drfDatetime(stored: string): string {
  if (stored.length === 27 && stored.charCodeAt(19) === 0x2e && stored.endsWith("Z")) {
    return stored.endsWith(".000000Z") ? `${stored.slice(0, 19)}Z` : stored;
  }
  return renderDatetime(stored);
}

const ordered = new WeakMap<object, PyValue>();

/** A JSONField's value as it comes back from jsonb: object keys shorter first, then bytewise, at every level. */
export function jsonb(value: JsonValue | undefined): PyValue {
  if (value === null || value === undefined || typeof value !== "object") return value ?? null;
  const kept = ordered.get(value);
  if (kept !== undefined) return kept;
  let out: PyValue;
  if (Array.isArray(value)) out = (value as readonly JsonValue[]).map(jsonb);
  else {
    const object = value as { readonly [key: string]: JsonValue };
    const keys = Object.keys(object);
    const sorted = isSorted(keys) ? keys : [...keys].sort(jsonbKeyOrder);
    const copy: Record<string, PyValue> = {};
    for (const key of sorted) copy[key] = jsonb(object[key]);
    out = copy;
  }
  ordered.set(value, out);
  return out;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (jsonbKeyOrder(keys[i - 1] as string, keys[i] as string) > 0) return false;
  return true;
}

/** The task's data with `$undefined$` moved to the config's first data key (which then comes last). */
function taskData(data: TaskRecord["data"], firstKey: string | undefined): PyValue {
  const out = jsonb(data) as { readonly [key: string]: PyValue };
  if (firstKey === undefined || !Object.hasOwn(out, "$undefined$")) return out;
  const moved: Record<string, PyValue> = { ...out };
  moved[firstKey] = moved["$undefined$"] as PyValue;
  delete moved["$undefined$"];
  return moved;
}

/** `CompletedBySerializer`. */
function completedByObject(u: UserRecord): PyValue {
  return { id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name };
}

/**
 * `AnnotationSerializer` of the export app. `unique_id` is a UUID the server draws at creation; a
 * record without one gets a UUID made from its id, the same on every export.
 */
function annotationJson(a: AnnotationRecord, o: TaskJsonOptions): PyValue {
  const author = a.completed_by === null ? undefined : o.completedBy ? o.user(a.completed_by) : undefined;
  return {
    id: a.id,
    completed_by: author ? completedByObject(author) : a.completed_by,
    result: a.result === null ? null : jsonb(a.result as JsonValue),
    was_cancelled: a.was_cancelled,
    ground_truth: a.ground_truth,
    created_at: drfDatetime(a.created_at),
    updated_at: drfDatetime(a.updated_at),
    draft_created_at: a.draft_created_at ? drfDatetime(a.draft_created_at) : null,
    lead_time: pyFloat(a.lead_time),
    prediction: jsonb(a.prediction ?? {}),
    result_count: a.result_count ?? 0,
    unique_id: a.unique_id ?? uuidOf(a.id),
    import_id: a.import_id ?? null,
    last_action: a.last_action ?? null,
    bulk_created: a.bulk_created === undefined ? false : a.bulk_created,
    task: a.task,
    project: a.project,
    updated_by: a.updated_by ?? null,
    parent_prediction: a.parent_prediction ?? null,
    parent_annotation: a.parent_annotation ?? null,
    last_created_by: a.last_created_by ?? null,
  };
}

/** `PredictionSerializer`, as `presentPrediction` renders it, with its floats. */
function predictionJson(p: PredictionRecord, now: number): PyValue {
  return {
    id: p.id,
    result: p.result === null ? null : jsonb(p.result as JsonValue),
    model_version: p.model_version,
    created_ago: timeSince(p.created_at, now),
    score: pyFloat(p.score),
    cluster: p.cluster ?? null,
    neighbors: jsonb(p.neighbors ?? null),
    mislabeling: pyFloat(p.mislabeling ?? 0),
    created_at: drfDatetime(p.created_at),
    updated_at: drfDatetime(p.updated_at ?? p.created_at),
    model: p.model ?? null,
    model_run: p.model_run ?? null,
    task: p.task,
    project: p.project,
  };
}

/** `AnnotationDraftSerializer`: `user` is the author's email (`str(user)`). */
function draftJson(d: DraftRecord, o: TaskJsonOptions): PyValue {
  const author = o.user(d.user);
  return {
    id: d.id,
    user: author?.email ?? "",
    created_username: createdUsername(author),
    created_ago: timeSince(d.created_at, o.now),
    result: d.result === null ? null : jsonb(d.result as JsonValue),
    lead_time: pyFloat(d.lead_time),
    was_postponed: d.was_postponed ?? false,
    import_id: d.import_id ?? null,
    created_at: drfDatetime(d.created_at),
    updated_at: drfDatetime(d.updated_at ?? d.created_at),
    task: d.task,
    annotation: d.annotation ?? null,
  };
}

/** One task of an export file. */
export function taskJson(t: TaskRecord, d: TaskCounters, relations: TaskRelations, o: TaskJsonOptions): PyValue {
  const keep = o.annotations;
  const annotations = keep ? relations.annotations.filter(keep) : relations.annotations;
  const head: Record<string, PyValue> = {
    id: t.id,
    annotations: annotations.map((a) => annotationJson(a, o)),
  };
  // `file_upload_name` raises for a task without an upload: DRF skips the field.
  if (typeof t.file_upload === "string" && t.file_upload !== "") head["file_upload"] = basename(t.file_upload);
  return Object.assign(head, {
    drafts: o.drafts ? relations.drafts.map((x) => draftJson(x, o)) : relations.drafts.map((x) => x.id),
    predictions: o.predictions ? relations.predictions.map((p) => predictionJson(p, o.now)) : relations.predictions.map((p) => p.id),
    data: taskData(t.data, o.firstDataKey),
    meta: jsonb(t.meta ?? {}),
    created_at: drfDatetime(t.created_at),
    updated_at: drfDatetime(t.updated_at),
    inner_id: d.inner_id,
    total_annotations: d.total_annotations,
    cancelled_annotations: d.cancelled_annotations,
    total_predictions: d.total_predictions,
    comment_count: 0,
    unresolved_comment_count: t.unresolved_comment_count ?? 0,
    last_comment_updated_at: null,
    project: t.project,
    updated_by: t.updated_by,
    comment_authors: [],
  });
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
