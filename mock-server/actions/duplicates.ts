import type { JsonValue } from "../../src/vocabulary/json.js";
import { deriver } from "../engine.js";
import { pythonException } from "../errors.js";
import { ok } from "../http.js";
import { deleteTasksOf } from "./delete.js";
import type { ActionEffect } from "./types.js";

/**
 * `remove_duplicates` (data_manager/actions/remove_duplicates.py): selected tasks with the same
 * `data` form a group; annotations of later duplicates move to the first annotated task, a lone
 * storage link is shared, and every unannotated duplicate but one is deleted. A task counts as
 * annotated by its counters (total_annotations + cancelled_annotations); a duplicate the counters
 * call unannotated that still has annotations makes the server fail with a 500 after the moves, as
 * here. Then every task's counters and is_labeled are recomputed.
 */

/** jsonb equality: key order does not matter. */
function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, JsonValue>)[k] as JsonValue)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

interface Entry {
  readonly id: number;
  total: number;
}

export const removeDuplicates: ActionEffect = ({ ctx, project, ids }) => {
  const store = ctx.store;
  const derived = deriver(store.dataset(project));
  const groups = new Map<string, Entry[]>();
  for (const id of ids) {
    const task = store.find("tasks", id);
    if (!task) continue;
    const key = canonical(task.data as JsonValue);
    const group = groups.get(key) ?? [];
    // The server reads the stored counters: total_annotations + cancelled_annotations.
    const d = derived(id);
    group.push({ id, total: (d?.total_annotations ?? 0) + (d?.cancelled_annotations ?? 0) });
    groups.set(key, group);
  }
  const duplicates = [...groups.values()].filter((g) => g.length > 1);

  for (const group of duplicates) {
    const linked = group.map((e) => store.find("tasks", e.id)?.storage_filename ?? null).filter((s) => s !== null);
    if (linked.length === 1) {
      for (const e of group) store.update("tasks", e.id, { storage_filename: linked[0] as string });
    }
  }

  for (const group of duplicates) {
    let first = group.findIndex((e) => e.total > 0);
    if (first < 0) first = group.length - 1;
    const target = group[first] as Entry;
    for (const e of group.slice(first + 1)) {
      if (e.total === 0) continue;
      for (const a of store.list("annotations").filter((x) => x.task === e.id)) {
        store.update("annotations", a.id, { task: target.id });
      }
      e.total = 0;
    }
  }

  const removing: number[] = [];
  for (const group of duplicates) {
    let saved = group.some((e) => e.total > 0);
    for (const e of group) {
      if (e.total > 0) continue;
      if (!saved) saved = true;
      else removing.push(e.id);
    }
  }
  const annotated = new Set(store.list("annotations").map((a) => a.task));
  const deletable = removing.filter((id) => !annotated.has(id));
  if (deletable.length !== removing.length) {
    throw pythonException(
      "Exception",
      `Remove duplicates failed, operation is not finished: queryset count ${deletable.length} != removing ${removing.length}. ` +
        "It means that some of duplicated tasks have been annotated twice or more.",
    );
  }
  deleteTasksOf(store, project.id, new Set(removing));
  // _update_tasks_counters_and_task_states(project.tasks.all(), …, from_scratch=True).
  store.recomputeCounters(store.list("tasks").flatMap((t) => (t.project === project.id ? [t.id] : [])));
  return ok({});
};
