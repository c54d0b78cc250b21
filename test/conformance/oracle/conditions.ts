/**
 * One filter condition against every task of the project, in the order the server handles it
 * (docs/reference/filters.md#steps-within-a-line): user-filter validation, in_list validation, the
 * special columns, unknown columns, then the generic path. A condition yields an expression
 * (per-task verdicts, plus the row test of a positive join — those share one row inside a line), or
 * tells the line what to do: skip the line, drop itself, end the whole query with no tasks, or
 * answer an error.
 */
import type { JsonValue } from "../../../src/vocabulary/json.js";
import {
  enterpriseColumns,
  inListColumns,
  isAgreementColumn,
  legacyUserOperators,
  plainColumns,
  resultColumns,
  userEmptyFields,
  userFields,
} from "./columns.js";
import { genericCondition } from "./generic.js";
import type { PossibleError } from "./outcome.js";
import { pyFloat } from "./pg.js";
import type { OCondition } from "./query.js";
import { annotationIds, modelVersions, resultFilter, userFilter } from "./special.js";
import { contradiction, err, expr, unclear, type Ctx, type Step } from "./steps.js";

export type { Ctx, Expr, JoinPart, Step } from "./steps.js";
export { dataPath, dataValue, joinHolds, rowsOf } from "./steps.js";

/**
 * `_normalize_in_list_value` (docs/reference/filters.md#in_list-and-not_in_list): trimmed, unquoted,
 * deduplicated; Number casts and drops.
 */
function normalizeInList(values: readonly JsonValue[], type: string): JsonValue[] | "unhashable" {
  const out: JsonValue[] = [];
  const key = (v: JsonValue) => (typeof v === "boolean" ? `n:${Number(v)}` : typeof v === "number" ? `n:${v}` : `s:${String(v)}`);
  const seen = new Set<string>();
  for (let el of values) {
    if (typeof el === "string") {
      let s = el.trim();
      if (s.length >= 2 && ((s[0] === '"' && s.endsWith('"')) || (s[0] === "'" && s.endsWith("'")))) s = s.slice(1, -1).trim();
      if (!s) continue;
      el = s;
    }
    if (type === "Number") {
      const f = pyFloat(el);
      if (typeof f !== "number") continue;
      el = f;
    } else if (el !== null && typeof el === "object") {
      return "unhashable";
    }
    const k = key(el);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(el);
  }
  return out;
}

/**
 * The columns the Data Manager annotates (DATA_MANAGER_ANNOTATIONS_MAP), with the alias each adds,
 * and the operators their special handlers take before the generic path.
 */
const annotatedColumns: Readonly<Record<string, { alias: string; special: readonly string[] }>> = {
  avg_lead_time: { alias: "avg_lead_time", special: [] },
  completed_at: { alias: "completed_at", special: [] },
  annotations_results: { alias: "annotations_results", special: ["equal", "not_equal", "contains", "not_contains", "empty"] },
  predictions_results: { alias: "predictions_results", special: ["equal", "not_equal", "contains", "not_contains", "empty"] },
  predictions_model_versions: { alias: "predictions_model_versions", special: ["contains", "not_contains", "empty"] },
  predictions_score: { alias: "predictions_score", special: [] },
  annotators: { alias: "annotators", special: ["contains", "not_contains", "empty"] },
  file_upload: { alias: "file_upload_field", special: [] },
  draft_exists: { alias: "draft_exists", special: [] },
  storage_filename: { alias: "storage_filename", special: [] },
};

/**
 * `child`: the condition is a child filter, and these are the columns the queryset annotated (the
 * root filters' and the first ordering key's): a child on another annotated column that reaches the
 * generic path names a field the queryset does not have.
 */
