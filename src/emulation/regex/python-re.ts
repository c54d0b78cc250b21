import { match, P } from "ts-pattern";

/**
 * Does Python's `re.compile(pattern)` accept this pattern? The server compiles every `regex` filter
 * value with Python `re` before filtering and answers an empty result when one fails
 * (`data_manager/managers.py` `filters_contain_invalid_regex`). This is a syntax checker for `str`
 * patterns following CPython 3.11's `re._parser`, written from its rules: it reports the first
 * error with CPython's message, and computes widths only to reject variable-width look-behinds.
 * Unicode character names in `\N{...}` are accepted without looking them up.
 */
export type PythonReResult = { readonly ok: true } | { readonly ok: false; readonly error: string };

const MAXREPEAT = 4294967295;
const DIGITS = "0123456789";
const OCTDIGITS = "01234567";
const HEXDIGITS = "0123456789abcdefABCDEF";
const ASCIILETTERS = /^[a-zA-Z]$/;
const WHITESPACE = " \t\n\r\v\f";
const FLAG_CHARS = "iLmsxatu";
const CATEGORY_ESCAPES = new Set(["\\A", "\\b", "\\B", "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "\\Z"]);
const ANCHOR_ESCAPES = new Set(["\\A", "\\b", "\\B", "\\Z"]);
const CHAR_ESCAPE_CODES: Readonly<Record<string, number>> = {
  "\\a": 7,
  "\\b": 8,
  "\\f": 12,
  "\\n": 10,
  "\\r": 13,
  "\\t": 9,
  "\\v": 11,
  "\\\\": 92,
};
const CHAR_ESCAPES = new Set(Object.keys(CHAR_ESCAPE_CODES));

class ReError extends Error {}

/** A parsed item: enough structure for "nothing to repeat", "multiple repeat" and widths. */
type Item =
  | { readonly k: "char" }
  | { readonly k: "at" }
  | { readonly k: "assert" }
  | { readonly k: "repeat"; readonly min: number; readonly max: number; readonly item: Width }
  | { readonly k: "group"; readonly width: Width; readonly plain: boolean }
  | { readonly k: "groupref"; readonly group: number }
  | { readonly k: "cond"; readonly width: Width };
type Width = readonly [number, number];

class Tokenizer {
  index = 0;
  next: string | undefined;
  constructor(readonly text: string) {
    this.advance();
  }
  private advance(): void {
    const i = this.index;
    if (i >= this.text.length) {
      this.next = undefined;
      return;
    }
    let ch = this.text[i] as string;
    if (ch === "\\") {
      if (i + 1 >= this.text.length) throw new ReError("bad escape (end of pattern)");
      ch += this.text[i + 1];
      this.index = i + 2;
    } else this.index = i + 1;
    this.next = ch;
  }
  match(ch: string): boolean {
    if (this.next === ch) {
      this.advance();
      return true;
    }
    return false;
  }
  get(): string | undefined {
    const t = this.next;
    this.advance();
    return t;
  }
  getWhile(n: number, charset: string): string {
    let out = "";
    for (let i = 0; i < n; i++) {
      const c = this.next;
      if (c === undefined || c.length !== 1 || !charset.includes(c)) break;
      out += c;
      this.advance();
    }
    return out;
  }
  getUntil(terminator: string, name: string): string {
    let out = "";
    for (;;) {
      const c = this.next;
      this.advance();
      if (c === undefined) throw new ReError(out ? `missing ${terminator}, unterminated name` : `missing ${name}`);
      if (c === terminator) {
        if (!out) throw new ReError(`missing ${name}`);
        return out;
      }
      out += c;
    }
  }
  tell(): number {
    return this.index - (this.next?.length ?? 0);
  }
  seek(index: number): void {
    this.index = index;
    this.advance();
  }
}

interface State {
  flags: { verbose: boolean; ascii: boolean; unicode: boolean };
  groups: number; // next group number (group 0 is the whole match)
  groupNames: Map<string, number>;
  open: Set<number>;
  widths: Map<number, Width>;
  lookbehindGroups: number | undefined;
  refPositions: Set<number>;
}

const isIdentifier = (s: string) => /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_]*$/u.test(s);

export function checkPythonRegex(pattern: string): PythonReResult {
  try {
    const source = new Tokenizer(pattern);
    const state: State = {
      flags: { verbose: false, ascii: false, unicode: false },
      groups: 1,
      groupNames: new Map(),
      open: new Set(),
      widths: new Map(),
      lookbehindGroups: undefined,
      refPositions: new Set(),
    };
    parseSub(source, state, false, 0);
    if (source.next !== undefined) throw new ReError("unbalanced parenthesis");
    if (state.flags.ascii && state.flags.unicode) throw new ReError("ASCII and UNICODE flags are incompatible");
    for (const g of state.refPositions) if (g >= state.groups) throw new ReError(`invalid group reference ${g}`);
    return { ok: true };
  } catch (e) {
    if (e instanceof ReError) return { ok: false, error: e.message };
    if (e instanceof RangeError) return { ok: false, error: "maximum recursion depth exceeded" };
    throw e;
  }
}

function parseSub(source: Tokenizer, state: State, verbose: boolean, nested: number): Width {
  let lo = Infinity,
    hi = 0,
    first = true;
  for (;;) {
    const w = parse(source, state, verbose, nested + 1, nested === 0 && first);
    lo = Math.min(lo, w[0]);
    hi = Math.max(hi, w[1]);
    first = false;
    if (!source.match("|")) break;
    // After a global flag group the tokenizer state may have changed verbosity.
    verbose = verbose || state.flags.verbose;
  }
  return [lo === Infinity ? 0 : lo, hi];
}

function widthOf(items: readonly Item[], state: State): Width {
  let lo = 0,
    hi = 0;
  for (const it of items) {
    const [a, b] = itemWidth(it, state);
    lo += a;
    hi = Math.min(hi + b, MAXREPEAT);
  }
  return [lo, hi];
}

function itemWidth(it: Item, state: State): Width {
  return match(it)
    .returnType<Width>()
    .with({ k: "char" }, () => [1, 1])
    .with({ k: P.union("at", "assert") }, () => [0, 0])
    .with({ k: "repeat" }, (r) => [r.item[0] * r.min, Math.min(r.item[1] * r.max, MAXREPEAT)])
    .with({ k: P.union("group", "cond") }, (g) => g.width)
    .with({ k: "groupref" }, (g) => state.widths.get(g.group) ?? [0, 0])
    .exhaustive();
}

function parse(source: Tokenizer, state: State, verboseIn: boolean, nested: number, first: boolean): Width {
  let verbose = verboseIn;
  const items: Item[] = [];
  for (;;) {
    const t = source.next;
    if (t === undefined || t === "|" || t === ")") break;
    source.get();
    if (verbose) {
      if (WHITESPACE.includes(t)) continue;
      if (t === "#") {
        for (;;) {
          const c = source.get();
          if (c === undefined || c === "\n") break;
        }
        continue;
      }
    }
    if (t[0] === "\\") {
      items.push(parseEscape(source, t, state));
    } else if (!".\\[{()*+?^$|".includes(t)) {
      items.push({ k: "char" });
    } else if (t === "[") {
      parseSet(source);
      items.push({ k: "char" });
    } else if ("*+?{".includes(t)) {
      const here = source.tell();
      let min = 0,
        max = MAXREPEAT;
      if (t === "?") max = 1;
      else if (t === "+") min = 1;
      else if (t === "{") {
        if (source.next === "}") {
          items.push({ k: "char" });
          continue;
        }
        let loText = "",
          hiText = "";
        while (source.next !== undefined && DIGITS.includes(source.next) && source.next.length === 1) loText += source.get();
        if (source.match(",")) {
          while (source.next !== undefined && DIGITS.includes(source.next) && source.next.length === 1) hiText += source.get();
        } else hiText = loText;
        if (!source.match("}")) {
          items.push({ k: "char" });
          source.seek(here);
          continue;
        }
        if (loText) {
          min = Number(loText);
          if (min >= MAXREPEAT) throw new ReError("the repetition number is too large");
        }
        if (hiText) {
          max = Number(hiText);
          if (max >= MAXREPEAT) throw new ReError("the repetition number is too large");
          if (max < min) throw new ReError("min repeat greater than max repeat");
        }
      }
      const last = items[items.length - 1];
      if (last === undefined || last.k === "at") throw new ReError("nothing to repeat");
      if (last.k === "repeat") throw new ReError("multiple repeat");
      if (!source.match("?")) source.match("+"); // lazy or (3.11+) possessive
      items[items.length - 1] = { k: "repeat", min, max, item: itemWidth(last, state) };
    } else if (t === ".") {
      items.push({ k: "char" });
    } else if (t === "(") {
      const item = parseGroup(source, state, verbose, nested, first && items.length === 0);
      if (item === "flags") {
        verbose = state.flags.verbose;
        continue;
      }
      if (item !== undefined) items.push(item);
    } else {
      items.push({ k: "at" }); // ^ $
    }
  }
  return widthOf(items, state);
}

/** A `(` group; "flags" for a global flag group, undefined for a comment. */
function parseGroup(source: Tokenizer, state: State, verbose: boolean, nested: number, atStart: boolean): Item | "flags" | undefined {
  let capture = true;
  let name: string | undefined;
  let subVerbose = verbose;
  if (source.match("?")) {
    const c = source.get();
    if (c === undefined) throw new ReError("unexpected end of pattern");
    if (c === "P") {
      if (source.match("<")) {
        name = source.getUntil(">", "group name");
        if (!isIdentifier(name)) throw new ReError(`bad character in group name '${name}'`);
      } else if (source.match("=")) {
        const ref = source.getUntil(")", "group name");
        if (!isIdentifier(ref)) throw new ReError(`bad character in group name '${ref}'`);
        const gid = state.groupNames.get(ref);
        if (gid === undefined) throw new ReError(`unknown group name '${ref}'`);
        if (state.open.has(gid)) throw new ReError("cannot refer to an open group");
        checkLookbehindGroup(state, gid);
        return { k: "groupref", group: gid };
      } else {
        const d = source.get();
        if (d === undefined) throw new ReError("unexpected end of pattern");
        throw new ReError(`unknown extension ?P${d}`);
      }
    } else if (c === ":") {
      capture = false;
    } else if (c === "#") {
      for (;;) {
        if (source.next === undefined) throw new ReError("missing ), unterminated comment");
        if (source.get() === ")") break;
      }
      return undefined;
    } else if (c === "=" || c === "!" || c === "<") {
      let behind = false;
      if (c === "<") {
        const d = source.get();
        if (d === undefined) throw new ReError("unexpected end of pattern");
        if (d !== "=" && d !== "!") throw new ReError(`unknown extension ?<${d}`);
        behind = true;
      }
      const saved = state.lookbehindGroups;
      if (behind && saved === undefined) state.lookbehindGroups = state.groups;
      const w = parseSub(source, state, verbose, nested + 1);
      if (behind && saved === undefined) state.lookbehindGroups = undefined;
      if (!source.match(")")) throw new ReError("missing ), unterminated subpattern");
      if (behind && w[0] !== w[1]) throw new ReError("look-behind requires fixed-width pattern");
      return { k: "assert" };
    } else if (c === "(") {
      const condName = source.getUntil(")", "group name");
      let gid: number;
      if (isIdentifier(condName)) {
        const g = state.groupNames.get(condName);
        if (g === undefined) throw new ReError(`unknown group name '${condName}'`);
        gid = g;
      } else {
        if (!/^\d+$/.test(condName)) throw new ReError(`bad character in group name '${condName}'`);
        gid = Number(condName);
        if (gid === 0) throw new ReError("bad group number");
        if (gid >= 2 ** 30) throw new ReError(`invalid group reference ${gid}`);
        state.refPositions.add(gid);
      }
      checkLookbehindGroup(state, gid);
      const yes = parse(source, state, verbose, nested + 1, false);
      let no: Width = [0, 0];
      if (source.match("|")) {
        no = parse(source, state, verbose, nested + 1, false);
        if (source.next === "|") throw new ReError("conditional backref with more than two branches");
      }
      if (!source.match(")")) throw new ReError("missing ), unterminated subpattern");
      return { k: "cond", width: [Math.min(yes[0], no[0]), Math.max(yes[1], no[1])] };
    } else if (c === ">") {
      capture = false;
    } else if (FLAG_CHARS.includes(c) || c === "-") {
      const flags = parseFlags(source, state, c);
      if (flags === "global") {
        if (!atStart) throw new ReError("global flags not at the start of the expression");
        return "flags";
      }
      subVerbose = (verbose || flags.add.includes("x")) && !flags.del.includes("x");
      capture = false;
    } else {
      throw new ReError(`unknown extension ?${c}`);
    }
  }
  let gid: number | undefined;
  if (capture) {
    gid = state.groups++;
    if (name !== undefined) {
      const prev = state.groupNames.get(name);
      if (prev !== undefined) throw new ReError(`redefinition of group name '${name}' as group ${gid}; was group ${prev}`);
      state.groupNames.set(name, gid);
    }
    state.open.add(gid);
  }
  const w = parseSub(source, state, subVerbose, nested + 1);
  if (!source.match(")")) throw new ReError("missing ), unterminated subpattern");
  if (gid !== undefined) {
    state.open.delete(gid);
    state.widths.set(gid, w);
  }
  return { k: "group", width: w, plain: !capture };
}

function checkLookbehindGroup(state: State, gid: number): void {
  if (state.lookbehindGroups === undefined) return;
  if (gid >= state.groups || state.open.has(gid)) throw new ReError("cannot refer to an open group");
  if (gid >= state.lookbehindGroups) throw new ReError("cannot refer to group defined in the same lookbehind subpattern");
}

function parseFlags(source: Tokenizer, state: State, first: string): "global" | { add: string; del: string } {
  let add = "",
    del = "";
  let c: string | undefined = first;
  if (c !== "-") {
    for (;;) {
      if (c === "L") throw new ReError("bad inline flags: cannot use 'L' flag with a str pattern");
      add += c;
      if ((add.includes("a") ? 1 : 0) + (add.includes("u") ? 1 : 0) > 1) {
        throw new ReError("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      }
      c = source.get();
      if (c === undefined) throw new ReError("missing -, : or )");
      if (c === ")" || c === "-" || c === ":") break;
      if (!FLAG_CHARS.includes(c)) throw new ReError(/^\p{L}$/u.test(c) ? "unknown flag" : "missing -, : or )");
    }
  }
  if (c === ")") {
    if (add.includes("x")) state.flags.verbose = true;
    if (add.includes("a")) state.flags.ascii = true;
    if (add.includes("u")) state.flags.unicode = true;
    return "global";
  }
  if (c === "-") {
    c = source.get();
    if (c === undefined) throw new ReError("missing flag");
    if (!FLAG_CHARS.includes(c)) throw new ReError(/^\p{L}$/u.test(c) ? "unknown flag" : "missing flag");
    for (;;) {
      if ("aLu".includes(c)) throw new ReError("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      del += c;
      c = source.get();
      if (c === undefined) throw new ReError("missing :");
      if (c === ":") break;
      if (!FLAG_CHARS.includes(c)) throw new ReError(/^\p{L}$/u.test(c) ? "unknown flag" : "missing :");
    }
  }
  for (const f of add) if (del.includes(f)) throw new ReError("bad inline flags: flag turned on and off");
  return { add, del };
}

/** An escape outside a set. */
function parseEscape(source: Tokenizer, esc: string, state: State): Item {
  if (CATEGORY_ESCAPES.has(esc)) return ANCHOR_ESCAPES.has(esc) ? { k: "at" } : { k: "char" };
  if (CHAR_ESCAPES.has(esc)) return { k: "char" };
  const c = esc[1] as string;
  if (c === "x" || c === "u" || c === "U" || c === "N") {
    characterEscape(source, esc);
    return { k: "char" };
  }
  if (c === "0") {
    source.getWhile(2, OCTDIGITS);
    return { k: "char" };
  }
  if (DIGITS.includes(c)) {
    let text = esc;
    if (source.next !== undefined && source.next.length === 1 && DIGITS.includes(source.next)) {
      text += source.get();
      const n = source.next;
      if (
        OCTDIGITS.includes(text[1] as string) &&
        OCTDIGITS.includes(text[2] as string) &&
        n !== undefined &&
        n.length === 1 &&
        OCTDIGITS.includes(n)
      ) {
        text += source.get();
        const value = parseInt(text.slice(1), 8);
        if (value > 0o377) throw new ReError(`octal escape value ${text} outside of range 0-0o377`);
        return { k: "char" };
      }
    }
    const group = Number(text.slice(1));
    if (group < state.groups) {
      if (state.open.has(group)) throw new ReError("cannot refer to an open group");
      checkLookbehindGroup(state, group);
      return { k: "groupref", group };
    }
    throw new ReError(`invalid group reference ${group}`);
  }
  if (ASCIILETTERS.test(c)) throw new ReError(`bad escape ${esc}`);
  return { k: "char" };
}

/** `\x..`, `\u....`, `\U........`, `\N{...}` (same inside and outside sets). */
function characterEscape(source: Tokenizer, esc: string): void {
  const c = esc[1];
  if (c === "x" || c === "u" || c === "U") {
    const n = c === "x" ? 2 : c === "u" ? 4 : 8;
    const hex = source.getWhile(n, HEXDIGITS);
    if (hex.length !== n) throw new ReError(`incomplete escape ${esc}${hex}`);
    if (c === "U" && parseInt(hex, 16) > 0x10ffff) throw new ReError(`bad escape ${esc}${hex}`);
    return;
  }
  if (!source.match("{")) throw new ReError("missing {");
  source.getUntil("}", "character name");
}

/** A `[...]` set (the `[` consumed). */
function parseSet(source: Tokenizer): void {
  source.match("^");
  let count = 0;
  for (;;) {
    const t = source.get();
    if (t === undefined) throw new ReError("unterminated character set");
    if (t === "]" && count > 0) return;
    const code1 = t[0] === "\\" ? classEscape(source, t) : { literal: t.codePointAt(0) as number };
    if (source.match("-")) {
      const that = source.get();
      if (that === undefined) throw new ReError("unterminated character set");
      if (that === "]") return;
      const code2 = that[0] === "\\" ? classEscape(source, that) : { literal: that.codePointAt(0) as number };
      if (code1.literal === undefined || code2.literal === undefined) throw new ReError(`bad character range ${t}-${that}`);
      if (code2.literal < code1.literal) throw new ReError(`bad character range ${t}-${that}`);
    }
    count++;
  }
}

/** An escape inside a set: a literal code point, or a category (`\d`…) that cannot end a range. */
function classEscape(source: Tokenizer, esc: string): { literal: number | undefined } {
  const simple = CHAR_ESCAPE_CODES[esc];
  if (simple !== undefined) return { literal: simple };
  if (CATEGORY_ESCAPES.has(esc) && !ANCHOR_ESCAPES.has(esc)) return { literal: undefined };
  const c = esc[1] as string;
  if (c === "x" || c === "u" || c === "U") {
    const n = c === "x" ? 2 : c === "u" ? 4 : 8;
    const hex = source.getWhile(n, HEXDIGITS);
    if (hex.length !== n) throw new ReError(`incomplete escape ${esc}${hex}`);
    const value = parseInt(hex, 16);
    if (c === "U" && value > 0x10ffff) throw new ReError(`bad escape ${esc}${hex}`);
    return { literal: value };
  }
  if (c === "N") {
    characterEscape(source, esc);
    return { literal: 0 };
  }
  if (OCTDIGITS.includes(c)) {
    const text = esc + source.getWhile(2, OCTDIGITS);
    const value = parseInt(text.slice(1), 8);
    if (value > 0o377) throw new ReError(`octal escape value ${text} outside of range 0-0o377`);
    return { literal: value };
  }
  if (DIGITS.includes(c) || ASCIILETTERS.test(c)) throw new ReError(`bad escape ${esc}`);
  return { literal: esc.codePointAt(1) as number };
}
