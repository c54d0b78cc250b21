import { positional, scientific, shortestDigits } from "./float-text.js";
import { isPlainObject } from "../vocabulary/json.js";

/**
 * A decoded JSON value as the server's Python sees it: `type(x).__name__`, truthiness, `repr()` and
 * `str()`. One home for both the parser's error texts (pydantic, DRF) and the engine's `str()` /
 * `repr()` of filter values (semantics imports these; wire cannot import semantics).
 * JavaScript cannot tell `5.0` from `5`, so an integral number is an int throughout.
 */

/** `type(value).__name__` for a decoded JSON value. */
export function pyType(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return isPlainObject(value) ? "dict" : typeof value;
}

/** `{type(x)}` in an f-string, e.g. `<class 'list'>`. */
export function pyClass(value: unknown): string {
  return `<class '${pyType(value)}'>`;
}

/** Python truthiness: the server's `if conjunction:` / `ordering or []`, the actions' optional fields. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** Python `repr(float)`: shortest round-trip digits, exponent when exp < -4 or >= 16. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const d = shortestDigits(x);
  if (d.exp < -4 || d.exp >= 16) return scientific(d);
  const text = positional(d);
  return text.includes(".") ? text : `${text}.0`;
}

/** Python `repr(str)`. */
export function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** `repr(value)` of a decoded JSON value (a missing value prints as None). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (typeof value === "string") return strRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${strRepr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** `str(value)`: like repr, except that a top-level string prints bare (f-string interpolation). */
export function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}
