import { floatRepr } from "./python-json.js";

/**
 * Writing JSON the way the server's two encoders write it, for the files it exports:
 * - the standard library's `json` (`json.JSONEncoder(ensure_ascii=False)`): `", "` and `": "`
 *   between items, `/` as it is, floats as `repr`;
 * - `ujson` (ultrajson 5.x) with `ensure_ascii=False`: no spaces, `/` escaped as `\/`, floats in
 *   its double-conversion form (`1e-5`, not Python's `1e-05`), and with `indent` one item a line.
 *
 * Values are JSON values plus `PyFloat`: a number the server holds as a Python float (a
 * FloatField, the result of a division), which prints with its `.0` when it is whole. Plain
 * numbers print as the JSON value they are (whole ones as ints: JavaScript cannot tell `1.0`
 * from `1`, docs/mock-server.md lists it).
 */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

export type PyValue = string | number | boolean | null | PyFloat | readonly PyValue[] | { readonly [key: string]: PyValue };

/** A number held as a Python float (null stays null: a nullable FloatField). */
export const pyFloat = (value: number | null | undefined): PyFloat | null =>
  value === null || value === undefined ? null : new PyFloat(value);

/** Python `repr(int)`: every digit, also past 2^53 and 1e21 (where JavaScript switches to an exponent). */
function intText(n: number): string {
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
}

/** Python `repr(float)`; `String` already gives it between 1e-4 and 1e16 for non-whole values. */
export function pyFloatText(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 1e16 && !Number.isInteger(x)) return String(x);
  return floatRepr(x);
}

/** ujson's float: Python's digits, the exponent unpadded; NaN and infinities as JavaScript spells them. */
export function ujsonFloatText(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return pyFloatText(x).replace(/e([+-])0(\d)$/, "e$1$2");
}

/** Python json's float: `repr`, NaN and infinities as JavaScript spells them (`allow_nan`). */
function jsonFloatText(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return pyFloatText(x);
}

export interface Dialect {
  /** Between items of a list or object (without indent). */
  readonly item: string;
  /** Between a key and its value. */
  readonly key: string;
  readonly float: (x: number) => string;
  readonly string: (s: string) => string;
  /** Spaces per level; 0 writes everything on one line. */
  readonly indent: number;
}

/** A JSON string: `"`, `\`, and control characters escaped (`\n`, `\u001f`, …), everything else as it is. */
const plainString = (s: string): string => JSON.stringify(s);
/** ujson also escapes `/` (its `escape_forward_slashes`). */
const slashString = (s: string): string => {
  const text = JSON.stringify(s);
  return text.includes("/") ? text.replaceAll("/", "\\/") : text;
};

/** `json.dumps(v, ensure_ascii=False)` and `json.JSONEncoder(ensure_ascii=False).iterencode(v)`. */
export const pythonJson: Dialect = { item: ", ", key: ": ", float: jsonFloatText, string: plainString, indent: 0 };
/** `ujson.dumps(v, ensure_ascii=False)`. */
export const ujsonCompact: Dialect = { item: ",", key: ":", float: ujsonFloatText, string: slashString, indent: 0 };
/** `ujson.dump(v, f, indent=2, ensure_ascii=False)`: the converter's JSON files. */
export const ujsonIndented: Dialect = { item: ",", key: ": ", float: ujsonFloatText, string: slashString, indent: 2 };

/** One value as the dialect writes it. */
export function dumps(value: PyValue, dialect: Dialect): string {
  const out: string[] = [];
  write(value, dialect, out, 0);
  return out.join("");
}

/** Appends the value's text to `out` (pieces, joined once by the caller). */
export function write(value: PyValue, d: Dialect, out: string[], depth: number): void {
  if (value === null) out.push("null");
  else if (typeof value === "string") out.push(d.string(value));
  else if (typeof value === "number") out.push(Number.isInteger(value) ? intText(value) : d.float(value));
  else if (typeof value === "boolean") out.push(value ? "true" : "false");
  else if (value instanceof PyFloat) out.push(d.float(value.value));
  else if (Array.isArray(value)) {
    const list = value as readonly PyValue[];
    if (list.length === 0) return void out.push("[]");
    out.push("[");
    const [open, between, close] = separators(d, depth);
    out.push(open);
    for (let i = 0; i < list.length; i++) {
      if (i > 0) out.push(between);
      write(list[i] as PyValue, d, out, depth + 1);
    }
    out.push(close, "]");
  } else {
    const object = value as { readonly [key: string]: PyValue };
    const keys = Object.keys(object);
    if (keys.length === 0) return void out.push("{}");
    out.push("{");
    const [open, between, close] = separators(d, depth);
    out.push(open);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (i > 0) out.push(between);
      out.push(d.string(key), d.key);
      write(object[key] as PyValue, d, out, depth + 1);
    }
    out.push(close, "}");
  }
}

