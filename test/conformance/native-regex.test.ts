/**
 * The engine runs a regex filter natively (V8) where that means the same as RE2 and cannot blow up
 * (src/emulation/regex/native.ts). Law: whenever the native form is taken, it answers every text as
 * RE2 does with the engine's flags; the flags a pattern's embedded options set (case folding,
 * newline-sensitive matching) are exercised too.
 */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, test } from "vitest";
import { compilePgRegex } from "../../src/emulation/regex/postgres-re.js";
import { nativeRegex } from "../../src/emulation/regex/native.js";
import { check, timeLimit } from "./settings.js";

/** Postgres ARE patterns over a small alphabet: literals, classes, anchors, groups, quantifiers. */
const atomArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "b", "c", " ", "é", "😀") },
  { weight: 2, arbitrary: fc.constantFrom(".", "[ab]", "[^a]", "[a-c ]", "\\d", "\\s", "\\w", "\\y", "[[:alpha:]]") },
  { weight: 1, arbitrary: fc.constantFrom("^", "$") },
);
const quantArb = fc.constantFrom("", "", "", "*", "+", "?", "{1,2}", "{2}", "*?", "{0,}");
const pieceArb: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
  piece: fc.oneof(
    { weight: 5, arbitrary: fc.tuple(atomArb, quantArb).map(([a, q]) => (a === "^" || a === "$" || a === "\\y" ? a : a + q)) },
    {
      weight: 1,
      depthSize: "small",
      arbitrary: fc
        .tuple(fc.array(tie("piece"), { minLength: 1, maxLength: 3 }), fc.array(tie("piece"), { maxLength: 2 }), quantArb)
        .map(([left, right, q]) => `(${left.join("")}${right.length ? `|${right.join("")}` : ""})${q}`),
    },
  ),
})).piece;
const patternArb = fc.tuple(fc.constantFrom("", "", "(?i)", "(?n)", "(?n)"), fc.array(pieceArb, { minLength: 1, maxLength: 4 }))
  .map(([options, pieces]) => options + pieces.join(""));
const textArb = fc.array(fc.constantFrom("a", "b", "c", "A", " ", "\n", "\r", "é", "😀", "1", "_", "\u2028"), { maxLength: 12 }).map((cs) => cs.join(""));

/** The RE2 flags the engine compiles a pattern with (postgres-re.ts): `(?i)` folds case, `(?n)` is newline-sensitive. */
function re2Flags(pattern: string): { icase: boolean; newlineSensitive: boolean } {
  const options = /^\(\?([a-z]+)\)/.exec(pattern)?.[1] ?? "";
  return { icase: options.includes("i"), newlineSensitive: options.includes("n") };
}

describe("native regex", () => {
  test("the native form, where taken, answers as RE2", async () => {
    let native = 0;
    await check(
      fc.property(patternArb, fc.array(textArb, { minLength: 1, maxLength: 6 }), (pattern, texts) => {
        const compiled = compilePgRegex(pattern);
        if (compiled.kind !== "ok") return;
        const opts = re2Flags(pattern);
        const n = nativeRegex(compiled.re2, opts);
        const flags = RE2JS.LOOKBEHINDS | (opts.icase ? RE2JS.CASE_INSENSITIVE : 0) | (opts.newlineSensitive ? RE2JS.MULTILINE : RE2JS.DOTALL);
        const reference = RE2JS.compile(compiled.re2, flags);
        if (n !== undefined) native++;
        for (const text of texts) {
          const expected = reference.test(text);
          expect(compiled.test(text), `${JSON.stringify(pattern)} (RE2 ${compiled.re2}) on ${JSON.stringify(text)}`).toBe(expected);
          if (n !== undefined && text.length <= n.maxLength) {
            expect(n.re.test(text), `native ${n.re} for ${JSON.stringify(pattern)} on ${JSON.stringify(text)}`).toBe(expected);
          }
        }
      }),
      { runs: 1000, share: 1 },
      (pattern, texts) => `pattern ${JSON.stringify(pattern)}, texts ${JSON.stringify(texts)}`,
    );
    expect(native, "patterns that took the native form").toBeGreaterThan(100);
  }, timeLimit(60_000));

  test("where the dialects differ, the engine answers as RE2", () => {
    // Newline-sensitive `.` and anchors, case folding beyond ASCII, Unicode classes, astral letters.
    const cases: [string, string, boolean][] = [
      ["(?n)^a", "x\na", true],
      ["(?n)a$", "a\nx", true],
      ["(?n)a.b", "a\nb", false],
      ["a.b", "a\nb", true],
      ["a.b", "a\u2028b", true],
      ["^a$", "a\n", false],
      ["(?i)k", "\u212a", true],
      ["[[:alpha:]]", "é", true],
      ["^.$", "😀", true],
      ["\\s", "\u2028", true],
    ];
    for (const [pattern, text, expected] of cases) {
      const compiled = compilePgRegex(pattern);
      if (compiled.kind !== "ok") throw new Error(`${pattern}: ${compiled.kind}`);
      expect(compiled.test(text), `${pattern} on ${JSON.stringify(text)}`).toBe(expected);
    }
  });

  test("patterns that could backtrack badly stay with RE2, or only for short texts", () => {
    const re2 = (p: string) => {
      const c = compilePgRegex(p);
      if (c.kind !== "ok") throw new Error(`${p}: ${c.kind}`);
      return c.re2;
    };
    const opts = { icase: false, newlineSensitive: false };
    expect(nativeRegex(re2("(a*)*b"), opts), "nested repetition").toBeUndefined();
    expect(nativeRegex(re2("(a|aa)+b"), opts), "repeated alternatives").toBeUndefined();
    expect(nativeRegex(re2("a?a?a?a?a?a?a?a?a?a?aaaaaaaaaa"), opts), "many optionals").toBeUndefined();
    expect(nativeRegex(re2("^(lorem|ipsum) .*dolor"), opts)?.maxLength, "one repetition, two alternatives: n·2 ≤ 1000").toBe(500);
    expect(nativeRegex(re2("a.*b.*c"), opts)?.maxLength, "two repetitions: n² ≤ 1000").toBe(31);
    expect(nativeRegex(re2("abc"), opts)?.maxLength, "no repetition: any length").toBe(Infinity);
  });
});
