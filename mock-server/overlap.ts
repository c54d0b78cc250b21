import type { ProjectRecord } from "../src/contract/records.js";
import { projectDefaults } from "../src/contract/project.js";
import type { Store } from "./store/store.js";

/**
 * How many annotations each task needs to be labeled (`Task.overlap`), as the server keeps it from the project's
 * `maximum_annotations` and `overlap_cohort_percentage` (label_studio/projects/models.py `_update_tasks_states`,
 * `_rearrange_overlap_cohort`). `is_labeled` is then computed from it (completed annotations >= overlap).
 */
export const overlapSetting = (project: ProjectRecord, name: "maximum_annotations" | "overlap_cohort_percentage"): number => {
  // A seed keeps a project's other fields as they are: a setting that is no number reads as the model's default.
  const value = project[name];
  return typeof value === "number" ? value : projectDefaults[name];
};

/** `_rearrange_overlap_cohort`: the cohort's share of tasks (most annotated first) needs `maximum_annotations`, the rest 1. */
export function rearrangeOverlapCohort(store: Store, project: ProjectRecord): void {
  const max = overlapSetting(project, "maximum_annotations");
  const { tasks, annotations } = store.dataset(project);
  const must = Math.trunc((tasks.length * overlapSetting(project, "overlap_cohort_percentage")) / 100 + 0.5);
  const finished = new Map<number, number>();
  const all = new Map<number, number>();
  for (const a of annotations) {
    all.set(a.task, (all.get(a.task) ?? 0) + 1);
    if (!a.was_cancelled && a.result !== null && !a.ground_truth) finished.set(a.task, (finished.get(a.task) ?? 0) + 1);
  }
  const full = tasks.filter((t) => (finished.get(t.id) ?? 0) >= max);
  const rest = tasks
    .filter((t) => (finished.get(t.id) ?? 0) < max)
    .sort((a, b) => (all.get(b.id) ?? 0) - (all.get(a.id) ?? 0) || a.id - b.id);
  const left = Math.max(must - full.length, 0);
  const overlap = new Map<number, number>();
  for (const t of full) overlap.set(t.id, max);
  rest.forEach((t, i) => overlap.set(t.id, i < left ? max : 1));
  for (const t of tasks) if (t.overlap !== overlap.get(t.id)) store.update("tasks", t.id, { overlap: overlap.get(t.id) as number });
}

/** `_update_tasks_states` after a change of the project's settings or of its number of tasks. */
export function updateTasksStates(
  store: Store,
  project: ProjectRecord,
  maxChanged: boolean,
  cohortChanged: boolean,
  tasksChanged: boolean,
): void {
  const max = overlapSetting(project, "maximum_annotations");
  const cohort = overlapSetting(project, "overlap_cohort_percentage");
  const tasks = store.dataset(project).tasks;
  const setAll = (list: typeof tasks, value: number) => {
    for (const t of list) if (t.overlap !== value) store.update("tasks", t.id, { overlap: value });
  };
  if (maxChanged && !cohortChanged) {
    const overlapped = max > 1 ? tasks.filter((t) => t.overlap > 1) : tasks;
    if (overlapped.length > 0) setAll(overlapped, max);
    else if (cohort < 100) rearrangeOverlapCohort(store, project);
    else setAll(tasks, max);
  } else if (cohortChanged) {
    if (max === 1) {
      if (maxChanged) setAll(tasks, 1);
    } else rearrangeOverlapCohort(store, project);
  } else if (tasksChanged && cohort < 100 && max > 1) rearrangeOverlapCohort(store, project);
}
