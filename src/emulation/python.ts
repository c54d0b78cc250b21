import type { JsonValue } from "../vocabulary/json.js";
import { floatRepr, pyRepr, strRepr } from "./python-json.js";
import { pyStrip } from "./python-str.js";

/*
 * The Python side of the server: a filter value as pydantic hands it to `apply_filters`, and the
 * handful of Python built-ins whose exact behaviour decides what a filter matches (float(), int(),
 * str(), truthiness, strptime). Kept here so the engine's rules read like the server's code.
 */

/** A filter value after pydantic (`Union[StrictInt, StrictFloat, StrictBool, StrictStr, FilterIn, list]`). */
export type PyVal =
  | { readonly t: "str"; readonly v: string }
  | { readonly t: "int"; readonly v: number }
  | { readonly t: "float"; readonly v: number }
  | { readonly t: "bool"; readonly v: boolean }
  | { readonly t: "list"; readonly v: readonly JsonValue[] }
  | { readonly t: "range"; readonly min: PyVal; readonly max: PyVal }
  /** A naive datetime from `strptime` (read as UTC), in microseconds since the epoch. */
  | { readonly t: "datetime"; readonly micros: number }
  | { readonly t: "none" };

export const pyBool = (v: boolean): PyVal => ({ t: "bool", v });
export const pyFloatVal = (v: number): PyVal => ({ t: "float", v });
export const pyIntVal = (v: number): PyVal => ({ t: "int", v });

/**
 * A JSON number as Python's json module reads it. JavaScript cannot tell `5.0` from `5`, so an
 * integral number is an int (documented in docs/semantics.md).
 */
export function pyNumber(n: number): PyVal {
  return Number.isInteger(n) ? { t: "int", v: n } : { t: "float", v: n };
}

/** A filter value back as JSON (a FilterIn as its `{min, max}` object). */
export function pyToJson(v: PyVal): JsonValue {
  switch (v.t) {
    case "str":
    case "int":
    case "float":
    case "bool":
      return v.v;
    case "list":
      return v.v as JsonValue;
    case "range":
      return { min: pyToJson(v.min), max: pyToJson(v.max) };
    case "datetime":
      return datetimeStr(v.micros);
    case "none":
      return null;
  }
}

/** The Python type name, as `type(x).__name__` prints it (used in server error texts). */
export function pyTypeName(v: PyVal): string {
  switch (v.t) {
    case "range":
      return "FilterIn";
    case "datetime":
      return "datetime";
    case "none":
      return "NoneType";
    default:
      return v.t;
  }
}

// ---------------------------------------------------------------------------------------------
// str() and repr()

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** Python `str(datetime)` of a naive datetime: `YYYY-MM-DD HH:MM:SS[.ffffff]`. */
export function datetimeStr(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms);
  const micro = micros - Math.floor(micros / 1_000_000) * 1_000_000;
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return micro === 0 ? base : `${base}.${pad(micro, 6)}`;
}

/** Python `str(x)` of a filter value. */
export function str(v: PyVal): string {
  switch (v.t) {
    case "str":
      return v.v;
    case "int":
      return String(v.v);
    case "float":
      return floatRepr(v.v);
    case "bool":
      return v.v ? "True" : "False";
    case "list":
      return pyRepr(v.v);
    case "range":
      // pydantic's BaseModel.__str__
      return `min=${repr(v.min)} max=${repr(v.max)}`;
    case "datetime":
      return datetimeStr(v.micros);
    case "none":
      return "None";
  }
}

/** Python `repr(x)` of a filter value. */
export function repr(v: PyVal): string {
  if (v.t === "str") return strRepr(v.v);
  if (v.t === "datetime") return `datetime.datetime(${datetimeStr(v.micros)})`;
  if (v.t === "range") return `FilterIn(${str(v)})`;
  return str(v);
}

// ---------------------------------------------------------------------------------------------
// Conversions that can raise

export class PyError extends Error {
  constructor(
    readonly pyType: "ValueError" | "TypeError" | "OverflowError",
    message: string,
  ) {
    super(message);
  }
}

