/**
 * The generic end of the server's filter loop (docs/reference/filters.md#generic-operators,
 * docs/reference/filters.md#data-keys-and-null): data keys (JSON-typed
 * or cast to float), plain task columns and computed numbers, by operator.
 */
import type { JsonValue } from "../../../src/vocabulary/json.js";
import { counterColumns, plainColumns, type PlainKind } from "./columns.js";
import type { TaskFacts } from "./facts.js";
import { agree, type PossibleError, type Tri } from "./outcome.js";
import {
  castBool,
  dialectDiffers,
  icontains,
  jsonbEqual,
  keyText,
  pgFloat,
  pyFloat,
  pyTypeName,
  regexSearch,
  strptimeMicros,
} from "./pg.js";
import type { OCondition } from "./query.js";
import {
  dataPath,
  dataValue,
  err,
  expr,
  firstRowTypes,
  isRange,
  listEqualCheck,
  pyStr,
  truthy,
  unclear,
  type Ctx,
  type Step,
} from "./steps.js";

/** What a generic-path field holds for one task. */
type Field =
  | { readonly kind: "data"; readonly numeric: boolean; readonly at: (t: TaskFacts) => JsonValue | undefined | "unclear" }
  | {
      readonly kind: PlainKind;
      readonly column: string;
      readonly at: (t: TaskFacts) => readonly (number | string | boolean | null)[] | "unclear";
    };

type Cast = { ok: JsonValue | number } | { error: PossibleError } | { unclear: string };

function castScalar(type: string, v: JsonValue, what: string): Cast {
  if (type === "Number") {
    const f = pyFloat(v);
    return typeof f === "number"
      ? { ok: f }
      : f === "error"
        ? { error: { status: 500, reason: `float(${JSON.stringify(v)}) fails for ${what}` } }
        : { unclear: `float(${JSON.stringify(v)})` };
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

/** A condition on a data key or a plain column, after the special columns had their turn. */
export function genericCondition(c: OCondition, ctx: Ctx): Step {
  const { column, operator: op, type } = c;
  let v = c.value;
  const isData = column.startsWith("data.");
  // The generic path (docs/reference/filters.md#generic-operators).
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
      if (bad.length)
        atRun.push({ status: 500, reason: `CAST(${column} AS float) fails for task ${bad.map((t) => t.task.id).join(", ")}` });
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
    if (b === "error")
      return { kind: "error", error: { status: 500, reason: `empty: ${JSON.stringify(v)} is not a boolean string` }, maybe };
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
    const lo = castScalar(type, v.min, column),
      hi = castScalar(type, v.max, column);
    for (const x of [lo, hi]) {
      if ("error" in x) return { kind: "error", error: x.error, maybe };
      if ("unclear" in x) return unclear(ctx, x.unclear);
    }
    const a = (lo as { ok: JsonValue }).ok,
      b = (hi as { ok: JsonValue }).ok;
    const ge = compareLookup(field, type, ">=", a),
      le = compareLookup(field, type, "<=", b);
    if (!ge || !le) return unclear(ctx, `${operator} on ${column} with type ${type}`);
    lookup = (x) => {
      const p = ge(x),
        q = le(x);
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
    if (b === "error")
      return { kind: "error", error: { status: 500, reason: `empty: ${JSON.stringify(v)} is not a boolean string` }, maybe };
    nullIsTrue = true;
    lookup = () => false; // a non-NULL value is never "null"
    negated = !truthy(b);
  } else if (isRange(v)) {
    // cast_value sees `.max` and casts both ends (a Number end that is not numeric raises now);
    // the lookup then gets the range object itself, which each field treats its own way.
    if (type === "Number") {
      for (const end of [v.min, v.max])
        if (pyFloat(end) === "error")
          return { kind: "error", error: { status: 500, reason: `float(${JSON.stringify(end)}) fails for ${column}` }, maybe };
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
    const values: readonly (JsonValue | undefined)[] =
      field.kind === "data" ? [raw as JsonValue | undefined] : (raw as readonly (number | string | boolean | null)[]);
    return agree(
      values.map((x): Tri => {
        if (field.kind === "data") {
          const sqlNull =
            x === undefined ||
            (x === null && (field.numeric || textLookup(operator))) ||
            (field.numeric && keyText(x as JsonValue) === null);
          if (field.numeric && x !== undefined && x !== null && typeof pgFloat(keyText(x) as string) !== "number") {
            return "either"; // the cast fails: an error (atRun), or another condition drops the row first
          }
          if (nullIsTrue) {
            // data__key__isnull: a missing key; the cast field: missing or JSON null. A JSON null
            // under a plain isnull is not pinned by the spec.
            const isNull = field.numeric
              ? keyText(x as JsonValue | undefined) === null
              : x === undefined
                ? true
                : x === null
                  ? "either"
                  : false;
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

function compareLookup(
  field: Field,
  type: string,
  rel: ">=" | "<=" | "<" | ">",
  bound: JsonValue | number,
): ((x: JsonValue) => Tri | "unclear") | undefined {
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
      // equal, and every unknown operator (exact equality)
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
