import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PyException } from "../../../src/emulation/exceptions.js";
import { parsePyFloat, parsePyInt, pyInt, pyStrip, strptimeMicros } from "../../../src/emulation/python-text.js";
import { thrown } from "../../helpers/thrown.js";

describe("int(text)", () => {
  // What CPython 3.12 returns for int(text), or null where it raises ValueError.
  const rows: readonly (readonly [string, number | null])[] = [
    ["12", 12],
    [" 12 ", 12],
    ["\t+7\n", 7],
    ["-0", 0],
    ["007", 7],
    ["1_000", 1000],
    ["1_0_0", 100],
    ["١٢", 12],
    ["٣\u00a0", 3],
    ["\u20037", 7],
    ["１２", 12],
    ["𝟙𝟚", 12],
    ["", null],
    [" ", null],
    ["1__0", null],
    ["_1", null],
    ["1_", null],
    ["+", null],
    ["1.0", null],
    ["1e3", null],
    ["0x10", null],
    ["٣x", null],
    ["1 2", null],
    ["\ufeff1", null],
    ["½", null],
    ["Ⅻ", null],
  ];
  test.each(rows)("int(%j) → %j", (text, expected) => {
    expect(parsePyInt(text) ?? null).toBe(expected);
  });

  test("the 4300-digit limit", () => {
    expect(parsePyInt("1".repeat(4300))).toBeGreaterThan(0);
    expect(parsePyInt("1".repeat(4301))).toBeUndefined();
    expect(parsePyInt(`-${"0".repeat(4300)}`)).toBe(0);
  });

  test("pyInt raises what int() raises, repr and all", () => {
    expect(pyInt(true)).toBe(1);
    expect(pyInt(-2.9)).toBe(-2);
    expect(thrown(PyException, () => pyInt("a'b")).message).toBe(`invalid literal for int() with base 10: "a'b"`);
    expect(thrown(PyException, () => pyInt(null)).message).toBe(
      "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
    );
    expect(thrown(PyException, () => pyInt([1])).pyClass).toBe("TypeError");
    expect(thrown(PyException, () => pyInt(Infinity)).message).toBe("cannot convert float infinity to integer");
    expect(thrown(PyException, () => pyInt("x".repeat(300))).message).toHaveLength("invalid literal for int() with base 10: ".length + 200);
  });

  test("agrees with JavaScript on every plain ASCII integer text", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 52n), max: 2n ** 52n }), fc.constantFrom("", " ", "\t", "\n "), (n, pad) => {
        expect(parsePyInt(`${pad}${n}${pad}`)).toBe(Number(n));
      }),
    );
  });
});

describe("float(text)", () => {
  const rows: readonly (readonly [string, number | null])[] = [
    ["1.5", 1.5],
    [" -2 ", -2],
    ["1.", 1],
    [".5", 0.5],
    ["1e3", 1000],
    ["1E-2", 0.01],
    ["1_000.000_1", 1000.0001],
    ["inf", Infinity],
    ["-Infinity", -Infinity],
    ["+INF", Infinity],
    ["1e999", Infinity],
    ["١.٥", 1.5],
    ["", null],
    [".", null],
    ["e3", null],
    ["1._5", null],
    ["1_.5", null],
    ["1e_3", null],
    ["infinit", null],
    ["0x1p3", null],
    ["1,5", null],
    ["nan(1)", null],
  ];
  test.each(rows)("float(%j) → %j", (text, expected) => {
    expect(parsePyFloat(text) ?? null).toBe(expected);
  });
  test("nan, any case and sign", () => {
    for (const text of ["nan", "NaN", "-nan", " +NAN "]) expect(parsePyFloat(text)).toBeNaN();
  });
  test("round-trips every JavaScript number's text", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        expect(Object.is(parsePyFloat(String(x)), x) || (x === 0 && parsePyFloat(String(x)) === 0)).toBe(true);
      }),
    );
  });
});

describe("str.strip()", () => {
  test("Python's whitespace, not JavaScript's", () => {
    expect(pyStrip("\x1c\x85 a \u3000")).toBe("a");
    expect(pyStrip("\ufeffa")).toBe("\ufeffa");
  });
});

describe("datetime.strptime(value, '%Y-%m-%dT%H:%M:%S.%fZ')", () => {
  const us = (iso: string, micro = 0) => Date.parse(iso) * 1000 + micro;
  const rows: readonly (readonly [string, number | null])[] = [
    ["2024-01-31T23:59:59.5Z", us("2024-01-31T23:59:59Z", 500_000)],
    ["2024-1-3T4:5:6.000007Z", us("2024-01-03T04:05:06Z", 7)],
    ["2024-01- 3T00:00:00.0Z", us("2024-01-03T00:00:00Z")],
    // compiled IGNORECASE: the literal T and Z match in either case
    ["2024-01-31t00:00:00.0z", us("2024-01-31T00:00:00Z")],
    // \d is any Unicode digit for every field but %f
    ["٢٠٢٤-01-1٥T00:00:00.0Z", us("2024-01-15T00:00:00Z")],
    ["2024-01-0٥T00:00:00.0Z", null], // 0[1-9] is ASCII
    ["2024-01-01T00:00:00.٥Z", null],
    ["2024-01-31T23:59:59Z", null],
    ["2024-02-30T00:00:00.0Z", null],
    ["2024-01-31 23:59:59.0Z", null],
    ["2024-01-01T00:00:60.0Z", null],
    ["2024-01-01T24:00:00.0Z", null],
    ["2024-01-01T00:00:00.1234567Z", null],
    ["2024-01-01T00:00:00.0Z ", null],
    ["0000-01-01T00:00:00.0Z", null],
    ["2024-13-01T00:00:00.0Z", null],
  ];
  test.each(rows)("%j → %j", (text, expected) => {
    expect(strptimeMicros(text) ?? null).toBe(expected);
  });
  test("every datetime the builder writes (toISOString) parses to its own instant", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }), (d) => {
        expect(strptimeMicros(d.toISOString())).toBe(d.getTime() * 1000);
      }),
    );
  });
});
