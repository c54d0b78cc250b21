/**
 * Per-task facts the filters and orderings read, computed by plain loops over the stored records
 * (docs/reference/columns.md#task-columns). Where the spec leaves a definition open, a fact lists
 * every value it may take (`completedAt`: LS counts only annotations with a result towards
 * "labeled"; the spec does not say, so both readings are kept).
 */
import type { AnnotationRecord, Dataset, PredictionRecord, TaskRecord } from "../../../src/semantics/records.js";
import { timestampMicros } from "./pg.js";

export interface TaskFacts {
  readonly task: TaskRecord;
  /** The task's annotations, by id. */
  readonly annotations: readonly AnnotationRecord[];
  readonly predictions: readonly PredictionRecord[];
  readonly drafts: number;
  readonly totalAnnotations: number;
  readonly cancelledAnnotations: number;
  readonly totalPredictions: number;
  /** created_at of the newest annotation while the task is labeled, else null: every possible value. */
  readonly completedAt: readonly (number | null)[];
  readonly predictionsScore: number | null;
  readonly avgLeadTime: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

const average = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;

function micros(value: string, what: string): number {
  const m = timestampMicros(value);
  if (m === undefined) throw new Error(`oracle: ${what} is not a timestamp: ${JSON.stringify(value)}`);
  return m;
}

/** Facts for every task of the dataset's project (pipeline step 1), by task id. */
export function factsOf(dataset: Dataset): Map<number, TaskFacts> {
  const projectId = dataset.project.id;
  const out = new Map<number, TaskFacts>();
  for (const task of dataset.tasks) {
    if (task.project !== projectId) continue;
    const annotations = dataset.annotations.filter((a) => a.task === task.id).sort((a, b) => a.id - b.id);
    const predictions = dataset.predictions.filter((p) => p.task === task.id);
    const drafts = (dataset.drafts ?? []).filter((d) => d.task === task.id).length;
    const done = annotations.filter((a) => !a.was_cancelled);
    const overlap = task.overlap ?? 1;
    const newest = annotations[annotations.length - 1];
    const newestAt = newest ? micros(newest.created_at, `annotation ${newest.id} created_at`) : null;
    const labeledReadings = new Set([done.length >= overlap, done.filter((a) => a.result !== null).length >= overlap]);
    const completedAt = [...new Set([...labeledReadings].map((labeled) => (labeled ? newestAt : null)))];
    const version = dataset.project.model_version;
    const scored = predictions.filter((p) => version === null || p.model_version === version);
    out.set(task.id, {
      task,
      annotations,
      predictions,
      drafts,
      totalAnnotations: done.length,
      cancelledAnnotations: annotations.length - done.length,
      totalPredictions: predictions.length,
      completedAt,
      predictionsScore: average(scored.flatMap((p) => (p.score === null ? [] : [p.score]))),
      avgLeadTime: average(annotations.flatMap((a) => (a.lead_time === null ? [] : [a.lead_time]))),
      createdAt: micros(task.created_at, `task ${task.id} created_at`),
      updatedAt: micros(task.updated_at, `task ${task.id} updated_at`),
    });
  }
  return out;
}
