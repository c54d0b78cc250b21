/**
 * Literal shortcuts for an RE2 pattern. A literal prefilter for an RE2 pattern (as postgres-re.ts writes it): strings a text must contain
 * (and, for a pattern anchored at the start, begin with) for the pattern to match. It never rejects a
 * text the pattern matches; RE2 then decides on the texts it lets through. A filter such as
 * `^(lorem|ipsum) .*dolor` so runs RE2 only on texts that start with "lorem " or "ipsum " and contain
 * "dolor" — and `includes` / `startsWith` are linear, as RE2 is.
 *
 * Each part of the pattern is summarised as in Russ Cox's trigram index, on whole literals: the
 * strings it matches when they are few (`exact`); otherwise the strings its match begins with
 * (`prefix`), ends with (`suffix`), and sets of which it contains one string each (`required`).
 */
export type Prefilter = (text: string) => boolean;

/** Few and short enough to enumerate (cross products of alternatives stay small). */
const MAX_STRINGS = 16;
const MAX_LENGTH = 32;

type Strings = readonly string[];

interface Info {
  /** The part matches exactly one of these strings (undefined: not known). */
  readonly exact: Strings | undefined;
  /** Its match begins with one of these ([""]: nothing known). */
  readonly prefix: Strings;
  /** Its match ends with one of these ([""]: nothing known). */
  readonly suffix: Strings;
  /** Its match contains one string of each set. */
  readonly required: readonly Strings[];
}

const NOTHING: Strings = [""];
/** Nothing known (a class, `.`, an optional or repeated part). */
const ANY: Info = { exact: undefined, prefix: NOTHING, suffix: NOTHING, required: [] };
/** Exactly the empty string (an anchor, a word boundary, a lookbehind). */
const EMPTY: Info = { exact: NOTHING, prefix: NOTHING, suffix: NOTHING, required: [] };

/** Every x + y, or undefined when there would be too many or too long. */
function cross(xs: Strings, ys: Strings): Strings | undefined {
  if (xs.length * ys.length > MAX_STRINGS) return undefined;
  const out = [...new Set(xs.flatMap((x) => ys.map((y) => x + y)))];
  return out.every((s) => s.length <= MAX_LENGTH) ? out : undefined;
}

/** A set that constrains: no empty string in it. */
const constrains = (set: Strings) => set.length > 0 && set.every((s) => s.length > 0);

const exactly = (exact: Strings): Info => ({ exact, prefix: exact, suffix: exact, required: [] });
const literal = (s: string): Info => exactly([s]);

/**
 * The concatenation of two parts. Where they meet, a's suffix and b's prefix are contiguous in the
 * match; when a cross product would grow too large, each side is kept alone instead.
 */
function concat(a: Info, b: Info): Info {
  if (a.exact && b.exact) {
    const exact = cross(a.exact, b.exact);
    if (exact) return exactly(exact);
    return { exact: undefined, prefix: a.exact, suffix: b.exact, required: [] };
  }
  const required = [...a.required, ...b.required];
  let prefix = a.prefix,
    suffix = b.suffix;
  if (a.exact) {
    const grown = cross(a.exact, b.prefix);
    prefix = grown ?? a.exact;
    if (!grown) required.push(b.prefix);
  }
  if (b.exact) {
    const grown = cross(a.suffix, b.exact);
    suffix = grown ?? b.exact;
    if (!grown) required.push(a.suffix);
  }
  if (!a.exact && !b.exact) {
    const junction = cross(a.suffix, b.prefix);
    if (junction) required.push(junction);
    else required.push(a.suffix, b.prefix);
  }
  return { exact: undefined, prefix, suffix, required: required.filter(constrains) };
}

/** The sets a part's match must meet, all told. */
function sets(info: Info): readonly Strings[] {
  const all = info.exact ? [info.exact] : [...info.required, info.prefix, info.suffix];
  return all.filter(constrains);
}

const shortest = (set: Strings) => Math.min(...set.map((s) => s.length));

/** Alternatives: exact if all are; otherwise the union of their prefixes, suffixes, and narrowest sets. */
function alternate(branches: readonly Info[]): Info {
  if (branches.length === 1) return branches[0] as Info;
  const union = (pick: (b: Info) => Strings): Strings => {
    const all = [...new Set(branches.flatMap(pick))];
    return all.length <= MAX_STRINGS ? all : NOTHING;
  };
  if (branches.every((b) => b.exact)) {
    const exact = union((b) => b.exact as Strings);
    if (exact !== NOTHING) return exactly(exact);
  }
  // A branch that constrains nothing makes the union constrain nothing (constrains() drops it).
  const starts = union((b) => b.exact ?? b.prefix),
    ends = union((b) => b.exact ?? b.suffix);
  const picks: string[] = [];
  for (const b of branches) {
    const own = sets(b);
    if (own.length === 0) return { exact: undefined, prefix: starts, suffix: ends, required: [] };
    // The set whose shortest string is longest: the most selective one.
    picks.push(...own.reduce((x, y) => (shortest(y) > shortest(x) ? y : x)));
  }
  const required = [...new Set(picks)];
  return { exact: undefined, prefix: starts, suffix: ends, required: required.length <= MAX_STRINGS ? [required] : [] };
}

