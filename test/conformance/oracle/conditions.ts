/**
 * One filter condition against every task of the project, in the order the server handles it
 * (server-semantics §3.4–§3.9). A condition yields an expression (per-task verdicts, plus the
 * annotation/prediction row test when it is a positive join — those share one row inside a line),
 * or tells the line what to do: skip the line, drop itself, end the whole query with no tasks, or
 * answer an error.
 */
import type { AnnotationRecord, PredictionRecord, ProjectRecord } from "../../../src/semantics/records.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import {
  counterColumns,
  enterpriseColumns,
  inListColumns,
  isAgreementColumn,
  legacyUserOperators,
  plainColumns,
  resultColumns,
  userEmptyFields,
  userFields,
  type PlainKind,
} from "./columns.js";
import type { TaskFacts } from "./facts.js";
import { agree, type PossibleError, type Tri } from "./outcome.js";
import {
  castBool,
  dialectDiffers,
  icontains,
  jsonbEqual,
  jsonbText,
  keyText,
  pgFloat,
  pyFloat,
  pyTypeName,
  regexSearch,
  strptimeMicros,
} from "./pg.js";
import type { OCondition } from "./query.js";

export interface Ctx {
  readonly facts: ReadonlyMap<number, TaskFacts>;
  readonly project: ProjectRecord;
  /** Notes on every open point met, printed with a failure. */
  readonly notes: string[];
}

type Row = AnnotationRecord | PredictionRecord;
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

const err = (status: 400 | 500, reason: string): Step => ({ kind: "error", error: { status, reason } });

function verdicts(ctx: Ctx, f: (t: TaskFacts) => Tri): Map<number, Tri> {
  const out = new Map<number, Tri>();
  for (const [id, t] of ctx.facts) out.set(id, f(t));
  return out;
}
const expr = (ctx: Ctx, f: (t: TaskFacts) => Tri, extra: Partial<Omit<Expr, "verdict">> = {}): Step => ({
  kind: "expr",
  expr: { verdict: verdicts(ctx, f), maybe: [], ...extra },
});
const contradiction = (ctx: Ctx): Step => expr(ctx, () => false);
function unclear(ctx: Ctx, why: string): Step {
  ctx.notes.push(`unspecified: ${why}`);
  return expr(ctx, () => "either", {
    maybe: [
      { status: 400, reason: `unspecified: ${why}` },
      { status: 500, reason: `unspecified: ${why}` },
    ],
  });
}
const join = (ctx: Ctx, part: JoinPart, f: (t: TaskFacts) => Tri = () => true): Step =>
  expr(ctx, f, { join: part });

export const rowsOf = (t: TaskFacts, relation: JoinPart["relation"]): readonly Row[] =>
  relation === "annotations" ? t.annotations : t.predictions;
export const joinHolds = (t: TaskFacts, part: JoinPart): boolean => {
  const rows = rowsOf(t, part.relation);
  return rows.length === 0 ? part.noRow : rows.some(part.row);
};

/** Python truthiness of a JSON value. */
const truthy = (v: JsonValue): boolean =>
  v === null ? false : Array.isArray(v) ? v.length > 0 : typeof v === "object" ? Object.keys(v).length > 0 : Boolean(v);

