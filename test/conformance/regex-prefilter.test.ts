/**
 * The engine tests a regex filter's literal strings before running RE2 (src/emulation/regex/
 * prefilter.ts). Law: the prefilter never rejects a text the pattern matches, so the engine answers
 * every text as RE2 alone does with the engine's flags; the flags a pattern's embedded options set
 * (case folding, newline-sensitive matching) are exercised too.
 */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, test } from "vitest";
import { compilePgRegex } from "../../src/emulation/regex/postgres-re.js";
import { literalGlob, prefilterOf } from "../../src/emulation/regex/prefilter.js";
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
const patternArb = fc
  .tuple(fc.constantFrom("", "", "(?i)", "(?n)", "(?n)"), fc.array(pieceArb, { minLength: 1, maxLength: 4 }))
  .map(([options, pieces]) => options + pieces.join(""));
const textArb = fc
  .array(fc.constantFrom("a", "b", "c", "A", " ", "\n", "\r", "é", "😀", "1", "_", "\u2028"), { maxLength: 12 })
  .map((cs) => cs.join(""));

/**
 * Texts for a pattern: random ones, and ones fast-check builds to match the pattern read as a
 * JavaScript regex (close to Postgres' for this alphabet), so that matches are common.
 */
function textsFor(pattern: string): fc.Arbitrary<string[]> {
  const body = pattern
    .replace(/^\(\?[a-z]+\)/, "")
    .replaceAll("\\y", "\\b")
    // The letters of the texts' alphabet: \p{L} would make fast-check tabulate every letter of Unicode per pattern.
    .replaceAll("[[:alpha:]]", "[a-cA-Cé]");
  let matching: fc.Arbitrary<string> | undefined;
  try {
    matching = fc.stringMatching(new RegExp(body, "u"), { size: "xsmall" }).map((t) => t.slice(0, 16));
  } catch {
    matching = undefined;
  }
  const one = matching ? fc.oneof(textArb, matching, matching) : textArb;
  return fc.array(one, { minLength: 1, maxLength: 4 });
}

/** The RE2 flags the engine compiles a pattern with (postgres-re.ts): `(?i)` folds case, `(?n)` is newline-sensitive. */
function re2Flags(pattern: string): { icase: boolean; newlineSensitive: boolean } {
  const options = /^\(\?([a-z]+)\)/.exec(pattern)?.[1] ?? "";
  return { icase: options.includes("i"), newlineSensitive: options.includes("n") };
}

describe("regex prefilter", () => {
  test(
    "the engine answers as RE2; the prefilter passes every text RE2 matches",
    async () => {
      let filtered = 0;
      await check(
        fc.property(
          patternArb.chain((pattern) => fc.tuple(fc.constant(pattern), textsFor(pattern))),
          ([pattern, texts]) => {
            const compiled = compilePgRegex(pattern);
            if (compiled.kind !== "ok") return;
            const opts = re2Flags(pattern);
            const prefilter = prefilterOf(compiled.re2, opts);
            const flags =
              RE2JS.LOOKBEHINDS | (opts.icase ? RE2JS.CASE_INSENSITIVE : 0) | (opts.newlineSensitive ? RE2JS.MULTILINE : RE2JS.DOTALL);
            const reference = RE2JS.compile(compiled.re2, flags);
            if (prefilter !== undefined) filtered++;
            for (const text of texts) {
              const expected = reference.test(text);
              expect(compiled.test(text), `${JSON.stringify(pattern)} (RE2 ${compiled.re2}) on ${JSON.stringify(text)}`).toBe(expected);
              if (expected && prefilter)
                expect(prefilter(text), `the prefilter of ${JSON.stringify(pattern)} on ${JSON.stringify(text)}`).toBe(true);
            }
          },
        ),
        { runs: 400, share: 0.5 },
        ([pattern, texts]) => `pattern ${JSON.stringify(pattern)}, texts ${JSON.stringify(texts)}`,
      );
      expect(filtered, "patterns with a prefilter").toBeGreaterThan(40);
    },
    timeLimit(60_000),
  );

  test(
    "literals and .* only: decided by string search, as RE2 decides",
    async () => {
      const literals = fc.array(fc.constantFrom("a", "b", "ab", "ba", "é", " "), { minLength: 1, maxLength: 3 });
      const groupArb = literals.map((alts) => (alts.length === 1 ? (alts[0] as string) : `(${alts.join("|")})`));
      const globArb = fc
        .tuple(fc.boolean(), fc.array(fc.oneof(groupArb, fc.constantFrom(".*", ".*?")), { minLength: 1, maxLength: 5 }), fc.boolean())
        .map(([start, parts, end]) => `${start ? "^" : ""}${parts.join("")}${end ? "$" : ""}`);
      let globs = 0;
      await check(
        fc.property(
          globArb.chain((pattern) => fc.tuple(fc.constant(pattern), textsFor(pattern))),
          ([pattern, texts]) => {
            const compiled = compilePgRegex(pattern);
            if (compiled.kind !== "ok") throw new Error(`${pattern}: ${compiled.kind}`);
            if (literalGlob(compiled.re2, re2Flags(pattern)) !== undefined) globs++;
            const reference = RE2JS.compile(compiled.re2, RE2JS.LOOKBEHINDS | RE2JS.DOTALL);
            for (const text of texts)
              expect(compiled.test(text), `${JSON.stringify(pattern)} on ${JSON.stringify(text)}`).toBe(reference.test(text));
          },
        ),
        { runs: 500, share: 0.5 },
        ([pattern, texts]) => `pattern ${JSON.stringify(pattern)}, texts ${JSON.stringify(texts)}`,
      );
      expect(globs, "patterns decided by string search").toBeGreaterThan(250);
    },
    timeLimit(60_000),
  );

  const prefilter = (pattern: string) => {
    const compiled = compilePgRegex(pattern);
    if (compiled.kind !== "ok") throw new Error(`${pattern}: ${compiled.kind}`);
    return prefilterOf(compiled.re2, re2Flags(pattern));
  };

  test("what a prefilter asks of a text", () => {
    const p = prefilter("^(lorem|ipsum) .*dolor");
    expect(["lorem x dolor", "ipsum dolor", "lorem ipsum", "dolor lorem ", "sit lorem dolor"].map((t) => p?.(t))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(prefilter("a(b)*c")?.("abbc"), "a repetition between literals: both required, not their concatenation").toBe(true);
    expect(prefilter("a(b)*c")?.("ca"), "each literal is required").toBe(true);
    expect(prefilter("a(b)*c")?.("a"), "c is required").toBe(false);
    expect(prefilter("(foo|ba+r)z")?.("xbaaarz"), "alternatives with a repetition").toBe(true);
    expect(prefilter("(foo|ba+r)z")?.("xarz"), "one of the alternatives' literals").toBe(false);
    expect(prefilter("(?n)^ab")?.("x\nab"), "newline-sensitive: ^ after a newline, no start anchor").toBe(true);
    expect(prefilter("(?i)ab"), "case folding: none").toBeUndefined();
    expect(prefilter("a|.*"), "an alternative without literals: none").toBeUndefined();
    expect(prefilter("^x?y")?.("y"), "an optional part is no prefix").toBe(true);
  });
});
