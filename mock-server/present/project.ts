import type { DerivedColumns, ProjectRecord } from "../../src/semantics/records.js";
import { ORGANIZATION_ID, userBrief } from "../routes/users.js";
import type { Store } from "../store/store.js";

/** Project settings the server has and the seed may leave out, with the server's defaults. */
export const projectDefaults = {
  description: "",
  expert_instruction: "",
  show_instruction: false,
  show_skip_button: true,
  enable_empty_annotation: true,
  show_annotation_history: false,
  color: "#FFFFFF",
  maximum_annotations: 1,
  is_published: false,
  is_draft: false,
  min_annotations_to_start_training: 0,
  start_training_on_annotation_update: false,
  show_collab_predictions: true,
  sampling: "Sequential sampling",
  show_overlap_first: false,
  overlap_cohort_percentage: 100,
  task_data_login: null,
  task_data_password: null,
  control_weights: {},
  evaluate_predictions_automatically: false,
  skip_queue: "REQUEUE_FOR_OTHERS",
  reveal_preannotations_interactively: false,
  pinned_at: null,
} as const;

/** Fields a client may write with `POST`/`PATCH /api/projects/` (the rest are computed). */
export const writableProjectFields: ReadonlySet<string> = new Set(["title", "label_config", "model_version", ...Object.keys(projectDefaults)]);

/** `ProjectSerializer` with its counters (computed from the engine's derived columns). */
export function presentProject(project: ProjectRecord, store: Store, derived: readonly DerivedColumns[]): Record<string, unknown> {
  const annotations = store.dataset(project).annotations;
  const finished = derived.filter((d) => d.is_labeled).length;
  const total = derived.reduce((n, d) => n + d.total_annotations, 0);
  const creator = project["created_by"];
  return {
    ...projectDefaults,
    ...project,
    organization: ORGANIZATION_ID,
    created_by: userBrief(typeof creator === "number" ? store.find("users", creator) : store.list("users")[0]),
    created_at: project["created_at"] ?? null,
    num_tasks_with_annotations: derived.filter((d) => d.total_annotations > 0).length,
    task_number: derived.length,
    useful_annotation_number: total,
    ground_truth_number: annotations.filter((a) => a.ground_truth && !a.was_cancelled).length,
    skipped_annotations_number: derived.reduce((n, d) => n + d.cancelled_annotations, 0),
    total_annotations_number: total,
    total_predictions_number: derived.reduce((n, d) => n + d.total_predictions, 0),
    parsed_label_config: {},
    config_has_control_tags: /<(Choices|Labels|RectangleLabels|PolygonLabels|TextArea|Rating|Taxonomy|KeyPointLabels|BrushLabels|Number|DateTime|Ranker|Relations)\b/.test(project.label_config),
    finished_task_number: finished,
    queue_total: derived.length,
    queue_done: finished,
  };
}
