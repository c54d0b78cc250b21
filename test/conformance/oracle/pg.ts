/**
 * The few Postgres and Python behaviours the server's answers rest on
 * (docs/reference/filters.md#data-keys-and-null, docs/reference/ordering.md#ordering), written
 * plainly for the oracle. Nothing here comes from src/semantics or mock-server.
 */
import type { JsonValue } from "../../../src/vocabulary/json.js";

const utf8 = (s: string) => Buffer.from(s, "utf8");

/** jsonb stores object keys shorter-first, then by bytes; its text output follows that order. */
function jsonbKeyOrder(a: string, b: string): number {
  const ba = utf8(a),
    bb = utf8(b);
  return ba.length !== bb.length ? ba.length - bb.length : Buffer.compare(ba, bb);
}

function jsonbString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `CAST(jsonb AS text)`: `{"a": 1, "bb": [1, 2]}` with `": "` and `", "` separators. */
export function jsonbText(v: JsonValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return jsonbString(v);
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Array.isArray(v)) return `[${(v as readonly JsonValue[]).map(jsonbText).join(", ")}]`;
  const obj = v as { readonly [k: string]: JsonValue };
  const keys = Object.keys(obj).sort(jsonbKeyOrder);
  return `{${keys.map((k) => `${jsonbString(k)}: ${jsonbText(obj[k] as JsonValue)}`).join(", ")}}`;
}

/** `data->>'key'`: SQL NULL for a missing key or JSON null, the raw string for strings, jsonb text otherwise. */
export function keyText(v: JsonValue | undefined): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === "string" ? v : jsonbText(v);
}

/** jsonb equality: numbers by value, objects by key set, arrays in order. */
export function jsonbEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a !== typeof b) return false;
  if (typeof a !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as readonly JsonValue[];
    return a.length === bb.length && a.every((x, i) => jsonbEqual(x as JsonValue, bb[i] as JsonValue));
  }
  const ao = a as { readonly [k: string]: JsonValue },
    bo = b as { readonly [k: string]: JsonValue };
  const ka = Object.keys(ao),
    kb = Object.keys(bo);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(bo, k) && jsonbEqual(ao[k] as JsonValue, bo[k] as JsonValue));
}

const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
const SPECIAL_FLOAT = /^\s*[+-]?(nan|inf|infinity)\s*$/i;

/** `CAST(text AS float8)`: a number, "error" (Postgres raises), or "unclear" (NaN/Infinity spellings). */
export function pgFloat(text: string): number | "error" | "unclear" {
  if (DECIMAL.test(text)) return Number(text.trim());
  return SPECIAL_FLOAT.test(text) ? "unclear" : "error";
}

/** Python `float(value)` on a filter value: a number, "error" (ValueError/TypeError), or "unclear". */
export function pyFloat(v: JsonValue): number | "error" | "unclear" {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    if (DECIMAL.test(v)) return Number(v.trim());
    // Python also accepts "1_000", "nan", "inf": none of these is worth pinning.
    return /_/.test(v) || SPECIAL_FLOAT.test(v) ? "unclear" : "error";
  }
  return "error";
}

/** Python `cast_bool_from_str`: strings map to booleans (or raise); other values pass unchanged. */
export function castBool(v: JsonValue): JsonValue | "error" {
  if (typeof v !== "string") return v;
  const s = v.toLowerCase();
  if (["true", "yes", "on", "1"].includes(s)) return true;
  if (["false", "no", "not", "off", "0"].includes(s)) return false;
  return "error";
}

/** Postgres UPPER() under a glibc UTF-8 locale maps one character to one character. */
function pgUpper(s: string): string {
  let out = "";
  for (const ch of s) {
    const u = ch.toUpperCase();
    out += [...u].length === 1 ? u : ch;
  }
  return out;
}

/** Django `icontains` on Postgres: `UPPER(x) LIKE UPPER('%v%')`, `%` and `_` escaped (plain substring). */
export function icontains(haystack: string, needle: string): boolean {
  return pgUpper(haystack).includes(pgUpper(needle));
}

