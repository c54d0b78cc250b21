import type { ProjectRecord } from "../../src/semantics/records.js";
import type { ActionId } from "../../src/vocabulary/actions.js";
import type { Store } from "../store/store.js";

/**
 * `GET /api/dm/actions/{id}/form/` (server-api §1.5): the forms the server builds on demand for the
 * actions whose list entry carries `form: null`; every other registered action has none (`[]`).
 */
type Form = { columnCount: number; fields: Record<string, unknown>[] }[];

/** predictions_to_annotations: the project's model versions, its current one first and preselected. */
function modelVersionForm(project: ProjectRecord, store: Store): Form {
  const versions = [...new Set(store.dataset(project).predictions.map((p) => p.model_version).filter((v) => v !== null))].sort();
  const first = project.model_version;
  const options = first ? [first, ...versions.filter((v) => v !== first)] : versions;
  return [{ columnCount: 1, fields: [{ type: "select", name: "model_version", label: "Choose predictions", options, value: first }] }];
}

/** delete_tasks_annotations: everyone who annotated or drafted in the project. */
function annotatorForm(project: ProjectRecord, store: Store): Form {
  const dataset = store.dataset(project);
  const ids = new Set<number>([
    ...dataset.annotations.flatMap((a) => (a.completed_by === null ? [] : [a.completed_by])),
    ...(dataset.drafts ?? []).map((d) => d.user),
  ]);
  const options = store
    .list("users")
    .filter((u) => ids.has(u.id))
    .map((u) => ({ value: String(u.id), label: `${u.first_name} ${u.last_name}`.trim() || u.username || u.email }));
  return [{ columnCount: 1, fields: [{ type: "select", name: "annotator", label: "Annotator", options, placeholder: "All", searchable: true }] }];
}

const forms: Partial<Record<ActionId, (project: ProjectRecord, store: Store) => Form>> = {
  predictions_to_annotations: modelVersionForm,
  delete_tasks_annotations: annotatorForm,
};

export function actionForm(id: ActionId, project: ProjectRecord, store: Store): Form {
  return forms[id]?.(project, store) ?? [];
}
