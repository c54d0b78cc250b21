/**
 * A native `RegExp` for an RE2 pattern when both engines mean the same thing and the native
 * (backtracking) engine cannot blow up on the text at hand. V8's engine is about ten times faster
 * than re2js, but it backtracks: a hostile pattern could stall the process, which is why the
 * engine runs RE2. So the native form is used only
 *  - for the syntax whose meaning is the same in both (literals, `.` matching newlines, anchors
 *    without multi-line mode, `\b`, classes of code points, groups, alternation, quantifiers);
 *  - without case folding, Unicode properties or lookaround;
 *  - when quantified groups hold neither quantifiers nor alternatives (no nested repetition), and
 *  - for a text short enough that the worst backtracking (about n^u · 2^o · a steps per start for
 *    u repetitions, o optionals and a alternatives) stays within BUDGET times re2js' linear work.
 * A `test` (does some match exist) has the same answer under leftmost-first and leftmost-longest.
 */
const BUDGET = 1000;

export interface NativeRegex {
  readonly re: RegExp;
  /** Texts up to this length run natively; longer ones go to RE2. */
  readonly maxLength: number;
}

/** `body` in RE2 syntax as postgres-re.ts writes it. */
export function nativeRegex(body: string, opts: { readonly icase: boolean; readonly newlineSensitive: boolean }): NativeRegex | undefined {
  if (opts.icase || opts.newlineSensitive) return undefined;
  let out = "";
  let repeats = 0, optionals = 0, alternatives = 0;
  // Per open group: did it hold a quantifier or an alternative (nested repetition check)?
  const groups: { risky: boolean }[] = [];
  let lastGroupRisky = false;
  let i = 0;
  const hex = () => {
    const m = /^\\x\{([0-9A-F]{1,6})\}/.exec(body.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return `\\u{${m[1] as string}}`;
  };
  while (i < body.length) {
    const c = body[i] as string;
    if (c === "\\") {
      const h = hex();
      if (h !== undefined) {
        out += h;
        lastGroupRisky = false;
        continue;
      }
      const e = body[i + 1];
      if (e === "A") out += "^";
      else if (e === "z") out += "$";
      else if (e === "b" || e === "B") out += `\\${e}`;
      else return undefined;
      i += 2;
      lastGroupRisky = false;
      continue;
    }
    if (c === "[") {
      const cls = nativeClass(body, i);
      if (cls === undefined) return undefined;
      out += cls.re;
      i = cls.end;
      lastGroupRisky = false;
      continue;
    }
    if (c === "(") {
      if (body.startsWith("(?:", i)) {
        out += "(?:";
        i += 3;
      } else if (body[i + 1] === "?") return undefined; // lookaround, flags
      else {
        out += "(";
        i += 1;
      }
      groups.push({ risky: false });
      continue;
    }
    if (c === ")") {
      const g = groups.pop();
      if (g === undefined) return undefined;
      out += ")";
      i += 1;
      lastGroupRisky = g.risky;
      if (g.risky && groups.length > 0) (groups[groups.length - 1] as { risky: boolean }).risky = true;
      continue;
    }
    if (c === "|") {
      alternatives++;
      if (groups.length > 0) (groups[groups.length - 1] as { risky: boolean }).risky = true;
      out += "|";
      i += 1;
      continue;
    }
    const q = /^(?:[*+?]|\{(\d+)(,(\d*))?\})\??/.exec(body.slice(i));
    if (q) {
      if (lastGroupRisky) return undefined; // repetition of a repetition or of alternatives
      const [all, lo, comma, hi] = q;
      const upper = all.startsWith("*") || all.startsWith("+") ? Infinity : all.startsWith("?") ? 1 : comma === undefined ? Number(lo) : hi === "" ? Infinity : Number(hi);
      if (upper > 1) repeats++;
      else if (!(comma === undefined && all.startsWith("{"))) optionals++;
      if (groups.length > 0) (groups[groups.length - 1] as { risky: boolean }).risky = true;
      out += all;
      i += all.length;
      lastGroupRisky = true;
      continue;
    }
    if (c === "." || c === "^" || c === "$" || /^[\p{L}\p{N}_]$/u.test(c)) {
      out += c;
      i += 1;
      lastGroupRisky = false;
      continue;
    }
    // A surrogate pair (a letter outside the BMP) or anything unexpected: leave it to RE2.
    return undefined;
  }
  if (groups.length > 0) return undefined;
  const factor = 2 ** Math.min(optionals + alternatives, 30);
  if (factor > BUDGET) return undefined;
  const maxLength = repeats === 0 ? Infinity : Math.floor((BUDGET / factor) ** (1 / repeats));
  // postgres-re.ts wraps every quantified atom in a group, `(?:.)*`: V8 runs a bare `.*` faster.
  const source = out.replace(/\(\?:(\.|\\u\{[0-9A-F]+\}|\[(?:[^\]\\]|\\u\{[0-9A-F]+\}|\\.)*\]|[\p{L}\p{N}_])\)(?=[*+?{])/gu, "$1");
  let re: RegExp;
  try {
    re = new RegExp(source, "su");
  } catch {
    return undefined;
  }
  return { re, maxLength };
}

/** A bracket class of literal code points and ranges (`[^` allowed), or undefined. */
function nativeClass(body: string, start: number): { re: string; end: number } | undefined {
  let i = start + 1;
  let re = "[";
  if (body[i] === "^") {
    re += "^";
    i++;
  }
  while (i < body.length && body[i] !== "]") {
    const c = body[i] as string;
    if (c === "\\") {
      const m = /^\\x\{([0-9A-F]{1,6})\}/.exec(body.slice(i));
      if (m) {
        re += `\\u{${m[1] as string}}`;
        i += m[0].length;
        continue;
      }
      const e = body[i + 1] as string;
      if (!"tnvfr".includes(e)) return undefined;
      re += `\\${e}`;
      i += 2;
      continue;
    }
    if (c === "-" || c === " " || /^[\p{L}\p{N}_]$/u.test(c)) {
      re += c;
      i++;
      continue;
    }
    return undefined;
  }
  if (body[i] !== "]") return undefined;
  return { re: `${re}]`, end: i + 1 };
}
