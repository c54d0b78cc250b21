import { columnNames, columns } from "../vocabulary/columns.js";
import type { JsonValue } from "../vocabulary/json.js";
import type { OperatorName } from "../vocabulary/operators.js";
import { match, P } from "ts-pattern";
import type { Scalar, ScalarColumn } from "./columns.js";
import { PrepError, prepBool, prepFloat, prepInt, prepJson, prepText, prepTimestamp, type Lookup } from "../emulation/django.js";
import { rejected, unhandled } from "./errors.js";
import { jsonbCompare, jsonbEqual, jsonbFieldText } from "../emulation/jsonb.js";
import { and3, NULL_ROW, type Ctx, type Piece, type Tri } from "./pieces.js";
import { collate, compareFloat8, float8Text, pgUpper } from "../emulation/postgres.js";
import { castBoolFromStr, pyIntVal, pyTypeName, str, truthy, type PyVal } from "../emulation/python.js";
import type { AnnotationRecord } from "./records.js";
import { compilePgRegex } from "../emulation/regex/postgres-re.js";
import { arrayElementsText, authorOf, readerOfKey, scalarText, type Target } from "./targets.js";
import { keyTest } from "./plan.js";
import { moveRows } from "./rows.js";
import { castValue, pyFailure, valueAt } from "./values.js";
import type { Inline, InlineTest } from "./fused.js";

/**
 * The generic end of `apply_filters` (step 11 of docs/reference/filters.md#steps-within-a-line):
 * the counter `empty` rewrite, the first-row type check, the String/Unknown `empty` branch, then a
 * Django lookup chosen by the operator. Lookups are evaluated as Postgres would: three-valued, with
 * NULL failing a negated condition except on a nullable foreign key.
 */

/** The lookup suffix of each operator in managers.py's `operators` dict (unknown operators: exact). */
const SUFFIX: Partial<Record<OperatorName, Lookup | "icontains" | "regex" | "isnull">> = {
  equal: "exact",
  not_equal: "exact",
  less: "lt",
  greater: "gt",
  less_or_equal: "lte",
  greater_or_equal: "gte",
  contains: "icontains",
  not_contains: "icontains",
  regex: "regex",
  empty: "isnull",
};
type AnyLookup = Lookup | "icontains" | "regex";

/** The counter columns (total_annotations, cancelled_annotations, total_predictions): `empty` means == 0. */
const COUNTERS: ReadonlySet<string> = new Set(columnNames.filter((c) => columns[c].kind === "counter"));

interface Condition {
  readonly column: string;
  readonly operator: string;
  readonly type: string;
  readonly value: PyVal;
}

/** A positive test on a target's value, three-valued; `keys` when it is `v = key` for one of them. */
type Positive = ((v: unknown) => Tri) & {
  readonly keys?: ReadonlySet<unknown>;
  readonly cost?: number;
  /** The same test by task index, on a kept text column (a reused dataset). */
  readonly at?: (i: number) => Tri;
  /** `test(get(i)) === true` by task index, reading a number column straight (no NULL boxing, no compare closure). */
  readonly holds?: Holds;
};

/** A number test by task index; `cmp` when a fused scan can write it inline on the target's inline read. */
type Holds = ((i: number) => boolean) & { readonly cmp?: InlineTest };
const withCmp = (holds: (i: number) => boolean, cmp: InlineTest): Holds => Object.assign(holds, { cmp });

/** A text scan (contains, regex) costs more than a column read: AND-ed lines run it last. */
const TEXT_COST = 16;

/** An equality test on prepared scalar keys (see Lookup): the test and the keys a lookup uses. */
function equality(test: (v: unknown) => Tri, keys: readonly unknown[]): Positive {
  return Object.assign(test, { keys: new Set(keys) });
}

