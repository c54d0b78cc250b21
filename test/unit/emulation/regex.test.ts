import { describe, expect, test } from "vitest";
import { evaluate, EvaluationError } from "../../../src/semantics/index.js";
import { checkPythonRegex } from "../../../src/emulation/regex/python-re.js";
import { compilePgRegex } from "../../../src/emulation/regex/postgres-re.js";
import { cond, fixture, where } from "../semantics/fixture.js";

/*
 * The regex path (docs/reference/filters.md#lines-and-the-conjunction,
 * docs/reference/filters.md#generic-operators, docs/regex-dialect.md). Every expectation below was
 * produced by the real engines, not by this code: `python` is the message of Python 3.11.7's
 * `re.compile` error, `postgres` the error of PostgreSQL 15.18's `~`, and `matches` the subjects
 * for which PostgreSQL's `subject ~ pattern` is true. `unsupported`: Postgres answers (the
 * subjects listed) but a linear-time engine cannot (lookahead, backreferences).
 */
const SUBJECTS = ["a", "aa", "ab", "abc", "Hello World", "foo bar", "a\nb", "été", "x\\y", "AЛB", "\bfoo\b", "x", "ba", "a{,3}", "caab"];

type Outcome = { python: string } | { postgres: string } | { matches: readonly string[] } | { unsupported: readonly string[] };

const CASES: readonly (readonly [string, Outcome])[] = [
  ["a", { matches: ["a", "aa", "ab", "abc", "foo bar", "a\nb", "ba", "a{,3}", "caab"] }],
  ["(", { python: "missing ), unterminated subpattern" }],
  ["a)", { python: "unbalanced parenthesis" }],
  ["[a", { python: "unterminated character set" }],
  ["a**", { python: "multiple repeat" }],
  ["a*+", { postgres: "invalid regular expression: quantifier operand invalid" }],
  ["a{2,1}", { python: "min repeat greater than max repeat" }],
  ["(?i)a", { matches: ["a", "aa", "ab", "abc", "foo bar", "a\nb", "AЛB", "ba", "a{,3}", "caab"] }],
  ["a(?i)", { python: "global flags not at the start of the expression" }],
  ["(?P<n>a)(?P=n)", { postgres: "invalid regular expression: invalid embedded option" }],
  ["(a)\\1", { unsupported: ["aa", "caab"] }],
  ["(a\\1)", { python: "cannot refer to an open group" }],
  ["\\1", { python: "invalid group reference 1" }],
  ["(?<=a+)b", { python: "look-behind requires fixed-width pattern" }],
  ["(?<=ab)c", { matches: ["abc"] }],
  ["\\q", { python: "bad escape \\q" }],
  ["\\N{EM DASH}", { postgres: "invalid regular expression: invalid escape \\ sequence" }],
  ["[z-a]", { python: "bad character range z-a" }],
  ["[\\d-z]", { python: "bad character range \\d-z" }],
  ["\\x4", { python: "incomplete escape \\x4" }],
  ["(?#c)b", { matches: ["ab", "abc", "foo bar", "a\nb", "ba", "caab"] }],
  ["a{,3}", { matches: ["a{,3}"] }],
  ["\\bfoo\\b", { matches: ["\bfoo\b"] }],
  ["^H", { matches: ["Hello World"] }],
  ["d$", { matches: ["Hello World"] }],
  [
    "[[:alpha:]]+",
    { matches: ["a", "aa", "ab", "abc", "Hello World", "foo bar", "a\nb", "été", "x\\y", "AЛB", "\bfoo\b", "x", "ba", "a{,3}", "caab"] },
  ],
  ["\\w+é", { matches: ["été"] }],
  ["(?x) a b # c\n", { matches: ["ab", "abc", "caab"] }],
  ["a{300}", { postgres: "invalid regular expression: invalid repetition count(s)" }],
  ["a{1", { postgres: "invalid regular expression: braces {} not balanced" }],
  ["(?i:x)", { postgres: "invalid regular expression: invalid embedded option" }],
  ["(?=x)", { unsupported: ["x\\y", "x"] }],
  ["\\Bx", { matches: [] }],
  ["a|*b", { python: "nothing to repeat" }],
  [
    "\\Z",
    { matches: ["a", "aa", "ab", "abc", "Hello World", "foo bar", "a\nb", "été", "x\\y", "AЛB", "\bfoo\b", "x", "ba", "a{,3}", "caab"] },
  ],
  ["x\\Z", { matches: ["x"] }],
  [
    "(?s).",
    { matches: ["a", "aa", "ab", "abc", "Hello World", "foo bar", "a\nb", "été", "x\\y", "AЛB", "\bfoo\b", "x", "ba", "a{,3}", "caab"] },
  ],
  ["(?m)^b", { matches: ["a\nb", "ba"] }],
  ["[^a]", { matches: ["ab", "abc", "Hello World", "foo bar", "a\nb", "été", "x\\y", "AЛB", "\bfoo\b", "x", "ba", "a{,3}", "caab"] }],
  ["\\x41B", { matches: ["AЛB"] }],
  ["(?<!a)b", { matches: ["foo bar", "a\nb", "ba"] }],
  ["(?a)x", { postgres: "invalid regular expression: invalid embedded option" }],
  ["\\d", { matches: ["a{,3}"] }],
  ["\\s", { matches: ["Hello World", "foo bar", "a\nb"] }],
  ["a.b", { matches: ["a\nb", "caab"] }],
];

