import type {
  AnnotationRecord as StoredAnnotation,
  DraftRecord as StoredDraft,
  PredictionRecord as StoredPrediction,
  ProjectRecord as StoredProject,
  TaskRecord as StoredTask,
} from "../contract/records.js";
import type { JsonValue } from "../vocabulary/json.js";

/*
 * The engine's view of the store: of each child record, only the fields a query or a computed column
 * reads (the store's records, src/contract/records.ts, carry more and are passed as they are). A
 * field the engine starts reading is added here, and declared in the column's `reads`
 * (src/semantics/columns.ts) so kept evaluations follow writes to it.
 */

/**
 * A project as the engine reads it: its id and the settings a query's answer depends on
 * (`ENGINE_PROJECT_SETTINGS`, src/semantics/dataset.ts); any other field a project has is carried along unread.
 */
export type ProjectRecord = Pick<StoredProject, "id" | "model_version" | "skip_queue"> & {
  readonly [field: string]: JsonValue | undefined;
};

/**
 * A task as the engine reads it. A dataset built by hand may leave out what the store always keeps
 * (`inner_id`, `overlap`, `unresolved_comment_count`): the engine reads the task model's default
 * then, and numbers a task without `inner_id` by its position. `meta` is carried along unread (a
 * task written by hand often has it).
 */
export type TaskRecord = Pick<
  StoredTask,
  "id" | "project" | "data" | "created_at" | "updated_at" | "updated_by" | "file_upload" | "storage_filename"
> &
  Partial<Pick<StoredTask, "inner_id" | "overlap" | "unresolved_comment_count" | "is_labeled" | "total_predictions" | "meta">>;

/** An annotation as the engine reads it. */
export type AnnotationRecord = Pick<
  StoredAnnotation,
  "id" | "task" | "project" | "result" | "completed_by" | "was_cancelled" | "ground_truth" | "lead_time" | "created_at" | "updated_at"
>;

/** A prediction as the engine reads it. */
export type PredictionRecord = Pick<StoredPrediction, "id" | "task" | "project" | "result" | "score" | "model_version" | "created_at">;

/** A draft as the engine reads it (it counts for `draft_exists`). */
export type DraftRecord = Pick<StoredDraft, "id" | "task" | "user" | "created_at">;

/**
 * The records a dataset holds, by kind: the engine's views, or records that have their fields and
 * more (the mock's stored records).
 */
export interface Children {
  readonly project: ProjectRecord;
  readonly task: TaskRecord;
  readonly annotation: AnnotationRecord;
  readonly prediction: PredictionRecord;
  readonly draft: DraftRecord;
}

/** Everything the engine needs to evaluate a query against one project. */
export interface Dataset<C extends Children = Children> {
  readonly project: C["project"];
  /** Records of any project may be passed; the engine keeps those of `project` (pipeline step 1). */
  readonly tasks: readonly C["task"][];
  readonly annotations: readonly C["annotation"][];
  readonly predictions: readonly C["prediction"][];
  readonly drafts?: readonly C["draft"][];
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