export function genericPiece(ctx: Ctx, cond: Condition, target: Target): Piece {
  let { operator, value } = cond;
  const { type } = cond;
  const at = valueAt(`${ctx.path}.value`, value);

  // special case: predictions, annotations, cancelled --- for them 0 is equal to is_empty=True
  if (target.t === "scalar" && COUNTERS.has(cond.column) && operator === "empty") {
    operator = truthy(boolOrFail(value, ctx.path)) ? "equal" : "not_equal";
    value = pyIntVal(0);
  }

  if ((target.firstPyType === "list" || target.firstPyType === "tuple") && operator.includes("equal")) {
    throw rejected(
      { path: `${ctx.path}.operator`, expected: "an operator without 'equal' for a column holding lists", found: operator },
      "Not supported filter type",
    );
  }

  if ((type === "String" || type === "Unknown") && operator === "empty") {
    return emptyBranch(ctx, target, truthy(boolOrFail(value, ctx.path)));
  }

  if (operator === "in" || operator === "not_in") {
    const cast = castValue(value, type, ctx.path);
    if (cast.t !== "range") {
      throw unhandled({ ...at, expected: "{ min, max }" }, `'${pyTypeName(cast)}' object has no attribute 'min'`);
    }
    const lo = positive(ctx, target, "gte", cast.min);
    const hi = positive(ctx, target, "lte", cast.max);
    const both = (v: unknown) => and3(lo(v), hi(v));
    const between = cast.t === "range" && numberBetween(ctx, target, cast.min, cast.max);
    const test: Positive = between ? Object.assign(both, { holds: between }) : both;
    return piece(ctx, target, test, operator === "not_in");
  }
  if (operator === "in_list" || operator === "not_in_list") {
    // Django's In lookup discards None; with nothing left it matches nothing (and its negation everything).
    const list = (value.t === "list" ? value.v : []).filter((el) => el !== null);
    if (list.length === 0) return operator === "in_list" ? { k: "false" } : { k: "task", test: () => true };
    const tests = list.map((el) => positive(ctx, target, "exact", fromListElement(el, type)));
    const anyOf = (v: unknown): Tri => {
      let result: Tri = false;
      for (const t of tests) {
        const r = t(v);
        if (r === true) return true;
        if (r === null) result = null;
      }
      return result;
    };
    // Every element an equality on a scalar key: one set lookup (`IN (…)` over a hash).
    const keyed = tests.every((t) => t.keys !== undefined);
    const test = keyed
      ? equality(
          anyOf,
          tests.flatMap((t) => [...(t.keys as ReadonlySet<unknown>)]),
        )
      : anyOf;
    return piece(ctx, target, test, operator === "not_in_list");
  }
  if (operator === "empty") {
    const isNull = truthy(boolOrFail(value, ctx.path));
    // `(data -> 'key') IS NULL`: a missing key; a JSON null is a value.
    const test: Positive = target.t === "json" ? (v) => v === undefined : (v) => v === null || v === undefined;
    return piece(ctx, target, test, !isNull, true);
  }
  const lookup = (SUFFIX[operator as OperatorName] ?? "exact") as AnyLookup;
  const cast = castValue(value, type, ctx.path);
  return piece(ctx, target, positive(ctx, target, lookup, cast), operator.startsWith("not_"));
}

/** In-list elements were normalised already: numbers are floats for Number filters. */
function fromListElement(el: JsonValue, type: string): PyVal {
  if (typeof el === "number")
    return type === "Number" ? { t: "float", v: el } : Number.isInteger(el) ? { t: "int", v: el } : { t: "float", v: el };
  if (typeof el === "string") return { t: "str", v: el };
  if (typeof el === "boolean") return { t: "bool", v: el };
  if (el === null) return { t: "none" };
  return { t: "list", v: el as readonly JsonValue[] };
}

function boolOrFail(value: PyVal, path: string): PyVal {
  try {
    return castBoolFromStr(value);
  } catch (e) {
    throw pyFailure(e, `${path}.value`, "true or false (or yes/no, on/off, 1/0 as text)", value);
  }
}

