import type { AnnotationRecord, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord } from "./records.js";

/**
 * A write to one record of a project, as `PreparedDataset.apply` takes it: the record before (undefined:
 * it did not exist) and after (undefined: it is gone). Records that do not belong to the dataset's
 * project are ignored, so a store may hand every change to every dataset it keeps.
 */
export type RecordChange =
  | { readonly kind: "tasks"; readonly before: TaskRecord | undefined; readonly after: TaskRecord | undefined }
  | { readonly kind: "annotations"; readonly before: AnnotationRecord | undefined; readonly after: AnnotationRecord | undefined }
  | { readonly kind: "predictions"; readonly before: PredictionRecord | undefined; readonly after: PredictionRecord | undefined }
  | { readonly kind: "drafts"; readonly before: DraftRecord | undefined; readonly after: DraftRecord | undefined }
  | { readonly kind: "projects"; readonly after: ProjectRecord };

/**
 * What an evaluation reads, and what a write changes, in one vocabulary: `task.<field>` (a stored task
 * field), `data.<key>` (a top-level key of the task's data), the task's `annotations`, `predictions` or
 * `drafts`, the `project`'s settings the engine reads (ENGINE_PROJECT_SETTINGS), or `*` (anything).
 */
export type Read = "annotations" | "predictions" | "drafts" | "project" | "*" | `task.${string}` | `data.${string}`;

/** What `PreparedDataset.apply` tells its watchers (kept evaluations and answers decide from it whether they still hold). */
export interface DatasetPatch {
  /** The dataset's version after the write. */
  readonly version: number;
  /** Ids of the tasks the write touched: came in, left, changed, or whose related records changed. */
  readonly tasks: ReadonlySet<number>;
  /** Tasks came in or left: the set of rows (and which one is first) changed. */
  readonly reshaped: boolean;
  /** What the write changed in the rows that stayed. */
  readonly reads: ReadonlySet<Read>;
}

/** Can a write change what something that reads `reads` computed? */
export function affects(reads: ReadonlySet<Read>, patch: DatasetPatch): boolean {
  if (patch.reshaped || reads.has("*")) return true;
  for (const r of patch.reads) if (reads.has(r)) return true;
  return false;
}

/**
 * The task fields and data keys an update changed (`task.<field>`, `data.<key>`), compared by identity:
 * records are replaced on write, never edited, so an unchanged field is the same value.
 */
export function changedReads(before: TaskRecord, after: TaskRecord, into: Set<Read>): void {
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = (before as unknown as Record<string, unknown>)[key],
      b = (after as unknown as Record<string, unknown>)[key];
    if (a === b) continue;
    if (key !== "data" || !isObject(a) || !isObject(b)) {
      into.add(`task.${key}`);
      if (key === "data") into.add("*");
      continue;
    }
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== b[k]) into.add(`data.${k}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
