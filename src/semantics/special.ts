import { match, P } from "ts-pattern";
import { DATA_PREFIX, inListColumns } from "../vocabulary/columns.js";
import type { JsonValue } from "../vocabulary/json.js";
import { rejected, unhandled } from "./errors.js";
import { jsonbEqual, jsonbText } from "../emulation/jsonb.js";
import { EMPTY_Q, FALSE, type Ctx, type Piece } from "./pieces.js";
import { pyStr, strRepr } from "../emulation/python-json.js";
import { legacyUserOperators, userColumns, userIdOperators } from "../wire/user-filters.js";
import { castBoolFromStr, pyToJson, str, truthy, type PyVal } from "../emulation/python.js";
import { parsePyFloat, parsePyInt } from "../emulation/python-text.js";
import { ujsonLoads } from "../emulation/ujson.js";
import type { AnnotationRecord, PredictionRecord } from "./records.js";
import { describePy, pyFailure } from "./values.js";

/*
 * The columns `apply_filters` handles before its generic path
 * (docs/reference/filters.md#special-columns): user lists, annotation/prediction results,
 * annotation ids, model versions, and the `in_list` validation. Each returns a Piece, "skipLine"
 * (the server's `skip_line`), or undefined to fall through to the generic path, as the server's
 * code does.
 */

/** `DATA_MANAGER_LIST_FILTER_MAX_VALUES` (default 5000 per the is-any-of design doc). */
export const LIST_MAX_VALUES = 5000;

// ---------------------------------------------------------------------------------------------
// User lists (annotators, updated_by; Enterprise: reviewers, comment_authors, skipped_by_annotator)

export function isUserColumn(column: string): boolean {
  return userColumns.has(column);
}

/** `validate_user_filter_operator`: a 400 for an operator a user column does not take. */
export function validateUserOperator(ctx: Ctx, column: string, operator: string, value: PyVal): void {
  const allowed = userColumns.get(column);
  if (allowed === undefined) return;
  const where = { path: `${ctx.path}.operator`, found: operator };
  if (value.t === "list") {
    const idOperators = [...userIdOperators];
    if (!idOperators.includes(operator)) {
      throw rejected(
        { ...where, expected: idOperators.join(" or ") },
        `List-valued user filters support only these operators: ${idOperators.join(", ")}.`,
      );
    }
    return;
  }
  if (allowed.includes(operator) || Object.hasOwn(legacyUserOperators, operator)) return;
  throw rejected(
    { ...where, expected: allowed.join(", ") },
    `User filter "${column}" does not support operator "${operator}". Allowed: ${allowed.join(", ")}.`,
  );
}

