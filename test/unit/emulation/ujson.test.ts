import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PyException } from "../../../src/emulation/exceptions.js";
import { ujsonLoads } from "../../../src/emulation/ujson.js";
import { thrown } from "../../helpers/thrown.js";

/** `Class: message` of what ujson.loads raises. */
const raised = (text: string) => {
  const e = thrown(PyException, () => ujsonLoads(text));
  return `${e.pyClass}: ${e.message}`;
};

describe("ujson.loads: what it accepts beyond JSON", () => {
  // Each row follows ujson 5.x's decoder (ultrajsondec.c) and double-conversion with ALLOW_TRAILING_JUNK.
  const accepted: readonly (readonly [string, unknown])[] = [
    ["007", 7],
    ["[-0]", [0]],
    ["-", 0],
    ["[-]", [0]],
    ["1.", 1],
    ["-.5", -0.5],
    ["00.5", 0.5],
    ["[1.e2]", [100]],
    ["NaN", Number.NaN],
    ["[Infinity, -Infinity]", [Infinity, -Infinity]],
    ['"tab\there"', "tab\there"],
    ['"\\ud800"', "\ud800"],
    [' \r\n\t{"a": 1, "a": 2} ', { a: 2 }],
    // the double nearest 2^64 is what ujson answers
    ["18446744073709551616", 18446744073709551616],
    // eslint-disable-next-line no-loss-of-precision -- the double nearest -2^63-1 is what ujson answers
    ["-9223372036854775809", -9223372036854775809],
  ];
  test.each(accepted)("%j → %j", (text, value) => {
    expect(ujsonLoads(text)).toEqual(value);
  });

  test("depth: 1024 nested arrays or objects, not 1025", () => {
    expect(() => ujsonLoads(`${"[".repeat(1024)}${"]".repeat(1024)}`)).not.toThrow();
    expect(raised(`${"[".repeat(1025)}${"]".repeat(1025)}`)).toBe("ujson.JSONDecodeError: Reached object decoding depth limit");
    expect(raised('{"a":'.repeat(100_000))).toBe("ujson.JSONDecodeError: Reached object decoding depth limit");
  });
});

describe("ujson.loads: its errors", () => {
  const errors: readonly (readonly [string, string])[] = [
    ["", "Expected object or value"],
    ["   ", "Expected object or value"],
    ["x", "Expected object or value"],
    ["1 2", "Trailing data"],
    ["1.5e", "Trailing data"],
    ["-NaN", "Trailing data"],
    ["1\u0000", "Trailing data"],
    ["[1.5e]", "Unexpected character found when decoding array value (2)"],
    ["[1,]", "Unexpected character found when decoding array value (1)"],
    ["[1 2]", "Unexpected character found when decoding array value (2)"],
    ["[", "Expected object or value"],
    ['{"a":1,}', "Unexpected character in found when decoding object value"],
    ['{"a":1 "b":2}', "Unexpected character in found when decoding object value"],
    ['{"a" 1}', "No ':' found when decoding object value"],
    ['{"a":}', "Expected object or value"],
    ["{1: 2}", "Key name of object must be 'string' when decoding 'object'"],
    ["{{}: 2}", "Key name of object must be 'string' when decoding 'object'"],
    ['{["a"]: 2}', "Invalid JSON: object keys must be strings"],
    ['{["a"]: 2, x}', "Invalid JSON: object keys must be strings"],
    ["tru", "Unexpected character found when decoding 'true'"],
    ["nul", "Unexpected character found when decoding 'null'"],
    ["Nan", "Unexpected character found when decoding 'NaN'"],
    ["-Inf", "Unexpected character found when decoding '-Infinity'"],
    ['"abc', "Unmatched '\"' when decoding 'string'"],
    ['"a\u0000b"', "Unmatched '\"' when decoding 'string'"],
    ['"\\', "Unterminated escape sequence when decoding 'string'"],
    ['"\\x"', "Unrecognized escape sequence when decoding 'string'"],
    ['"\\u12"', "Unexpected character in unicode escape sequence when decoding 'string'"],
    ['"\\u12', "Unterminated unicode escape sequence when decoding 'string'"],
  ];
  test.each(errors)("%j → %s", (text, message) => {
    expect(raised(text)).toBe(`ujson.JSONDecodeError: ${message}`);
  });

  test("past 64 bits an integer is Python's int(), with its digit limit", () => {
    expect(raised("9".repeat(4301))).toMatch(/^ValueError: Exceeds the limit \(4300 digits\)/);
    expect(ujsonLoads(`${"0".repeat(5000)}1`)).toBe(1);
  });
});

describe("ujson.loads against JSON.parse", () => {
  test("every JSON text reads to the same value", () => {
    fc.assert(
      fc.property(fc.json({ depthSize: "medium" }), (text) => {
        expect(ujsonLoads(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });
  test("every refusal is a Python exception", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'{}[]",:0123456789.eE+-tfnrlsuaNI \\/\n\t\u0000') }), (text) => {
        try {
          ujsonLoads(text);
        } catch (error) {
          expect(error).toBeInstanceOf(PyException);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
