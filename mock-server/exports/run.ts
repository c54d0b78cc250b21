import { createHash } from "node:crypto";
import {
  loadsKeepingFloats,
  pythonJson,
  ujsonAsciiString,
  ujsonCompact,
  type Dialect,
  type PyValue,
} from "../../src/emulation/py-dumps.js";
import type { AnnotationRecord, ProjectRecord } from "../../src/contract/records.js";
import type { StoredDataset as Dataset } from "../store/store.js";
import { countersOf, relationsIndex, select, type TaskRelations } from "../engine.js";
import type { MockContext } from "../http.js";
import { dataTypes, parseConfig } from "../label-config.js";
import { viewQuery } from "../prepare.js";
import type { PyObject, Schema } from "./convert/items.js";
import { taskText, type TaskJsonOptions } from "./task-json.js";

/**
 * What an export writes: which tasks, with which of their annotations, drafts and predictions, in
 * which order, as which text (label_studio/data_export/mixins.py `ExportMixin`, models.py
 * `DataExport`, api.py `ExportAPI`).
 */

/** `TaskFilterOptionsSerializer`'s validated data. */
export interface TaskFilter {
  readonly view?: number;
  readonly skipped?: "only" | "exclude" | null;
  readonly finished?: "only" | "exclude" | null;
  readonly annotated?: "only" | "exclude" | null;
  readonly only_with_annotations?: boolean;
}

/** `AnnotationFilterOptionsSerializer`'s validated data. */
export interface AnnotationFilter {
  readonly usual?: boolean | null;
  readonly ground_truth?: boolean | null;
  readonly skipped?: boolean | null;
}

/** `SerializationOptionsSerializer`'s validated data (the three options that change the file). */
export interface Serialization {
  readonly drafts?: { readonly only_id: boolean };
  readonly predictions?: { readonly only_id: boolean };
  readonly annotations__completed_by?: { readonly only_id: boolean };
}

export const schemaOf = (project: ProjectRecord): Schema => parseConfig(project.label_config);

const hasAnnotation = (r: TaskRelations | undefined, cancelled: boolean) =>
  r?.annotations.some((a) => a.was_cancelled === cancelled) ?? false;

/**
 * `_get_filtered_tasks`: a view of the project (its filters and selection; a view of another project
 * or none is ignored), then each `only`/`exclude` option in turn. Ascending ids.
 */
export function filteredIds(ctx: MockContext, dataset: Dataset, filter: TaskFilter | null): number[] {
  let ids = dataset.tasks.map((t) => t.id).sort((a, b) => a - b);
  if (!filter) return ids;
  const relations = relationsIndex(dataset);
  const counters = countersOf(dataset);
  if (filter.view !== undefined) {
    const view = ctx.store.find("views", filter.view);
    if (view && view.project === dataset.project.id) {
      const inView = new Set(select(ctx, dataset, viewQuery(ctx, view), false).ids);
      ids = ids.filter((id) => inView.has(id));
    }
  }
  const keep = (value: "only" | "exclude" | null | undefined, test: (id: number) => boolean) => {
    if (value === "only") ids = ids.filter(test);
    else if (value === "exclude") ids = ids.filter((id) => !test(id));
  };
  keep(filter.skipped, (id) => hasAnnotation(relations.get(id), true));
  keep(filter.finished, (id) => counters(id)?.is_labeled === true);
  keep(filter.annotated, (id) => hasAnnotation(relations.get(id), false));
  return ids;
}

/** `_get_filtered_annotations_queryset`: any of the chosen kinds (none chosen: every annotation). */
export function annotationFilter(filter: AnnotationFilter | null): ((a: AnnotationRecord) => boolean) | undefined {
  if (!filter) return undefined;
  const kinds: ((a: AnnotationRecord) => boolean)[] = [];
  if (filter.usual) kinds.push((a) => !a.was_cancelled && !a.ground_truth);
  if (filter.ground_truth) kinds.push((a) => a.ground_truth);
  if (filter.skipped) kinds.push((a) => a.was_cancelled);
  if (kinds.length === 0) return undefined;
  return (a) => kinds.some((k) => k(a));
}

export interface Exported {
  readonly text: string;
  /** How many tasks the file holds. */
  readonly count: number;
  /** The tasks as the converter reads the file back (parsed on first use). */
  tasks(): readonly PyObject[];
}