/**
 * Wrap a positive test as the Q (negated: ~Q) the server builds. NULL fails either way, except that
 * Django adds `OR col IS NULL` to a negated lookup on a nullable foreign key; `isnull` is two-valued.
 */
function piece(ctx: Ctx, target: Target, test: Positive, negated: boolean, twoValued = false): Piece {
  if (target.t === "annAuthor") {
    const row = (a: AnnotationRecord | null) => test(authorOf(a));
    // ~Q on a multi-valued relation is a subquery: NOT EXISTS (a row for which the condition holds).
    return negated ? notExistsRow(ctx.ds, row) : { k: "ann", test: (a) => row(a) === true, key: authorOf };
  }
  const get = target.get as (i: number) => unknown;
  const nullPasses = target.t === "scalar" && target.col.nullableFk === true && !twoValued;
  if (!negated && test.keys !== undefined && target.t !== "array") {
    // `v = key` is true exactly when the key set holds v (NULL and other types are not keys).
    const keys = test.keys;
    const read = "inline" in target ? target.inline : undefined;
    return {
      k: "task",
      test: keyTest(get, keys),
      lookup: { target: target.key, get, keys, ...(read ? { read } : {}) },
      ...inlined(read && { read, test: { t: "in", keys } }),
    };
  }
  const cost = test.cost === undefined ? {} : { cost: test.cost };
  const at = test.at;
  if (!negated) {
    const cmp = test.holds?.cmp,
      read = "inline" in target ? target.inline : undefined;
    // Inline: a number test on the value read, or the condition's own test of it (not on a kept column).
    const inline =
      read &&
      (cmp ? { read, test: cmp } : test.holds === undefined && at === undefined ? { read, test: { t: "is", test } as const } : undefined);
    return { k: "task", test: test.holds ?? (at ? (i) => at(i) === true : (i) => test(get(i)) === true), ...cost, ...inlined(inline) };
  }
  return {
    k: "task",
    test: (i) => {
      const r = at ? at(i) : test(get(i));
      return r === null ? nullPasses : !r;
    },
    ...cost,
  };
}

const inlined = (inline: Inline | undefined) => (inline === undefined ? {} : { inline });

