import type { ShapeName } from "../vocabulary/value-shapes.js";

/**
 * How the CLI reads a value of each shape from text. Keyed by the vocabulary's shape names, so a
 * new shape without a reader is a compile error. The builder then validates and encodes.
 */
const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
const num = (text: string): unknown => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text);
const bool = (text: string): unknown => {
  const t = text.trim().toLowerCase();
  return t === "true" || t === "yes" ? true : t === "false" || t === "no" ? false : text;
};
/** `a..b` or a JSON `{"min":…,"max":…}` object. */
const range = (end: (t: string) => unknown) => (text: string): unknown => {
  if (text.trim().startsWith("{")) return json(text);
  const at = text.indexOf("..");
  return at < 0 ? text : { min: end(text.slice(0, at).trim()), max: end(text.slice(at + 2).trim()) };
};
/** `a,b,c` or a JSON array; a single item stays a single item where the shape allows it. */
const list = (item: (t: string) => unknown) => (text: string): unknown =>
  text.trim().startsWith("[") ? json(text) : text.split(",").map((t) => item(t.trim()));
const listOrOne = (item: (t: string) => unknown) => (text: string): unknown => {
  const v = list(item)(text);
  return Array.isArray(v) && v.length === 1 ? v[0] : v;
};
const scalar = (text: string): unknown => {
  const v = json(text);
  return typeof v === "object" && v !== null ? text : v;
};

export const readValue: { readonly [S in ShapeName]: (text: string) => unknown } = {
  number: num,
  integer: num,
  numberRange: range(num),
  datetime: (t) => t,
  datetimeRange: range((t) => t),
  boolean: bool,
  string: (t) => t,
  scalar,
  regex: (t) => t,
  numberList: list(num),
  scalarList: list(scalar),
  idList: listOrOne(num),
  userIds: listOrOne(num),
  stringList: listOrOne((t) => t),
  json,
};
