import type { ProjectRecord } from "../../src/contract/records.js";
import type { ActionId } from "../../src/vocabulary/actions.js";
import type { Store } from "../store/store.js";
import { parseConfig } from "../label-config.js";

/**
 * `GET /api/dm/actions/{id}/form/` (docs/reference/actions-endpoint.md#forms): the forms the server
 * builds on demand for the actions whose list entry carries `form: null`; every other registered
 * action has none (`[]`).
 */
type Form = { columnCount: number; fields: Record<string, unknown>[] }[];

/** predictions_to_annotations: the project's model versions, its current one first and preselected. */
function modelVersionForm(project: ProjectRecord, store: Store): Form {
  const versions = [
    ...new Set(
      store
        .dataset(project)
        .predictions.map((p) => p.model_version)
        .filter((v) => v !== null),
    ),
  ].sort();
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
  return [
    { columnCount: 1, fields: [{ type: "select", name: "annotator", label: "Annotator", options, placeholder: "All", searchable: true }] },
  ];
}

/** propagate_annotations: the source annotation id, hinting the project's first one. */
function sourceAnnotationForm(project: ProjectRecord, store: Store): Form {
  const first = [...store.dataset(project).annotations].sort((a, b) => a.id - b.id)[0];
  const label = `Enter source annotation ID${first ? ` [first ID: ${first.id}]` : ""}`;
  return [{ columnCount: 1, fields: [{ type: "number", name: "source_annotation_id", label }] }];
}

/** rename_labels: the config's control tags and their labels. */
function renameForm(project: ProjectRecord): Form {
  const tags = parseConfig(project.label_config);
  const labels = [...new Set([...tags.values()].flatMap((t) => t.labels))];
  return [
    {
      columnCount: 1,
      fields: [
        { type: "select", name: "control_tag", label: "Choose a label control tag", options: [...tags.keys()] },
        { type: "select", name: "old_label_name", label: "Old label name", options: labels },
        { type: "input", name: "new_label_name", label: "New label name" },
      ],
    },
  ];
}

/** cache_labels: which control tag (or ALL), counters, source. */
function cacheForm(project: ProjectRecord): Form {
  return [
    {
      columnCount: 1,
      fields: [
        {
          type: "select",
          name: "control_tag",
          label: "Choose a control tag",
          options: ["ALL", ...parseConfig(project.label_config).keys()],
        },
        { type: "input", name: "custom_control_tag", label: "Custom control tag if it's not in label config" },
        { type: "select", name: "with_counters", label: "With counters", options: ["Yes", "No"] },
        { type: "select", name: "source", label: "Source", options: ["Annotations", "Predictions"] },
      ],
    },
  ];
}

const forms: Partial<Record<ActionId, (project: ProjectRecord, store: Store) => Form>> = {
  predictions_to_annotations: modelVersionForm,
  delete_tasks_annotations: annotatorForm,
  propagate_annotations: sourceAnnotationForm,
  rename_labels: renameForm,
  cache_labels: cacheForm,
};

export function actionForm(id: ActionId, project: ProjectRecord, store: Store): Form {
  return forms[id]?.(project, store) ?? [];
}