/** Syntax the summary does not know: no prefilter. */
class Unknown extends Error {}

class Reader {
  pos = 0;
  /** The body as code points (a letter outside the BMP is one). */
  readonly cps: string[];
  constructor(body: string) {
    this.cps = [...body];
  }
  peek(k = 0): string | undefined {
    return this.cps[this.pos + k];
  }
  startsWith(s: string): boolean {
    return this.cps.slice(this.pos, this.pos + s.length).join("") === s;
  }
}

/** regex := branch ('|' branch)* */
function regex(r: Reader): Info {
  const branches = [branch(r)];
  while (r.peek() === "|") {
    r.pos++;
    branches.push(branch(r));
  }
  return alternate(branches);
}

function branch(r: Reader): Info {
  let info = EMPTY;
  for (;;) {
    const c = r.peek();
    if (c === undefined || c === "|" || c === ")") return info;
    info = concat(info, quantified(r, atom(r)));
  }
}

const QUANTIFIER = /^(?:[*+?]|\{(\d+)(?:(,)(\d*))?\})\??/;

function quantified(r: Reader, info: Info): Info {
  const q = QUANTIFIER.exec(r.cps.slice(r.pos, r.pos + 16).join(""));
  if (!q) return info;
  r.pos += [...q[0]].length;
  const [all, lo, comma] = q;
  const min = all.startsWith("+") ? 1 : all.startsWith("*") || all.startsWith("?") ? 0 : Number(lo);
  if (min === 0) return ANY;
  if (min === 1 && comma === undefined && all.startsWith("{")) return info;
  // At least one repetition: it begins and ends as the part does and contains what one contains.
  return { exact: undefined, prefix: info.exact ?? info.prefix, suffix: info.exact ?? info.suffix, required: sets(info) };
}

function atom(r: Reader): Info {
  const c = r.peek() as string;
  if (c === "(") {
    if (r.startsWith("(?<=") || r.startsWith("(?<!")) {
      // A lookbehind reads text before the match: it adds nothing to what the match contains.
      r.pos += 4;
      regex(r);
      close(r);
      return EMPTY;
    }
    if (r.startsWith("(?:")) r.pos += 3;
    else if (r.peek(1) === "?") throw new Unknown();
    else r.pos += 1;
    const inner = regex(r);
    close(r);
    return inner;
  }
  if (c === "[") {
    // A class: one character of a set, not enumerated.
    skipClass(r);
    return ANY;
  }
  if (c === "\\") {
    const e = r.peek(1);
    if (e === "x" && r.peek(2) === "{") {
      const end = r.cps.indexOf("}", r.pos);
      const cp = parseInt(r.cps.slice(r.pos + 3, end).join(""), 16);
      r.pos = end + 1;
      return literal(String.fromCodePoint(cp));
    }
    // Zero-width assertions match no character; any other escape is a class of characters.
    const zeroWidth = e === "A" || e === "z" || e === "b" || e === "B";
    r.pos += escapeLength(r);
    return zeroWidth ? EMPTY : ANY;
  }
  r.pos++;
  if (c === "^" || c === "$") return EMPTY;
  if (c === ".") return ANY;
  return literal(c);
}

function close(r: Reader): void {
  if (r.peek() !== ")") throw new Unknown();
  r.pos++;
}

function skipClass(r: Reader): void {
  r.pos++;
  while (r.peek() !== undefined && r.peek() !== "]") r.pos += r.peek() === "\\" ? escapeLength(r) : 1;
  r.pos++;
}

/** Code points of the escape at the reader (`\x{…}`, `\p{…}`, or a backslash and one character). */
function escapeLength(r: Reader): number {
  const e = r.peek(1);
  if ((e === "x" || e === "p" || e === "P") && r.peek(2) === "{") return r.cps.indexOf("}", r.pos) - r.pos + 1;
  return 2;
}

