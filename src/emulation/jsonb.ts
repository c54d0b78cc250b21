import type { JsonValue } from "../vocabulary/json.js";
import { assertNever } from "../vocabulary/never.js";
import { collate, numericText } from "./postgres.js";

/*
 * jsonb as Postgres stores, prints and orders it. Annotation and prediction results are jsonb: the
 * server's results `contains` searches their text form, `equal` compares them as jsonb, and the
 * Data Manager list prints them after a round trip through Python. Checked against PostgreSQL 15.
 */

type JsonObject = { readonly [key: string]: JsonValue };

/** Compare two strings by code point (= by UTF-8 bytes), not by UTF-16 code unit. */
function codePointCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number,
      y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** jsonb's storage order of object keys: shorter (in bytes) first, then bytewise. */
export function jsonbKeyOrder(a: string, b: string): number {
  return utf8Length(a) - utf8Length(b) || codePointCompare(a, b);
}

function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(jsonbKeyOrder);
}

/** A JSON string literal; with `escapeSlash` (ujson's default) `/` is written as `\/` too. */
export function jsonString(s: string, escapeSlash = false): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (escapeSlash && ch === "/") out += "\\/";
    else if (cp < 0x20) {
      out +=
        ch === "\b"
          ? "\\b"
          : ch === "\f"
            ? "\\f"
            : ch === "\n"
              ? "\\n"
              : ch === "\r"
                ? "\\r"
                : ch === "\t"
                  ? "\\t"
                  : `\\u${cp.toString(16).padStart(4, "0")}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** `jsonb::text`: `{"k": v, "k2": [1, 2]}` with keys in storage order and `": "` / `", "` separators. */
export function jsonbText(v: JsonValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return jsonString(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return numericText(v);
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(", ")}]`;
  const o = v as JsonObject;
  return `{${sortedKeys(o)
    .map((k) => `${jsonString(k)}: ${jsonbText(o[k] as JsonValue)}`)
    .join(", ")}}`;
}

/** `data->>'key'`: strings unquoted, JSON null is SQL NULL, anything else its jsonb text. */
export function jsonbFieldText(v: JsonValue): string | null {
  if (v === null) return null;
  return typeof v === "string" ? v : jsonbText(v);
}

// Type ranks of jsonb's btree order: Null < String < Number < Boolean < Array < Object.
function rank(v: JsonValue): 0 | 1 | 2 | 3 | 4 | 5 {
  if (v === null) return 0;
  if (typeof v === "string") return 1;
  if (typeof v === "number") return 2;
  if (typeof v === "boolean") return 3;
  return Array.isArray(v) ? 4 : 5;
}

/** jsonb's btree order (`<`, `>`, ORDER BY, DISTINCT), including the top-level `[] < null` anomaly. */
export function jsonbCompare(a: JsonValue, b: JsonValue): number {
  // A top-level scalar is stored as a one-element "raw scalar" array; the element counts are
  // compared after the raw-scalar check and override it, which makes an empty array sort first.
  const aArr = Array.isArray(a),
    bArr = Array.isArray(b);
  const aScalar = !aArr && (a === null || typeof a !== "object");
  const bScalar = !bArr && (b === null || typeof b !== "object");
  if ((aScalar && bArr) || (aArr && bScalar)) {
    const an = aArr ? (a as readonly JsonValue[]).length : 1;
    const bn = bArr ? (b as readonly JsonValue[]).length : 1;
    if (an !== bn) return an - bn;
    return aScalar ? -1 : 1;
  }
  return compareNested(a, b);
}

function compareNested(a: JsonValue, b: JsonValue): number {
  const ra = rank(a),
    rb = rank(b);
  if (ra !== rb) return ra - rb;
  // plain switch: hot loop, per task in jsonb equal/order (measured: 10 ms vs 385 ms per 1M compares with match)
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return collate(a as string, b as string);
    case 2:
      return (a as number) - (b as number);
    case 3:
      return Number(a) - Number(b);
    case 4: {
      const x = a as readonly JsonValue[],
        y = b as readonly JsonValue[];
      if (x.length !== y.length) return x.length - y.length;
      for (let i = 0; i < x.length; i++) {
        const c = compareNested(x[i] as JsonValue, y[i] as JsonValue);
        if (c !== 0) return c;
      }
      return 0;
    }
    case 5: {
      const x = a as JsonObject,
        y = b as JsonObject;
      const kx = sortedKeys(x),
        ky = sortedKeys(y);
      if (kx.length !== ky.length) return kx.length - ky.length;
      for (let i = 0; i < kx.length; i++) {
        const c =
          collate(kx[i] as string, ky[i] as string) || compareNested(x[kx[i] as string] as JsonValue, y[ky[i] as string] as JsonValue);
        if (c !== 0) return c;
      }
      return 0;
    }
    default:
      return assertNever(ra, "jsonb type rank");
  }
}

export function jsonbEqual(a: JsonValue, b: JsonValue): boolean {
  return jsonbCompare(a, b) === 0;
}
