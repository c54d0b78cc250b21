import { jsonbKeyOrder } from "../../src/emulation/jsonb.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import { columnKinds } from "../../src/vocabulary/column-kinds.js";
import { columns, type ColumnName } from "../../src/vocabulary/columns.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { dataTypes } from "../label-config.js";
import type { Store } from "../store/store.js";

/**
 * `GET /api/dm/columns/`: `get_all_columns` (label_studio/data_manager/functions.py), the Data Manager's
 * column list. First the data keys (the config's, then the other keys the tasks' data holds, as
 * "Unknown"), then the task columns below in this order, then the `data` column holding the data keys.
 * Titles and types come from the vocabulary; the help texts and which columns the UI shows by default
 * (`explore`, `labeling`) are the server's. `annotators` and `updated_by` offer the users to filter by
 * (the organization's: the mock's), `predictions_model_versions` the project's model versions.
 */
const listed = {
  id: { help: "Task ID", explore: true, labeling: false },
  inner_id: { help: "Internal task ID starting from 1 for the current project", explore: false, labeling: false },
  completed_at: { help: "Last annotation date", explore: true, labeling: false },
  total_annotations: { help: "Total annotations per task", explore: true, labeling: true },
  cancelled_annotations: { help: "Total cancelled (skipped) annotations", explore: true, labeling: false },
  total_predictions: { help: "Total predictions per task", explore: true, labeling: false },
  annotators: { help: "All users who completed the task", explore: true, labeling: false },
  annotations_results: { help: "Annotation results stacked over all annotations", explore: false, labeling: false },
  annotations_ids: { help: "Annotation IDs stacked over all annotations", explore: false, labeling: false },
  predictions_score: { help: "Average prediction score over all task predictions", explore: false, labeling: false },
  predictions_model_versions: { help: "Model versions aggregated over all predictions", explore: false, labeling: false },
  predictions_results: { help: "Prediction results stacked over all predictions", explore: false, labeling: false },
  file_upload: { help: "Filename of uploaded file", explore: false, labeling: false },
  storage_filename: { help: "Filename from import storage", explore: false, labeling: false },
  created_at: { help: "Task creation time", explore: false, labeling: false },
  updated_at: { help: "Task update time", explore: false, labeling: false },
  updated_by: { help: "User who did the last task update", explore: false, labeling: false },
  avg_lead_time: { help: "Average lead time over all annotations (seconds)", explore: false, labeling: false },
  draft_exists: { help: "True if at least one draft exists for the task", explore: false, labeling: false },
} as const satisfies Partial<Record<ColumnName, { help: string; explore: boolean; labeling: boolean }>>;

const UNDEFINED_KEY = "$undefined$";
const MEDIA = new Set(["Image", "Audio", "AudioPlus", "Video", "Unknown"]);

export function presentColumns(project: ProjectRecord, store: Store, modelVersions: readonly string[]): { columns: JsonValue[] } {
  const fromConfig = new Map([...dataTypes(project.label_config)].filter(([key]) => !key.includes("[")));
  const types = new Map<string, string>(fromConfig);
  // The summary's all_data_columns is a jsonb object on Postgres: its keys come back in jsonb's order (shorter first).
  const imported = new Set<string>();
  for (const task of store.dataset(project).tasks) for (const key of Object.keys(task.data)) imported.add(key);
  for (const key of [...imported].sort(jsonbKeyOrder)) if (!types.has(key)) types.set(key, "Unknown");
  if (fromConfig.size > 0) types.delete(UNDEFINED_KEY);
  const users = [...store.list("users")].map((u) => u.id).sort((a, b) => a - b);
  const out: JsonValue[] = [...types].map(([key, type]) => ({
    id: key,
    title: key === UNDEFINED_KEY ? "data" : key,
    type: MEDIA.has(type) ? type : "String",
    target: "tasks",
    parent: "data",
    visibility_defaults: { explore: true, labeling: fromConfig.has(key) || key === UNDEFINED_KEY },
    project_defined: true,
  }));
  for (const [id, spec] of Object.entries(listed) as [keyof typeof listed, (typeof listed)[keyof typeof listed]][]) {
    const schema: JsonValue | undefined =
      id === "annotators" || id === "updated_by"
        ? { items: users }
        : id === "predictions_model_versions"
          ? { items: [...modelVersions], multiple: true }
          : undefined;
    out.push({
      id,
      title: columns[id].title,
      type: columnKinds[columns[id].kind].type,
      target: "tasks",
      help: spec.help,
      ...(schema === undefined ? {} : { schema }),
      visibility_defaults: { explore: spec.explore, labeling: spec.labeling },
      project_defined: false,
    });
  }
  out.push({ id: "data", title: "data", type: "List", target: "tasks", children: [...types.keys()], project_defined: false });
  return { columns: out };
}
