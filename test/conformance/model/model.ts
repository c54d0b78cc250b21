/**
 * The in-memory model of one project for the model-based test: plain arrays of records that the
 * commands update by the spec's rules, read by the oracle to predict every list and selection.
 * Server-assigned bookkeeping (ids, clocks, inner ids, updated_by) is taken from the server's
 * answers; everything the Data Manager computes (counters, filters, order) is predicted.
 */
import { expect } from "vitest";
import type { TaskListItem } from "../../../src/client/index.js";
import type { AnnotationRecord as StoredAnnotation } from "../../../src/contract/records.js";
import type { Dataset, PredictionRecord, ProjectRecord, TaskRecord } from "../../../src/semantics/records.js";

/** The model tracks which prediction an annotation came from (predictions_to_annotations converts each once). */
type AnnotationRecord = Dataset["annotations"][number] & Partial<Pick<StoredAnnotation, "parent_prediction">>;
import type { QueryNode } from "../../../src/query/nodes.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import type { Real } from "./fixture.js";

export interface Model {
  readonly project: ProjectRecord;
  tasks: TaskRecord[];
  annotations: AnnotationRecord[];
  predictions: PredictionRecord[];
  /** Project 2: must never change. */
  readonly otherTaskIds: readonly number[];
  views: { readonly id: number; readonly query: QueryNode }[];
}

export const PROJECT = 1;

export function modelOf(dataset: Dataset): Model {
  const mine = <T extends { project: number }>(list: readonly T[]) => list.filter((r) => r.project === PROJECT).map((r) => ({ ...r }));
  const taskIds = new Set(dataset.tasks.filter((t) => t.project === PROJECT).map((t) => t.id));
  return {
    project: dataset.project,
    tasks: mine(dataset.tasks),
    annotations: dataset.annotations.filter((a) => taskIds.has(a.task)).map((a) => ({ ...a })),
    predictions: dataset.predictions.filter((p) => taskIds.has(p.task)).map((p) => ({ ...p })),
    otherTaskIds: dataset.tasks.filter((t) => t.project !== PROJECT).map((t) => t.id),
    views: [],
  };
}

export const datasetOf = (m: Model): Dataset => ({
  project: m.project,
  tasks: m.tasks,
  annotations: m.annotations,
  predictions: m.predictions,
  drafts: [],
});

export const counts = (m: Model, task: number) => ({
  total_annotations: m.annotations.filter((a) => a.task === task && !a.was_cancelled).length,
  cancelled_annotations: m.annotations.filter((a) => a.task === task && a.was_cancelled).length,
  total_predictions: m.predictions.filter((p) => p.task === task).length,
});

/** Every task of a project, in the server's default order, with a page size that holds them all. */
export async function listAll(real: Real, project: number, extra: { fields?: "all" | "task_only"; view?: number; query?: unknown } = {}) {
  return real.client.tasks
    .list({
      project,
      page_size: 10_000,
      fields: extra.fields ?? "task_only",
      ...(extra.view ? { view: extra.view } : {}),
      ...(extra.query ? { query: extra.query as never } : {}),
    })
    .page(1);
}

const userOf = (v: unknown): number | null => {
  if (Array.isArray(v)) return v.length ? userOf(v[0]) : null;
  if (v !== null && typeof v === "object") return ((v as { user_id?: number; id?: number }).user_id ?? (v as { id?: number }).id) as number;
  return typeof v === "number" ? v : null;
};

/**
 * The observable state must agree with the model: the project's task ids in id order, each
 * task's counters, the page totals, the views, and project 2 untouched. Then the model takes the
 * server's clocks, inner ids and updated_by (bookkeeping the spec leaves to the server).
 */