const FLOAT_TEXT = /^[+-]?(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** Python `float(str)`, or undefined when it would raise ValueError. */
export function parsePyFloat(text: string): number | undefined {
  const s = pyStrip(text);
  const special = FLOAT_SPECIAL.exec(s);
  if (special) {
    const sign = special[1] === "-" ? -1 : 1;
    return special[2]?.toLowerCase() === "nan" ? NaN : sign * Infinity;
  }
  return FLOAT_TEXT.test(s) ? Number(s.replace(/_/g, "")) : undefined;
}

/** Python `int(str)` (base 10), or undefined when it would raise ValueError. */
export function parsePyInt(text: string): number | undefined {
  const s = pyStrip(text);
  return /^[+-]?\d(?:_?\d)*$/.test(s) ? Number(s.replace(/_/g, "")) : undefined;
}

/** Python `float(x)`, or undefined where it raises (text that is no float, or not a real number). */
export function floatOf(v: PyVal): number | undefined {
  switch (v.t) {
    case "int":
    case "float":
      return v.v;
    case "bool":
      return v.v ? 1 : 0;
    case "str":
      return parsePyFloat(v.v);
    default:
      return undefined;
  }
}

/** Python `float(x)` for cast_value: raises like Python. */
export function toFloat(v: PyVal): number {
  const f = floatOf(v);
  if (f !== undefined) return f;
  if (v.t === "str") throw new PyError("ValueError", `could not convert string to float: ${strRepr(v.v)}`);
  throw new PyError("TypeError", `float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

/** `cast_bool_from_str` (core/utils/params.py): strings become booleans, anything else passes. */
export function castBoolFromStr(v: PyVal): PyVal {
  if (v.t !== "str") return v;
  const lower = v.v.toLowerCase();
  if (["true", "yes", "on", "1"].includes(lower)) return pyBool(true);
  if (["false", "no", "not", "off", "0"].includes(lower)) return pyBool(false);
  throw new PyError("ValueError", `Incorrect bool value "${v.v}". It should be one of [1, 0, true, false, yes, no]`);
}

/** Python truthiness (`if value:`). */
export function truthy(v: PyVal): boolean {
  switch (v.t) {
    case "str":
      return v.v.length > 0;
    case "int":
    case "float":
      return v.v !== 0;
    case "bool":
      return v.v;
    case "list":
      return v.v.length > 0;
    case "none":
      return false;
    default:
      return true;
  }
}

/**
 * Python `round(x, 2)`: the multiple of 0.01 nearest to the exact binary value, ties to even.
 * An exact tie needs x = odd/8 (only then is x*100 exactly k + 0.5); `toFixed` handles the rest
 * exactly but would round those ties up.
 */
export function round2(x: number): number {
  if (!Number.isFinite(x)) return x;
  if (Number.isInteger(x * 8) && !Number.isInteger(x * 4)) {
    const scaled = x * 100;
    const floor = Math.floor(scaled);
    return (floor % 2 === 0 ? floor : floor + 1) / 100;
  }
  return Number(x.toFixed(2));
}

// ---------------------------------------------------------------------------------------------
// datetime.strptime(value, '%Y-%m-%dT%H:%M:%S.%fZ')

// The regexes _strptime builds for these directives (1- or 2-digit fields, 1-6 fraction digits).
const STRPTIME =
  /^(\d{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])T(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)\.(\d{1,6})Z$/;

/** Microseconds since the epoch (naive, read as UTC), or undefined when strptime raises. */
export function strptimeMicros(value: string): number | undefined {
  const m = STRPTIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, f] = m;
  return naiveMicros(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), Number((f ?? "").padEnd(6, "0")));
}

/** A naive datetime's microseconds, or undefined when `datetime(...)` would raise ValueError. */
export function naiveMicros(y: number, mo: number, d: number, h: number, mi: number, s: number, micro: number): number | undefined {
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || micro > 999_999) return undefined;
  const last = new Date(0);
  last.setUTCFullYear(y, mo, 0); // day 0 of the next month: the last day of this one
  if (d > last.getUTCDate()) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime() * 1000 + micro;
}
