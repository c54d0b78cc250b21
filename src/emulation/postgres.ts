import { positional, scientific, shortestDigits } from "./float-text.js";
import { stripWhere } from "./python-text.js";

/*
 * The Postgres side of the server: how values print as text (`::text`, `->>`), how text casts to
 * float, how text compares (the database collation) and how UPPER() maps characters. The server's
 * `contains`, `regex` and ordering operate on these forms. Checked against PostgreSQL 15.
 */

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** `float8::text` (PG 12+ shortest round-trip; exponent when exp < -4 or >= 15). */
export function float8Text(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const d = shortestDigits(x);
  return d.exp < -4 || d.exp >= 15 ? scientific(d) : positional(d);
}

/**
 * A jsonb number as Postgres prints it: `numeric` output, plain decimal, never an exponent.
 * (Postgres keeps the literal's scale, `1.50` stays `1.50`; JSON.parse has lost it: we print `1.5`.)
 */
export function numericText(x: number): string {
  if (!Number.isFinite(x)) return float8Text(x);
  if (x === 0) return "0";
  if (Number.isSafeInteger(x)) return String(x); // the same digits, without the digit-string detour
  return positional(shortestDigits(x));
}

/** `timestamptz::text` in a UTC session: `YYYY-MM-DD HH:MM:SS[.f…]+00`, fraction without trailing zeros. */
export function timestamptzText(micros: number): string {
  const secs = Math.floor(micros / 1_000_000);
  const micro = micros - secs * 1_000_000;
  const d = new Date(secs * 1000);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const frac = micro === 0 ? "" : `.${withoutTrailingZeros(pad(micro, 6))}`;
  return `${base}${frac}+00`;
}

/** The C locale's isspace(), which float8in skips at both ends. */
const PG_SPACE = /^[ \t\n\r\f\v]$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function withoutTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charAt(end - 1) === "0") end--;
  return digits.slice(0, end);
}
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** `CAST(text AS float8)` (float8in: strtod plus the special words), or undefined when it raises. */
export function float8In(text: string): number | undefined {
  const s = stripWhere(text, (c) => PG_SPACE.test(c));
  const special = SPECIAL.exec(s);
  if (special) return special[2]?.toLowerCase() === "nan" ? NaN : special[1] === "-" ? -Infinity : Infinity;
  if (DECIMAL.test(s)) return Number(s);
  const hex = HEX.exec(s);
  if (hex && ((hex[2] ?? "") + (hex[3] ?? "")).length > 0) {
    const [, sign, int = "", frac = "", exp = "0"] = hex;
    let v = int ? parseInt(int, 16) : 0;
    for (let i = 0; i < frac.length; i++) v += parseInt(frac[i] as string, 16) / 16 ** (i + 1);
    v *= 2 ** Number(exp);
    return sign === "-" ? -v : v;
  }
  return undefined;
}

/** Postgres float8 ordering: NaN equals NaN and sorts above every other value. */
export function compareFloat8(a: number, b: number): number {
  const an = Number.isNaN(a),
    bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Text comparison under the database collation

/**
 * glibc's en_US.UTF-8 (iso14651_t1), which Postgres uses for a database created with that locale,
 * ignores punctuation and white space at the first levels: "0.5" sorts before "-3" ("05" < "3"),
 * "[1, 2]" after "1" ("12"). ICU's `alternate=shifted` (ignorePunctuation) is the same reading.
 */
const collator = new Intl.Collator("en-US", { ignorePunctuation: true });

/**
 * Text order like Postgres under an en_US collation: the collator decides, and strings it calls
 * equal are ordered by code point (Postgres breaks ties with strcmp for deterministic collations).
 */
export function collate(a: string, b: string): number {
  if (a === b) return 0;
  const c = collator.compare(a, b);
  if (c !== 0) return c;
  return a < b ? -1 : 1;
}

/** Postgres `UPPER()`: per character, only one-to-one mappings (so `ß` stays `ß`). */
export function pgUpper(s: string): string {
  // toUpperCase never shortens a string: equal lengths mean no one-to-many mapping happened.
  const up = s.toUpperCase();
  if (up.length === s.length) return up;
  let out = "";
  for (const ch of s) {
    const up = ch.toUpperCase();
    out += [...up].length === 1 ? up : ch;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Arrays

/** `anyarray::text` of a one-dimensional array: `{a,"b c",NULL}`. */
export function arrayText(elements: readonly (string | null)[]): string {
  return `{${elements.map((e) => (e === null ? "NULL" : quoteArrayElement(e))).join(",")}}`;
}

function quoteArrayElement(e: string): string {
  if (e.length > 0 && !/[{}",\\\s]/.test(e) && e.toUpperCase() !== "NULL") return e;
  return `"${e.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Postgres array ordering: element by element (NULL above everything), then the shorter first. */
export function compareArrays<T>(a: readonly (T | null)[], b: readonly (T | null)[], cmp: (x: T, y: T) => number): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? null,
      y = b[i] ?? null;
    if (x === null || y === null) {
      if (x === null && y === null) continue;
      return x === null ? 1 : -1;
    }
    const c = cmp(x, y);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
