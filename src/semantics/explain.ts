import { match } from "ts-pattern";
import type { ConditionNode, QueryNode } from "../query/nodes.js";
import { isOperatorName, operators } from "../vocabulary/operators.js";
import { invalidRegex } from "./read-query.js";
import { ANNOTATION_AUTHOR_TRAVERSAL, engineColumn, type Scalar } from "./columns.js";
import { PreparedDataset } from "./dataset.js";
import { EvaluationError } from "./errors.js";
import { evaluate, type EvaluateOptions, type Evaluation } from "./evaluate.js";
import { compileFilters, type FilterSet } from "./filters.js";
import { jsonbText } from "../emulation/jsonb.js";
import { Pending } from "./pieces.js";
import type { Dataset } from "./records.js";
import { scalarText, targetOf } from "./targets.js";

/**
 * Why a task is (or is not) selected, built from the engine itself: each condition, each line and
 * the whole filter set are compiled by `compileFilters` exactly as `evaluate` compiles them, then
 * tested on one task. Nothing here restates a filter's meaning; it only reports the engine's answers
 * next to the value each condition reads.
 */

/** `true`/`false`; "dropped": nothing to test (a line that drops out); "error": the server refuses it. */
export type Outcome = boolean | "dropped" | "error";

/** One condition of a line, for one task: what the server read and whether it held. */
export interface ConditionTrace {
  /** Where the condition is in the body, e.g. `filters.items[0].child_filters[1]`. */
  readonly path: string;
  readonly column: string;
  readonly operator: string;
  readonly type: string;
  readonly value: ConditionNode["value"];
  /** The task's value as this condition reads it, e.g. `NULL`, `"alpha"`, `[1, 3]`. */
  readonly reads: string;
  /** The condition alone, on this task. */
  readonly outcome: Outcome;
  /** e.g. `completed_at = NULL → "greater" is false (a NULL never satisfies a comparison)`. */
  readonly text: string;
}

/** One filter line, for one task: its conditions and its verdict. */
export interface LineTrace {
  /** `filters.items[i]`: the root condition and its children, AND-ed. */
  readonly path: string;
  readonly outcome: Outcome;
  readonly conditions: readonly ConditionTrace[];
  /** Set when the line's outcome is not the AND of its conditions' outcomes. */
  readonly note?: string;
}

/** Why one task is (or is not) selected: each line, then the selection step, then its position. */
export interface TaskTrace {
  readonly id: number;
  /** The filter set's verdict on the task (true without filters). */
  readonly passesFilters: boolean;
  /** Is the task in `ids`? */
  readonly selected: boolean;
  /** 0-based position in `ids`, when selected. */
  readonly position: number | undefined;
  readonly lines: readonly LineTrace[];
  /** The verdict in words, one step per line: filters, selectedItems, ordering. */
  readonly steps: readonly string[];
}

/** What `explain` answers: the evaluation, and for any task why it is or is not selected. */
export interface Explanation extends Evaluation {
  /** A rule that emptied the whole answer (an uncompilable regex, a results value that is not JSON). */
  readonly emptied: string | undefined;
  /** The trace of one task of the project. */
  why(id: number): TaskTrace;
}

/**
 * Evaluate like `evaluate` (same result, same errors) and keep what is needed to explain each
 * task's outcome. Throws EvaluationError where the server answers 400 or 500.
 */
export function explain(dataset: Dataset | PreparedDataset, query: QueryNode, options: EvaluateOptions = {}): Explanation {
  const ds = dataset instanceof PreparedDataset ? dataset : new PreparedDataset(dataset);
  const evaluation = evaluate(ds, query, options);
  const filters = query.filters;
  const whole = filters ? compileFilters(ds, filters, new Pending()) : ({ k: "all" } as const);
  const emptied = whole.k === "none" ? emptiedBy(query) : undefined;

  const lines = (filters?.items ?? []).map((root, r) => {
    const path = `filters.items[${r}]`;
    const conditions = [root, ...root.children].map((node, c) => ({
      node,
      path: c === 0 ? path : `${path}.child_filters[${c - 1}]`,
      set: compileAlone(ds, filters?.conjunction ?? "and", { ...node, children: [] }),
    }));
    return { path, set: compileAlone(ds, filters?.conjunction ?? "and", root), conditions };
  });
  const positions = new Map(evaluation.ids.map((id, k) => [id, k] as const));

  return Object.freeze({
    ...evaluation,
    emptied,
    why(id: number): TaskTrace {
      const i = ds.indexOf(id);
      if (i === undefined) throw new RangeError(`why(${id}): task ${id} is not a task of project ${ds.project.id}`);
      const lineTraces = lines.map((line): LineTrace => {
        const conditions = line.conditions.map(({ node, path, set }): ConditionTrace => {
          const reads = readsOf(ds, i, node);
          const outcome = outcomeOf(set, i);
          return {
            path,
            column: node.column,
            operator: node.operator,
            type: node.type,
            value: node.value,
            reads,
            outcome,
            text: conditionText(node, reads, outcome),
          };
        });
        const outcome = outcomeOf(line.set, i);
        const note = lineNote(outcome, conditions);
        return note === undefined ? { path: line.path, outcome, conditions } : { path: line.path, outcome, conditions, note };
      });
      const passesFilters = whole.k === "all" || (whole.k === "test" && whole.test(i));
      const position = positions.get(id);
      return {
        id,
        passesFilters,
        selected: position !== undefined,
        position,
        lines: lineTraces,
        steps: steps(query, id, passesFilters, position, lineTraces, emptied),
      };
    },
  });
}

