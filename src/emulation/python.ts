import type { JsonValue } from "../vocabulary/json.js";
import { floatRepr, pyRepr, strRepr } from "./python-json.js";
import { parsePyFloat } from "./python-text.js";

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