/** What goes after the opening bracket, between items and before the closing one. */
function separators(d: Dialect, depth: number): readonly [string, string, string] {
  if (d.indent === 0) return ["", d.item, ""];
  const inner = `\n${" ".repeat(d.indent * (depth + 1))}`;
  return [inner, `${d.item}${inner}`, `\n${" ".repeat(d.indent * depth)}`];
}

/**
 * `ujson.dumps(text)` with its default `ensure_ascii=True`: what the one-step export hashes for
 * its file name (`md5(json.dumps(data))`, the export text dumped once more as a string).
 */
export function ujsonAsciiString(text: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let escape: string | undefined;
    if (c === 0x22) escape = '\\"';
    else if (c === 0x5c) escape = "\\\\";
    else if (c === 0x2f) escape = "\\/";
    else if (c < 0x20)
      escape = c === 0x0a ? "\\n" : c === 0x0d ? "\\r" : c === 0x09 ? "\\t" : c === 0x08 ? "\\b" : c === 0x0c ? "\\f" : u4(c);
    else if (c >= 0x80) escape = u4(c);
    if (escape === undefined) continue;
    out += text.slice(start, i) + escape;
    start = i + 1;
  }
  return `${out}${text.slice(start)}"`;
}

const u4 = (c: number) => `\\u${c.toString(16).padStart(4, "0")}`;

/** `ujson.dump(v, f, indent=2)` with its default `ensure_ascii=True`: the COCO and YOLO files. */
export const ujsonIndentedAscii: Dialect = { ...ujsonIndented, string: ujsonAsciiString };

/** Python's `str()` of a number, a float, or text (f-strings and `map(str, …)`). */
export function pyStrOf(value: PyValue): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) ? intText(value) : pyFloatText(value);
  if (value instanceof PyFloat) return pyFloatText(value.value);
  if (typeof value === "string") return value;
  return dumps(value, pythonJson);
}

/** A Python float's value, or a plain number's. */
export const num = (v: PyValue | undefined): number => (v instanceof PyFloat ? v.value : (v as number));

/**
 * Read back a file this module wrote, as the converter's `ijson.items(f, "item", use_float=True)`
 * reads it: numbers with a fraction or an exponent are floats (`PyFloat`), the others ints. Float
 * literals (and `NaN`, `Infinity`) outside strings are swapped for marked strings before
 * `JSON.parse`, and the marks turned back into `PyFloat`s.
 */
export function loadsKeepingFloats(text: string): PyValue {
  const nonce = `${Math.random().toString(36).slice(2)}:`;
  const mark = `\u0000${nonce}`;
  // One pass: strings are copied as they are; a number with a fraction or an exponent (or NaN,
  // Infinity) becomes a marked string.
  const parts: string[] = [];
  let copied = 0;
  let marked = false;
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i++;
      while (i < n && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
      continue;
    }
    const negative = c === 0x2d;
    const first = negative ? text.charCodeAt(i + 1) : c;
    const isDigit = first >= 0x30 && first <= 0x39;
    if (!isDigit && first !== 0x49 && first !== 0x4e) {
      i++;
      continue;
    }
    const start = i;
    let end = negative ? i + 1 : i;
    while (end < n && /[0-9.eE+\-a-zA-Z]/.test(text[end] as string)) end++;
    const token = text.slice(start, end);
    if (/[.eEIN]/.test(token)) {
      parts.push(text.slice(copied, start), `"\\u0000${nonce}${token}"`);
      copied = end;
      marked = true;
    }
    i = end;
  }
  if (!marked) return JSON.parse(text) as PyValue;
  parts.push(text.slice(copied));
  return JSON.parse(parts.join(""), (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(mark) ? new PyFloat(Number(value.slice(mark.length))) : value,
  ) as PyValue;
}