const compiles = (pattern: string, flags = ""): boolean => {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
};

/** Escapes Python's `re` knows; any other ASCII letter after `\` is "bad escape". */
const PY_ESCAPES = new Set([..."abBdDfnrsStvwWZAxuUN"]);

/**
 * Does Python's `re.compile` accept the pattern? JavaScript's parser stands in for it, with the
 * differences that matter here spelled out: bad escapes (`\q`), references to missing groups
 * (`\1`), `(?<name>` and inline flags. Where the two still disagree the answer is "unclear".
 */
export function pythonRegex(pattern: string): "valid" | "invalid" | "unclear" {
  const groups = (pattern.match(/\((?!\?)|\(\?P</g) ?? []).length;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[A-Za-z]/.test(next) && !PY_ESCAPES.has(next)) return "invalid";
      if (/[1-9]/.test(next) && Number(next) > groups) return "invalid";
      i++;
    }
  }
  if (/[*+?}]\+|\(\?>/.test(pattern)) return "unclear"; // possessive / atomic: Python 3.11+ only
  if (/\[\^?\]/.test(pattern)) return "unclear"; // Python reads a leading ] in a class as a literal
  if (/\(\?<(?![=!])/.test(pattern) || /\(\?P/.test(pattern) || /\(\?[aiLmsux-]+[:)]/.test(pattern) || /\\[NuUx]/.test(pattern))
    return "unclear";
  return compiles(pattern) ? "valid" : "invalid";
}

/**
 * Constructs whose meaning differs between Postgres AREs and JavaScript (`\b` is a backspace in an
 * ARE, `[[:alpha:]]` a POSIX class): the oracle does not predict matches for them.
 */
export const dialectDiffers = (pattern: string): boolean => /\\[bBAZvf]|\[[:=.]/.test(pattern);

/** Postgres `~`: case-sensitive search anywhere in the text; `.` matches newlines. */
export function regexSearch(pattern: string, text: string): boolean {
  return new RegExp(pattern, "su").test(text);
}

const collator = new Intl.Collator("en-US", { ignorePunctuation: true });
/**
 * String ordering under the server's collation. LS's tests pin a Postgres en_US collation, which is
 * case-insensitive at the first level ("opop" < "Test…" < "x2"), and a running Postgres (glibc's
 * en_US.UTF-8) ignores punctuation and white space there ("0.5" < "-3", measured by dmq verify);
 * finer rules differ between collation libraries. So: ICU en-US without punctuation and a case-folded
 * code-point comparison of the letters and digits must agree, else the pair is unordered (0 = either
 * order is fine).
 */
export function collate(a: string, b: string): number {
  if (a === b) return 0;
  const icu = Math.sign(collator.compare(a, b));
  const la = a.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ""),
    lb = b.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const folded = la < lb ? -1 : la > lb ? 1 : 0;
  return icu === folded ? icu : 0;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:?\d{2})?$/;
/** Microseconds since the epoch of a stored timestamp (ISO, zone `Z` or offset; no zone = UTC). */
export function timestampMicros(s: string): number | undefined {
  const m = ISO.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  if (zone && zone !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return ms * 1000 + Number((frac ?? "").padEnd(6, "0"));
}

/** Python `datetime.strptime(v, '%Y-%m-%dT%H:%M:%S.%fZ')` read as UTC; undefined when it would not parse. */
export function strptimeMicros(v: JsonValue): number | undefined {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,6}Z$/.test(v)) return undefined;
  const micros = timestampMicros(v);
  if (micros === undefined) return undefined;
  // strptime refuses out-of-range fields (month 13, Feb 30); Date.UTC would roll them over.
  const [date, time] = v.split("T") as [string, string];
  const [y, mo, d] = date.split("-").map(Number) as [number, number, number];
  const [h, mi, s] = time.slice(0, 8).split(":").map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 61) return undefined;
  return micros;
}

/** Python type name of a JSON value as Django hands it back from `values_list('data__key')`. */
export function pyTypeName(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return "NoneType";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return Array.isArray(v) ? "list" : "dict";
}