/** Whether the body has an alternative at its top level (outside groups and classes). */
function topLevelAlternation(body: string): boolean {
  const r = new Reader(body);
  let depth = 0;
  while (r.peek() !== undefined) {
    const c = r.peek() as string;
    if (c === "\\") r.pos += escapeLength(r);
    else if (c === "[") skipClass(r);
    else {
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === "|" && depth === 0) return true;
      r.pos++;
    }
  }
  return false;
}

/**
 * The prefilter of an RE2 body, or undefined when it would test nothing. Case-insensitive patterns
 * get none. A body starting with `^` or `\A` (and no alternative beside it) matches at the text's
 * start, so the text begins with its prefix — except with newline-sensitive matching, where `^`
 * also matches after a newline.
 */
export function prefilterOf(body: string, opts: { readonly icase: boolean; readonly newlineSensitive: boolean }): Prefilter | undefined {
  if (opts.icase) return undefined;
  let info: Info;
  try {
    const r = new Reader(body);
    info = regex(r);
    if (r.peek() !== undefined) return undefined;
  } catch (e) {
    if (e instanceof Unknown) return undefined;
    throw e;
  }
  const anchored = !opts.newlineSensitive && (body.startsWith("^") || body.startsWith("\\A")) && !topLevelAlternation(body);
  const starts = info.exact ?? info.prefix;
  const prefixes = anchored && constrains(starts) ? starts : undefined;
  const required = sets(info).filter((set) => set !== prefixes);
  if (required.length === 0 && prefixes === undefined) return undefined;
  return (text) => {
    if (prefixes !== undefined && !prefixes.some((p) => text.startsWith(p))) return false;
    for (const set of required) if (!set.some((s) => text.includes(s))) return false;
    return true;
  };
}

/**
 * A pattern made only of literal alternatives and `.*` (with `.` matching newlines), anchored or
 * not — `^(lorem|ipsum) .*dolor`, `error.*timeout$`, `abc` — matches exactly when its literal groups
 * occur in order: each at its earliest possible end after the previous one (the greedy choice is
 * optimal: an earlier end leaves more room), the first at the start if anchored, the last at the end
 * if anchored. Decided with `startsWith` / `indexOf`, without RE2. Undefined for any other pattern.
 */
export function literalGlob(body: string, opts: { readonly icase: boolean; readonly newlineSensitive: boolean }): Prefilter | undefined {
  if (opts.icase || opts.newlineSensitive || topLevelAlternation(body)) return undefined;
  // Assertions other than the outer anchors, and lookbehinds, depend on context: not a glob.
  if (/\\[bB]|\(\?<|\\[pP]/.test(body)) return undefined;
  const r = new Reader(body);
  const start = r.peek() === "^" || r.startsWith("\\A");
  if (start) r.pos += r.peek() === "^" ? 1 : 2;
  const groups: Strings[] = [];
  /** Whether a `.*` precedes each group. */
  const gaps: boolean[] = [];
  let gap = !start,
    end = false;
  try {
    while (r.peek() !== undefined) {
      if (r.startsWith("(?:.)*")) {
        r.pos += r.startsWith("(?:.)*?") ? 7 : 6;
        gap = true;
        continue;
      }
      if ((r.peek() === "$" || r.startsWith("\\z")) && r.pos + (r.peek() === "$" ? 1 : 2) === r.cps.length) {
        end = true;
        break;
      }
      if (r.peek() === "^" || r.peek() === "$" || r.startsWith("\\A") || r.startsWith("\\z")) return undefined;
      const info = quantified(r, atom(r));
      if (!info.exact) return undefined;
      const last = groups.length - 1;
      if (last >= 0 && !gap) {
        const merged = cross(groups[last] as Strings, info.exact);
        if (!merged) return undefined;
        groups[last] = merged;
      } else {
        groups.push(info.exact);
        gaps.push(gap);
      }
      gap = false;
    }
  } catch (e) {
    if (e instanceof Unknown) return undefined;
    throw e;
  }
  const tail = !end || gap;
  return (text) => {
    let pos = 0;
    for (let g = 0; g < groups.length; g++) {
      const set = groups[g] as Strings;
      const lastGroup = g === groups.length - 1;
      let next = -1;
      for (const s of set) {
        let at: number;
        if (lastGroup && !tail) {
          // Anchored at the end: the group ends the text.
          at = text.length - s.length;
          if (at < pos || !text.endsWith(s) || (!gaps[g] && at !== pos)) continue;
        } else if (gaps[g]) {
          at = text.indexOf(s, pos);
          if (at < 0) continue;
        } else {
          if (!text.startsWith(s, pos)) continue;
          at = pos;
        }
        if (next < 0 || at + s.length < next) next = at + s.length;
      }
      if (next < 0) return false;
      pos = next;
    }
    return tail || groups.length > 0 || !start || text.length === 0 || gap;
  };
}
