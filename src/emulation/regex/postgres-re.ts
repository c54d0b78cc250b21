import { RE2JS } from "re2js";
import { literalGlob, prefilterOf } from "./prefilter.js";

/**
 * Run a `regex` filter the way the server does: the pattern reaches Postgres (`field ~ pattern`, an
 * Advanced Regular Expression, case-sensitive, matching anywhere). This module reads the pattern
 * with Postgres' ARE syntax and rewrites it into RE2 syntax for `re2js`, a linear-time engine, so
 * a hostile pattern cannot stall the process. Three outcomes:
 *  - "ok": a matcher with Postgres' meaning (`\b` is a backspace, `.` matches a newline, …);
 *  - "error": Postgres rejects the pattern (the server answers 500 with this text);
 *  - "unsupported": Postgres runs it but RE2 cannot (lookahead, backreferences).
 * docs/regex-dialect.md lists what still differs.
 */
export type PgRegex =
  | { readonly kind: "ok"; readonly test: (text: string) => boolean; readonly re2: string }
  | { readonly kind: "error"; readonly detail: string }
  | { readonly kind: "unsupported"; readonly reason: string };

const DUPMAX = 255;

class PgError extends Error {}
class Unsupported extends Error {}

interface Options {
  icase: boolean;
  newlineSensitive: boolean;
  expanded: boolean;
}

// Character classes with their Unicode meaning under a UTF-8 glibc locale (iswalpha & co.).
const SPACE = "\\t\\n\\v\\f\\r \\x{1680}\\x{2000}-\\x{2006}\\x{2008}-\\x{200A}\\x{2028}\\x{2029}\\x{205F}\\x{3000}";
const CLASS_BODY: Readonly<Record<string, string>> = {
  alpha: "\\p{L}",
  upper: "\\p{Lu}\\p{Lt}",
  lower: "\\p{Ll}",
  digit: "0-9",
  xdigit: "0-9A-Fa-f",
  alnum: "\\p{L}\\p{Nd}",
  word: "\\p{L}\\p{Nd}_",
  punct: "\\p{P}\\p{S}",
  blank: " \\t\\x{1680}\\x{2000}-\\x{2006}\\x{2008}-\\x{200A}\\x{205F}\\x{3000}",
  space: SPACE,
  cntrl: "\\p{Cc}",
  graph: "\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}",
  print: "\\p{L}\\p{M}\\p{N}\\p{P}\\p{S} ",
};
const SHORTHAND: Readonly<Record<string, string>> = { d: "digit", s: "space", w: "word" };

const hex = (cp: number) => `\\x{${cp.toString(16).toUpperCase()}}`;
/** A literal code point in RE2 syntax (letters, digits and `_` as they are, anything else escaped). */
const lit = (cp: number) => (/^[\p{L}\p{N}_]$/u.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp));
const NEVER = "[^\\x{0}-\\x{10FFFF}]";

class Parser {
  pos = 0;
  groupsOpened = 0;
  constructor(
    readonly src: readonly string[],
    readonly opts: Options,
  ) {}

