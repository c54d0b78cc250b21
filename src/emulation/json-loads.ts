import { PyException } from "./exceptions.js";

/**
 * Python's `json.loads` (the C scanner of `Modules/_json.c`, CPython 3.10-3.12 messages) as DRF's JSONParser
 * calls it (`rest_framework/parsers.py` `JSONParser.parse` through `rest_framework/utils/json.py`): what it
 * accepts, what it returns, and the exact text of each error. Iterative, so no body can exhaust the stack;
 * Python's own nesting limit is its recursion limit (a `RecursionError`, not a ValueError), modelled by
 * `maxDepth`.
 *
 * Differences that stay: integers beyond ±2^53 lose precision (JavaScript numbers), and `1.0` decodes to
 * the same number as `1` (Python keeps a float); object keys that look like array indexes come first in a
 * JavaScript object, so their order differs from Python's insertion order.
 */

/** `json.JSONDecodeError` (a ValueError): `msg: line L column C (char P)`, positions in code points. */
export class JSONDecodeError extends PyException {
  /** The position in code points, as Python counts. */
  readonly pos: number;
  constructor(
    readonly msg: string,
    doc: string,
    index: number,
  ) {
    const { pos, line, column } = pythonPosition(doc, index);
    super("JSONDecodeError", `${msg}: line ${line} column ${column} (char ${pos})`, true);
    this.pos = pos;
  }
}

const valueError = (message: string) => new PyException("ValueError", message, true);

/** Line, column and character position of a UTF-16 index, counted in code points as Python does. */
function pythonPosition(doc: string, index: number): { pos: number; line: number; column: number } {
  let pos = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index && i < doc.length; i++) {
    const c = doc.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < index) {
      const d = doc.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    pos++;
    if (c === 0x0a) {
      line++;
      lineStart = pos;
    }
  }
  if (index > doc.length) pos += index - doc.length;
  return { pos, line, column: pos - lineStart + 1 };
}

export interface LoadsOptions {
  /**
   * What `NaN`, `Infinity` and `-Infinity` become. DRF passes `strict_constant`, which raises
   * `ValueError("Out of range float values are not JSON compliant: 'NaN'")`; plain `json.loads` accepts them.
   */
  readonly constants?: "reject" | "accept";
  /** Deepest nesting of arrays and objects before Python's RecursionError (default 1000, the recursion limit). */
  readonly maxDepth?: number;
}

/** CPython's default recursion limit; the scanner enters one level per array or object. */
export const PYTHON_RECURSION_LIMIT = 1000;
/** `sys.get_int_max_str_digits()` default (CPython 3.11+). */
const INT_MAX_STR_DIGITS = 4300;

const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

function skipWs(s: string, i: number): number {
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  return i;
}

/** Sets a key like a Python dict does (last value wins), including a key named `__proto__`. */
export function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

const escapes: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function hex4(s: string, at: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const d = Number.parseInt(s.charAt(at + k), 16);
    if (Number.isNaN(d)) return -1;
    v = (v << 4) | d;
  }
  return v;
}

/** `scanstring_unicode(s, end, strict=True)`: `end` is the index after the opening quote. */
function scanString(s: string, end: number): [string, number] {
  const begin = end - 1;
  const len = s.length;
  let out = "";
  for (;;) {
    let next = end;
    let c = 0;
    // Hot loop over string content: charCodeAt and plain comparisons.
    for (; next < len; next++) {
      c = s.charCodeAt(next);
      if (c === 0x22 || c === 0x5c) break;
      if (c <= 0x1f) throw new JSONDecodeError("Invalid control character at", s, next);
    }
    if (next >= len) throw new JSONDecodeError("Unterminated string starting at", s, begin);
    out += s.slice(end, next);
    next++;
    if (c === 0x22) return [out, next];
    if (next === len) throw new JSONDecodeError("Unterminated string starting at", s, begin);
    const e = s.charAt(next);
    if (e !== "u") {
      const decoded = escapes[e];
      if (decoded === undefined) throw new JSONDecodeError("Invalid \\escape", s, next - 1);
      out += decoded;
      end = next + 1;
      continue;
    }
    const u = next;
    end = u + 5;
    if (end >= len) throw new JSONDecodeError("Invalid \\uXXXX escape", s, u);
    let code = hex4(s, u + 1);
    if (code < 0) throw new JSONDecodeError("Invalid \\uXXXX escape", s, u);
    if (code >= 0xd800 && code <= 0xdbff && end + 6 < len && s.charAt(end) === "\\" && s.charAt(end + 1) === "u") {
      const low = hex4(s, end + 2);
      if (low < 0) throw new JSONDecodeError("Invalid \\uXXXX escape", s, end + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        end += 6;
      }
    }
    out += String.fromCodePoint(code);
  }
}