export function evalCondition(c: OCondition, ctx: Ctx, child?: { readonly annotated: ReadonlySet<string> }): Step {
  const { column, operator: op, type } = c;
  let v = c.value;
  const isData = column.startsWith("data.");
  const annotation = Object.hasOwn(annotatedColumns, column) ? annotatedColumns[column] : undefined;
  const unannotated =
    child !== undefined && annotation !== undefined && !child.annotated.has(column) && !annotation.special.includes(op)
      ? annotation.alias
      : undefined;

  if (isAgreementColumn(column)) return { kind: "dropped" };

  if (userFields.has(column)) {
    if (Array.isArray(v)) {
      if (op !== "contains" && op !== "not_contains")
        return err(400, "List-valued user filters support only these operators: contains, not_contains.");
    } else if (
      !(op === "contains" || op === "not_contains" || (op === "empty" && userEmptyFields.has(column)) || legacyUserOperators.has(op))
    ) {
      return err(400, `User filter "${column}" does not support operator "${op}"`);
    }
  }

  if (op === "in_list" || op === "not_in_list") {
    if (!inListColumns.has(column) && !isData)
      return err(400, "`is any of` / `is none of` support Task ID, Inner ID, annotation/prediction counters, and task.data.* fields.");
    if (!Array.isArray(v)) return err(400, "Filter value must be a list for `is any of` / `is none of`.");
    const list = normalizeInList(v as readonly JsonValue[], type);
    if (list === "unhashable") return err(500, "an in_list element is a list or object (unhashable)");
    if (list.length === 0) return op === "in_list" ? contradiction(ctx) : { kind: "dropped" };
    v = list;
  }

  if (column === "annotators" || column === "updated_by") {
    const step = userFilter({ ...c, value: v }, ctx);
    if (step) return step;
  }
  if (unannotated !== undefined) {
    const error: PossibleError = {
      status: 500,
      reason: `Cannot resolve keyword '${unannotated}' into field (a child filter's column is not annotated)`,
    };
    if (ctx.facts.size > 0) return { kind: "error", error };
    return expr(ctx, () => "either", { deferred: error });
  }
  if (column === "comment_authors") {
    // Task.comment_authors: a relation no community task has rows in (the generic path).
    if (op === "contains" || op === "not_contains")
      return expr(ctx, () => false, { deferred: { status: 500, reason: "Unsupported lookup 'icontains' for ForeignKey" } });
    if (op === "empty") {
      const b = v === true || v === "true" ? true : v === false || v === "false" ? false : undefined;
      if (b === undefined) return unclear(ctx, `comment_authors empty ${JSON.stringify(v)}`);
      return expr(ctx, () => b);
    }
    if (op === "equal") return expr(ctx, () => false);
    if (op === "not_equal") return expr(ctx, () => true);
  }
  if (resultColumns.has(column)) return resultFilter({ ...c, value: v }, ctx);
  if (column === "annotations_ids") return annotationIds({ ...c, value: v }, ctx);
  if (column === "predictions_model_versions") return modelVersions({ ...c, value: v }, ctx);
  if (column === "state") return unclear(ctx, "the feature-flagged state column");
  if (!isData && !Object.hasOwn(plainColumns, column)) {
    const error: PossibleError = {
      status: 500,
      reason: `Cannot resolve keyword '${column}' into field${enterpriseColumns.has(column) ? " (Enterprise column)" : ""}`,
    };
    // `values_list(field)` raises at once when the project has tasks; `reviewed` has a known value
    // type and skips it, and an empty project skips it too: then `.filter()` raises at the end.
    if (column !== "reviewed" && ctx.facts.size > 0) return { kind: "error", error };
    return expr(ctx, () => "either", { deferred: error });
  }
  if (column === "predictions_score" && ctx.facts.size === 0) {
    // LS source (annotate_predictions_score): no first task, no annotation, so `.filter()` cannot
    // resolve the name. Not in the spec; the project has no tasks to answer with anyway.
    ctx.notes.push("predictions_score on a project without tasks (a FieldError in LS)");
    return expr(ctx, () => false, {
      deferred: { status: 500, reason: "Cannot resolve keyword 'predictions_score' (no tasks to annotate)" },
    });
  }

  return genericCondition({ ...c, value: v }, ctx);
}