function exported(text: string, count: number): Exported {
  let tasks: readonly PyObject[] | undefined;
  return { text, count, tasks: () => (tasks ??= loadsKeepingFloats(text) as readonly PyObject[]) };
}

/** What every export of a project needs to write its tasks. */
function taskOptions(ctx: MockContext, project: ProjectRecord, now: number, o: Partial<TaskJsonOptions>): TaskJsonOptions {
  return {
    drafts: false,
    predictions: false,
    completedBy: false,
    firstDataKey: dataTypes(project.label_config).keys().next().value,
    user: (id) => ctx.store.find("users", id),
    now,
    ...o,
  };
}

/** The tasks' texts in the dialect, joined as a list is (`[` … `]`). */
function write(dataset: Dataset, ids: readonly number[], options: TaskJsonOptions, onlyWithAnnotations: boolean, d: Dialect): Exported {
  const relations = relationsIndex(dataset);
  const counters = countersOf(dataset);
  const byId = new Map(dataset.tasks.map((t) => [t.id, t] as const));
  const empty: TaskRelations = { annotations: [], predictions: [], drafts: [] };
  const parts: string[] = [];
  for (const id of ids) {
    const task = byId.get(id);
    const c = counters(id);
    if (!task || !c) continue;
    const own = relations.get(id) ?? empty;
    if (onlyWithAnnotations && !own.annotations.some((a) => !options.annotations || options.annotations(a))) continue;
    parts.push(taskText(task, c, own, options, d));
  }
  return exported(parts.length === 0 ? "[]" : `[${parts.join(d.item)}]`, parts.length);
}

/**
 * A snapshot's file (`export_to_file`): the filtered tasks by ascending id (the server's queries ask
 * for no order; PostgreSQL's varies, see docs/reference/exports.md), written by the standard
 * library's JSON encoder. The counters count the tasks written.
 */
export function snapshotFile(
  ctx: MockContext,
  dataset: Dataset,
  options: { task: TaskFilter | null; annotation: AnnotationFilter | null; serialization: Serialization | null; now: number },
): Exported {
  const ids = filteredIds(ctx, dataset, options.task);
  const s = options.serialization;
  const expand = (o: { readonly only_id: boolean } | undefined) => o !== undefined && !o.only_id;
  const taskOpts = taskOptions(ctx, dataset.project, options.now, {
    drafts: expand(s?.drafts),
    predictions: expand(s?.predictions),
    completedBy: expand(s?.annotations__completed_by),
    annotations: annotationFilter(options.annotation),
  });
  return write(dataset, ids, taskOpts, options.task?.only_with_annotations === true, pythonJson);
}

/**
 * The one-step export's tasks (`ExportAPI.get`): the ids asked for (`ids[]`), only tasks with an
 * annotation unless `download_all_tasks`; drafts expanded; ascending ids (the query asks for no
 * order: PostgreSQL's physical one, which is this until tasks are updated). Written by ujson.
 */
export function oneStepFile(
  ctx: MockContext,
  dataset: Dataset,
  options: { ids: readonly number[] | undefined; all: boolean; now: number },
): Exported {
  let ids = dataset.tasks.map((t) => t.id).sort((a, b) => a - b);
  if (options.ids && options.ids.length > 0) {
    const wanted = new Set(options.ids);
    ids = ids.filter((id) => wanted.has(id));
  }
  if (!options.all) {
    const relations = relationsIndex(dataset);
    ids = ids.filter((id) => (relations.get(id)?.annotations.length ?? 0) > 0);
  }
  return write(dataset, ids, taskOptions(ctx, dataset.project, options.now, { drafts: true }), false, ujsonCompact);
}

export const md5 = (text: string): string => createHash("md5").update(text, "utf8").digest("hex");

/** `generate_export_file`'s name: `md5(json.dumps(data))`, the text dumped once more by ujson as a string. */
export function oneStepMd5(text: string): string {
  return md5(ujsonAsciiString(text));
}

/** `now.strftime('%Y-%m-%d-%H-%M')` (the server runs in UTC). */
export function minuteStamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)}-${iso.slice(11, 13)}-${iso.slice(14, 16)}`;
}

/** `get_default_title`: the project's title with spaces as dashes, and the minute. */
export function defaultTitle(project: ProjectRecord, ms: number): string {
  return `${(project.title ?? "").replaceAll(" ", "-")}-at-${minuteStamp(ms)}`;
}

export type { PyValue };
