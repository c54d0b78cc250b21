import type { AnnotationRecord, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord } from "../contract/records.js";

export type { AnnotationRecord, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord, UserRecord } from "../contract/records.js";

/** Everything the engine needs to evaluate a query against one project. */
export interface Dataset {
  readonly project: ProjectRecord;
  /** Records of any project may be passed; the engine keeps those of `project` (pipeline step 1). */
  readonly tasks: readonly TaskRecord[];
  readonly annotations: readonly AnnotationRecord[];
  readonly predictions: readonly PredictionRecord[];
  readonly drafts?: readonly DraftRecord[];
}

/** The computed columns the Data Manager list shows for each task (docs/reference/columns.md#task-columns). */
export interface DerivedColumns {
  readonly id: number;
  readonly inner_id: number;
  readonly completed_at: string | null;
  readonly total_annotations: number;
  readonly cancelled_annotations: number;
  readonly total_predictions: number;
  readonly annotators: readonly number[];
  readonly predictions_score: number | null;
  readonly avg_lead_time: number | null;
  readonly draft_exists: boolean;
  readonly file_upload: string | null;
  readonly storage_filename: string | null;
  readonly annotations_ids: string;
  readonly annotations_results: string;
  readonly predictions_results: string;
  readonly predictions_model_versions: string;
  readonly is_labeled: boolean;
}
