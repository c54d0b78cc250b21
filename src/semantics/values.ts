import { match, P } from "ts-pattern";
import { describeValue, type JsonValue } from "../vocabulary/json.js";
import { unhandled, type EvaluationError } from "./errors.js";
import { castBoolFromStr, pyBool, pyFloatVal, pyNumber, PyError, toFloat, type PyVal } from "../emulation/python.js";
import { strptimeMicros } from "../emulation/python-text.js";

/**
 * How a filter value reaches `apply_filters`: pydantic's `Filter.value` union first (a shape it
 * refuses is a 500 before any filtering), then `cast_value` by the filter's `type`.
 */

const VALUE_UNION = "int, float, bool, str, { min, max } (FilterIn) or list";

/** pydantic: `Union[StrictInt, StrictFloat, StrictBool, StrictStr, FilterIn, list]`; throws a 500. */
export function pydanticValue(value: JsonValue, path: string): PyVal {
  if (value === null) throw pydanticError(path, value, "Input should be a valid integer, number, boolean, string, FilterIn or list");
  if (typeof value === "string") return { t: "str", v: value };
  if (typeof value === "boolean") return pyBool(value);
  if (typeof value === "number") return pyNumber(value);
  if (Array.isArray(value)) return { t: "list", v: value };
  const o = value as { readonly [k: string]: JsonValue };
  const end = (x: JsonValue | undefined): PyVal | undefined =>
    typeof x === "string" ? { t: "str", v: x } : typeof x === "number" ? pyNumber(x) : undefined;
  const min = end(o.min),
    max = end(o.max);
  if (min === undefined || max === undefined) {
    throw pydanticError(path, value, "FilterIn needs min and max, each an int, float or str");
  }
  return { t: "range", min, max };
}

function pydanticError(path: string, value: JsonValue, msg: string): EvaluationError {
  return unhandled(
    { path: `${path}.value`, expected: VALUE_UNION, found: describeValue(value) },
    `1 validation error for PrepareParams\nfilters.value\n  ${msg}`,
  );
}

/** Raise a Python exception raised while filtering as the server's 500. */
export function pyFailure(e: unknown, path: string, expected: string, value: PyVal | string): EvaluationError {
  if (!(e instanceof PyError)) throw e;
  return unhandled({ path, expected, found: typeof value === "string" ? value : describePy(value) }, e.message);
}

/**
 * A value's path with its description (`found`) worked out only when an error is built from it
 * (`{ ...where, expected }`): a filter that compiles names no value, and describing one costs a match.
 */
export function valueAt(path: string, value: PyVal): { readonly path: string; readonly found: string } {
  return {
    path,
    get found() {
      return describePy(value);
    },
  };
}

export function describePy(v: PyVal): string {
  return match(v)
    .with({ t: P.union("str", "list") }, (x) => describeValue(x.v))
    .with({ t: P.union("int", "float") }, (x) => `number ${x.v}`)
    .with({ t: "bool" }, (x) => `boolean ${x.v}`)
    .with({ t: "range" }, (x) => `{ min: ${describePy(x.min)}, max: ${describePy(x.max)} }`)
    .with({ t: "datetime" }, () => "a datetime")
    .with({ t: "none" }, () => "null")
    .exhaustive();
}

const DATETIME_EXPECTED = "a datetime in the form %Y-%m-%dT%H:%M:%S.%fZ";

/** `cast_value(_filter)`: Number -> float, Datetime -> strptime (unchanged when it fails), Boolean -> bool. */
export function castValue(v: PyVal, type: string, path: string): PyVal {
  const strptime = (x: PyVal): PyVal => {
    if (x.t !== "str") return x; // strptime raises TypeError, which cast_value swallows
    const micros = strptimeMicros(x.v);
    return micros === undefined ? x : { t: "datetime", micros };
  };
  try {
    if (v.t === "range") {
      if (type === "Number") return { t: "range", min: pyFloatVal(toFloat(v.min)), max: pyFloatVal(toFloat(v.max)) };
      if (type === "Datetime") {
        // min is assigned before max is parsed: a bad max leaves a parsed min.
        const min = strptime(v.min);
        if (min.t !== "datetime") return v;
        const max = strptime(v.max);
        return { t: "range", min, max: max.t === "datetime" ? max : v.max };
      }
      return v;
    }
    if (type === "Number") return pyFloatVal(toFloat(v));
    if (type === "Datetime") return strptime(v);
    if (type === "Boolean") return castBoolFromStr(v);
    return v;
  } catch (e) {
    const expected =
      type === "Number"
        ? "a number (the server casts with float())"
        : type === "Boolean"
          ? "true, false, yes, no, on, off, 1, 0 (any case)"
          : DATETIME_EXPECTED;
    throw pyFailure(e, `${path}.value`, expected, v);
  }
}
