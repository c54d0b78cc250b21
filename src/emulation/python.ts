import { match, P } from "ts-pattern";
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
  return match(v)
    .returnType<JsonValue>()
    .with({ t: P.union("str", "int", "float", "bool") }, (x) => x.v)
    .with({ t: "list" }, (x) => x.v as JsonValue)
    .with({ t: "range" }, (x) => ({ min: pyToJson(x.min), max: pyToJson(x.max) }))
    .with({ t: "datetime" }, (x) => datetimeStr(x.micros))
    .with({ t: "none" }, () => null)
    .exhaustive();
}

/** The Python type name, as `type(x).__name__` prints it (used in server error texts). */
export function pyTypeName(v: PyVal): string {
  return match(v.t)
    .with("range", () => "FilterIn")
    .with("datetime", () => "datetime")
    .with("none", () => "NoneType")
    .with("str", "int", "float", "bool", "list", (t) => t)
    .exhaustive();
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
  return (
    match(v)
      .with({ t: "str" }, (x) => x.v)
      .with({ t: "int" }, (x) => String(x.v))
      .with({ t: "float" }, (x) => floatRepr(x.v))
      .with({ t: "bool" }, (x) => (x.v ? "True" : "False"))
      .with({ t: "list" }, (x) => pyRepr(x.v))
      // pydantic's BaseModel.__str__
      .with({ t: "range" }, (x) => `min=${repr(x.min)} max=${repr(x.max)}`)
      .with({ t: "datetime" }, (x) => datetimeStr(x.micros))
      .with({ t: "none" }, () => "None")
      .exhaustive()
  );
}

/** Python `repr(x)` of a filter value. */
export function repr(v: PyVal): string {
  return match(v)
    .with({ t: "str" }, (x) => strRepr(x.v))
    .with({ t: "datetime" }, (x) => `datetime.datetime(${datetimeStr(x.micros)})`)
    .with({ t: "range" }, (x) => `FilterIn(${str(x)})`)
    .with({ t: P.union("int", "float", "bool", "list", "none") }, (x) => str(x))
    .exhaustive();
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
  return match(v)
    .returnType<number | undefined>()
    .with({ t: P.union("int", "float") }, (x) => x.v)
    .with({ t: "bool" }, (x) => (x.v ? 1 : 0))
    .with({ t: "str" }, (x) => parsePyFloat(x.v))
    .with({ t: P.union("list", "range", "datetime", "none") }, () => undefined)
    .exhaustive();
}

/** Python `float(x)` for cast_value: raises like Python. */
export function toFloat(v: PyVal): number {
  const f = floatOf(v);
  if (f !== undefined) return f;
  if (v.t === "str") throw new PyError("ValueError", `could not convert string to float: ${strRepr(v.v)}`);
  throw new PyError("TypeError", `float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

/** `cast_bool_from_str`'s words (core/utils/params.py), lower-case: the one list every reader of them uses. */
const CAST_BOOL_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  on: true,
  "1": true,
  false: false,
  no: false,
  not: false,
  off: false,
  "0": false,
};

/** The boolean `cast_bool_from_str` reads `text` as (any case), or undefined where it raises. */
export function castBoolWord(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  return Object.hasOwn(CAST_BOOL_WORDS, lower) ? CAST_BOOL_WORDS[lower] : undefined;
}

/** `cast_bool_from_str` (core/utils/params.py): strings become booleans, anything else passes. */
export function castBoolFromStr(v: PyVal): PyVal {
  if (v.t !== "str") return v;
  const known = castBoolWord(v.v);
  if (known !== undefined) return pyBool(known);
  throw new PyError("ValueError", `Incorrect bool value "${v.v}". It should be one of [1, 0, true, false, yes, no]`);
}

/** Python truthiness (`if value:`). */
export function truthy(v: PyVal): boolean {
  return match(v)
    .with({ t: P.union("str", "list") }, (x) => x.v.length > 0)
    .with({ t: P.union("int", "float") }, (x) => x.v !== 0)
    .with({ t: "bool" }, (x) => x.v)
    .with({ t: "none" }, () => false)
    .with({ t: P.union("range", "datetime") }, () => true)
    .exhaustive();
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