export function notExistsRow(ds: Ctx["ds"], rowTest: (a: AnnotationRecord | null) => Tri): Piece {
  const anns = ds.annotations;
  return {
    k: "task",
    test: (i) => {
      const rows = (anns[i] as readonly AnnotationRecord[]).length ? (anns[i] as readonly AnnotationRecord[]) : NULL_ROW;
      for (const a of rows) if (a !== null && rowTest(a) === true) return false;
      return true;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Positive lookups

function positive(ctx: Ctx, target: Target, lookup: AnyLookup, value: PyVal): Positive {
  const where = valueAt(`${ctx.path}.value`, value);
  if (lookup === "icontains") {
    const needle = pgUpper(str(value));
    const text = textOf(target);
    const upper = (v: unknown) => {
      const h = text(v);
      return h === null ? null : pgUpper(h);
    };
    const test = (v: unknown): Tri => {
      const h = text(v);
      return h === null ? null : pgUpper(h).includes(needle);
    };
    const column = textColumn(ctx, target, "upper", upper);
    if (column === undefined) return Object.assign(test, { cost: TEXT_COST });
    const at = (i: number): Tri => {
      const h = column[i] as string | null;
      return h === null ? null : h.includes(needle);
    };
    // The positive test in one call per task (a scan of every task per fresh query).
    const holds = (i: number): boolean => {
      const h = column[i] as string | null;
      return h !== null && h.includes(needle);
    };
    return Object.assign(test, { cost: TEXT_COST, at, holds });
  }
  if (lookup === "regex") {
    if (value.t !== "str") {
      const sqlType = {
        int: "integer",
        float: "numeric",
        bool: "boolean",
        datetime: "timestamp without time zone",
        list: "text[]",
        range: "FilterIn",
        none: "unknown",
        str: "text",
      }[value.t];
      ctx.pending.sql.push(unhandled({ ...where, expected: "a regular expression (text)" }, `operator does not exist: text ~ ${sqlType}`));
      return () => false;
    }
    const re = compilePgRegex(value.v);
    if (re.kind !== "ok") {
      const unsupported = re.kind === "unsupported";
      ctx.pending.sql.push(
        unhandled(
          {
            ...where,
            expected: unsupported
              ? "a regex a linear-time engine can run (no lookahead, no backreferences)"
              : "a regular expression Postgres accepts",
          },
          unsupported ? `dmq cannot evaluate this regex: ${re.reason}` : re.detail,
          unsupported,
        ),
      );
      return () => false;
    }
    const text = textOf(target);
    const test = (v: unknown): Tri => {
      const h = text(v);
      return h === null ? null : re.test(h);
    };
    const column = textColumn(ctx, target, "text", text);
    const at =
      column &&
      ((i: number): Tri => {
        const h = column[i] as string | null;
        return h === null ? null : re.test(h);
      });
    return Object.assign(test, { cost: TEXT_COST }, at ? { at } : {});
  }
  return compare(ctx, target, lookup, value);
}

/**
 * Every task's text form of a column or data key (`kind` names the form: as read, or upper-cased
 * for contains), kept as an index by a reused dataset: a scan then reads one array.
 */
function textColumn(ctx: Ctx, target: Target, kind: string, form: (v: unknown) => string | null): readonly (string | null)[] | undefined {
  if (target.t !== "json" && target.t !== "scalar") return undefined;
  const get = target.get as (i: number) => unknown;
  const { ds } = ctx;
  const n = ds.size;
  return ds.index(
    `${kind}:${target.key}`,
    () => {
      const out = new Array<string | null>(n);
      for (let i = 0; i < n; i++) out[i] = form(get(i));
      return out;
    },
    (column, p) => {
      const read = readerOfKey(ds, target.key);
      moveRows(column, p, null);
      for (const i of p.changed) column[i] = form(read(i));
      return column;
    },
  );
}

/** A comparison's prepared test: final (an equality, or a failure), or a three-way compare for `<`, `>`, `=`. */
type Prepared = { readonly done: Positive } | { readonly cmp: (v: unknown) => number | null };

function compare(ctx: Ctx, target: Target, lookup: Lookup, value: PyVal): Positive {
  const where = valueAt(`${ctx.path}.value`, value);
  let prepared: Prepared;
  try {
    prepared = match(target)
      .returnType<Prepared>()
      .with({ t: "array" }, () => {
        ctx.pending.sql.push(
          unhandled(
            { ...where, expected: "an operator this list column supports (contains, not_contains, empty)" },
            `malformed array literal: "${str(value)}"`,
          ),
        );
        return { done: () => false };
      })
      .with({ t: "json" }, () => {
        const rhs = prepJson(value);
        if (lookup === "exact") {
          const test = (v: unknown): Tri => (v === undefined ? null : jsonbEqual(v as JsonValue, rhs));
          // jsonb equality with a scalar is same type and same value (strings: same text).
          return { done: rhs === null || typeof rhs === "object" ? test : equality(test, [rhs]) };
        }
        return { cmp: (v) => (v === undefined ? null : jsonbCompare(v as JsonValue, rhs)) };
      })
      .with({ t: "dataNumber" }, () => numeric(prepFloat(value, "None"), lookup))
      .with({ t: "annAuthor" }, () => {
        const rhs = prepInt(value, lookup, "id");
        return { cmp: (v) => (v === null ? null : (v as number) - rhs) };
      })
      .with({ t: "scalar" }, ({ col }) => {
        const rhs = prepScalar(col, lookup, value);
        return match(col.db)
          .returnType<Prepared>()
          .with("text", () =>
            lookup === "exact"
              ? { done: equality((v) => (v === null ? null : v === rhs), [rhs]) }
              : { cmp: (v) => (v === null ? null : collate(v as string, rhs as string)) },
          )
          .with("bool", () =>
            lookup === "exact"
              ? { done: equality((v) => (v === null ? null : v === rhs), [rhs]) }
              : { cmp: (v) => (v === null ? null : Number(v) - Number(rhs)) },
          )
          .with(P.union("int", "float", "timestamp"), () => numeric(rhs as number, lookup))
          .exhaustive();
      })
      .exhaustive();
  } catch (e) {
    if (!(e instanceof PrepError)) throw e;
    ctx.pending.filter.push(unhandled({ ...where, expected: expectedFor(target) }, e.message));
    return () => false;
  }
  if ("done" in prepared) return prepared.done;
  const test = prepared.cmp;
  const positive = match(lookup)
    .returnType<Positive>()
    .with("exact", () => (v) => nullOr(test(v), (c) => c === 0))
    .with("lt", () => (v) => nullOr(test(v), (c) => c < 0))
    .with("gt", () => (v) => nullOr(test(v), (c) => c > 0))
    .with("lte", () => (v) => nullOr(test(v), (c) => c <= 0))
    .with("gte", () => (v) => nullOr(test(v), (c) => c >= 0))
    .exhaustive();
  const holds = numberHolds(ctx, target, lookup, value);
  return holds === undefined ? positive : Object.assign(positive, { holds });
}

/** The prepared number a comparison on a number column tests against, when it is finite (else the general test). */
function finiteRhs(target: Target, lookup: Lookup, value: PyVal): number | undefined {
  let rhs: number;
  try {
    if (target.t === "dataNumber") rhs = prepFloat(value, "None");
    else if (target.t === "scalar" && (target.col.db === "int" || target.col.db === "timestamp"))
      rhs = prepScalar(target.col, lookup, value) as number;
    else return undefined;
  } catch {
    return undefined;
  }
  return Number.isFinite(rhs) ? rhs : undefined;
}

/**
 * `lo <= v <= hi` (the `in` operator) in one read per task, on the same number columns as
 * numberHolds. NULL and NaN (greater than every number) fail it.
 */
function numberBetween(ctx: Ctx, target: Target, min: PyVal, max: PyVal): Holds | undefined {
  const lo = finiteRhs(target, "gte", min),
    hi = finiteRhs(target, "lte", max);
  if (lo === undefined || hi === undefined) return undefined;
  const get = streamedNumbers(target);
  if (get !== undefined) {
    return withCmp(
      (i) => {
        const v = get(i);
        return v !== null && v >= lo && v <= hi;
      },
      { t: "between", lo, hi },
    );
  }
  if (target.t === "dataNumber" && target.cast !== undefined) {
    const { values, nulls } = target.cast;
    return (i) => nulls[i] === 0 && (values[i] as number) >= lo && (values[i] as number) <= hi;
  }
  const col = target.t === "scalar" ? target.col : undefined;
  const values = col?.numbers?.(ctx.ds);
  if (values !== undefined) return (i) => (values[i] as number) >= lo && (values[i] as number) <= hi;
  if (col?.primaryKey !== true) return undefined;
  const ds = ctx.ds;
  return withCmp((i) => ds.idAt(i) >= lo && ds.idAt(i) <= hi, { t: "between", lo, hi });
}

/**
 * A float8 order comparison with a finite number, straight on a number column: the typed column
 * of a counter, timestamp or inner_id (NaN for NULL; no other NaN), the id, or a data key's cast
 * (where NaN is a value, greater than every number, as in Postgres). Undefined: the general test.
 */
function numberHolds(ctx: Ctx, target: Target, lookup: Lookup, value: PyVal): Holds | undefined {
  if (lookup === "exact") return undefined;
  const rhs = finiteRhs(target, lookup, value);
  if (rhs === undefined) return undefined;
  const get = streamedNumbers(target);
  if (get !== undefined) {
    // plain switch: per-task hot loop. NaN is a value here, greater than every number.
    switch (lookup) {
      case "lt":
        return withCmp((i) => (get(i) ?? NaN) < rhs, { t: "lt", rhs });
      case "lte":
        return withCmp((i) => (get(i) ?? NaN) <= rhs, { t: "lte", rhs });
      case "gt":
        return withCmp(
          (i) => {
            const v = get(i);
            return v !== null && !(v <= rhs);
          },
          { t: "gt", rhs },
        );
      default:
        return withCmp(
          (i) => {
            const v = get(i);
            return v !== null && !(v < rhs);
          },
          { t: "gte", rhs },
        );
    }
  }
  if (target.t === "dataNumber" && target.cast !== undefined) {
    const { values, nulls } = target.cast;
    switch (lookup) {
      case "lt":
        return (i) => (values[i] as number) < rhs && nulls[i] === 0;
      case "lte":
        return (i) => (values[i] as number) <= rhs && nulls[i] === 0;
      case "gt":
        return (i) => nulls[i] === 0 && !((values[i] as number) <= rhs);
      default:
        return (i) => nulls[i] === 0 && !((values[i] as number) < rhs);
    }
  }
  const col = target.t === "scalar" ? target.col : undefined;
  const values = col?.numbers?.(ctx.ds);
  if (values === undefined) {
    // The id: never NULL, read without the record when ids are consecutive.
    if (col?.primaryKey !== true) return undefined;
    const ds = ctx.ds;
    // Inline on the record's id: never NULL, so the fused forms (NULL fails) test alike.
    switch (lookup) {
      case "lt":
        return withCmp((i) => ds.idAt(i) < rhs, { t: "lt", rhs });
      case "lte":
        return withCmp((i) => ds.idAt(i) <= rhs, { t: "lte", rhs });
      case "gt":
        return withCmp((i) => ds.idAt(i) > rhs, { t: "gt", rhs });
      default:
        return withCmp((i) => ds.idAt(i) >= rhs, { t: "gte", rhs });
    }
  }
  // NaN (NULL) fails every comparison.
  switch (lookup) {
    case "lt":
      return (i) => (values[i] as number) < rhs;
    case "lte":
      return (i) => (values[i] as number) <= rhs;
    case "gt":
      return (i) => (values[i] as number) > rhs;
    default:
      return (i) => (values[i] as number) >= rhs;
  }
}

/**
 * The numbers a comparison reads one task at a time (null: NULL), when the dataset keeps no column
 * of them and was never asked for one: a data key's streamed cast, a timestamp column's parse.
 */
function streamedNumbers(target: Target): ((i: number) => number | null) | undefined {
  if (target.t === "dataNumber") return target.cast === undefined ? target.get : undefined;
  return target.t === "scalar" ? target.streamed : undefined;
}

/** A float8 comparison with a prepared number (an equality for `exact`). */
function numeric(rhs: number, lookup: Lookup): Prepared {
  if (lookup === "exact") return { done: equality((v) => (v === null ? null : compareFloat8(v as number, rhs) === 0), [rhs]) };
  return { cmp: (v) => (v === null ? null : compareFloat8(v as number, rhs)) };
}

/** Django's `get_prep_value` of a lookup value for a scalar column; raises PrepError. */
function prepScalar(col: ScalarColumn, lookup: Lookup, value: PyVal): Scalar {
  return match(col.db)
    .returnType<Scalar>()
    .with("text", () => prepText(value))
    .with("bool", () => prepBool(value))
    .with("int", () => prepInt(value, lookup, col.field))
    .with("float", () => prepFloat(value, col.field))
    .with("timestamp", () => prepTimestamp(value))
    .exhaustive();
}

const nullOr = (c: number | null, f: (c: number) => boolean): Tri => (c === null ? null : f(c));

function expectedFor(target: Target): string {
  return match(target)
    .with(
      { t: "scalar" },
      ({ col }) => ({ int: "an integer", float: "a number", timestamp: "a datetime (ISO 8601)", bool: "a boolean", text: "text" })[col.db],
    )
    .with({ t: "json" }, () => "a JSON-serialisable value")
    .with({ t: P.union("array", "dataNumber", "annAuthor") }, () => "a number")
    .exhaustive();
}

/** The text form a `contains` / `regex` reads; null for SQL NULL. */
function textOf(target: Target): (v: unknown) => string | null {
  return match(target)
    .returnType<(v: unknown) => string | null>()
    .with(
      { t: "scalar" },
      ({ col }) =>
        (v) =>
          scalarText(col, v as Scalar | null),
    )
    .with(
      { t: "array" },
      ({ col }) =>
        (v) =>
          arrayElementsText(col, v as readonly (Scalar | JsonValue)[]),
    )
    .with({ t: "json" }, () => (v) => (v === undefined ? null : jsonbFieldText(v as JsonValue)))
    .with({ t: "dataNumber" }, () => (v) => (v === null ? null : float8Text(v as number)))
    .with({ t: "annAuthor" }, () => (v) => (v === null ? null : String(v)))
    .exhaustive();
}

// ---------------------------------------------------------------------------------------------
// `empty` on String / Unknown filters

/**
 * `Q(f=None) | Q(f__isnull=True)`, plus `Q(f='')` when the first row's value is a str; a first
 * row holding a list replaces it all with `Q(f=[None])`. `empty: false` negates each part.
 */
function emptyBranch(ctx: Ctx, target: Target, empty: boolean): Piece {
  const strType = target.firstPyType === "str",
    listType = target.firstPyType === "list";
  return match(target)
    .returnType<Piece>()
    .with({ t: "json" }, ({ get }) => {
      const isNullList = (v: JsonValue | undefined) => v !== undefined && jsonbEqual(v, [null]);
      if (listType) return { k: "task", test: empty ? (i) => isNullList(get(i)) : (i) => get(i) !== undefined && !isNullList(get(i)) };
      return {
        k: "task",
        test: empty
          ? (i) => {
              const v = get(i);
              return v === undefined || v === null || (strType && v === "");
            }
          : (i) => {
              const v = get(i);
              return v !== undefined && v !== null && !(strType && v === "");
            },
      };
    })
    .with({ t: "array" }, ({ get }) => {
      const isNullList = (v: readonly unknown[]) => v.length === 1 && v[0] === null;
      if (listType) return { k: "task", test: empty ? (i) => isNullList(get(i)) : (i) => !isNullList(get(i)) };
      return { k: "task", test: () => !empty };
    })
    .with({ t: "annAuthor" }, () =>
      empty ? { k: "ann", test: (a) => authorOf(a) === null, key: authorOf } : notExistsRow(ctx.ds, (a) => authorOf(a) === null),
    )
    .with({ t: P.union("dataNumber", "scalar") }, (t) => {
      const get = t.get as (i: number) => Scalar | null;
      if (strType && t.t === "scalar" && t.col.db !== "text") {
        // Q(f='') on a non-text column: Django cannot prepare '' for it.
        try {
          prepScalar(t.col, "exact", { t: "str", v: "" });
        } catch (e) {
          if (e instanceof PrepError)
            ctx.pending.filter.push(unhandled({ path: `${ctx.path}.value`, expected: expectedFor(t), found: "''" }, e.message));
        }
      }
      return {
        k: "task",
        test: empty
          ? (i) => {
              const v = get(i);
              return v === null || (strType && v === "");
            }
          : (i) => {
              const v = get(i);
              return v !== null && !(strType && v === "");
            },
      };
    })
    .exhaustive();
}
