import type { Explanation, Outcome, TaskTrace } from "../../src/semantics/explain.js";
import type { Dataset, DerivedColumns, TaskRecord } from "../../src/semantics/records.js";
import { h } from "./dom.js";

/**
 * The task table (matching tasks first, in the engine's order, each marked with its position in
 * words as well as colour) and the "why" panel for one task, drawn from the engine's trace.
 */
interface Column {
  readonly label: string;
  readonly get: (task: TaskRecord, derived: DerivedColumns) => unknown;
}

/** The data keys of the project's tasks, first seen first. */
export function dataKeysOf(dataset: Dataset): string[] {
  const keys = new Set<string>();
  for (const t of dataset.tasks) if (t.project === dataset.project.id) for (const k of Object.keys(t.data)) keys.add(`data.${k}`);
  return [...keys];
}

const derivedColumns = [
  "completed_at",
  "total_annotations",
  "cancelled_annotations",
  "total_predictions",
  "annotators",
  "predictions_score",
  "avg_lead_time",
  "predictions_model_versions",
  "annotations_results",
] as const satisfies readonly (keyof DerivedColumns)[];

function columnsOf(dataKeys: readonly string[]): Column[] {
  return [
    { label: "inner_id", get: (_t, d) => d.inner_id },
    ...dataKeys.map((k): Column => ({ label: k, get: (t) => (Object.hasOwn(t.data, k.slice(5)) ? t.data[k.slice(5)] : undefined) })),
    { label: "created_at", get: (t) => t.created_at },
    ...derivedColumns.map((c): Column => ({ label: c, get: (_t, d) => d[c] })),
    { label: "updated_by", get: (t) => t.updated_by },
  ];
}

function cell(value: unknown): HTMLElement {
  if (value === undefined) return h("td", { class: "null" }, "(missing)");
  if (value === null) return h("td", { class: "null" }, "NULL");
  const text = Array.isArray(value) ? `[${value.join(", ")}]` : typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > 48 ? h("td", { title: text }, `${text.slice(0, 47)}…`) : h("td", {}, text);
}

export function renderTasks(
  table: HTMLTableElement,
  dataset: Dataset,
  derived: ReadonlyMap<number, DerivedColumns>,
  ids: readonly number[] | undefined,
  onWhy: (id: number) => void,
): void {
  const columns = columnsOf(dataKeysOf(dataset));
  const position = new Map((ids ?? []).map((id, k) => [id, k + 1] as const));
  const tasks = dataset.tasks.filter((t) => t.project === dataset.project.id);
  const byId = new Map(tasks.map((t) => [t.id, t] as const));
  const ordered = [
    ...(ids ?? []).map((id) => byId.get(id) as TaskRecord),
    ...tasks.filter((t) => !position.has(t.id)).sort((a, b) => a.id - b.id),
  ];
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, "Selected"),
    h("th", { scope: "col" }, "id"),
    h("th", { scope: "col" }, "Why"),
    columns.map((c) => h("th", { scope: "col" }, c.label)),
  );
  const rows = ordered.map((task) => {
    const at = position.get(task.id);
    const d = derived.get(task.id) as DerivedColumns;
    return h(
      "tr",
      { "data-task-id": task.id, "data-match": at, class: at === undefined ? "miss" : "match" },
      h("td", { class: "mark" }, at === undefined ? h("span", { "aria-label": "not selected" }, "—") : `✓ #${at}`),
      h("th", { scope: "row" }, String(task.id)),
      h(
        "td",
        {},
        h("button", { type: "button", class: "why", "data-why": task.id, onclick: () => onWhy(task.id) }, `Why task ${task.id}?`),
      ),
      columns.map((c) => cell(c.get(task, d))),
    );
  });
  table.replaceChildren(
    h(
      "caption",
      {},
      ids === undefined
        ? "Tasks (no result: see above)"
        : `Tasks: the ${ids.length} selected first, in order (✓ #n), then the others by id`,
    ),
    h("thead", {}, head),
    h("tbody", {}, rows),
  );
}

const mark = (o: Outcome) => (o === true ? "✓ true" : o === false ? "✗ false" : o === "dropped" ? "∅ dropped" : "⚠ refused");
const state = (o: Outcome) => (o === true ? "true" : o === false ? "false" : String(o));

export function renderWhy(panel: HTMLElement, explanation: Explanation | undefined, id: number | undefined): void {
  if (id === undefined) {
    panel.replaceChildren(
      h("h2", { id: "why-h", tabindex: -1 }, "Why?"),
      h("p", { class: "hint" }, "Press a task's “Why” button to see each condition's value for it."),
    );
    return;
  }
  if (!explanation) {
    panel.replaceChildren(
      h("h2", { id: "why-h", tabindex: -1 }, `Why task ${id}?`),
      h("p", {}, "There is no result to explain: the query is refused (see the result above)."),
    );
    return;
  }
  let trace: TaskTrace;
  try {
    trace = explanation.why(id);
  } catch {
    panel.replaceChildren(
      h("h2", { id: "why-h", tabindex: -1 }, `Why task ${id}?`),
      h("p", {}, `Task ${id} is not a task of this project.`),
    );
    return;
  }
  const verdict = trace.selected ? `selected (#${(trace.position ?? 0) + 1})` : "not selected";
  panel.replaceChildren(
    h("h2", { id: "why-h", tabindex: -1 }, `Why task ${id} is ${verdict}`),
    h(
      "ol",
      { class: "steps" },
      trace.steps.map((s) => h("li", {}, s)),
    ),
    h(
      "ol",
      { class: "why-lines", "aria-label": "Each line and its conditions" },
      trace.lines.map((line, k) =>
        h(
          "li",
          { "data-outcome": state(line.outcome) },
          h("strong", {}, `Line ${k + 1}: ${mark(line.outcome)}`),
          h(
            "ul",
            {},
            line.conditions.map((c) =>
              h(
                "li",
                { "data-outcome": state(c.outcome), "data-path": c.path },
                h("span", { class: "mark" }, mark(c.outcome)),
                " ",
                h("code", {}, c.text),
              ),
            ),
          ),
          line.note && h("p", { class: "note" }, line.note),
        ),
      ),
    ),
  );
}
