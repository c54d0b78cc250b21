import type { JsonValue } from "../src/vocabulary/json.js";
import { strRepr } from "../src/emulation/python-json.js";

/**
 * A project's labeling config as the server reads it: `parse_config`
 * (label_studio_sdk/_extensions/label_studio_tools/core/label_config.py, the server's
 * `Project.get_parsed_config`) for `parsed_label_config`, the control tags and prediction results;
 * `extract_data_types` (label_studio/core/label_config.py) for the task data keys `TaskValidator`
 * expects; and the name checks of `validate_label_config`. The server parses with lxml; this reads
 * the same elements and attributes from a well-formed document.
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

const NAME_START = /[A-Za-z_:\u00C0-\uFFFF]/;
const NAME_CHAR = /[\w:.\-\u00B7\u00C0-\uFFFF]/;
const SPACE = /[ \t\r\n]/;

/**
 * Why a document is not well-formed, as the server's parser (expat, through defusedxml) words it:
 * the kind of error and where it is (expat's line, from 1, and column, from 0, in characters).
 */
type XmlError =
  | "syntax error"
  | "unclosed token"
  | "mismatched tag"
  | "junk after document element"
  | "no element found"
  | "not well-formed (invalid token)"
  | "duplicate attribute"
  | "undefined entity";

/**
 * The same error as lxml (libxml2) words it, where the mock knows the wording: the message and the offset
 * libxml2 reports (its columns count from 1). The project-scoped validation parses with lxml first.
 */
interface LibxmlError {
  readonly message: string;
  readonly at: number;
}

class NotWellFormed extends Error {
  constructor(
    readonly kind: XmlError | "dtd",
    readonly at: number,
    readonly text: string,
    message: string = kind,
    readonly libxml?: LibxmlError,
  ) {
    super(message);
  }
  /** lxml's `str(XMLSyntaxError)`: `<message>, line L, column C (<string>, line L)`; expat's wording where the mock has no other. */
  describeLibxml(): string {
    if (this.kind === "dtd" || this.libxml === undefined) return this.describe();
    const before = this.text.slice(0, this.libxml.at);
    const line = before.split("\n").length;
    const column = this.libxml.at - (before.lastIndexOf("\n") + 1) + 1;
    return `${this.libxml.message}, line ${line}, column ${column} (<string>, line ${line})`;
  }
  /** The message: `<kind>: line L, column C` (defusedxml's refusal of a DOCTYPE names it instead). */
  describe(): string {
    if (this.kind === "dtd") return this.message;
    const before = this.text.slice(0, this.at);
    const line = before.split("\n").length;
    return `${this.kind}: line ${line}, column ${this.at - (before.lastIndexOf("\n") + 1)}`;
  }
}

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
  /** A name at the cursor; an invalid first character is expat's invalid token there. */
  name(tokenStart: number): string {
    if (this.at >= this.text.length) throw this.fail("unclosed token", tokenStart);
    if (!NAME_START.test(this.peek())) throw this.fail("not well-formed (invalid token)", this.at);
    const start = this.at;
    while (NAME_CHAR.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }
  fail(kind: XmlError, at: number, libxml?: LibxmlError): NotWellFormed {
    return new NotWellFormed(kind, at, this.text, kind, libxml);
  }
  /** The line (from 1) of an offset, as libxml2 counts it for an element's start. */
  lineOf(at: number): number {
    return this.text.slice(0, at).split("\n").length;
  }
  /** Past `end`, or an unclosed token starting at `tokenStart` (`what`: libxml2's word for the construct). */
  skipPast(end: string, tokenStart: number, what?: string): void {
    const found = this.text.indexOf(end, this.at);
    if (found < 0)
      throw this.fail(
        "unclosed token",
        tokenStart,
        what === undefined ? undefined : { message: `${what} not terminated`, at: this.text.length },
      );
    this.at = found + end.length;
  }
  /** An entity reference at the cursor (`&…;`): the five predefined ones and character references. */
  entity(): void {
    const start = this.at;
    const end = this.text.indexOf(";", start);
    const ref = end < 0 ? "" : this.text.slice(start + 1, end);
    if (/^#(x[0-9a-fA-F]+|\d+)$/.test(ref) || Object.hasOwn(ENTITIES, ref)) {
      this.at = end + 1;
      return;
    }
    if (/^[A-Za-z_][\w.-]*$/.test(ref)) throw this.fail("undefined entity", start, { message: `Entity '${ref}' not defined`, at: end + 1 });
    const named = NAME_START.test(this.peek(1));
    throw this.fail("not well-formed (invalid token)", start, named ? undefined : { message: "xmlParseEntityRef: no name", at: start + 1 });
  }
}

