import type { JsonValue } from "../src/vocabulary/json.js";
import { strRepr } from "../src/emulation/python-json.js";

/**
 * A project's labeling config as the server reads it: `parse_config`
 * (label_studio_sdk/_extensions/label_studio_tools/core/label_config.py, the server's
 * `Project.get_parsed_config`) for `parsed_label_config`, the control tags and prediction results;
 * `extract_data_types` (label_studio/core/label_config.py) for the task data keys `TaskValidator`
 * expects; and the name checks of `validate_label_config`. The server parses with Python's
 * `xml.etree` (expat, through defusedxml); this reads the same elements and attributes from a
 * well-formed document, and reports a malformed one in expat's words for the common cases.
 */

interface Element {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly parent: Element | undefined;
}

export type ConfigProblem = { readonly ok: false; readonly message: string };
type Parsed = { readonly ok: true; readonly elements: readonly Element[] } | ConfigProblem;

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? whole;
  });
}

const NAME_CHAR = /[\w:.-]|[^\x00-\x7f]/;
const SPACE = /\s/;

/** A scanner over the config text: one pass, no backtracking (the config is user input). */
class Scanner {
  at = 0;
  constructor(readonly text: string) {}
  peek(n = 0): string {
    return this.text[this.at + n] ?? "";
  }
  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.at);
  }
  skipSpace(): void {
    while (SPACE.test(this.peek())) this.at++;
  }
  name(): string {
    const start = this.at;
    while (NAME_CHAR.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }
  /** Skip past `end`; false when the text ends first. */
  skipPast(end: string): boolean {
    const found = this.text.indexOf(end, this.at);
    if (found < 0) return false;
    this.at = found + end.length;
    return true;
  }
}

/** Markup that holds no element: comments, processing instructions, CDATA, a doctype. */
const SKIPPED: readonly (readonly [string, string])[] = [
  ["<!--", "-->"],
  ["<?", "?>"],
  ["<![CDATA[", "]]>"],
  ["<!DOCTYPE", ">"],
];

/**
 * A start tag's attributes up to `>` or `/>`; a problem when the tag is malformed (the scanner stops
 * where it is) or names an attribute twice (at the second name).
 */
function attributes(
  sc: Scanner,
): { attrs: Record<string, string>; selfClosing: boolean } | { problem: "malformed" | "duplicate"; at: number } {
  const attrs: Record<string, string> = {};
  const malformed = { problem: "malformed" as const, at: 0 };
  for (;;) {
    const spaced = SPACE.test(sc.peek());
    sc.skipSpace();
    if (sc.startsWith("/>")) return ((sc.at += 2), { attrs, selfClosing: true });
    if (sc.peek() === ">") return ((sc.at += 1), { attrs, selfClosing: false });
    const keyAt = sc.at;
    const key = spaced && NAME_START.test(sc.peek()) ? sc.name() : "";
    if (!key) return malformed;
    if (Object.hasOwn(attrs, key)) return { problem: "duplicate", at: keyAt };
    sc.skipSpace();
    if (sc.peek() !== "=") return malformed;
    sc.at++;
    sc.skipSpace();
    const quote = sc.peek();
    if (quote !== '"' && quote !== "'") return malformed;
    const end = sc.text.indexOf(quote, sc.at + 1);
    if (end < 0) return ((sc.at = sc.text.length), malformed);
    attrs[key] = unescapeXml(sc.text.slice(sc.at + 1, end));
    sc.at = end + 1;
  }
}

/**
 * expat's error text, as Python's `xml.etree` (defusedxml) raises it: the message, then where —
 * line from 1, column from 0 in UTF-8 bytes (validate_label_config reports `str(ParseError)`).
 */
function expat(message: string, text: string, at: number): ConfigProblem {
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = Buffer.byteLength(before.slice(before.lastIndexOf("\n") + 1), "utf8");
  return { ok: false, message: `${message}: line ${line}, column ${column}` };
}

/** Non-space text between `from` and `to`, as expat sees character data outside the root. */
function textAt(text: string, from: number, to: number): number | undefined {
  for (let i = from; i < to; i++) if (!SPACE.test(text[i] as string)) return i;
  return undefined;
}

const NAME_START = /[A-Za-z_:]|[^\x00-\x7f]/;

/**
 * Character data before the root: expat's prolog reads it as a name token, so a name run straight into
 * `<` is an invalid token there, and anything else a syntax error where the data starts.
 */
