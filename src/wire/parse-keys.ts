import { actions, isActionId } from "../vocabulary/actions.js";
import { nearest } from "../vocabulary/nearest.js";
import { keyPath } from "./parse-cursor.js";
import type { Report } from "./parse-report.js";

/**
 * The top-level keys of a body, against the keys the server reads where the body is sent
 * (docs/reference/request.md#what-the-server-reads-and-what-it-ignores): any other key is
 * ignored without a word, and a misspelt `filters` or a `query` wrapper then selects every task.
 */

/** Where an inline body goes: the task list's `query` parameter, or an action's request body. */
export type ParseEndpoint = "tasks" | "actions";

/** Read by both endpoints: `get_prepare_params` reads the three, `apply_ordering` the display types. */
const SELECTION_KEYS = ["filters", "ordering", "selectedItems", "columnsDisplayType"] as const;

/**
 * What each endpoint reads besides the selection (data_manager/functions.py get_prepare_params,
 * data_manager/managers.py get_fields_for_evaluation): the task list its shown columns from
 * `hiddenColumns`; an action the `view` of its body (`int_from_request(request.data, 'view')`),
 * which the task list reads from its URL only.
 */
export const endpointKeys: { readonly [E in ParseEndpoint]: readonly string[] } = {
  tasks: [...SELECTION_KEYS, "hiddenColumns"],
  actions: [...SELECTION_KEYS, "view"],
};

/** Keys people put in a body that the server reads elsewhere, with where. */
const readElsewhere: Readonly<Record<string, string>> = {
  project: "the server reads from the URL (?project=) only",
  id: "the server reads from the URL (?id=) only: the action's id",
};

const TASKS_VIEW = "the task list reads from its URL (?view=) only, not from the query parameter";

/** What the server does without a key the misspelt one stands for. */
const without: Readonly<Record<string, string>> = {
  filters: "so the server applies no filter",
  selectedItems: "so the server takes every filtered task",
  ordering: "so the server keeps its default order",
};

/** The fields an action's body carries next to the selection; `"any"` for an action the vocabulary does not know. */
export function actionFields(id: string): readonly string[] | "any" {
  return isActionId(id) ? Object.keys(actions[id].params) : "any";
}

export interface KeyOptions {
  readonly context: "inline" | "view";
  readonly endpoint: ParseEndpoint | undefined;
  /** More keys the request reads (an action's fields); `"any"`: unknown, so only near misses are reported. */
  readonly fields: readonly string[] | "any";
}

/**
 * Reports every top-level key the server does not read, as "ignored": a near miss of a key it
 * reads ("did you mean filters?"), the `query` wrapper of the task list's URL parameter, a key it
 * reads from the URL instead. A saved view's data holds the web UI's own keys (title, columns…),
 * which the server stores as given, so there only near misses and the wrapper are reported; so
 * also for an action whose fields are not known.
 */
export function checkKeys(body: Readonly<Record<string, unknown>>, report: Report, options: KeyOptions): void {
  const view = options.context === "view";
  const known: readonly string[] = view
    ? [...SELECTION_KEYS, "hiddenColumns"]
    : options.endpoint
      ? endpointKeys[options.endpoint]
      : [...new Set([...endpointKeys.tasks, ...endpointKeys.actions])];
  const fields = options.fields === "any" ? [] : options.fields;
  const onlyNearMisses = view || options.fields === "any";
  const readHere = [...known, ...fields];
  const list = known.join(", ");
  const expected = `a key the server reads ${view ? "in a view's data" : "here"} (${list}${fields.length ? `, or the action's ${fields.join(", ")}` : ""})`;
  for (const key of Object.keys(body)) {
    if (readHere.includes(key)) continue;
    const path = keyPath("", key);
    if (key === "query") {
      const what = typeof body[key] === "string" ? "a JSON string" : "an object";
      report.soft(
        path,
        "ignored",
        `the selection's keys (${SELECTION_KEYS.slice(0, 3).join(", ")}) at the top level, not under "query" (the name of the ` +
          "task list's URL parameter that holds this very object)",
        `a "query" wrapper (${what}) around the selection: the server reads nothing under it and selects every task`,
        "text",
      );
      continue;
    }
    const near = nearest(key, readHere);
    const elsewhere = view ? undefined : (readElsewhere[key] ?? (key === "view" && options.endpoint === "tasks" ? TASKS_VIEW : undefined));
    // A view's UI keys (title, columnsWidth…) and an unknown action's fields: only a near miss is a finding.
    if (onlyNearMisses && near === undefined && elsewhere === undefined) continue;
    const consequence = near !== undefined && without[near] ? `, ${without[near]}` : "";
    const found =
      elsewhere !== undefined
        ? `"${key}", which ${elsewhere}`
        : `an unknown key "${key}"${near === undefined ? "" : ` (did you mean ${near}?)`}${consequence}`;
    report.soft(path, "ignored", expected, found, "text");
  }
}