/** Python `str()` of a filter value, when it is certain. */
function pyStr(v: JsonValue): string | undefined {
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
function firstRowTypes(ctx: Ctx, read: (t: TaskFacts) => string): Set<string> {
  const types = new Set<string>();
  for (const t of ctx.facts.values()) types.add(read(t));
  return types;
}

/** `_normalize_in_list_value` (§3.9): trimmed, unquoted, deduplicated; Number casts and drops. */
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

/** Integer ids of a user filter (§3.8.1), or the 400 it raises. */
function userIds(v: JsonValue): number[] | "invalid" | "unclear" {
  const raw = Array.isArray(v) ? (v as readonly JsonValue[]) : [v];
  if (raw.length > 5000) return "invalid";
  const ids: number[] = [];
  for (const item of raw) {
    let id: number;
    if (typeof item === "number") {
      if (!Number.isInteger(item)) return "invalid";
      id = item;
    } else if (typeof item === "string") {
      if (/^\s*[+-]?\d+\s*$/.test(item)) id = Number(item.trim());
      else if (/_/.test(item)) return "unclear";
      else return "invalid";
    } else return "invalid";
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** `_annotation_id`: an exact integer, or undefined. */
function annotationId(v: JsonValue): number | undefined | "unclear" {
  if (typeof v === "boolean") return undefined;
  if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
  const s = (typeof v === "string" ? v : v === null ? "None" : JSON.stringify(v)).trim();
  if (/_/.test(s)) return "unclear";
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : Number.isFinite(n) && Number.isInteger(n) ? "unclear" : undefined;
}

function annotationIds(c: OCondition, ctx: Ctx): Step {
  const { operator: op, value: v } = c;
  const byId = (test: (id: number) => boolean): JoinPart => ({ relation: "annotations", row: (r) => test(r.id), noRow: false });
  const noneOf = (test: (id: number) => boolean) => expr(ctx, (t) => !t.annotations.some((a) => test(a.id)));
  if (op === "contains" || op === "not_contains") {
    const raw: JsonValue[] = Array.isArray(v) ? [...(v as readonly JsonValue[])] : (typeof v === "string" ? v : String(v)).split(/[,;\s]+/);
    const ids: number[] = [];
    let invalid = false;
    for (const r of raw) {
      if ((typeof r === "string" ? r : String(r)).trim() === "") continue;
      const id = annotationId(r);
      if (id === "unclear") return unclear(ctx, `annotation id ${JSON.stringify(r)}`);
      if (id === undefined) invalid = true;
      else ids.push(id);
    }
    if (ids.length === 0 || (op === "not_contains" && invalid)) return contradiction(ctx);
    return op === "contains" ? join(ctx, byId((id) => ids.includes(id))) : noneOf((id) => ids.includes(id));
  }
  if (op === "empty") {
    const b = castBool(v);
    if (b === "error") return contradiction(ctx);
    if (typeof b !== "boolean") return unclear(ctx, `annotations_ids empty with ${JSON.stringify(v)}`);
    return join(ctx, { relation: "annotations", row: () => !b, noRow: b });
  }
  if (op === "in" || op === "not_in") {
    if (!isRange(v)) return contradiction(ctx);
    const lo = annotationId(v.min), hi = annotationId(v.max);
    if (lo === "unclear" || hi === "unclear") return unclear(ctx, "annotation id range");
    if (lo === undefined || hi === undefined) return contradiction(ctx);
    const inRange = (id: number) => id >= lo && id <= hi;
    return op === "in" ? join(ctx, byId(inRange)) : noneOf(inRange);
  }
  const id = annotationId(v);
  if (id === "unclear") return unclear(ctx, `annotation id ${JSON.stringify(v)}`);
  if (id === undefined) return contradiction(ctx);
  const tests: Record<string, (x: number) => boolean> = {
    equal: (x) => x === id,
    less: (x) => x < id,
    greater: (x) => x > id,
    less_or_equal: (x) => x <= id,
    greater_or_equal: (x) => x >= id,
  };
  if (op === "not_equal") return noneOf((x) => x === id);
  const test = tests[op];
  return test ? join(ctx, byId(test)) : contradiction(ctx);
}

const isRange = (v: JsonValue): v is { readonly min: JsonValue; readonly max: JsonValue } =>
  v !== null && typeof v === "object" && !Array.isArray(v) && "min" in v && "max" in v;

/** `'equal' in operator` on a column whose first row holds a list: 400 "Not supported filter type". */
function listEqualCheck(c: OCondition, ctx: Ctx, types: Set<string>): { certain: boolean; maybe: PossibleError[] } {
  if (!c.operator.includes("equal") || ctx.facts.size === 0 || !(types.has("list") || types.has("tuple"))) {
    return { certain: false, maybe: [] };
  }
  const error: PossibleError = { status: 400, reason: `Not supported filter type (${c.column} holds a list in some row)` };
  return { certain: [...types].every((t) => t === "list" || t === "tuple"), maybe: [error] };
}

function userFilter(c: OCondition, ctx: Ctx): Step | undefined {
  const { column, operator: op, value: v } = c;
  const annotators = column === "annotators";
  if (op === "empty") {
    const b = castBool(v);
    if (b === "error") return err(500, `empty on ${column}: ${JSON.stringify(v)} is not a boolean string`);
    if (typeof b !== "boolean") return err(500, `isnull lookup needs True or False, got ${JSON.stringify(v)}`);
    if (annotators) return join(ctx, { relation: "annotations", row: (r) => ((r as AnnotationRecord).completed_by === null) === b, noRow: b });
    return expr(ctx, (t) => (t.task.updated_by === null) === b);
  }
  const ids = userIds(v);
  if (ids === "invalid") return err(400, "User filter values must be integer ids.");
  if (ids === "unclear") return unclear(ctx, `user id ${JSON.stringify(v)}`);
  if (ids.length === 0) return { kind: "skipLine" };
  if (op === "contains") {
    if (annotators) return join(ctx, { relation: "annotations", row: (r) => ids.includes((r as AnnotationRecord).completed_by as number), noRow: false });
    return expr(ctx, (t) => t.task.updated_by !== null && ids.includes(t.task.updated_by));
  }
  if (op === "not_contains") {
    if (annotators) return expr(ctx, (t) => !t.annotations.some((a) => a.completed_by !== null && ids.includes(a.completed_by)));
    // A nullable foreign key: Django's negation keeps NULL rows (J7).
    return expr(ctx, (t) => t.task.updated_by === null || !ids.includes(t.task.updated_by));
  }
  // Legacy scalar equal / not_equal fall through to the generic path.
  if (annotators) {
    if (ctx.facts.size === 0) return unclear(ctx, "legacy equal on annotators of an empty project");
    return err(400, "Not supported filter type (annotators is a list)");
  }
  if (c.type !== "Number" && typeof v !== "number" && c.type !== "List" && c.type !== "String" && c.type !== "Unknown") {
    return unclear(ctx, `legacy ${op} on updated_by with type ${c.type}`);
  }
  const id = ids[0] as number;
  if (op === "equal") return expr(ctx, (t) => t.task.updated_by === id);
  if (op === "not_equal") return expr(ctx, (t) => t.task.updated_by === null || t.task.updated_by !== id);
  return undefined;
}

function resultFilter(c: OCondition, ctx: Ctx): Step {
  const { column, operator: op, value: v } = c;
  const annotationsColumn = column === "annotations_results";
  const rows = (t: TaskFacts): readonly Row[] => (annotationsColumn ? t.annotations : t.predictions);
  if (op === "equal" || op === "not_equal") {
    if (typeof v !== "string") return { kind: "exit" };
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(v) as JsonValue;
    } catch {
      return { kind: "exit" };
    }
    const has = (t: TaskFacts): Tri => {
      if (rows(t).some((r) => r.result !== null && jsonbEqual(r.result as JsonValue, parsed))) return true;
      return parsed === null && rows(t).some((r) => r.result === null) ? "either" : false;
    };
    return expr(ctx, (t) => {
      const h = has(t);
      return op === "equal" ? h : h === "either" ? "either" : !h;
    });
  }
  if (op === "contains" || op === "not_contains") {
    const needle = pyStr(v);
    if (needle === undefined) return unclear(ctx, `${column} ${op} with a non-string value`);
    const has = (t: TaskFacts) =>
      rows(t).some(
        (r) =>
          r.result !== null &&
          (!annotationsColumn || r.project === ctx.project.id) &&
          jsonbText(r.result as JsonValue).includes(needle),
      );
    return expr(ctx, (t) => (op === "contains" ? has(t) : !has(t)));
  }
  if (op === "empty") {
    // Both result columns test *annotations* here (a server quirk, §3.8.2).
    const b = castBool(v);
    if (b === "error") return err(500, `empty on ${column}: ${JSON.stringify(v)} is not a boolean string`);
    const isEmpty = (r: Row) => r.result === null || (Array.isArray(r.result) && r.result.length === 0);
    const isEmptyList = (r: Row) => Array.isArray(r.result) && r.result.length === 0;
    if (truthy(b)) return join(ctx, { relation: "annotations", row: isEmpty, noRow: true });
    return join(ctx, { relation: "annotations", row: (r) => r.result !== null, noRow: false }, (t) => !t.annotations.some(isEmptyList));
  }
  const check = listEqualCheck(c, ctx, new Set(["list"]));
  if (check.certain) return err(400, "Not supported filter type (results are lists)");
  return unclear(ctx, `${op} on ${column}`);
}

function modelVersions(c: OCondition, ctx: Ctx): Step {
  const { operator: op, value: v } = c;
  if (op === "contains" || op === "not_contains") {
    let items: JsonValue[];
    if (Array.isArray(v)) items = [...(v as readonly JsonValue[])];
    else if (typeof v === "string") items = [...v];
    else if (v !== null && typeof v === "object") return unclear(ctx, "model versions with a range value");
    else return err(500, `model versions ${op}: ${JSON.stringify(v)} is not iterable`);
    const needles = items.map(pyStr);
    if (needles.some((n) => n === undefined)) return unclear(ctx, "model version needle that is not a string");
    const ns = needles as string[];
    if (ns.length === 0) return { kind: "dropped" };
    const hit = (r: Row) => {
      const mv = (r as PredictionRecord).model_version;
      return mv !== null && ns.some((n) => mv.includes(n));
    };
    if (op === "contains") return join(ctx, { relation: "predictions", row: hit, noRow: false });
    return expr(ctx, (t) => !t.predictions.some(hit));
  }
  if (op === "empty") {
    const b = castBool(v);
    if (b === "error") return err(500, `empty on predictions_model_versions: ${JSON.stringify(v)}`);
    if (typeof b !== "boolean") return err(500, `isnull lookup needs True or False, got ${JSON.stringify(v)}`);
    return join(ctx, { relation: "predictions", row: (r) => ((r as PredictionRecord).model_version === null) === b, noRow: b });
  }
  const check = listEqualCheck(c, ctx, new Set(["list"]));
  if (check.certain) return err(400, "Not supported filter type (model versions are lists)");
  return unclear(ctx, `${op} on predictions_model_versions`);
}

/** What a generic-path field holds for one task. */
type Field =
  | { readonly kind: "data"; readonly numeric: boolean; readonly at: (t: TaskFacts) => JsonValue | undefined | "unclear" }
  | { readonly kind: PlainKind; readonly column: string; readonly at: (t: TaskFacts) => readonly (number | string | boolean | null)[] | "unclear" };

type Cast = { ok: JsonValue | number } | { error: PossibleError } | { unclear: string };

function castScalar(type: string, v: JsonValue, what: string): Cast {
  if (type === "Number") {
    const f = pyFloat(v);
    return typeof f === "number" ? { ok: f } : f === "error" ? { error: { status: 500, reason: `float(${JSON.stringify(v)}) fails for ${what}` } } : { unclear: `float(${JSON.stringify(v)})` };
  }
  if (type === "Datetime") {
    const m = strptimeMicros(v);
    return m === undefined ? { unclear: `datetime ${JSON.stringify(v)} the server's strptime does not parse` } : { ok: m };
  }
  if (type === "Boolean") {
    const b = castBool(v);
    return b === "error" ? { error: { status: 500, reason: `${JSON.stringify(v)} is not a boolean string (${what})` } } : { ok: b };
  }
  return { ok: v };
}

export function evalCondition(c: OCondition, ctx: Ctx): Step {
  const { column, operator: op, type } = c;
  let v = c.value;
  const isData = column.startsWith("data.");

  if (isAgreementColumn(column)) return { kind: "dropped" };

  if (userFields.has(column)) {
    if (Array.isArray(v)) {
      if (op !== "contains" && op !== "not_contains") return err(400, "List-valued user filters support only these operators: contains, not_contains.");
    } else if (!(op === "contains" || op === "not_contains" || (op === "empty" && userEmptyFields.has(column)) || legacyUserOperators.has(op))) {
      return err(400, `User filter "${column}" does not support operator "${op}"`);
    }
  }

  if (op === "in_list" || op === "not_in_list") {
    if (!inListColumns.has(column) && !isData) return err(400, "`is any of` / `is none of` support Task ID, Inner ID, annotation/prediction counters, and task.data.* fields.");
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
  if (resultColumns.has(column)) return resultFilter({ ...c, value: v }, ctx);
  if (column === "annotations_ids") return annotationIds({ ...c, value: v }, ctx);
  if (column === "predictions_model_versions") return modelVersions({ ...c, value: v }, ctx);
  if (column === "state") return unclear(ctx, "the feature-flagged state column");
  if (!isData && !Object.hasOwn(plainColumns, column)) {
    const error: PossibleError = { status: 500, reason: `Cannot resolve keyword '${column}' into field${enterpriseColumns.has(column) ? " (Enterprise column)" : ""}` };
    // `values_list(field)` raises at once when the project has tasks; `reviewed` has a known value
    // type and skips it, and an empty project skips it too: then `.filter()` raises at the end.
    if (column !== "reviewed" && ctx.facts.size > 0) return { kind: "error", error };
    return expr(ctx, () => "either", { deferred: error });
  }
  if (column === "predictions_score" && ctx.facts.size === 0) {
    // LS source (annotate_predictions_score): no first task, no annotation, so `.filter()` cannot
    // resolve the name. Not in the spec; the project has no tasks to answer with anyway.
    ctx.notes.push("predictions_score on a project without tasks (a FieldError in LS)");
    return expr(ctx, () => false, { deferred: { status: 500, reason: "Cannot resolve keyword 'predictions_score' (no tasks to annotate)" } });
  }

  // The generic path (§3.5–§3.7).
  let field: Field;
  const atRun: PossibleError[] = [];
  const maybe: PossibleError[] = [];
  let types: Set<string>;
  if (isData) {
    const path = dataPath(column);
    if (!path) return unclear(ctx, `data column ${JSON.stringify(column)}`);
    const numeric = type === "Number";
    // The Number cast reads KeyTextTransform(<key>) with the key as written: whether `a__b` is a
    // nested path there (it is for the other lookups) is not pinned by the spec.
    if (numeric && path.length > 1) return unclear(ctx, `a Number filter on the nested path ${column}`);
    // The cast is annotated as `filter_<key>`; Django refuses aliases with whitespace, quotes,
    // brackets, semicolons or SQL comment marks (a ValueError, so 500). Django's rule, not the spec's.
    if (numeric && /['`"\][;\s]|--|\/\*|\*\//.test(column.slice("data.".length))) {
      return err(500, "Column aliases cannot contain whitespace characters, quotation marks, semicolons, or SQL comments.");
    }
    field = { kind: "data", numeric, at: (t) => dataValue(t, path) };
    types = firstRowTypes(ctx, (t) => {
      const x = dataValue(t, path);
      return x === "unclear" ? "unclear" : pyTypeName(x);
    });
    if (types.has("unclear")) return unclear(ctx, `data path ${column} with an integer key into an object`);
    if (numeric) {
      // CAST(data->>'key' AS float) over the project's rows: non-numeric text makes Postgres raise.
      const casts = [...ctx.facts.values()].map((t) => {
        const text = keyText(dataValue(t, path) as JsonValue | undefined);
        return { t, cast: text === null ? null : pgFloat(text) };
      });
      if (casts.some((x) => x.cast === "unclear")) return unclear(ctx, `NaN/Infinity text in ${column}`);
      const bad = casts.filter((x) => x.cast === "error").map((x) => x.t);
      if (bad.length) atRun.push({ status: 500, reason: `CAST(${column} AS float) fails for task ${bad.map((t) => t.task.id).join(", ")}` });
    }
  } else {
    const spec = plainColumns[column] as (typeof plainColumns)[string];
    field = { kind: spec.kind, column, at: spec.values };
    types = firstRowTypes(ctx, (t) => {
      const vals = spec.values(t);
      if (vals === "unclear") return "unclear";
      const x = vals[0];
      return x === null || x === undefined ? "NoneType" : spec.kind === "text" ? "str" : spec.kind;
    });
  }

  let operator = op;
  if (counterColumns.has(column) && operator === "empty") {
    const b = castBool(v);
    if (b === "error") return err(500, `empty on ${column}: ${JSON.stringify(v)} is not a boolean string`);
    operator = truthy(b) ? "equal" : "not_equal";
    v = 0;
  }

  const check = listEqualCheck({ ...c, operator }, ctx, types);
  if (check.certain) return err(400, check.maybe[0]?.reason ?? "Not supported filter type");
  maybe.push(...check.maybe);
  const done = (f: (t: TaskFacts) => Tri): Step => expr(ctx, f, { maybe, atRun });

  if ((type === "String" || type === "Unknown") && operator === "empty") {
    const b = castBool(v);
    if (b === "error") return { kind: "error", error: { status: 500, reason: `empty: ${JSON.stringify(v)} is not a boolean string` }, maybe };
    const want = truthy(b);
    const worlds = [...types].filter((t) => t !== "unclear");
    return done((t) =>
      agree(
        (worlds.length ? worlds : ["NoneType"]).map((world) => {
          if (field.kind === "data") {
            const x = field.at(t);
            if (x === "unclear") return "either";
            if (world === "list") {
              const isNullList = x !== undefined && jsonbEqual(x, [null]);
              return want ? isNullList : x !== undefined && !isNullList;
            }
            const blank = x === undefined || x === null || (world === "str" && x === "");
            return want ? blank : !blank;
          }
          const vals = field.at(t);
          if (vals === "unclear") return "either";
          return agree(
            vals.map((x) => {
              const blank = x === null || (world === "str" && x === "");
              return want ? blank : !blank;
            }),
          );
        }),
      ),
    );
  }

  // Per-task truth of the positive lookup; `null` stands for SQL NULL (the row drops out either way).
  type Lookup = (x: JsonValue | number | string | boolean) => Tri | "unclear";
  let lookup: Lookup;
  let negated = false;
  let nullIsTrue = false; // `isnull` lookups

  if (operator === "in" || operator === "not_in") {
    if (!isRange(v)) return err(500, `${operator} needs {min, max}, got ${JSON.stringify(v)}`);
    const lo = castScalar(type, v.min, column), hi = castScalar(type, v.max, column);
    for (const x of [lo, hi]) {
      if ("error" in x) return { kind: "error", error: x.error, maybe };
      if ("unclear" in x) return unclear(ctx, x.unclear);
    }
    const a = (lo as { ok: JsonValue }).ok, b = (hi as { ok: JsonValue }).ok;
    const ge = compareLookup(field, type, ">=", a), le = compareLookup(field, type, "<=", b);
    if (!ge || !le) return unclear(ctx, `${operator} on ${column} with type ${type}`);
    lookup = (x) => {
      const p = ge(x), q = le(x);
      if (p === "unclear" || q === "unclear") return "unclear";
      return p === false || q === false ? false : p === true && q === true ? true : "either";
    };
    negated = operator === "not_in";
  } else if (operator === "in_list" || operator === "not_in_list") {
    const list = v as readonly JsonValue[];
    if (field.kind === "data") {
      lookup = field.numeric
        ? (x) => list.some((el) => typeof el === "number" && el === x)
        : (x) => list.some((el) => jsonbEqual(x as JsonValue, el));
    } else if (field.kind === "int") {
      if (!list.every((el) => typeof el === "number")) return unclear(ctx, `in_list on ${column} with non-numbers`);
      if (list.some((el) => !Number.isInteger(el))) return unclear(ctx, `in_list with fractions on the integer column ${column}`);
      lookup = (x) => list.includes(x as number);
    } else return unclear(ctx, `in_list on ${column}`);
    negated = operator === "not_in_list";
  } else if (operator === "empty") {
    const b = castBool(v);
    if (b === "error") return { kind: "error", error: { status: 500, reason: `empty: ${JSON.stringify(v)} is not a boolean string` }, maybe };
    nullIsTrue = true;
    lookup = () => false; // a non-NULL value is never "null"
    negated = !truthy(b);
  } else if (isRange(v)) {
    // cast_value sees `.max` and casts both ends (a Number end that is not numeric raises now);
    // the lookup then gets the range object itself, which each field treats its own way.
    if (type === "Number") {
      for (const end of [v.min, v.max]) if (pyFloat(end) === "error") return { kind: "error", error: { status: 500, reason: `float(${JSON.stringify(end)}) fails for ${column}` }, maybe };
    }
    return unclear(ctx, `${operator} with a {min, max} value on ${column}`);
  } else {
    const cast = castScalar(type, v, column);
    if ("error" in cast) return { kind: "error", error: cast.error, maybe };
    if ("unclear" in cast) return unclear(ctx, cast.unclear);
    const value = cast.ok;
    negated = operator.startsWith("not_");
    const positive = negated ? (operator === "not_contains" ? "contains" : "equal") : operator;
    const made = makeLookup(field, type, positive, value);
    if (typeof made === "string") return unclear(ctx, `${operator} on ${column} (type ${type}): ${made}`);
    lookup = made;
  }

  return done((t) => {
    const raw = field.kind === "data" ? field.at(t) : field.at(t);
    if (raw === "unclear") return "either";
    const values: readonly (JsonValue | undefined)[] = field.kind === "data" ? [raw as JsonValue | undefined] : (raw as readonly (number | string | boolean | null)[]);
    return agree(
      values.map((x): Tri => {
        if (field.kind === "data") {
          const sqlNull = x === undefined || (x === null && (field.numeric || textLookup(operator))) || (field.numeric && keyText(x as JsonValue) === null);
          if (field.numeric && x !== undefined && x !== null && typeof pgFloat(keyText(x) as string) !== "number") {
            return "either"; // the cast fails: an error (atRun), or another condition drops the row first
          }
          if (nullIsTrue) {
            // data__key__isnull: a missing key; the cast field: missing or JSON null. A JSON null
            // under a plain isnull is not pinned by the spec.
            const isNull = field.numeric ? keyText(x as JsonValue | undefined) === null : x === undefined ? true : x === null ? "either" : false;
            return negated ? (isNull === "either" ? "either" : !isNull) : isNull;
          }
          if (sqlNull) return false;
          const input: JsonValue | number = field.numeric ? (pgFloat(keyText(x as JsonValue) as string) as number) : (x as JsonValue);
          const r = lookup(input);
          if (r === "unclear") return "either";
          if (!negated) return r;
          // A JSON null under a negated JSON comparison: Django compares jsonb 'null' (true), the spec says NULL drops out.
          if (x === null) return "either";
          return r === "either" ? "either" : !r;
        }
        if (x === null || x === undefined) {
          if (nullIsTrue) return !negated;
          return negated && field.kind === "userFk";
        }
        if (nullIsTrue) return negated;
        const r = lookup(x as JsonValue);
        if (r === "unclear") return "either";
        return negated ? (r === "either" ? "either" : !r) : r;
      }),
    );
  });
}

/** Operators whose lookup reads the key's text (`->>`), where JSON null is SQL NULL. */
const textLookup = (op: string) => op === "contains" || op === "not_contains" || op === "regex";

function compareLookup(field: Field, type: string, rel: ">=" | "<=" | "<" | ">", bound: JsonValue | number): ((x: JsonValue) => Tri | "unclear") | undefined {
  const cmp = (x: number, b: number) => (rel === ">=" ? x >= b : rel === "<=" ? x <= b : rel === "<" ? x < b : x > b);
  const numericField = (field.kind === "data" && field.numeric) || field.kind === "int" || field.kind === "float";
  if (numericField && type === "Number" && typeof bound === "number") {
    if (field.kind === "int" && !Number.isInteger(bound) && bound < 0 && (rel === ">" || rel === "<=")) return undefined;
    return (x) => (typeof x === "number" ? cmp(x, bound) : "unclear");
  }
  if (field.kind === "datetime" && type === "Datetime" && typeof bound === "number") {
    return (x) => (typeof x === "number" ? cmp(x, bound) : "unclear");
  }
  return undefined;
}

function makeLookup(field: Field, type: string, op: string, value: JsonValue | number): ((x: JsonValue) => Tri | "unclear") | string {
  switch (op) {
    case "less":
      return compareLookup(field, type, "<", value) ?? "an ordering comparison the spec does not pin";
    case "greater":
      return compareLookup(field, type, ">", value) ?? "an ordering comparison the spec does not pin";
    case "less_or_equal":
      return compareLookup(field, type, "<=", value) ?? "an ordering comparison the spec does not pin";
    case "greater_or_equal":
      return compareLookup(field, type, ">=", value) ?? "an ordering comparison the spec does not pin";
    case "contains": {
      const needle = pyStr(value as JsonValue);
      if (needle === undefined) return "a non-string contains value";
      if (field.kind === "data" && !field.numeric) return (x) => icontains(keyText(x) as string, needle);
      if (field.kind === "text") return (x) => icontains(x as string, needle);
      return "contains on a non-text column";
    }
    case "regex": {
      if (typeof value !== "string") return "a non-string regex";
      if (dialectDiffers(value)) return "a pattern Postgres and JavaScript read differently";
      try {
        new RegExp(value, "su");
      } catch {
        return "a pattern outside the dialect JavaScript and Postgres share";
      }
      if (field.kind === "data" && !field.numeric) return (x) => regexSearch(value, keyText(x) as string);
      if (field.kind === "text") return (x) => regexSearch(value, x as string);
      return "regex on a non-text column";
    }
    default: {
      // equal, and every unknown operator (exact equality, §3.5)
      if (field.kind === "data") {
        if (field.numeric) return typeof value === "number" ? (x) => x === value : "a non-number on a Number field";
        if (type === "Datetime") return "a datetime compared as JSON";
        return (x) => jsonbEqual(x, value as JsonValue);
      }
      switch (field.kind) {
        case "int":
          if (typeof value !== "number") return "a non-number on an integer column";
          if (!Number.isInteger(value)) return "a fraction on an integer column (Django truncates it)";
          return (x) => x === value;
        case "float":
          return typeof value === "number" && type === "Number" ? (x) => x === value : "a non-number on a number column";
        case "datetime":
          return typeof value === "number" && type === "Datetime" ? (x) => x === value : "a non-datetime on a datetime column";
        case "text":
          return typeof value === "string" ? (x) => x === value : "a non-string on a text column";
        case "bool":
          return typeof value === "boolean" ? (x) => x === value : "a non-boolean on a boolean column";
        case "userFk":
          return "a generic lookup on updated_by";
      }
    }
  }
}