export async function verifyState(m: Model, real: Real): Promise<void> {
  const page = await listAll(real, PROJECT);
  const expectedIds = m.tasks.map((t) => t.id).sort((a, b) => a - b);
  expect(
    page.tasks.map((t) => t.id),
    "task ids of the project, in id order",
  ).toEqual(expectedIds);
  for (const t of page.tasks) {
    const c = counts(m, t.id);
    expect(
      {
        id: t.id,
        total_annotations: t.total_annotations,
        cancelled_annotations: t.cancelled_annotations,
        total_predictions: t.total_predictions,
      },
      `counters of task ${t.id}`,
    ).toEqual({ id: t.id, ...c });
  }
  // A task shown alone is presented from its own records (the store's per-task index), not the project's columns.
  const alone = await Promise.all(page.tasks.map((t) => real.client.tasks.get(t.id)));
  for (const t of alone) {
    const c = counts(m, t.id);
    expect(
      {
        id: t.id,
        total_annotations: t.total_annotations,
        cancelled_annotations: t.cancelled_annotations,
        total_predictions: t.total_predictions,
      },
      `counters of task ${t.id} shown alone`,
    ).toEqual({ id: t.id, ...c });
  }
  expect(page.total, "total").toBe(expectedIds.length);
  expect(page.total_annotations, "total_annotations").toBe(m.annotations.filter((a) => !a.was_cancelled).length);
  expect(page.total_predictions, "total_predictions").toBe(m.predictions.length);
  const views = (await real.client.views.list(PROJECT)).map((v) => v.id).sort((a, b) => a - b);
  expect(views, "views of the project").toEqual(m.views.map((v) => v.id).sort((a, b) => a - b));
  const other = await listAll(real, 2);
  expect(
    other.tasks.map((t) => t.id),
    "project 2 is untouched",
  ).toEqual([...m.otherTaskIds].sort((a, b) => a - b));
  adoptBookkeeping(m, page.tasks);
}

function adoptBookkeeping(m: Model, tasks: readonly TaskListItem[]): void {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  m.tasks = m.tasks.map((t) => {
    const s = byId.get(t.id);
    if (!s) return t;
    return {
      ...t,
      created_at: s.created_at,
      updated_at: s.updated_at,
      updated_by: userOf(s["updated_by"]),
      ...(typeof s.inner_id === "number" ? { inner_id: s.inner_id } : {}),
    };
  });
}

/** Replace the model's records of some tasks with the server's (for actions the spec describes only loosely). */
export async function resync(m: Model, real: Real): Promise<void> {
  const page = await listAll(real, PROJECT, { fields: "all" });
  const tasks: TaskRecord[] = [];
  const annotations: AnnotationRecord[] = [];
  const predictions: PredictionRecord[] = [];
  for (const t of page.tasks) {
    const old = m.tasks.find((x) => x.id === t.id);
    tasks.push({
      ...(old ?? { meta: {}, file_upload: null, storage_filename: null, overlap: 1, unresolved_comment_count: 0 }),
      id: t.id,
      project: PROJECT,
      data: t.data as { [key: string]: JsonValue },
      created_at: t.created_at,
      updated_at: t.updated_at,
      updated_by: userOf(t["updated_by"]),
      storage_filename: (t["storage_filename"] as string | null | undefined) ?? null,
      ...(typeof t.inner_id === "number" ? { inner_id: t.inner_id } : {}),
    } as TaskRecord);
    for (const a of t.annotations ?? []) {
      annotations.push({
        id: a.id,
        task: t.id,
        project: PROJECT,
        result: a.result,
        completed_by: userOf(a.completed_by),
        was_cancelled: a.was_cancelled,
        ground_truth: a.ground_truth,
        lead_time: a.lead_time,
        created_at: a.created_at,
        updated_at: a.updated_at,
        parent_prediction: (a["parent_prediction"] as number | null | undefined) ?? null,
      });
    }
    for (const p of t.predictions ?? []) {
      predictions.push({
        id: p.id,
        task: t.id,
        project: PROJECT,
        result: p.result,
        score: p.score,
        model_version: p.model_version,
        created_at: p.created_at,
      });
    }
  }
  m.tasks = tasks;
  m.annotations = annotations.sort((a, b) => a.id - b.id);
  m.predictions = predictions.sort((a, b) => a.id - b.id);
}