/** `_match_number_unicode`: the number at `i`, or undefined (the scanner's StopIteration). */
function matchNumber(s: string, start: number): [number, number] | undefined {
  const last = s.length - 1;
  let i = start;
  let isFloat = false;
  if (s.charCodeAt(i) === 0x2d) {
    i++;
    if (i > last) return undefined;
  }
  const first = s.charCodeAt(i);
  if (first >= 0x31 && first <= 0x39) {
    i++;
    while (i <= last && isDigit(s.charCodeAt(i))) i++;
  } else if (first === 0x30) {
    i++;
  } else {
    return undefined;
  }
  if (i < last && s.charCodeAt(i) === 0x2e && isDigit(s.charCodeAt(i + 1))) {
    isFloat = true;
    i += 2;
    while (i <= last && isDigit(s.charCodeAt(i))) i++;
  }
  if (i < last && (s.charCodeAt(i) === 0x65 || s.charCodeAt(i) === 0x45)) {
    const eStart = i;
    i++;
    if (i < last && (s.charCodeAt(i) === 0x2d || s.charCodeAt(i) === 0x2b)) i++;
    while (i <= last && isDigit(s.charCodeAt(i))) i++;
    if (isDigit(s.charCodeAt(i - 1))) isFloat = true;
    else i = eStart;
  }
  const text = s.slice(start, i);
  if (!isFloat) {
    const digits = text.length - (text.startsWith("-") ? 1 : 0);
    if (digits > INT_MAX_STR_DIGITS) {
      throw valueError(
        `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; ` +
          "use sys.set_int_max_str_digits() to increase the limit",
      );
    }
  }
  // Python's float() rounds correctly, as Number() does; "1e999" is inf in both.
  return [Number(text), i];
}

const constants: readonly (readonly [string, number])[] = [
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
];

type Frame = { readonly list: unknown[] } | { readonly dict: Record<string, unknown>; key: string };

/**
 * `json.loads(text)` as DRF calls it. Throws PyExceptions: JSONDecodeError, ValueError (constants, the int digit
 * limit) and RecursionError; all but the last are ValueErrors, which DRF turns into a 400 `JSON parse error - …`.
 */
export function pyJsonLoads(s: string, options: LoadsOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? PYTHON_RECURSION_LIMIT;
  const fast = nativeLoads(s, maxDepth);
  return fast === SCAN ? scanLoads(s, options, maxDepth) : fast;
}

const SCAN = Symbol("scan");

/**
 * The common case at native speed: a text `JSON.parse` reads is one `json.loads` reads alike (the same grammar,
 * whitespace, escapes and last-key-wins), unless it nests deeper than Python's limit or holds a number out of
 * range (an integer past the digit limit is an error in Python, `Infinity` here). Those, and every text
 * `JSON.parse` refuses, go to the scanner, which gives Python's answer and its error.
 */
function nativeLoads(s: string, maxDepth: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {
    return SCAN;
  }
  return plainWithin(value, maxDepth) ? value : SCAN;
}