  get atEnd(): boolean {
    return this.pos >= this.src.length;
  }
  peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }
  next(): string {
    const c = this.src[this.pos++];
    if (c === undefined) throw new PgError("invalid regular expression: invalid escape \\ sequence");
    return c;
  }

  /** Skip expanded-syntax white space and comments, and `(?#...)` comments. */
  skipIgnorable(): void {
    for (;;) {
      const c = this.peek();
      if (this.opts.expanded && c !== undefined && /[ \t\n\r\f\v]/.test(c)) {
        this.pos++;
      } else if (this.opts.expanded && c === "#") {
        while (!this.atEnd && this.peek() !== "\n") this.pos++;
      } else if (c === "(" && this.peek(1) === "?" && this.peek(2) === "#") {
        while (!this.atEnd && this.peek() !== ")") this.pos++;
        if (this.atEnd) throw new PgError("invalid regular expression: parentheses () not balanced");
        this.pos++;
      } else return;
    }
  }

  /** regex := branch ('|' branch)* */
  regex(depth: number): string {
    const branches = [this.branch()];
    while (this.peek() === "|") {
      this.pos++;
      branches.push(this.branch());
    }
    if (depth === 0 && !this.atEnd) throw new PgError("invalid regular expression: parentheses () not balanced");
    return branches.join("|");
  }

  branch(): string {
    let out = "";
    for (;;) {
      this.skipIgnorable();
      const c = this.peek();
      if (c === undefined || c === "|" || c === ")") return out;
      const atom = this.atom();
      out += this.quantified(atom);
    }
  }

  /** One atom; `constraint` atoms (anchors, lookarounds) take no quantifier in Postgres. */
  atom(): { re: string; constraint: boolean } {
    const c = this.next();
    switch (c) {
      case "(":
        return this.group();
      case ")":
        throw new PgError("invalid regular expression: parentheses () not balanced");
      case ".":
        return { re: ".", constraint: false };
      case "[":
        return { re: this.bracket(), constraint: false };
      case "\\":
        return this.escape();
      case "^":
        return { re: "^", constraint: true };
      case "$":
        return { re: "$", constraint: true };
      case "*":
      case "+":
      case "?":
        throw new PgError("invalid regular expression: quantifier operand invalid");
      case "{":
        if (this.peek() !== undefined && /[0-9]/.test(this.peek() as string)) {
          throw new PgError("invalid regular expression: quantifier operand invalid");
        }
        return { re: hex(0x7b), constraint: false };
      default:
        return { re: lit(c.codePointAt(0) as number), constraint: false };
    }
  }

  group(): { re: string; constraint: boolean } {
    if (this.peek() === "?") {
      this.pos++;
      const kind = this.peek();
      this.pos++;
      if (kind === ":") return { re: `(?:${this.inner()})`, constraint: false };
      if (kind === "=" || kind === "!") {
        this.inner();
        throw new Unsupported("a lookahead constraint ((?= or (?!) needs a backtracking engine");
      }
      if (kind === "<" && (this.peek() === "=" || this.peek() === "!")) {
        const neg = this.next() === "!";
        return { re: `(?<${neg ? "!" : "="}${this.inner()})`, constraint: true };
      }
      throw new PgError("invalid regular expression: quantifier operand invalid");
    }
    this.groupsOpened++;
    return { re: `(?:${this.inner()})`, constraint: false };
  }

  inner(): string {
    const body = this.regex(1);
    if (this.peek() !== ")") throw new PgError("invalid regular expression: parentheses () not balanced");
    this.pos++;
    return body;
  }

  quantified(atom: { re: string; constraint: boolean }): string {
    this.skipIgnorable();
    const c = this.peek();
    const isBound = c === "{" && /[0-9]/.test(this.peek(1) ?? "");
    if (!(c === "*" || c === "+" || c === "?" || isBound)) return atom.re;
    if (atom.constraint) throw new PgError("invalid regular expression: quantifier operand invalid");
    this.pos++;
    const q = isBound ? this.bound() : (c as string);
    const lazy = this.peek() === "?";
    if (lazy) this.pos++;
    this.skipIgnorable();
    const after = this.peek();
    if (after === "*" || after === "+" || after === "?" || (after === "{" && /[0-9]/.test(this.peek(1) ?? ""))) {
      throw new PgError("invalid regular expression: quantifier operand invalid");
    }
    return `(?:${atom.re})${q}${lazy ? "?" : ""}`;
  }

  /** `{m}`, `{m,}`, `{m,n}` (the `{` consumed). */
  bound(): string {
    const digits = () => {
      let s = "";
      while (/[0-9]/.test(this.peek() ?? "")) s += this.next();
      return s;
    };
    const m = digits();
    let n: string | undefined = m;
    if (this.peek() === ",") {
      this.pos++;
      n = digits() || undefined;
    }
    if (this.peek() === undefined) throw new PgError("invalid regular expression: braces {} not balanced");
    if (this.peek() !== "}") throw new PgError("invalid regular expression: invalid repetition count(s)");
    this.pos++;
    const lo = Number(m),
      hi = n === undefined ? undefined : Number(n);
    if (lo > DUPMAX || (hi !== undefined && (hi > DUPMAX || hi < lo))) {
      throw new PgError("invalid regular expression: invalid repetition count(s)");
    }
    return hi === undefined ? `{${lo},}` : hi === lo ? `{${lo}}` : `{${lo},${hi}}`;
  }

  escape(): { re: string; constraint: boolean } {
    const c = this.next();
    if (c === "A") return { re: "\\A", constraint: true };
    if (c === "Z") return { re: "\\z", constraint: true };
    if (c === "y") return { re: "\\b", constraint: true };
    if (c === "Y") return { re: "\\B", constraint: true };
    if (c === "m" || c === "M") throw new Unsupported(`the word-start/end constraint \\${c} needs lookaround`);
    if (c in SHORTHAND) return { re: `[${CLASS_BODY[SHORTHAND[c] as string]}]`, constraint: false };
    const upper = c.toLowerCase();
    if ((c === "D" || c === "S" || c === "W") && upper in SHORTHAND) {
      return { re: `[^${CLASS_BODY[SHORTHAND[upper] as string]}]`, constraint: false };
    }
    if (/[0-9]/.test(c)) return { re: this.digitEscape(c, true), constraint: false };
    return { re: this.charEntry(c), constraint: false };
  }

  /**
   * `\<digits>` (the backslash and first digit consumed), as Postgres' lexer reads it: all the
   * digits form one number; one digit, or a number not above the groups opened so far, is a
   * backreference; anything else is an octal escape of up to three digits.
   */
  digitEscape(first: string, allowBackref: boolean): string {
    let digits = first;
    let end = this.pos;
    while (/[0-9]/.test(this.src[end] ?? "")) digits += this.src[end++];
    const n = Number(digits);
    if (first !== "0" && (digits.length === 1 || n <= this.groupsOpened)) {
      // Inside brackets a backreference is not allowed.
      if (!allowBackref) throw new PgError("invalid regular expression: invalid escape \\ sequence");
      this.pos = end;
      if (n > this.groupsOpened) throw new PgError("invalid regular expression: invalid backreference number");
      throw new Unsupported(`the backreference \\${n} needs a backtracking engine`);
    }
    if (!/[0-7]/.test(first)) throw new PgError("invalid regular expression: invalid escape \\ sequence");
    let o = first;
    while (o.length < 3 && /[0-7]/.test(this.peek() ?? "")) o += this.next();
    let v = parseInt(o, 8);
    if (v > 0xff) {
      this.pos--; // one digit too many
      v >>= 3;
    }
    return v === 0 ? NEVER : hex(v); // a text value never holds NUL
  }

  /** A character-entry escape (the backslash and `c` consumed) as an RE2 literal. */
  charEntry(c: string): string {
    const simple: Readonly<Record<string, number>> = { a: 7, b: 8, B: 92, e: 27, f: 12, n: 10, r: 13, t: 9, v: 11 };
    if (c in simple) return hex(simple[c] as number);
    if (c === "x") {
      let h = "";
      while (/[0-9a-fA-F]/.test(this.peek() ?? "")) h += this.next();
      if (!h) throw new PgError("invalid regular expression: invalid escape \\ sequence");
      const v = parseInt(h, 16);
      return v > 0x10ffff ? NEVER : hex(v);
    }
    if (c === "u" || c === "U") {
      const n = c === "u" ? 4 : 8;
      let h = "";
      for (let i = 0; i < n; i++) {
        const d = this.peek();
        if (d === undefined || !/[0-9a-fA-F]/.test(d)) throw new PgError("invalid regular expression: invalid escape \\ sequence");
        h += this.next();
      }
      const v = parseInt(h, 16);
      if (v > 0x10ffff) throw new PgError("invalid regular expression: invalid escape \\ sequence");
      return hex(v);
    }
    if (c === "c") {
      const d = this.next();
      return hex((d.codePointAt(0) as number) & 0x1f);
    }
    if (/[0-9]/.test(c)) return this.digitEscape(c, false);
    if (/^[A-Za-z0-9]$/.test(c)) throw new PgError("invalid regular expression: invalid escape \\ sequence");
    return lit(c.codePointAt(0) as number);
  }

  /** A bracket expression (the `[` consumed) as an RE2 class. */
  bracket(): string {
    let negate = false;
    if (this.peek() === "^") {
      this.pos++;
      negate = true;
    }
    const items: string[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new PgError("invalid regular expression: brackets [] not balanced");
      if (c === "]" && !first) {
        this.pos++;
        break;
      }
      first = false;
      const start = this.bracketElement();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.pos++;
        const end = this.bracketElement();
        if (start.cp === undefined || end.cp === undefined) throw new PgError("invalid regular expression: invalid character range");
        if (end.cp < start.cp) throw new PgError("invalid regular expression: invalid character range");
        items.push(`${hex(start.cp)}-${hex(end.cp)}`);
      } else items.push(start.re);
    }
    // Newline-sensitive matching: a negated bracket expression never matches a newline.
    if (negate && this.opts.newlineSensitive) items.push("\\n");
    return items.length === 0 ? NEVER : `[${negate ? "^" : ""}${items.join("")}]`;
  }

  /** One bracket element: a character (with its code point, usable in ranges) or a class. */
  bracketElement(): { re: string; cp: number | undefined } {
    const c = this.next();
    if (c === "[" && (this.peek() === ":" || this.peek() === "." || this.peek() === "=")) {
      const kind = this.next();
      let name = "";
      while (!(this.peek() === kind && this.peek(1) === "]")) {
        if (this.atEnd) throw new PgError("invalid regular expression: brackets [] not balanced");
        name += this.next();
      }
      this.pos += 2;
      if (kind === ":") {
        const body = CLASS_BODY[name];
        if (body === undefined) throw new PgError("invalid regular expression: invalid character class");
        return { re: body, cp: undefined };
      }
      if ([...name].length !== 1) throw new Unsupported(`the collating element [${kind}${name}${kind}] is not supported`);
      const cp = name.codePointAt(0) as number;
      return { re: hex(cp), cp };
    }
    if (c === "\\") {
      const e = this.next();
      if (e in SHORTHAND) return { re: CLASS_BODY[SHORTHAND[e] as string] as string, cp: undefined };
      // \D \S \W inside brackets: RE2 cannot nest a negated Unicode class; its ASCII forms are used.
      if (e === "D" || e === "S" || e === "W") return { re: `\\${e}`, cp: undefined };
      const simple: Readonly<Record<string, number>> = { a: 7, b: 8, B: 92, e: 27, f: 12, n: 10, r: 13, t: 9, v: 11 };
      if (e in simple) return { re: hex(simple[e] as number), cp: simple[e] };
      const re = this.charEntry(e);
      const m = /^\\x\{([0-9A-F]+)\}$/.exec(re);
      const cp = m ? parseInt(m[1] as string, 16) : re === NEVER ? undefined : (re.codePointAt(0) as number);
      return { re: re === NEVER ? "" : re, cp };
    }
    const cp = c.codePointAt(0) as number;
    return { re: hex(cp), cp };
  }
}