describe("regex: Python's compile check, then Postgres semantics on re2js", () => {
  test.each(CASES.map(([p, o]) => [JSON.stringify(p), p, o] as const))("%s", (_, pattern, outcome) => {
    const py = checkPythonRegex(pattern);
    if ("python" in outcome) {
      expect(py).toEqual({ ok: false, error: outcome.python });
      return;
    }
    expect(py).toEqual({ ok: true });
    const pg = compilePgRegex(pattern);
    if ("postgres" in outcome) expect(pg).toMatchObject({ kind: "error", detail: outcome.postgres });
    else if ("unsupported" in outcome) expect(pg.kind).toBe("unsupported");
    else {
      if (pg.kind !== "ok") throw new Error(`expected a matcher, got ${JSON.stringify(pg)}`);
      expect(SUBJECTS.filter((s) => pg.test(s))).toEqual(outcome.matches);
    }
  });

  test("a pattern Python cannot compile empties the result, no error (docs/reference/filters.md#lines-and-the-conjunction)", () => {
    expect(evaluate(fixture, where(cond("data.text", "regex", "String", "a**"))).ids).toEqual([]);
  });

  test("a pattern Postgres refuses is the server's 500 with Postgres' text", () => {
    expect(() => evaluate(fixture, where(cond("data.text", "regex", "String", "(?P<n>x)")))).toThrow(
      expect.objectContaining({ status: 500, detail: "invalid regular expression: invalid embedded option", unsupported: false }),
    );
  });

  test("a lookahead: the server answers, the engine says it cannot (500, unsupported)", () => {
    let error: unknown;
    try {
      evaluate(fixture, where(cond("data.text", "regex", "String", "o(?= )")));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EvaluationError);
    expect(error).toMatchObject({ status: 500, unsupported: true, path: "filters.items[0].value" });
  });

  test("a hostile pattern over long text finishes (linear time; a backtracking engine would stall)", () => {
    const long = { ...fixture, tasks: fixture.tasks.map((t) => ({ ...t, data: { ...t.data, text: `${"a".repeat(20_000)}!` } })) };
    expect(evaluate(long, where(cond("data.text", "regex", "String", "^(a+)+$"))).ids).toEqual([]);
    expect(evaluate(long, where(cond("data.text", "regex", "String", "^(a|aa)+!$"))).ids).toEqual([1, 2, 3, 4]);
  });

  test("a regex value that is not text: Postgres has no `text ~ integer` operator (500)", () => {
    expect(() => evaluate(fixture, where(cond("data.text", "regex", "String", 5)))).toThrow(
      expect.objectContaining({ status: 500, detail: "operator does not exist: text ~ integer" }),
    );
  });

  test("regex on a number column reads its text form", () => {
    expect(evaluate(fixture, where(cond("total_predictions", "regex", "String", "^[12]$"))).ids).toEqual([1, 2]);
  });
});