/** `parse_user_filter_ids`: deduplicated integer ids, or a 400. */
function parseUserIds(ctx: Ctx, value: PyVal): number[] {
  const where = { path: `${ctx.path}.value`, expected: "user ids (integers)", found: describePy(value) };
  if (value.t === "none") return [];
  if (value.t === "list" && value.v.length > LIST_MAX_VALUES) {
    throw rejected(where, `User filter list exceeds maximum size of ${LIST_MAX_VALUES}.`);
  }
  const raw: readonly JsonValue[] = value.t === "list" ? value.v : [pyToJson(value)];
  const ids: number[] = [];
  for (const item of raw) {
    const id = userId(item);
    if (id === undefined) throw rejected(where, "User filter values must be integer ids.");
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** `int(item)` for a user id: integral numbers and integer text; bool, fractions and the rest fail. */
function userId(item: JsonValue): number | undefined {
  if (typeof item === "number") return Number.isInteger(item) ? item : undefined;
  if (typeof item === "string") return parsePyInt(item);
  return undefined;
}

/** The isnull lookup refuses anything but a bool, when Django compiles the SQL. */
function isNullFlag(ctx: Ctx, value: PyVal): boolean {
  let v: PyVal;
  try {
    v = castBoolFromStr(value);
  } catch (e) {
    throw pyFailure(e, `${ctx.path}.value`, "true or false", value);
  }
  if (v.t !== "bool") {
    ctx.pending.compile.push(
      unhandled(
        { path: `${ctx.path}.value`, expected: "true or false", found: describePy(value) },
        "The QuerySet value for an isnull lookup must be True or False.",
      ),
    );
  }
  return truthy(v);
}

// The joined column each row condition reads (GROUP BY keys when an OR goes to HAVING: GroupedRows).
const authorKey = (a: AnnotationRecord | null) => a?.completed_by ?? null;
const annotationAuthor = (a: AnnotationRecord) => a.completed_by;
const resultKey = (a: AnnotationRecord | null) => (a === null || a.result === null ? null : jsonbText(a.result as JsonValue));
const idKey = (a: AnnotationRecord | null) => a?.id ?? null;
const versionKey = (p: PredictionRecord | null) => p?.model_version ?? null;

/** `add_user_filter` for annotators (the joined annotation's author) and updated_by (a nullable task column). */
export function userPiece(ctx: Ctx, column: string, operator: string, value: PyVal): Piece | "skipLine" | undefined {
  if (column !== "annotators" && column !== "updated_by") return undefined;
  const onAnnotations = column === "annotators";
  const tasks = ctx.ds.tasks;
  if (operator === "empty") {
    const isNull = isNullFlag(ctx, value);
    if (onAnnotations)
      return isNull
        ? { k: "ann", test: (a) => a === null || a.completed_by === null, key: authorKey }
        : { k: "ann", test: (a) => a !== null && a.completed_by !== null, key: authorKey };
    return { k: "task", test: (i) => (tasks[i]?.updated_by === null) === isNull };
  }
  const ids = parseUserIds(ctx, value);
  if (ids.length === 0) return "skipLine";
  const set = new Set(ids);
  // One user (the usual filter): a comparison instead of a hash probe per annotation.
  const has = ids.length === 1 ? (u: number) => u === ids[0] : (u: number) => set.has(u);
  if (operator === "contains") {
    if (onAnnotations)
      return {
        k: "ann",
        test: (a) => a !== null && a.completed_by !== null && has(a.completed_by),
        key: authorKey,
        lookup: { target: "annotations:completed_by", of: annotationAuthor, keys: set },
      };
    return {
      k: "task",
      test: (i) => {
        const u = tasks[i]?.updated_by ?? null;
        return u !== null && set.has(u);
      },
    };
  }
  if (operator === "not_contains") {
    if (onAnnotations) return notExists(ctx, "annotations", (a: AnnotationRecord) => a.completed_by !== null && set.has(a.completed_by));
    // Django adds `OR updated_by IS NULL` to the negation of a nullable foreign key.
    return {
      k: "task",
      test: (i) => {
        const u = tasks[i]?.updated_by ?? null;
        return u === null || !set.has(u);
      },
    };
  }
  return undefined;
}

/**
 * `comment_authors`: a many-to-many field of every task (the authors of its comments), which the
 * community edition never fills. `apply_filters` has no handler for it, so it takes the generic
 * path: `icontains` is no lookup of a relation (Django's FieldError when the queryset is filtered),
 * `empty` is `__isnull` (no task has an author), and equality compares the related user's id,
 * which no task has (so only its negation matches).
 */
export function commentAuthorsPiece(ctx: Ctx, operator: string, value: PyVal): Piece | undefined {
  if (operator === "contains" || operator === "not_contains") {
    ctx.pending.filter.push(
      unhandled(
        { path: `${ctx.path}.operator`, expected: "empty (no task has comment authors here)", found: operator },
        "Unsupported lookup 'icontains' for ForeignKey or join on the field not permitted.",
      ),
    );
    return FALSE;
  }
  if (operator === "empty") return isNullFlag(ctx, value) ? { k: "task", test: () => true } : FALSE;
  if (operator === "equal") return FALSE;
  if (operator === "not_equal") return { k: "task", test: () => true };
  return undefined;
}

function notExists<R extends AnnotationRecord | PredictionRecord>(
  ctx: Ctx,
  rel: "annotations" | "predictions",
  test: (r: R) => boolean,
): Piece {
  const rows = (rel === "annotations" ? ctx.ds.annotations : ctx.ds.predictions) as readonly (readonly R[])[];
  return { k: "task", test: (i) => !(rows[i] as readonly R[]).some(test) };
}

function exists<R extends AnnotationRecord | PredictionRecord>(
  ctx: Ctx,
  rel: "annotations" | "predictions",
  test: (r: R) => boolean,
): Piece {
  const rows = (rel === "annotations" ? ctx.ds.annotations : ctx.ds.predictions) as readonly (readonly R[])[];
  return { k: "task", test: (i) => (rows[i] as readonly R[]).some(test) };
}

// ---------------------------------------------------------------------------------------------
// annotations_results / predictions_results (add_result_filter)

/** Result text as `CAST(result AS text)` prints it, memoised per result value (records are immutable). */
const resultTexts = new WeakMap<object, string>();
function resultText(r: { readonly result: readonly JsonValue[] | null }): string | null {
  if (r.result === null) return null;
  let t = resultTexts.get(r.result);
  if (t === undefined) resultTexts.set(r.result, (t = jsonbText(r.result as JsonValue)));
  return t;
}

export function resultPiece(ctx: Ctx, column: string, operator: string, value: PyVal): Piece | readonly Piece[] | "exit" | undefined {
  if (column !== "annotations_results" && column !== "predictions_results") return undefined;
  const rel = column === "annotations_results" ? "annotations" : "predictions";
  if (operator === "equal" || operator === "not_equal") {
    // ujson.loads: text that is not JSON (or a value that is not text) ends the whole query: no tasks.
    if (value.t !== "str") return "exit";
    let parsed: JsonValue;
    try {
      parsed = ujsonLoads(value.v) as JsonValue;
    } catch {
      return "exit";
    }
    const q = (r: AnnotationRecord | PredictionRecord) => r.result !== null && jsonbEqual(r.result as JsonValue, parsed);
    return operator === "equal" ? exists(ctx, rel, q) : notExists(ctx, rel, q);
  }
  if (operator === "contains" || operator === "not_contains") {
    // LIKE '%v%' on the jsonb text: case-sensitive. Annotations are also restricted to the project.
    const needle = str(value);
    const projectId = ctx.ds.project.id;
    const q = (r: AnnotationRecord | PredictionRecord) =>
      (rel === "predictions" || (r as AnnotationRecord).project === projectId) && (resultText(r)?.includes(needle) ?? false);
    return operator === "contains" ? exists(ctx, rel, q) : notExists(ctx, rel, q);
  }
  if (operator === "empty") {
    let v: PyVal;
    try {
      v = castBoolFromStr(value);
    } catch (e) {
      throw pyFailure(e, `${ctx.path}.value`, "true or false", value);
    }
    // Both columns test annotations__result (a server quirk).
    const isEmptyResult = (a: AnnotationRecord | null) => a === null || a.result === null || jsonbEqual(a.result as JsonValue, []);
    if (truthy(v)) return { k: "ann", test: isEmptyResult, key: resultKey };
    // ~Q(annotations__result=[]) is a subquery: any annotation with [] excludes the task.
    const noEmptyList = notExists(ctx, "annotations", (a: AnnotationRecord) => a.result !== null && jsonbEqual(a.result as JsonValue, []));
    return [{ k: "ann", test: (a) => a !== null && a.result !== null, key: resultKey }, noEmptyList];
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// annotations_ids (annotation_id_filter_q)

const DECIMAL = /^[+-]?(?:(\d(?:_?\d)*)(?:\.(\d(?:_?\d)*)?)?|\.(\d(?:_?\d)*))(?:[eE]([+-]?\d(?:_?\d)*))?$/;

/** `_annotation_id`: an exact integer, accepting integer-valued numbers and numeric text (Decimal). */
function annotationId(v: JsonValue): number | undefined {
  if (typeof v === "boolean") return undefined;
  if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
  if (typeof v === "string") return decimalInt(v.trim());
  return undefined;
}

/** `Decimal(text)` when finite and integral. */
function decimalInt(text: string): number | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const int = (m[1] ?? "").replace(/_/g, ""),
    frac = (m[2] ?? m[3] ?? "").replace(/_/g, "");
  const exp = Number((m[4] ?? "0").replace(/_/g, ""));
  const digits = int + frac,
    point = int.length + exp;
  const fracPart = point < 0 ? digits : digits.slice(Math.max(point, 0));
  if (/[1-9]/.test(fracPart)) return undefined;
  const whole = point <= 0 ? "0" : (digits + "0".repeat(Math.max(point - digits.length, 0))).slice(0, point);
  const n = Number(whole);
  return text.startsWith("-") && n !== 0 ? -n : n;
}

const ID_COMPARE: Readonly<Record<string, (id: number, x: number) => boolean>> = {
  equal: (id, x) => id === x,
  less: (id, x) => id < x,
  greater: (id, x) => id > x,
  less_or_equal: (id, x) => id <= x,
  greater_or_equal: (id, x) => id >= x,
};

export function annotationIdsPiece(ctx: Ctx, operator: string, value: PyVal): Piece {
  const ann = (test: (a: AnnotationRecord) => boolean): Piece => ({ k: "ann", test: (a) => a !== null && test(a), key: idKey });
  if (operator === "contains" || operator === "not_contains") {
    const raw: readonly JsonValue[] = value.t === "list" ? value.v : str(value).split(/[,;\s]+/u);
    const ids: number[] = [];
    let invalid = false;
    for (const r of raw) {
      if (pyStr(r).trim() === "") continue;
      const id = annotationId(r);
      if (id === undefined) invalid = true;
      else ids.push(id);
    }
    if (ids.length === 0 || (operator === "not_contains" && invalid)) return FALSE;
    const set = new Set(ids);
    return operator === "contains" ? ann((a) => set.has(a.id)) : notExists(ctx, "annotations", (a: AnnotationRecord) => set.has(a.id));
  }
  if (operator === "empty") {
    let v: PyVal;
    try {
      v = castBoolFromStr(value);
    } catch {
      return FALSE;
    }
    if (v.t !== "bool") {
      ctx.pending.compile.push(
        unhandled(
          { path: `${ctx.path}.value`, expected: "true or false", found: describePy(value) },
          "The QuerySet value for an isnull lookup must be True or False.",
        ),
      );
    }
    return truthy(v) ? { k: "ann", test: (a) => a === null, key: idKey } : ann(() => true);
  }
  if (operator === "in" || operator === "not_in") {
    if (value.t !== "range") return FALSE;
    const lo = annotationId(pyToJson(value.min)),
      hi = annotationId(pyToJson(value.max));
    if (lo === undefined || hi === undefined) return FALSE;
    const inRange = (a: AnnotationRecord) => a.id >= lo && a.id <= hi;
    return operator === "in" ? ann(inRange) : notExists(ctx, "annotations", inRange);
  }
  const id = annotationId(pyToJson(value));
  if (id === undefined) return FALSE;
  if (operator === "not_equal") return notExists(ctx, "annotations", (a: AnnotationRecord) => a.id === id);
  const cmp = ID_COMPARE[operator];
  return cmp === undefined ? FALSE : ann((a) => cmp(a.id, id));
}

// ---------------------------------------------------------------------------------------------
// predictions_model_versions

/** `for value in _filter.value`: a list's items, a string's characters; anything else is not iterable. */
function iterate(ctx: Ctx, value: PyVal): (JsonValue | string)[] {
  return match(value)
    .returnType<(JsonValue | string)[]>()
    .with({ t: P.union("list", "str") }, (x) => [...x.v])
    .with({ t: "range" }, (x) => [`('min', ${reprOf(x.min)})`, `('max', ${reprOf(x.max)})`])
    .with({ t: P.union("int", "float", "bool", "datetime", "none") }, (x) => {
      throw unhandled(
        { path: `${ctx.path}.value`, expected: "a list of model versions", found: describePy(x) },
        `'${x.t}' object is not iterable`,
      );
    })
    .exhaustive();
}

const reprOf = (v: PyVal) => (v.t === "str" ? strRepr(v.v) : str(v));

export function modelVersionsPiece(ctx: Ctx, operator: string, value: PyVal): Piece | undefined {
  if (operator === "contains" || operator === "not_contains") {
    const needles: string[] = [];
    for (const v of iterate(ctx, value)) {
      if (v === null) {
        ctx.pending.filter.push(
          unhandled({ path: `${ctx.path}.value`, expected: "model version strings", found: "null" }, "Cannot use None as a query value"),
        );
        continue;
      }
      needles.push(pyStr(v));
    }
    if (needles.length === 0) return EMPTY_Q;
    if (operator === "contains") {
      return {
        k: "pred",
        test: (p) => p !== null && p.model_version !== null && needles.some((n) => (p.model_version as string).includes(n)),
        key: versionKey,
      };
    }
    const tests = needles.map((n) =>
      // the predicate must answer a boolean, never undefined
      notExists(ctx, "predictions", (p: PredictionRecord) => p.model_version !== null && p.model_version.includes(n)),
    );
    return { k: "task", test: (i) => tests.every((t) => (t as { test: (i: number) => boolean }).test(i)) };
  }
  if (operator === "empty") {
    const isNull = isNullFlag(ctx, value);
    return isNull
      ? { k: "pred", test: (p) => p === null || p.model_version === null, key: versionKey }
      : { k: "pred", test: (p) => p !== null && p.model_version !== null, key: versionKey };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// in_list / not_in_list (validate_in_list_filter, _normalize_in_list_value)

/** `_is_supported_in_list_field`: the vocabulary's is-any-of columns and data.* keys. */
function supportsInList(column: string): boolean {
  return (inListColumns as readonly string[]).includes(column) || column.startsWith(DATA_PREFIX);
}

export type InListStatus = { readonly status: "ok"; readonly value: PyVal } | { readonly status: "none" } | { readonly status: "skip" };

export function validateInList(ctx: Ctx, column: string, operator: string, type: string, value: PyVal): InListStatus {
  if (operator !== "in_list" && operator !== "not_in_list") return { status: "ok", value };
  if (!supportsInList(column)) {
    throw rejected(
      { path: `${ctx.path}.filter`, expected: "tasks:id, tasks:inner_id, a counter or tasks:data.<key> for is-any-of", found: column },
      "`is any of` / `is none of` support Task ID, Inner ID, annotation/prediction counters, and task.data.* fields.",
    );
  }
  if (value.t !== "list") {
    throw rejected(
      { path: `${ctx.path}.value`, expected: "a JSON array", found: describePy(value) },
      "Filter value must be a list for `is any of` / `is none of`.",
    );
  }
  const cleaned: JsonValue[] = [];
  for (let el of value.v) {
    if (typeof el === "string") {
      let s = el.trim();
      if (s.length >= 2 && ((s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'")))) s = s.slice(1, -1).trim();
      if (!s) continue;
      el = s;
    }
    if (type === "Number") {
      const f = typeof el === "number" ? el : typeof el === "boolean" ? Number(el) : typeof el === "string" ? parsePyFloat(el) : undefined;
      if (f === undefined) continue;
      el = f;
    }
    if (el !== null && typeof el === "object") {
      throw unhandled(
        {
          path: `${ctx.path}.value`,
          expected: "a list of strings, numbers or booleans",
          found: Array.isArray(el) ? "a nested list" : "an object",
        },
        `unhashable type: '${Array.isArray(el) ? "list" : "dict"}'`,
      );
    }
    if (cleaned.some((c) => pyEquals(c, el as JsonValue))) continue;
    cleaned.push(el);
  }
  if (cleaned.length === 0) return operator === "in_list" ? { status: "none" } : { status: "skip" };
  return { status: "ok", value: { t: "list", v: cleaned } };
}

/** Python `==` between scalars (True == 1 == 1.0). */
function pyEquals(a: JsonValue, b: JsonValue): boolean {
  const num = (x: JsonValue) => (typeof x === "boolean" ? Number(x) : x);
  return num(a) === num(b) && (typeof a === "string") === (typeof b === "string");
}
