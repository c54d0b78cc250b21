import type { ShapeName } from "../../vocabulary/value-shapes.js";

/**
 * How a condition's value text becomes a value of each shape. Keyed by the vocabulary's shape
 * names, so a new shape without a reader is a compile error; the builder then validates and encodes.
 */
const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
/** `"quoted text"` is the text inside the quotes; anything else is taken as written. */
const text = (t: string): unknown => {
  const v = /^".*"$/s.test(t) ? json(t) : t;
  return typeof v === "string" ? v : t;
};
const num = (t: string): unknown => (t.trim() !== "" && Number.isFinite(Number(t)) ? Number(t) : t);
const bool = (t: string): unknown => {
  const v = t.trim().toLowerCase();
  return v === "true" || v === "yes" ? true : v === "false" || v === "no" ? false : t;
};
/**
 * Around the first whitespace-delimited `and`: by tokens, as `/^(.*?)\s+and\s+(.*)$/s` would split, but in
 * linear time (that pattern is quadratic in V8 on a long run of spaces).
 */
function splitAtAnd(t: string): [string, string] | undefined {
  const tokens = t.split(/(\s+)/);
  for (let i = 2; i + 2 < tokens.length; i += 2) {
    if (tokens[i] === "and") return [tokens.slice(0, i - 1).join(""), tokens.slice(i + 2).join("")];
  }
  return undefined;
}

/** `A and B`, `A..B` or a JSON `{"min": …, "max": …}`. */
const range =
  (end: (t: string) => unknown) =>
  (t: string): unknown => {
    if (t.trim().startsWith("{")) return json(t);
    const dots = /^(.*?)\.\.(.*)$/s.exec(t);
    const parts = splitAtAnd(t) ?? (dots ? [dots[1] ?? "", dots[2] ?? ""] : undefined);
    return parts ? { min: end(parts[0].trim()), max: end(parts[1].trim()) } : t;
  };
/** `[a, b]` (JSON or bare words) or `a,b`; one item stays one item where the shape allows it. */
const list =
  (item: (t: string) => unknown) =>
  (t: string): unknown => {
    const v = t.trim();
    if (v.startsWith("[")) {
      const parsed = json(v);
      if (Array.isArray(parsed)) return parsed;
      return v.endsWith("]") ? splitItems(v.slice(1, -1), item) : t;
    }
    return splitItems(v, item);
  };
const splitItems = (t: string, item: (t: string) => unknown): unknown[] =>
  t.trim() === "" ? [] : t.split(",").map((part) => item(part.trim()));
const listOrOne =
  (item: (t: string) => unknown) =>
  (t: string): unknown => {
    const v = list(item)(t);
    return Array.isArray(v) && v.length === 1 && !t.trim().startsWith("[") ? v[0] : v;
  };
/** A number, true/false, or text (`"5"` in quotes stays text). */
const scalar = (t: string): unknown => {
  const v = json(t);
  return typeof v === "object" && v !== null ? t : v;
};

export const readValue: { readonly [S in ShapeName]: (text: string) => unknown } = {
  number: num,
  integer: num,
  numberRange: range(num),
  integerRange: range(num),
  datetime: text,
  datetimeRange: range(text),
  boolean: bool,
  string: text,
  scalar,
  regex: text,
  numberList: list(num),
  integerList: list(num),
  scalarList: list(scalar),
  idList: listOrOne(num),
  userIds: listOrOne(num),
  stringList: listOrOne(text),
  json,
};