/** A start tag's attributes up to `>` or `/>`. */
function attributes(sc: Scanner, tokenStart: number, tag: string): { attrs: Record<string, string>; selfClosing: boolean } {
  const attrs: Record<string, string> = {};
  for (;;) {
    const spaced = SPACE.test(sc.peek());
    sc.skipSpace();
    if (sc.at >= sc.text.length)
      throw sc.fail("unclosed token", tokenStart, {
        message: `Couldn't find end of Start Tag ${tag} line ${sc.lineOf(tokenStart)}`,
        at: sc.at,
      });
    if (sc.startsWith("/>")) return ((sc.at += 2), { attrs, selfClosing: true });
    if (sc.peek() === ">") return ((sc.at += 1), { attrs, selfClosing: false });
    if (!spaced) throw sc.fail("not well-formed (invalid token)", sc.at);
    const keyAt = sc.at;
    if (!NAME_START.test(sc.peek()))
      throw sc.fail("not well-formed (invalid token)", sc.at, { message: "error parsing attribute name", at: sc.at });
    const key = sc.name(tokenStart);
    sc.skipSpace();
    if (sc.at >= sc.text.length) throw sc.fail("unclosed token", tokenStart);
    if (sc.peek() !== "=")
      throw sc.fail("not well-formed (invalid token)", sc.at, { message: `Specification mandates value for attribute ${key}`, at: sc.at });
    sc.at++;
    sc.skipSpace();
    const quote = sc.peek();
    if (sc.at >= sc.text.length) throw sc.fail("unclosed token", tokenStart);
    if (quote !== '"' && quote !== "'")
      throw sc.fail("not well-formed (invalid token)", sc.at, { message: `AttValue: " or ' expected`, at: sc.at });
    const valueStart = sc.at + 1;
    sc.at = valueStart;
    while (sc.peek() !== quote) {
      if (sc.at >= sc.text.length) throw sc.fail("unclosed token", tokenStart);
      if (sc.peek() === "<")
        throw sc.fail("not well-formed (invalid token)", sc.at, { message: "Unescaped '<' not allowed in attributes values", at: sc.at });
      if (sc.peek() === "&") sc.entity();
      else sc.at++;
    }
    if (Object.hasOwn(attrs, key)) throw sc.fail("duplicate attribute", keyAt, { message: `Attribute ${key} redefined`, at: sc.at + 1 });
    attrs[key] = unescapeXml(sc.text.slice(valueStart, sc.at));
    sc.at++;
  }
}

/** Every element in document order, or why the document is not well-formed (expat's error and place). */
function parse(config: string): Parsed {
  try {
    return { ok: true, elements: parseElements(config) };
  } catch (error) {
    if (error instanceof NotWellFormed) return { ok: false, message: error.describe() };
    throw error;
  }
}

/**
 * Why lxml (`etree.fromstring`, libxml2) refuses the text, in its words — where the mock knows them (premature end,
 * tag mismatch, undefined entity, text before or after the root, attribute errors, unterminated comments); other
 * errors keep expat's words. Undefined for a well-formed text, and for a DOCTYPE (lxml reads it; defusedxml's
 * check later refuses it).
 */
export function libxmlSyntaxProblem(config: string): string | undefined {
  if (config.length === 0) return "Document is empty, line 1, column 1 (<string>, line 1)";
  try {
    parseElements(config);
    return undefined;
  } catch (error) {
    if (!(error instanceof NotWellFormed)) throw error;
    return error.kind === "dtd" ? undefined : error.describeLibxml();
  }
}