/** One condition or one line, compiled on its own as the engine compiles a filter set. */
function compileAlone(ds: PreparedDataset, conjunction: "and" | "or", item: ConditionNode): FilterSet | EvaluationError {
  try {
    return compileFilters(ds, { conjunction, items: [item] }, new Pending());
  } catch (error) {
    if (error instanceof EvaluationError) return error;
    throw error;
  }
}

function outcomeOf(set: FilterSet | EvaluationError, i: number): Outcome {
  if (set instanceof EvaluationError) return "error";
  return match(set)
    .returnType<Outcome>()
    .with({ k: "all" }, () => "dropped")
    .with({ k: "none" }, () => false)
    .with({ k: "test" }, (t) => t.test(i))
    .exhaustive();
}

function emptiedBy(query: QueryNode): string {
  const regex = invalidRegex(query);
  if (regex) {
    const { pattern, path, error } = regex;
    return `the regex ${JSON.stringify(pattern)} at ${path} does not compile in Python (${error}): the server returns no task`;
  }
  return "an annotations_results / predictions_results equal value that is not JSON text: the server returns no task";
}

// ---------------------------------------------------------------------------------------------
// What a condition reads

const render = (v: Scalar | null | undefined): string =>
  v === null || v === undefined ? "NULL" : typeof v === "string" ? JSON.stringify(v) : String(v);

/** The task's value as the condition's target reads it (SQL NULL as `NULL`, JSON as jsonb prints it). */
export function readsOf(ds: PreparedDataset, i: number, node: Pick<ConditionNode, "column" | "type">): string {
  const { column, type } = node;
  if (column === ANNOTATION_AUTHOR_TRAVERSAL) {
    const authors = (ds.annotations[i] ?? []).map((a) => render(a.completed_by));
    return authors.length ? `one row per annotation: ${authors.join(", ")}` : "NULL (no annotation)";
  }
  if (column.startsWith("data.")) {
    const json = targetOf(ds, column, "String");
    const raw = json?.t === "json" ? json.get(i) : undefined;
    const text = raw === undefined ? "NULL (no such key)" : jsonbText(raw);
    if (type !== "Number") return text;
    const cast = targetOf(ds, column, "Number");
    const number = cast?.t === "dataNumber" ? cast.get(i) : null;
    return raw === undefined || typeof raw === "number" ? text : `${text}, cast to float: ${render(number)}`;
  }
  const col = engineColumn(column);
  if (col === undefined) return "no such column on a community server";
  const get = col.read(ds);
  if (col.db !== "array") {
    const v = get(i) as Scalar | null;
    return col.db === "text" ? render(v) : (scalarText(col, v) ?? "NULL");
  }
  const rows = column.startsWith("predictions_") ? ds.predictions[i] : ds.annotations[i];
  if (!rows?.length) return `NULL (no ${column.startsWith("predictions_") ? "prediction" : "annotation"})`;
  const elements = (get(i) as readonly unknown[]).map((e) =>
    e === null ? "NULL" : col.element === "json" ? jsonbText(e as never) : render(e as Scalar),
  );
  return `[${elements.join(", ")}]`;
}

function conditionText(node: ConditionNode, reads: string, outcome: Outcome): string {
  const verdict =
    outcome === "dropped" ? "drops out (nothing to test)" : outcome === "error" ? "is refused by the server" : `is ${outcome}`;
  const negated = isOperatorName(node.operator) ? operators[node.operator].negated : node.operator.startsWith("not_");
  const hint =
    outcome === false && reads.startsWith("NULL") && node.operator !== "empty"
      ? negated
        ? " (a negated condition never matches NULL)"
        : " (NULL satisfies no comparison)"
      : "";
  return `${node.column} = ${reads} → "${node.operator}" ${verdict}${hint}`;
}

function lineNote(outcome: Outcome, conditions: readonly ConditionTrace[]): string | undefined {
  const tested = conditions.filter((c) => c.outcome !== "dropped");
  if (outcome === false && tested.length > 1 && tested.every((c) => c.outcome === true)) {
    return "each condition holds on its own, but not on the same annotation or prediction: one line is one join";
  }
  if (outcome === "dropped") return "nothing left to test: the line drops out (it does not match everything, it is not there)";
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The verdict in words

function steps(
  query: QueryNode,
  id: number,
  passes: boolean,
  position: number | undefined,
  lines: readonly LineTrace[],
  emptied: string | undefined,
): string[] {
  const out: string[] = [];
  const filters = query.filters;
  if (emptied) out.push(`filters: ${emptied}`);
  else if (!filters || filters.items.length === 0) out.push("filters: none, every task passes");
  else {
    const verdicts = lines.map(
      (l, k) => `line ${k + 1} ${l.outcome === "dropped" ? "dropped" : l.outcome === "error" ? "refused" : l.outcome}`,
    );
    const live = lines.filter((l) => l.outcome !== "dropped");
    const all = live.length === 0 ? " (every line dropped out: no constraint)" : "";
    out.push(`filters (${filters.conjunction}): ${verdicts.join(", ")}${all} → ${passes ? "passes" : "filtered out"}`);
  }
  if (!passes) return out;
  const selected = query.selectedItems;
  if (selected?.all === true && selected.excluded.includes(id)) out.push("selectedItems: excluded by id → not selected");
  else if (selected?.all === false && selected.included.length > 0 && !selected.included.includes(id)) {
    out.push("selectedItems: not among the included ids → not selected");
  } else if (selected?.all === false && selected.included.length === 0)
    out.push("selectedItems: included is empty, which selects every task");
  if (position !== undefined) {
    const key = query.ordering?.[0];
    const by = key ? `${key.descending ? "-" : ""}${key.column}, ties by id` : "id";
    out.push(`selected: #${position + 1} in the order by ${by}`);
  }
  return out;
}
