import { match, P } from "ts-pattern";
import { floatOf, repr, str, type PyVal } from "./python.js";
import { naiveMicros, parsePyInt } from "./python-text.js";
import type { JsonValue } from "../vocabulary/json.js";

/*
 * The Django side: how a model field prepares a lookup value (`get_prep_value`), which is where a
 * value of the wrong kind becomes a 500, and how a timestamp string is parsed (`parse_datetime`).
 */

/** Raised at `.filter()` time: Django could not prepare the value for the field. */
export class PrepError extends Error {}

export type Lookup = "exact" | "lt" | "gt" | "lte" | "gte";

/** IntegerField: `int(value)`; floats are truncated, except `gte`/`lt` round up (IntegerFieldFloatRounding). */
export function prepInt(v: PyVal, lookup: Lookup, field: string): number {
  const fail = () => new PrepError(`Field '${field}' expected a number but got ${repr(v)}.`);
  return match(v)
    .with({ t: "int" }, (x) => x.v)
    .with({ t: "bool" }, (x) => (x.v ? 1 : 0))
    .with({ t: "float" }, (x) => {
      if (Number.isNaN(x.v)) throw new PrepError("cannot convert float NaN to integer");
      if (!Number.isFinite(x.v)) throw new PrepError("cannot convert float infinity to integer");
      return lookup === "gte" || lookup === "lt" ? Math.ceil(x.v) : Math.trunc(x.v);
    })
    .with({ t: "str" }, (x) => {
      const n = parsePyInt(x.v);
      if (n === undefined) throw fail();
      return n;
    })
    .with({ t: P.union("list", "range", "datetime", "none") }, () => {
      throw fail();
    })
    .exhaustive();
}

/** FloatField: `float(value)`. */
export function prepFloat(v: PyVal, field: string): number {
  const n = floatOf(v);
  if (n === undefined) throw new PrepError(`Field '${field}' expected a number but got ${repr(v)}.`);
  return n;
}

const INVALID_FORMAT = (s: string) => `['“${s}” value has an invalid format. It must be in YYYY-MM-DD HH:MM[:ss[.uuuuuu]][TZ] format.']`;
const INVALID_DATE = (s: string) =>
  `['“${s}” value has the correct format (YYYY-MM-DD HH:MM[:ss[.uuuuuu]][TZ]) but it is an invalid date/time.']`;

/** DateTimeField: a datetime passes; a string goes through `parse_datetime` / `parse_date`. */
export function prepTimestamp(v: PyVal): number {
  return match(v)
    .with({ t: "datetime" }, (x) => x.micros)
    .with({ t: "str" }, (x) => {
      const parsed = parseDjangoDatetime(x.v);
      if (parsed === "invalid") throw new PrepError(INVALID_FORMAT(x.v));
      if (parsed === "invalid-date") throw new PrepError(INVALID_DATE(x.v));
      return parsed;
    })
    .with({ t: P.union("int", "float", "bool", "list", "range", "none") }, () => {
      throw new PrepError(`fromisoformat: argument must be str`);
    })
    .exhaustive();
}

// datetime.fromisoformat (Python 3.11) and Django's datetime_re, then parse_date.
const ISO =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:.(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:\.\d{1,6})?)?)?)?$/s;
const DJANGO = /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d{0,6})?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

/** Microseconds (naive values are UTC), "invalid" (no format matched) or "invalid-date" (matched, out of range). */
export function parseDjangoDatetime(s: string): number | "invalid" | "invalid-date" {
  for (const re of [ISO, DJANGO]) {
    const m = re.exec(s);
    if (!m) continue;
    const [, y, mo, d, h = "0", mi = "0", sec = "0", frac = "", zone] = m;
    const micros = naiveMicros(
      Number(y),
      Number(mo),
      Number(d),
      Number(h),
      Number(mi),
      Number(sec),
      Number(frac.slice(0, 6).padEnd(6, "0")),
    );
    if (micros === undefined) return "invalid-date";
    return micros - zoneMicros(zone);
  }
  const m = DATE.exec(s);
  if (!m) return "invalid";
  const micros = naiveMicros(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, 0);
  return micros === undefined ? "invalid-date" : micros;
}

function zoneMicros(zone: string | undefined): number {
  if (!zone || zone === "Z") return 0;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(/:/g, "");
  return (
    sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || "0") * 60 + Number(digits.slice(4, 6) || "0")) * 1_000_000
  );
}

/** BooleanField.to_python. */
export function prepBool(v: PyVal): boolean {
  const invalid = () => new PrepError(`['“${str(v)}” value must be either True or False.']`);
  return (
    match(v)
      .with({ t: "bool" }, (x) => x.v)
      // `===`, not a literal pattern (ts-pattern compares those with Object.is): -0.0 is False.
      .with({ t: P.union("int", "float"), v: P.when((n) => n === 0 || n === 1) }, (x) => x.v === 1)
      .with({ t: "str", v: P.union("t", "True", "1") }, () => true)
      .with({ t: "str", v: P.union("f", "False", "0") }, () => false)
      .with({ t: P.union("str", "int", "float", "list", "range", "datetime", "none") }, () => {
        throw invalid();
      })
      .exhaustive()
  );
}

/** CharField/TextField: `str(value)`. */
export function prepText(v: PyVal): string {
  return str(v);
}

/** JSONField (a `data` key): the value is sent as JSON; what json.dumps cannot encode is a 500. */
export function prepJson(v: PyVal): JsonValue {
  return match(v)
    .returnType<JsonValue>()
    .with({ t: P.union("str", "int", "bool") }, (x) => x.v)
    .with({ t: "float" }, (x) => {
      if (!Number.isFinite(x.v)) throw new PrepError(`invalid input syntax for type json`);
      return x.v;
    })
    .with({ t: "list" }, (x) => x.v as JsonValue)
    .with({ t: "datetime" }, () => {
      throw new PrepError("Object of type datetime is not JSON serializable");
    })
    .with({ t: "range" }, () => {
      throw new PrepError("Object of type FilterIn is not JSON serializable");
    })
    .with({ t: "none" }, () => null)
    .exhaustive();
}
