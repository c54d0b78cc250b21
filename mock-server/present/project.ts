import type { ProjectRecord, UserRecord } from "../../src/contract/records.js";
import { project } from "../../src/contract/index.js";
import { orDefault, type Rendered } from "../../src/contract/field.js";
import { projectDefaults } from "../../src/contract/project.js";
import { render, type RenderContext, type Values } from "../../src/contract/render.js";
import { derivedList } from "../engine.js";
import { configElements, parseConfig, parsedLabelConfig } from "../label-config.js";
import type { Store } from "../store/store.js";
import { ORGANIZATION_ID, presentUserSimple } from "./users.js";

/** `ProjectSerializer.get_config_suitable_for_bulk_annotation`: no region tags, per-item or valued choices. */
const REGION_TAGS = new Set([
  "Labels",
  "Brush",
  "BrushLabels",
  "Ellipse",
  "EllipseLabels",
  "KeyPoint",
  "KeyPointLabels",
  "Polygon",
  "PolygonLabels",
  "Rectangle",
  "RectangleLabels",
  "HyperTextLabels",
  "ParagraphLabels",
  "TimeSeriesLabels",
  "VideoRectangle",
]);
const CHECKED_TAGS = new Set(["Choices", "Taxonomy", "DateTime", "Number", "Rating", "TextArea"]);

function suitableForBulk(config: string): boolean {
  for (const { tag, attrs } of configElements(config)) {
    if (REGION_TAGS.has(tag)) return false;
    if (!CHECKED_TAGS.has(tag)) continue;
    if (attrs["perRegion"]?.toLowerCase() === "true" || attrs["perItem"]?.toLowerCase() === "true") return false;
    if ((tag === "Choices" || tag === "Taxonomy") && attrs["value"] !== undefined) return false;
    if (tag === "Taxonomy" && (attrs["labeling"]?.toLowerCase() === "true" || attrs["apiUrl"] !== undefined)) return false;
  }
  return true;
}

export interface ProjectAnswer {
  /** The caller: `queue_total` / `queue_done` are per user. */
  readonly caller: UserRecord;
  /** False for a create's answer: the new instance was not loaded with `with_counts()`. */
  readonly counts: boolean;
  readonly render?: RenderContext;
}

/** `ProjectSerializer`: stored settings (model defaults for the gaps) and the counters of `with_counts()`. */
export function presentProject(p: ProjectRecord, store: Store, answer: ProjectAnswer): Rendered<typeof project> {
  const dataset = store.dataset(p);
  const derived = derivedList(dataset);
  const live = dataset.annotations.filter((a) => !a.was_cancelled);
  const useful = live.filter((a) => !a.ground_truth && a.result !== null);
  const counter = (n: () => number) => (answer.counts ? n() : null);
  const setting = <K extends keyof typeof projectDefaults & keyof typeof project.fields>(name: K) =>
    orDefault(p[name], projectDefaults[name]) as Values<typeof project>[K];
  const creator = p.created_by === null ? undefined : store.find("users", p.created_by);
  const mine = new Set(dataset.annotations.filter((a) => a.completed_by === answer.caller.id).map((a) => a.task));
  const mineDone = new Set(
    dataset.annotations
      .filter((a) => a.completed_by === answer.caller.id && !(setting("skip_queue") === "REQUEUE_FOR_ME" && a.was_cancelled))
      .map((a) => a.task),
  );
  const minAnnotations = setting("min_annotations_to_start_training");
  return render(
    project,
    {
      id: p.id,
      title: p.title,
      description: p.description,
      label_config: p.label_config,
      expert_instruction: setting("expert_instruction"),
      show_instruction: setting("show_instruction"),
      show_skip_button: p.show_skip_button,
      enable_empty_annotation: setting("enable_empty_annotation"),
      show_annotation_history: setting("show_annotation_history"),
      organization: ORGANIZATION_ID,
      color: setting("color"),
      maximum_annotations: setting("maximum_annotations"),
      is_published: setting("is_published"),
      model_version: p.model_version,
      is_draft: setting("is_draft"),
      created_by: creator ? presentUserSimple(creator) : null,
      created_at: p.created_at,
      min_annotations_to_start_training: minAnnotations,
      start_training_on_annotation_update: minAnnotations !== 0,
      show_collab_predictions: setting("show_collab_predictions"),
      num_tasks_with_annotations: counter(() => new Set(useful.map((a) => a.task)).size),
      task_number: counter(() => derived.length),
      useful_annotation_number: counter(() => useful.length),
      ground_truth_number: counter(() => dataset.annotations.filter((a) => a.ground_truth).length),
      skipped_annotations_number: counter(() => dataset.annotations.length - live.length),
      total_annotations_number: counter(() => live.length),
      total_predictions_number: counter(() => dataset.predictions.length),
      sampling: setting("sampling"),
      show_ground_truth_first: setting("show_ground_truth_first"),
      annotator_evaluation_enabled: setting("annotator_evaluation_enabled"),
      show_overlap_first: setting("show_overlap_first"),
      overlap_cohort_percentage: setting("overlap_cohort_percentage"),
      task_data_login: setting("task_data_login"),
      task_data_password: setting("task_data_password"),
      control_weights: setting("control_weights"),
      parsed_label_config: parsedLabelConfig(p.label_config),
      evaluate_predictions_automatically: setting("evaluate_predictions_automatically"),
      config_has_control_tags: parseConfig(p.label_config).size > 0,
      skip_queue: setting("skip_queue"),
      reveal_preannotations_interactively: setting("reveal_preannotations_interactively"),
      pinned_at: setting("pinned_at"),
      finished_task_number: counter(() => derived.filter((d) => d.is_labeled).length),
      queue_total: derived.filter((d) => (!d.is_labeled && !mine.has(d.id)) || mine.has(d.id)).length,
      queue_done: mineDone.size,
      config_suitable_for_bulk_annotation: suitableForBulk(p.label_config),
      state: null,
    },
    answer.render,
  );
}
