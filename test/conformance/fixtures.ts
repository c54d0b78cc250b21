/** Small hand-written datasets for the oracle's own tests and the pinned cases. */
import type { AnnotationRecord, Dataset, PredictionRecord, TaskRecord } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";

const T0 = "2024-01-01T00:00:00.000000Z";

export function task(id: number, data: Record<string, JsonValue> = {}, extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    project: 1,
    data,
    meta: {},
    created_at: T0,
    updated_at: T0,
    updated_by: null,
    file_upload: null,
    storage_filename: null,
    inner_id: id,
    ...extra,
  };
}

let nextId = 1000;
export function annotation(taskId: number, extra: Partial<AnnotationRecord> = {}): AnnotationRecord {
  return {
    id: nextId++,
    task: taskId,
    project: 1,
    result: [{ value: { choices: ["A"] } }],
    completed_by: 1,
    was_cancelled: false,
    ground_truth: false,
    lead_time: 1,
    created_at: T0,
    updated_at: T0,
    ...extra,
  };
}

export function prediction(taskId: number, extra: Partial<PredictionRecord> = {}): PredictionRecord {
  return { id: nextId++, task: taskId, project: 1, result: [], score: 0.5, model_version: "v1", created_at: T0, ...extra };
}

export function dataset(
  tasks: readonly TaskRecord[],
  annotations: readonly AnnotationRecord[] = [],
  predictions: readonly PredictionRecord[] = [],
  modelVersion: string | null = null,
): Dataset {
  return {
    project: { id: 1, title: "P", label_config: "<View></View>", model_version: modelVersion },
    tasks,
    annotations,
    predictions,
    drafts: [],
  };
}
