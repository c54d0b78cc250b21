import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PyException } from "../../../src/emulation/exceptions.js";
import { pyJsonLoads, scanLoads } from "../../../src/emulation/json-loads.js";
import { thrown } from "../../helpers/thrown.js";

/** What `pyJsonLoads` raises: `Class: message`, as Python prints it. */
function raised(text: string, options?: Parameters<typeof pyJsonLoads>[1]): string {
  const error = thrown(PyException, () => pyJsonLoads(text, options));
  return `${error.pyClass}: ${error.message}`;
}

describe("pyJsonLoads: Python's json.loads, error for error", () => {
  // Each row is what CPython 3.12 prints for json.loads(text) (json.decoder / Modules/_json.c).
  const errors: readonly (readonly [string, string])[] = [
    ["", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"],
    ["   ", "JSONDecodeError: Expecting value: line 1 column 4 (char 3)"],
    ["\n\n  x", "JSONDecodeError: Expecting value: line 3 column 3 (char 4)"],
    ['{"a" 1}', "JSONDecodeError: Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ["[1 2]", "JSONDecodeError: Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['{"a": 1 "b": 2}', "JSONDecodeError: Expecting ',' delimiter: line 1 column 9 (char 8)"],
    ["[1,]", "JSONDecodeError: Expecting value: line 1 column 4 (char 3)"],
    ['{"a":1,}', "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"],
    ["{", "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ["[", "JSONDecodeError: Expecting value: line 1 column 2 (char 1)"],
    ['"abc', "JSONDecodeError: Unterminated string starting at: line 1 column 1 (char 0)"],
    ['["abc\\', "JSONDecodeError: Unterminated string starting at: line 1 column 2 (char 1)"],
    ['"\\x"', "JSONDecodeError: Invalid \\escape: line 1 column 2 (char 1)"],
    ['"\\u12"', "JSONDecodeError: Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\u12x4"', "JSONDecodeError: Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\ud800\\uZZZZ"', "JSONDecodeError: Invalid \\uXXXX escape: line 1 column 9 (char 8)"],
    ['"a\nb"', "JSONDecodeError: Invalid control character at: line 1 column 3 (char 2)"],
    ["1 2", "JSONDecodeError: Extra data: line 1 column 3 (char 2)"],
    ["01", "JSONDecodeError: Extra data: line 1 column 2 (char 1)"],
    ["1.", "JSONDecodeError: Extra data: line 1 column 2 (char 1)"],
    ["-", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"],
    ["+1", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"],
    [".5", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"],
    ["tru", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"],
    ["\ufeff1", "JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    ['"😀" x', "JSONDecodeError: Extra data: line 1 column 5 (char 4)"],
    ["[NaN]", "ValueError: Out of range float values are not JSON compliant: 'NaN'"],
    ["Infinity", "ValueError: Out of range float values are not JSON compliant: 'Infinity'"],
    [
      "1".repeat(4301),
      "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit",
    ],
    ["[[[]]]", "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string"],
  ];
  test.each(errors)("%j → %s", (text, expected) => {
    expect(raised(text, { maxDepth: 2 })).toBe(expected);
  });

  test("what Python accepts that JSON.parse does not: the constants (plain json.loads), 1e999", () => {
    expect(pyJsonLoads("[NaN, Infinity, -Infinity]", { constants: "accept" })).toEqual([Number.NaN, Infinity, -Infinity]);
    expect(pyJsonLoads("1e999")).toBe(Infinity);
    expect(pyJsonLoads(" 1E+2 ")).toBe(100);
    expect(pyJsonLoads('"\\ud800"')).toBe("\ud800");
    expect(pyJsonLoads('"\\ud83d\\ude00"')).toBe("😀");
  });

  test("duplicate keys: the last value wins; __proto__ is a plain key", () => {
    expect(pyJsonLoads('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    const value = pyJsonLoads('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  test("depth: the limit counts arrays and objects; iterative, so 10^5 levels are a clean error", () => {
    expect(pyJsonLoads('[{"a": [1]}]', { maxDepth: 3 })).toEqual([{ a: [1] }]);
    expect(raised('[{"a": [1]}]', { maxDepth: 2 })).toBe(
      "RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string",
    );
    expect(raised(`${'{"a": '.repeat(100_000)}1`)).toMatch(/^RecursionError: .* JSON object/);
  });
});

describe("the scanner against JSON.parse (which accepts exactly JSON)", () => {
  // Python's json module and JSON.parse agree on the grammar but for NaN/Infinity (refused here, as DRF does).
  const accepts = (f: () => unknown) => {
    try {
      return { ok: true as const, value: f() };
    } catch {
      return { ok: false as const };
    }
  };
  const jsonish = fc.oneof(
    fc.json(),
    fc.json().map((s) => s.slice(0, Math.max(0, s.length - 1))),
    fc.string({ unit: fc.constantFrom(...'{}[]",:0123456789.eE+-tfnrlsu \\/\n\t\u0001') }),
    fc.string({ unit: "binary" }),
  );
  test("the same texts are accepted, with the same values", () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        const python = accepts(() => scanLoads(text));
        const js = accepts(() => JSON.parse(text));
        expect(python.ok).toBe(js.ok);
        if (python.ok && js.ok) expect(python.value).toEqual(js.value);
      }),
      { numRuns: 2000 },
    );
  });
  /** The value, or the exception as Python prints it. */
  const outcome = (f: () => unknown) => {
    try {
      return { value: f() };
    } catch (error) {
      return { raised: error instanceof PyException ? `${error.pyClass}: ${error.message}` : String(error) };
    }
  };
  const edges = fc.oneof(
    jsonish,
    fc.integer({ min: 0, max: 6 }).map((n) => `${"[".repeat(n)}1${"]".repeat(n)}`),
    fc.integer({ min: 0, max: 6 }).map((n) => `${'{"a": '.repeat(n)}[]${"}".repeat(n)}`),
    fc.constantFrom("1e999", "[-1e400]", `${"9".repeat(4301)}`, `[${"9".repeat(4300)}]`, "-0", "[-0.0]", "\ufeff[]", "[NaN]"),
  );
  test("pyJsonLoads (JSON.parse where it answers alike) = the scanner, value for value and error for error", () => {
    fc.assert(
      fc.property(edges, fc.integer({ min: 0, max: 4 }), (text, maxDepth) => {
        expect(outcome(() => pyJsonLoads(text, { maxDepth }))).toEqual(outcome(() => scanLoads(text, { maxDepth })));
      }),
      { numRuns: 2000 },
    );
  });
  test("every refusal is a Python exception (never a JavaScript one)", () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        try {
          pyJsonLoads(text);
        } catch (error) {
          expect(error).toBeInstanceOf(PyException);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
