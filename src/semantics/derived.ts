import type { JsonValue } from "../vocabulary/json.js";
import { computed, PreparedDataset } from "./dataset.js";
import { jsonbCompare } from "../emulation/jsonb.js";
import { prettyResults } from "./pretty-results.js";
import { moveRows } from "./rows.js";
import type { AnnotationRecord, Dataset, DerivedColumns, PredictionRecord, TaskRecord } from "./records.js";

/*
 * The computed columns as the Data Manager list shows them (DataManagerTaskSerializer,
 * docs/reference/resources.md#tasks): counters and averages as numbers, the aggregates as the
 * serializer's text.
 */

/** `os.path.basename` of the stored upload path. */
function basename(path: string | null): string | null {
  if (!path) return null;
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

/** ArrayAgg(result, distinct=True): distinct jsonb values in jsonb order (SQL NULLs dropped by the serializer). */
function distinctResults(results: readonly (readonly JsonValue[] | null)[]): JsonValue[] {
  const present = results.filter((r): r is readonly JsonValue[] => r !== null) as JsonValue[];
  present.sort(jsonbCompare);
  return present.filter((r, i) => i === 0 || jsonbCompare(present[i - 1] as JsonValue, r) !== 0);
}

/** `_pretty_results(..., unique=True)` of ids: distinct, ascending (CPython's set order for small ints). */
function uniqueIds(ids: readonly number[]): string {
  return prettyResults([...new Set(ids)].sort((a, b) => a - b));
}

/** `_pretty_results(..., unique=True)` of model versions: distinct (first seen first; Python's set order is arbitrary). */
function uniqueVersions(versions: readonly (string | null)[]): string {
  return prettyResults([...new Set(versions.filter((v): v is string => v !== null))]);
}

/** A task's computed columns, built on first use and kept with the dataset (pages are shown again). */
export function derivedAt(ds: PreparedDataset, i: number): DerivedColumns {
  const cache = ds.memo(
    "derived",
    () => new Array<DerivedColumns | undefined>(ds.size),
    (rows, p) => {
      moveRows(rows, p, undefined);
      for (const k of p.changed) rows[k] = undefined;
      return rows;
    },
  );
  return (cache[i] ??= buildDerived(ds, i));
}

function buildDerived(ds: PreparedDataset, i: number): DerivedColumns {
  const c = computed(ds);
  const task = ds.tasks[i] as TaskRecord;
  const anns = ds.annotations[i] as readonly AnnotationRecord[];
  const preds = ds.predictions[i] as readonly PredictionRecord[];
  const nan = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? null : x);
  const annotators = [...new Set(anns.map((a) => a.completed_by).filter((u): u is number => u !== null))].sort((a, b) => a - b);
  return Object.freeze({
    id: task.id,
    inner_id: c.innerId[i] as number,
    completed_at: c.completedAtText[i] ?? null,
    total_annotations: c.totalAnnotations[i] as number,
    cancelled_annotations: c.cancelledAnnotations[i] as number,
    total_predictions: c.totalPredictions[i] as number,
    annotators: Object.freeze(annotators),
    predictions_score: nan(c.predictionsScore[i]),
    avg_lead_time: nan(c.avgLeadTime[i]),
    draft_exists: ds.draftExists[i] === 1,
    file_upload: basename(task.file_upload),
    storage_filename: task.storage_filename,
    annotations_ids: uniqueIds(anns.map((a) => a.id)),
    annotations_results: prettyResults(distinctResults(anns.map((a) => a.result))),
    predictions_results: prettyResults(distinctResults(preds.map((p) => p.result))),
    predictions_model_versions: uniqueVersions(preds.map((p) => p.model_version)),
    is_labeled: c.isLabeled[i] === 1,
  });
}

/**
 * Every task's computed columns, as the Data Manager list shows them, by task id in id order.
 * Only the tasks of `dataset.project` are included.
 */
export function deriveColumns(dataset: Dataset | PreparedDataset): ReadonlyMap<number, DerivedColumns> {
  const ds = dataset instanceof PreparedDataset ? dataset : new PreparedDataset(dataset);
  const out = new Map<number, DerivedColumns>();
  for (let i = 0; i < ds.size; i++) out.set((ds.tasks[i] as TaskRecord).id, derivedAt(ds, i));
  return out;
}
