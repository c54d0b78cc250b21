/**
 * What evaluating one condition yields (an expression, or what the line must do), and the helpers
 * the condition modules share.
 */
import type { AnnotationRecord, PredictionRecord, ProjectRecord } from "../../../src/semantics/records.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import type { TaskFacts } from "./facts.js";
import type { PossibleError, Tri } from "./outcome.js";
import type { OCondition } from "./query.js";

export interface Ctx {
  readonly facts: ReadonlyMap<number, TaskFacts>;
  readonly project: ProjectRecord;
  /** Notes on every open point met, printed with a failure. */
  readonly notes: string[];
}

export type Row = AnnotationRecord | PredictionRecord;
export interface JoinPart {
  readonly relation: "annotations" | "predictions";
  readonly row: (r: Row) => boolean;
  /** What the LEFT JOIN's NULL row gives when the task has no rows. */
  readonly noRow: boolean;
}

export interface Expr {
  /** Verdicts of the part that is not a shared-row join (all true when the condition is only a join). */
  readonly verdict: ReadonlyMap<number, Tri>;
  readonly join?: JoinPart;
  /** Errors that may (not must) be raised. */
  readonly maybe: readonly PossibleError[];
  /** Errors raised when the query runs, not while it is built (a failing cast): certain ones. */
  readonly atRun?: readonly PossibleError[];
  /** An error Django raises when the lines are applied with `.filter()`, after every line is built. */
  readonly deferred?: PossibleError;
}

export type Step =
  | { readonly kind: "expr"; readonly expr: Expr }
  | { readonly kind: "skipLine" }
  | { readonly kind: "dropped" }
  | { readonly kind: "exit" }
  | { readonly kind: "error"; readonly error: PossibleError; readonly maybe?: readonly PossibleError[] };

export const err = (status: 400 | 500, reason: string): Step => ({ kind: "error", error: { status, reason } });

export function verdicts(ctx: Ctx, f: (t: TaskFacts) => Tri): Map<number, Tri> {
  const out = new Map<number, Tri>();
  for (const [id, t] of ctx.facts) out.set(id, f(t));
  return out;
}
export const expr = (ctx: Ctx, f: (t: TaskFacts) => Tri, extra: Partial<Omit<Expr, "verdict">> = {}): Step => ({
  kind: "expr",
  expr: { verdict: verdicts(ctx, f), maybe: [], ...extra },
});
export const contradiction = (ctx: Ctx): Step => expr(ctx, () => false);
export function unclear(ctx: Ctx, why: string): Step {
  ctx.notes.push(`unspecified: ${why}`);
  return expr(ctx, () => "either", {
    maybe: [
      { status: 400, reason: `unspecified: ${why}` },
      { status: 500, reason: `unspecified: ${why}` },
    ],
  });
}
export const join = (ctx: Ctx, part: JoinPart, f: (t: TaskFacts) => Tri = () => true): Step => expr(ctx, f, { join: part });

export const rowsOf = (t: TaskFacts, relation: JoinPart["relation"]): readonly Row[] =>
  relation === "annotations" ? t.annotations : t.predictions;
export const joinHolds = (t: TaskFacts, part: JoinPart): boolean => {
  const rows = rowsOf(t, part.relation);
  return rows.length === 0 ? part.noRow : rows.some(part.row);
};

/** Python truthiness of a JSON value. */
export const truthy = (v: JsonValue): boolean =>
  v === null ? false : Array.isArray(v) ? v.length > 0 : typeof v === "object" ? Object.keys(v).length > 0 : Boolean(v);

/** Python `str()` of a filter value, when it is certain. */
export function pyStr(v: JsonValue): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isInteger(v)) return String(v);
  return undefined;
}

/** `data.<key>` → the JSON path Django follows (`__` separates nested keys). */
export function dataPath(column: string): readonly string[] | undefined {
  const key = column.slice("data.".length);
  if (key.length === 0 || key.includes("data.")) return undefined;
  return key.split("__");
}
/** The value at a data path: undefined when missing, "unclear" when Django would index differently. */
export function dataValue(t: TaskFacts, path: readonly string[]): JsonValue | undefined | "unclear" {
  let cur: JsonValue | undefined = t.task.data as JsonValue;
  for (const [i, part] of path.entries()) {
    if (cur === undefined || cur === null || typeof cur !== "object") return undefined;
    const intLike = /^-?\d+$/.test(part);
    if (Array.isArray(cur)) {
      if (!intLike) return undefined;
      cur = (cur as readonly JsonValue[])[Number(part)];
    } else {
      if (intLike && i > 0) return "unclear"; // Django turns an integer key into an array index
      cur = Object.hasOwn(cur, part) ? (cur as Record<string, JsonValue>)[part] : undefined;
    }
  }
  return cur;
}

/** Python types `values_list(field)[0]` may return (the first row is the database's choice). */
export function firstRowTypes(ctx: Ctx, read: (t: TaskFacts) => string): Set<string> {
  const types = new Set<string>();
  for (const t of ctx.facts.values()) types.add(read(t));
  return types;
}

export const isRange = (v: JsonValue): v is { readonly min: JsonValue; readonly max: JsonValue } =>
  v !== null && typeof v === "object" && !Array.isArray(v) && "min" in v && "max" in v;

/** `'equal' in operator` on a column whose first row holds a list: 400 "Not supported filter type". */
export function listEqualCheck(c: OCondition, ctx: Ctx, types: Set<string>): { certain: boolean; maybe: PossibleError[] } {
  if (!c.operator.includes("equal") || ctx.facts.size === 0 || !(types.has("list") || types.has("tuple"))) {
    return { certain: false, maybe: [] };
  }
  const error: PossibleError = { status: 400, reason: `Not supported filter type (${c.column} holds a list in some row)` };
  return { certain: [...types].every((t) => t === "list" || t === "tuple"), maybe: [error] };
}
