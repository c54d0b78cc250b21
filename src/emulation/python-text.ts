import { PyException } from "./exceptions.js";
import { pyType, strRepr } from "./python-json.js";

/**
 * How Python reads text where the server lets it: `str.strip()`, `int(s)`, `float(s)` and
 * `datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%fZ')` (CPython 3.12). All three numeric readers first turn
 * Unicode whitespace into spaces and Unicode decimal digits into ASCII ones
 * (`_PyUnicode_TransformDecimalAndSpaceToASCII`), so `int("١٢")` is 12; underscores may sit between digits.
 */

/**
 * The characters `str.isspace()` accepts (and so `str.strip()`, `int()` and `float()` skip): JavaScript's
 * `\s` plus U+001C..U+001F and U+0085, minus U+FEFF.
 */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const space = new RegExp(`^[${PY_WHITESPACE}]$`);
const DECIMAL = /^\p{Nd}$/u;

/**
 * `s` without the characters `isSpace` accepts at either end. A scan from both ends: the regular
 * expression `^\s+|\s+$` is quadratic in V8 on a long run of spaces inside the text (each start
 * retries the run), and these strings come from requests.
 */
export function stripWhere(s: string, isSpace: (c: string) => boolean): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(s.charAt(start))) start++;
  while (end > start && isSpace(s.charAt(end - 1))) end--;
  return s.slice(start, end);
}

/** `str.strip()` without arguments. */
export function pyStrip(s: string): string {
  return stripWhere(s, (c) => space.test(c));
}

const isAsciiSpace = (c: string) => c === " " || (c >= "\t" && c <= "\r");

/** The value of a Unicode decimal digit: its distance from the start of its run of digits, modulo 10. */
function digitValue(cp: number): number {
  let start = cp;
  while (start > 0 && DECIMAL.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** `_PyUnicode_TransformDecimalAndSpaceToASCII`; undefined where it would stop at a character that is neither. */
function toAscii(s: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- the ASCII range (a fast path for ASCII text)
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out += ch;
    else if (space.test(ch)) out += " ";
    else if (DECIMAL.test(ch)) out += String(digitValue(cp));
    else return undefined;
  }
  return out;
}

/** `sys.get_int_max_str_digits()` default (CPython 3.11+): `int()` of a longer string raises ValueError. */
export const INT_MAX_STR_DIGITS = 4300;

const INT_TEXT = /^[+-]?\d(?:_?\d)*$/;
const FLOAT_TEXT = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** The number text `int()` / `float()` read: transformed, stripped of ASCII whitespace. */
function numberText(text: string): string | undefined {
  const ascii = toAscii(text);
  return ascii === undefined ? undefined : stripWhere(ascii, isAsciiSpace);
}

/**
 * Python `int(text)` (base 10), or undefined where it raises ValueError. Integers beyond ±2^53 come back as
 * the nearest JavaScript number.
 */
export function parsePyInt(text: string): number | undefined {
  const s = numberText(text);
  if (s === undefined || !INT_TEXT.test(s)) return undefined;
  const digits = s.replace(/[+\-_]/g, "");
  if (digits.length > INT_MAX_STR_DIGITS) return undefined;
  return Number(s.replaceAll("_", "")) + 0; // + 0: Python has no negative zero int
}

/** Python `float(text)`, or undefined where it raises ValueError. */
export function parsePyFloat(text: string): number | undefined {
  const s = numberText(text);
  if (s === undefined) return undefined;
  const special = FLOAT_SPECIAL.exec(s);
  if (special) {
    if (special[2]?.toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? -Infinity : Infinity;
  }
  return FLOAT_TEXT.test(s) ? Number(s.replaceAll("_", "")) : undefined;
}

/** A naive datetime's microseconds (read as UTC), or undefined where `datetime(...)` raises ValueError. */
export function naiveMicros(y: number, mo: number, d: number, h: number, mi: number, s: number, micro: number): number | undefined {
  if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || micro > 999_999) return undefined;
  const last = new Date(0);
  last.setUTCFullYear(y, mo, 0); // day 0 of the next month: the last day of this one
  if (d > last.getUTCDate()) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime() * 1000 + micro;
}

/**
 * `_strptime`'s regex for '%Y-%m-%dT%H:%M:%S.%fZ' (`Lib/_strptime.py` `TimeRE`), compiled IGNORECASE: `\d` is
 * any Unicode decimal digit (Python's `re` on str), `%f` only ASCII, and `T`/`Z` match in either case. Like
 * `re.match`, it is anchored at the start only; `_strptime` then refuses unconverted data.
 */
const STRPTIME =
  /(\p{Nd}{4})-(1[0-2]|0[1-9]|[1-9])-(3[0-1]|[1-2]\p{Nd}|0[1-9]|[1-9]| [1-9])T(2[0-3]|[0-1]\p{Nd}|\p{Nd}):([0-5]\p{Nd}|\p{Nd}):(6[0-1]|[0-5]\p{Nd}|\p{Nd})\.([0-9]{1,6})Z/iuy;

const int = (digits: string) => parsePyInt(digits) ?? Number.NaN;

/** `datetime.strptime(value, '%Y-%m-%dT%H:%M:%S.%fZ')` in microseconds since the epoch (naive, read as UTC), or undefined where it raises. */
export function strptimeMicros(value: string): number | undefined {
  STRPTIME.lastIndex = 0;
  const m = STRPTIME.exec(value);
  if (!m || STRPTIME.lastIndex !== value.length) return undefined;
  const [, y, mo, d, h, mi, s, f] = m;
  return naiveMicros(int(y ?? ""), int(mo ?? ""), int(d ?? ""), int(h ?? ""), int(mi ?? ""), int(s ?? ""), int((f ?? "").padEnd(6, "0")));
}

/**
 * Python `int(x)` of a decoded JSON value, raising as Python does: a string through `parsePyInt`; a float
 * truncated; a bool 0 or 1; anything else a TypeError.
 */
export function pyInt(value: unknown): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") {
    if (Number.isNaN(value)) throw new PyException("ValueError", "cannot convert float NaN to integer", true);
    if (!Number.isFinite(value)) throw new PyException("OverflowError", "cannot convert float infinity to integer");
    return Math.trunc(value);
  }
  if (typeof value === "string") {
    const n = parsePyInt(value);
    if (n !== undefined) return n;
    // `%.200R`: the repr, cut at 200 characters.
    throw new PyException("ValueError", `invalid literal for int() with base 10: ${[...strRepr(value)].slice(0, 200).join("")}`, true);
  }
  throw new PyException("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${pyType(value)}'`);
}