function prologText(text: string, at: number): ConfigProblem {
  let end = at;
  while (end < text.length && NAME_CHAR.test(text[end] as string)) end++;
  return end > at && text[end] === "<" ? expat("not well-formed (invalid token)", text, end) : expat("syntax error", text, at);
}

/** Every element in document order, or the reason the document is not well-formed (in expat's words). */
function parse(config: string): Parsed {
  const elements: Element[] = [];
  const open: Element[] = [];
  let roots = 0;
  /** Where character data outside the root may start: after the last markup read there. */
  let outside = 0;
  const sc = new Scanner(config);
  /** A tag that did not end well: the input ended inside it, or a character there is not allowed. */
  const broken = (start: number, at = sc.at) =>
    at >= config.length ? expat("unclosed token", config, start) : expat("not well-formed (invalid token)", config, at);
  for (let next = config.indexOf("<"); next >= 0; next = config.indexOf("<", sc.at)) {
    const stray = open.length === 0 ? textAt(config, outside, next) : undefined;
    if (stray !== undefined) return roots === 0 ? prologText(config, stray) : expat("junk after document element", config, stray);
    sc.at = next;
    const skipped = SKIPPED.find(([start]) => sc.startsWith(start));
    if (skipped) {
      if (!sc.skipPast(skipped[1])) return expat("unclosed token", config, next);
      if (open.length === 0) outside = sc.at;
      continue;
    }
    sc.at++;
    if (sc.peek() === "/") {
      sc.at++;
      // An end tag with no element open is not markup expat can read there.
      if (open.length === 0) return expat("not well-formed (invalid token)", config, next + 1);
      const nameAt = sc.at;
      const closing = NAME_START.test(sc.peek()) ? sc.name() : "";
      if (!closing) return broken(next, nameAt);
      sc.skipSpace();
      if (sc.peek() !== ">") return broken(next);
      sc.at++;
      const top = open.pop();
      if (top?.tag !== closing) return expat("mismatched tag", config, nameAt);
      if (open.length === 0) outside = sc.at;
      continue;
    }
    if (!NAME_START.test(sc.peek())) return broken(next);
    const tag = sc.name();
    const read = attributes(sc);
    if ("problem" in read) return read.problem === "duplicate" ? expat("duplicate attribute", config, read.at) : broken(next);
    if (open.length === 0 && ++roots > 1) return expat("junk after document element", config, next);
    const element: Element = { tag, attrs: read.attrs, parent: open.at(-1) };
    elements.push(element);
    if (!read.selfClosing) open.push(element);
    else if (open.length === 0) outside = sc.at;
  }
  if (open.length > 0 || roots === 0) {
    const stray = roots === 0 ? textAt(config, outside, config.length) : undefined;
    if (stray !== undefined) return prologText(config, stray);
    return expat("no element found", config, config.length);
  }
  const junk = textAt(config, outside, config.length);
  if (junk !== undefined) return expat("junk after document element", config, junk);
  return { ok: true, elements };
}

/** The config's elements (tag and attributes) in document order; none for an unreadable config. */
export function configElements(
  config: string | null | undefined,
): readonly { readonly tag: string; readonly attrs: Readonly<Record<string, string>> }[] {
  const parsed = config ? parse(config) : undefined;
  return parsed?.ok ? parsed.elements : [];
}

const LABEL_TAGS = new Set(["Label", "Choice", "Relation"]);
const NOT_CONTROL_TAGS = new Set(["Filter"]);

export interface ControlTag {
  readonly type: string;
  readonly to_name: readonly string[];
  readonly conditionals?: { readonly type: string; readonly name: string };
  readonly dynamic_labels?: true;
  readonly inputs: readonly { readonly [key: string]: JsonValue }[];
  readonly labels: readonly string[];
  readonly labels_attrs: { readonly [label: string]: { readonly [attr: string]: string } };
}

const isOutput = (e: Element) => Boolean(e.attrs["name"]) && Boolean(e.attrs["toName"]) && !NOT_CONTROL_TAGS.has(e.tag);
const isInput = (e: Element) => Boolean(e.attrs["name"]) && Boolean(e.attrs["value"] || e.attrs["valueList"]);