function parseElements(config: string): Element[] {
  const elements: Element[] = [];
  const open: Element[] = [];
  /** Where each open element's start tag began (libxml2 names its line). */
  const startOf = new Map<Element, number>();
  let rootSeen = false;
  const sc = new Scanner(config);
  const outside = () => open.length === 0;
  /** Text or markup outside the root: before it (expat: syntax error) or after it (junk). */
  const outsideRoot = (at: number) =>
    rootSeen
      ? sc.fail("junk after document element", at, { message: "Extra content at the end of the document", at })
      : sc.fail("syntax error", at, { message: "Start tag expected, '<' not found", at });
  while (sc.at < config.length) {
    const c = sc.peek();
    if (c !== "<") {
      if (outside()) {
        if (!SPACE.test(c)) {
          if (rootSeen) throw outsideRoot(sc.at);
          // expat's prolog reads the text as a name token: one run straight into `<` makes that `<` the invalid token.
          let end = sc.at;
          while (end < config.length && NAME_CHAR.test(config[end] as string)) end++;
          if (end > sc.at && config[end] === "<") {
            throw sc.fail("not well-formed (invalid token)", end, { message: "Start tag expected, '<' not found", at: sc.at });
          }
          throw outsideRoot(sc.at);
        }
        sc.at++;
      } else if (c === "&") sc.entity();
      else sc.at++;
      continue;
    }
    const tokenStart = sc.at;
    if (sc.startsWith("<!--")) {
      sc.skipPast("-->", tokenStart, "Comment");
      continue;
    }
    if (sc.startsWith("<?")) {
      sc.skipPast("?>", tokenStart);
      continue;
    }
    if (sc.startsWith("<![CDATA[")) {
      if (outside()) throw outsideRoot(tokenStart);
      sc.skipPast("]]>", tokenStart);
      continue;
    }
    if (sc.startsWith("<!DOCTYPE")) {
      sc.at += 9;
      sc.skipSpace();
      const doctype = /^[^\s>[]*/.exec(config.slice(sc.at))?.[0] ?? "";
      throw new NotWellFormed("dtd", tokenStart, config, `DTDForbidden(name=${strRepr(doctype)}, system_id=None, public_id=None)`);
    }
    if (outside() && rootSeen) throw outsideRoot(tokenStart);
    sc.at++;
    if (sc.peek() === "/") {
      // An end tag with no element open is no markup expat reads there.
      if (outside())
        throw sc.fail("not well-formed (invalid token)", tokenStart + 1, { message: "StartTag: invalid element name", at: tokenStart + 1 });
      sc.at++;
      const nameAt = sc.at;
      const closing = sc.name(tokenStart);
      sc.skipSpace();
      if (sc.at >= config.length) throw sc.fail("unclosed token", tokenStart);
      if (sc.peek() !== ">") throw sc.fail("not well-formed (invalid token)", sc.at);
      sc.at++;
      const top = open.pop();
      if (top === undefined) throw sc.fail("syntax error", tokenStart, { message: "StartTag: invalid element name", at: tokenStart + 1 });
      if (top.tag !== closing) {
        const message = `Opening and ending tag mismatch: ${top.tag} line ${sc.lineOf(startOf.get(top) ?? 0)} and ${closing}`;
        throw sc.fail("mismatched tag", nameAt, { message, at: sc.at });
      }
      continue;
    }
    if (sc.at < config.length && !NAME_START.test(sc.peek()))
      throw sc.fail("not well-formed (invalid token)", sc.at, { message: "StartTag: invalid element name", at: sc.at });
    const tag = sc.name(tokenStart);
    const read = attributes(sc, tokenStart, tag);
    rootSeen = true;
    const element: Element = { tag, attrs: read.attrs, parent: open.at(-1) };
    elements.push(element);
    startOf.set(element, tokenStart);
    if (!read.selfClosing) open.push(element);
  }
  const top = open.at(-1);
  if (top !== undefined) {
    const message = `Premature end of data in tag ${top.tag} line ${sc.lineOf(startOf.get(top) ?? 0)}`;
    throw sc.fail("no element found", config.length, { message, at: config.length });
  }
  if (!rootSeen) throw sc.fail("no element found", config.length, { message: "Start tag expected, '<' not found", at: config.length });
  return elements;
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
 * The JSON schema `validate_label_config` checks the config against (`core/utils/schema/label_config_schema.json`,
 * over the badgerfish JSON of the document): per tag, what it must carry, tried in order. A tag is checked only
 * where the schema reaches it: a child of the root `View`, of a nested `View`, or of `Choices` and `Labels`.
 */
const SCHEMA_TAGS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  Choices: [
    ["@name", "@toName", "Choice"],
    ["@name", "@toName", "@value"],
    ["@name", "@toName", "View"],
  ],
  Labels: [
    ["@name", "@toName", "Label"],
    ["@name", "@toName", "@value"],
    ["@name", "@toName", "View"],
  ],
  Image: [
    ["@name", "@value"],
    ["@name", "@valueList"],
  ],
  Text: [
    ["@name", "@value"],
    ["@name", "@valueList"],
  ],
  HyperText: [
    ["@name", "@value"],
    ["@name", "@valueList"],
  ],
  TextArea: [["@name", "@toName"]],
  Number: [["@name", "@toName"]],
  Label: [["@value"]],
  Choice: [["@value"]],
  View: [[]],
};
/** The tags each schema object validates among its children (the root View knows fewer than a nested one). */
const SCHEMA_CHILDREN: Readonly<Record<string, readonly string[]>> = {
  root: ["Choices", "Labels", "View", "Image", "Text", "HyperText", "TextArea", "Number"],
  View: ["Labels", "Choices", "Label", "Choice", "Image", "Text", "HyperText", "View", "TextArea", "Number"],
  Choices: ["Choice", "View"],
  Labels: ["Label", "View"],
};

/** The first schema failure in document order: `Validation failed on <path>: '<property>' is a required property`. */
function schemaProblem(elements: readonly Element[]): string | undefined {
  const checked = new Set<Element>();
  const root = elements[0];
  if (root?.tag !== "View") return undefined;
  for (const e of elements) {
    const parent = e.parent;
    if (!parent) continue;
    const scope = parent === root ? "root" : checked.has(parent) ? parent.tag : undefined;
    if (scope === undefined || !(SCHEMA_CHILDREN[scope] ?? []).includes(e.tag)) continue;
    checked.add(e);
    const has = (property: string) =>
      property.startsWith("@") ? Object.hasOwn(e.attrs, property.slice(1)) : elements.some((c) => c.parent === e && c.tag === property);
    const alternatives = SCHEMA_TAGS[e.tag] ?? [[]];
    if (alternatives.some((required) => required.every(has))) continue;
    const missing = (alternatives[0] ?? []).find((p) => !has(p)) as string;
    // `Choices.Choice` is a plain array (after `_fix_choices`): its item's path shows; anyOf hides the others.
    const path =
      e.tag === "Choice" && parent.tag === "Choices"
        ? `Choice/${elements.filter((c) => c.parent === parent && c.tag === "Choice").indexOf(e)}`
        : "";
    return `Validation failed on ${path}: '${missing.replace("@", "")}' is a required property`;
  }
  return undefined;
}

/**
 * `validate_label_config` (label_studio/core/label_config.py) with the server's messages: a string (`None`: "can
 * only parse strings"), well-formed (expat's error and place), no DOCTYPE, the JSON schema, unique names (the
 * `name="…"` attributes of the parsed document: every attribute whose name ends in `name`), and every `toName`
 * naming one of them.
 */
export function labelConfigProblem(config: string | null): string | undefined {
  if (config === null) return "can only parse strings";
  const parsed = parse(config);
  if (!parsed.ok) return parsed.message;
  const schema = schemaProblem(parsed.elements);
  if (schema !== undefined) return schema;
  const values = (suffix: string) =>
    parsed.elements.flatMap((e) =>
      Object.entries(e.attrs).flatMap(([key, value]) => (key.endsWith(suffix) && !value.includes('"') ? [value] : [])),
    );
  const names = values("name");
  if (new Set(names).size !== names.length) return "Label config contains non-unique names";
  const known = new Set(names);
  for (const toNames of values("toName")) {
    for (const toName of toNames.split(",")) {
      if (!known.has(toName)) return `toName="${toName}" not found in names: ${pySortedList([...known])}`;
    }
  }
  return undefined;
}

/** Python's `str(sorted(names))`. */
function pySortedList(names: readonly string[]): string {
  return `[${[...names].sort().map(strRepr).join(", ")}]`;
}