/** Options at the very start: `(?` followed by a letter, up to `)` (Postgres' `prefixes()`). */
function embeddedOptions(src: string[], opts: Options): number {
  if (!(src[0] === "(" && src[1] === "?" && /^[a-zA-Z]$/.test(src[2] ?? ""))) return 0;
  let i = 2;
  for (; src[i] !== ")"; i++) {
    const c = src[i];
    switch (c) {
      case "i":
        opts.icase = true;
        break;
      case "c":
        opts.icase = false;
        break;
      case "m":
      case "n":
        opts.newlineSensitive = true;
        break;
      case "s":
        opts.newlineSensitive = false;
        break;
      case "x":
        opts.expanded = true;
        break;
      case "t":
        opts.expanded = false;
        break;
      default:
        throw new PgError("invalid regular expression: invalid embedded option");
    }
  }
  return i + 1;
}

const cache = new Map<string, PgRegex>();

/** Compile a pattern as Postgres would run it (memoised: filters reuse patterns across calls). */
export function compilePgRegex(pattern: string): PgRegex {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const result = compileUncached(pattern);
  if (cache.size > 500) cache.clear();
  cache.set(pattern, result);
  return result;
}

function compileUncached(pattern: string): PgRegex {
  const src = [...pattern];
  const opts: Options = { icase: false, newlineSensitive: false, expanded: false };
  try {
    const start = embeddedOptions(src, opts);
    const parser = new Parser(src, opts);
    parser.pos = start;
    const body = parser.regex(0);
    let flags = RE2JS.LOOKBEHINDS;
    if (opts.icase) flags |= RE2JS.CASE_INSENSITIVE;
    flags |= opts.newlineSensitive ? RE2JS.MULTILINE : RE2JS.DOTALL;
    let compiled: ReturnType<typeof RE2JS.compile>;
    try {
      compiled = RE2JS.compile(body, flags);
    } catch (e) {
      return { kind: "unsupported", reason: `the linear-time engine rejects the rewritten pattern: ${(e as Error).message}` };
    }
    // Literals and `.*` only: decided by string search. Otherwise texts without the pattern's
    // literal strings cannot match, and RE2 runs on the rest (prefilter.ts).
    const glob = literalGlob(body, opts);
    if (glob !== undefined) return { kind: "ok", test: glob, re2: body };
    const prefilter = prefilterOf(body, opts);
    if (prefilter === undefined) return { kind: "ok", test: (text) => compiled.test(text), re2: body };
    return { kind: "ok", test: (text) => prefilter(text) && compiled.test(text), re2: body };
  } catch (e) {
    if (e instanceof PgError) return { kind: "error", detail: e.message };
    if (e instanceof Unsupported) return { kind: "unsupported", reason: e.message };
    throw e;
  }
}