/** A control tag's own part of `parse_config`'s answer: conditionals of per-region tags, dynamic labels. */
function outputTag(e: Element): Omit<ControlTag, "inputs" | "labels" | "labels_attrs"> {
  const a = e.attrs;
  const when: [string, string | undefined][] = [
    ["tag", a["whenTagName"]],
    ["label", a["whenLabelValue"]],
    ["choice", a["whenChoiceValue"]],
  ];
  const condition = a["perRegion"] === "true" ? when.find(([, name]) => name) : undefined;
  const dynamic = /^\$[A-Za-z_]+$/.test(a["value"] ?? "") || Boolean(a["apiUrl"]);
  return {
    type: e.tag,
    to_name: (a["toName"] as string).split(","),
    ...(condition ? { conditionals: { type: condition[0], name: condition[1] as string } } : {}),
    ...(dynamic ? { dynamic_labels: true as const } : {}),
  };
}

/** `parse_config`: the control tags by name (empty for an empty or unreadable config). */
export function parseConfig(config: string | null | undefined): ReadonlyMap<string, ControlTag> {
  const parsed = config ? parse(config) : undefined;
  if (!parsed?.ok) return new Map();
  const inputs = new Map<string, Record<string, JsonValue>>();
  const outputs = new Map<string, Omit<ControlTag, "inputs" | "labels" | "labels_attrs">>();
  const labels = new Map<string, Record<string, Record<string, string>>>();
  for (const e of parsed.elements) {
    const name = e.attrs["name"] as string;
    if (isOutput(e)) outputs.set(name, outputTag(e));
    else if (isInput(e)) {
      const input: Record<string, JsonValue> = { type: e.tag, valueType: e.attrs["valueType"] ?? null };
      if (e.attrs["value"] !== undefined) input["value"] = e.attrs["value"].replace(/^\$+/, "");
      else input["valueList"] = (e.attrs["valueList"] ?? "").replace(/^\$+/, "");
      inputs.set(name, input);
    }
    if (!LABEL_TAGS.has(e.tag)) continue;
    let parent = e.parent;
    while (parent && !outputs.has(parent.attrs["name"] ?? "")) parent = parent.parent;
    const value = e.attrs["alias"] || e.attrs["value"] || e.attrs["valueList"];
    if (parent && value) {
      const byValue = labels.get(parent.attrs["name"] as string) ?? {};
      byValue[value] = { ...e.attrs };
      labels.set(parent.attrs["name"] as string, byValue);
    }
  }
  const tags = new Map<string, ControlTag>();
  for (const [name, out] of outputs) {
    const attrs = labels.get(name) ?? {};
    tags.set(name, {
      ...out,
      inputs: out.to_name.flatMap((n) => {
        const input = inputs.get(n);
        return input ? [input] : [];
      }),
      labels: Object.keys(attrs),
      labels_attrs: attrs,
    });
  }
  return tags;
}

/** `Project.get_parsed_config()` as `parsed_label_config` renders it. */
export function parsedLabelConfig(config: string | null | undefined): { [name: string]: JsonValue } {
  return Object.fromEntries([...parseConfig(config)].map(([name, tag]) => [name, tag as unknown as JsonValue]));
}

/**
 * `extract_data_types`: for every element with a `name` and a `value`, the data key the value
 * points at (`$key`, or the first `$key` inside a pattern) and the element's tag; Video wins.
 */
export function dataTypes(config: string | null | undefined): ReadonlyMap<string, string> {
  const parsed = config ? parse(config) : undefined;
  const types = new Map<string, string>();
  if (!parsed?.ok) return types;
  for (const e of parsed.elements) {
    const value = e.attrs["value"];
    if (value === undefined || !e.attrs["name"]) continue;
    const key = value.length > 1 && value.startsWith("$") ? value.slice(1) : (/\$(\w+)/.exec(value)?.[1] ?? "");
    if (key && types.get(key) !== "Video") types.set(key, e.tag);
  }
  return types;
}

/**
 * The checks of `validate_label_config` (label_studio/core/label_config.py) the mock can make:
 * a well-formed document (expat's messages for the common errors), unique `name`s, every `toName`
 * naming an element, in the server's words.
 */
export function labelConfigProblem(config: string): string | undefined {
  const parsed = parse(config);
  if (!parsed.ok) return parsed.message;
  const names = [...config.matchAll(/name="([^"]*)"/g)].map((m) => m[1] as string);
  if (new Set(names).size !== names.length) return "Label config contains non-unique names";
  const known = new Set(names);
  for (const m of config.matchAll(/toName="([^"]*)"/g)) {
    for (const toName of (m[1] as string).split(",")) {
      if (!known.has(toName)) return `toName="${toName}" not found in names: ${pySortedList([...known])}`;
    }
  }
  return undefined;
}

/** Python's `str(sorted(names))`. */
function pySortedList(names: readonly string[]): string {
  return `[${[...names].sort().map(strRepr).join(", ")}]`;
}