/** Every container within `depth` levels and every number finite. */
function plainWithin(value: unknown, depth: number): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || value === null) return true;
  if (depth === 0) return false;
  // Hot loop over a body's members (a selection of a million ids): indexes, no iterators.
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) {
      const v: unknown = value[k];
      if (typeof v === "number" ? !Number.isFinite(v) : typeof v === "object" && v !== null && !plainWithin(v, depth - 1)) return false;
    }
    return true;
  }
  for (const key in value) if (!plainWithin((value as Record<string, unknown>)[key], depth - 1)) return false;
  return true;
}

/** The scanner alone (`scan_once_unicode`): what `nativeLoads` leaves to it, and what tests compare the native path with. */
export function scanLoads(s: string, options: LoadsOptions = {}, maxDepth = options.maxDepth ?? PYTHON_RECURSION_LIMIT): unknown {
  const rejectConstants = (options.constants ?? "reject") === "reject";
  if (s.startsWith("\ufeff")) throw new JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", s, 0);
  const stack: Frame[] = [];
  let i = skipWs(s, 0);
  let value: unknown;

  const readKey = (frame: { dict: Record<string, unknown>; key: string }) => {
    if (s.charCodeAt(i) !== 0x22) throw new JSONDecodeError("Expecting property name enclosed in double quotes", s, i);
    [frame.key, i] = scanString(s, i + 1);
    i = skipWs(s, i);
    if (s.charCodeAt(i) !== 0x3a) throw new JSONDecodeError("Expecting ':' delimiter", s, i);
    i = skipWs(s, i + 1);
  };
  const enter = (what: "object" | "array") => {
    if (stack.length >= maxDepth) {
      throw new PyException("RecursionError", `maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`);
    }
  };

  for (;;) {
    // Scan one value at i (scan_once_unicode); containers push a frame and scan their first member.
    const c = s.charCodeAt(i);
    let scanned = true;
    if (i >= s.length) throw new JSONDecodeError("Expecting value", s, i);
    if (c === 0x22) {
      [value, i] = scanString(s, i + 1);
    } else if (c === 0x7b) {
      enter("object");
      i = skipWs(s, i + 1);
      if (s.charCodeAt(i) === 0x7d) {
        value = {};
        i++;
      } else {
        const frame = { dict: {} as Record<string, unknown>, key: "" };
        stack.push(frame);
        readKey(frame);
        scanned = false;
      }
    } else if (c === 0x5b) {
      enter("array");
      i = skipWs(s, i + 1);
      if (s.charCodeAt(i) === 0x5d) {
        value = [];
        i++;
      } else {
        stack.push({ list: [] });
        scanned = false;
      }
    } else if (s.startsWith("null", i)) {
      value = null;
      i += 4;
    } else if (s.startsWith("true", i)) {
      value = true;
      i += 4;
    } else if (s.startsWith("false", i)) {
      value = false;
      i += 5;
    } else {
      const constant = constants.find(([text]) => s.startsWith(text, i));
      if (constant) {
        if (rejectConstants) throw valueError(`Out of range float values are not JSON compliant: '${constant[0]}'`);
        value = constant[1];
        i += constant[0].length;
      } else {
        const number = matchNumber(s, i);
        if (!number) throw new JSONDecodeError("Expecting value", s, i);
        [value, i] = number;
      }
    }
    if (!scanned) continue;

    // Hand the value to the enclosing containers, closing every one that ends here.
    for (;;) {
      const frame = stack.at(-1);
      if (!frame) {
        const end = skipWs(s, i);
        if (end !== s.length) throw new JSONDecodeError("Extra data", s, end);
        return value;
      }
      if ("list" in frame) frame.list.push(value);
      else setKey(frame.dict, frame.key, value);
      i = skipWs(s, i);
      const close = "list" in frame ? 0x5d : 0x7d;
      if (s.charCodeAt(i) === close) {
        stack.pop();
        value = "list" in frame ? frame.list : frame.dict;
        i++;
        continue;
      }
      if (s.charCodeAt(i) !== 0x2c) throw new JSONDecodeError("Expecting ',' delimiter", s, i);
      i = skipWs(s, i + 1);
      if (!("list" in frame)) readKey(frame);
      break;
    }
  }
}
