import { describe, expect, test } from "vitest";
import { pydanticText } from "../../../src/emulation/pydantic.js";
import { pyClass, pyRepr, pyStr, pyTruthy, pyType } from "../../../src/emulation/python-json.js";

describe("Python renderings used in the server's error texts", () => {
  test("repr of decoded JSON values", () => {
    expect(pyRepr(null)).toBe("None");
    expect(pyRepr([true, false, 1, 2.5, "a"])).toBe("[True, False, 1, 2.5, 'a']");
    expect(pyRepr({ all: true, "it's": 'say "hi"' })).toBe("{'all': True, \"it's\": 'say \"hi\"'}");
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr("both ' and \"")).toBe("'both \\' and \"'");
    expect(pyRepr("tab\tnew\nline\\")).toBe("'tab\\tnew\\nline\\\\'");
    expect(pyRepr(1e-7)).toBe("1e-07");
    expect(pyRepr(1.5e300)).toBe("1.5e+300");
  });

  test("floats print as Python's repr: exponent below 1e-4, as Python switches (JavaScript switches at 1e-6)", () => {
    expect([1e-5, 1.5e-5, 0.0001, 2.5e-6].map(pyRepr)).toEqual(["1e-05", "1.5e-05", "0.0001", "2.5e-06"]);
  });

  test("str, type names and truthiness", () => {
    expect(pyStr("raw text")).toBe("raw text");
    expect(pyStr(["a"])).toBe("['a']");
    expect([null, true, 3, 3.5, "s", [], {}].map(pyType)).toEqual(["NoneType", "bool", "int", "float", "str", "list", "dict"]);
    expect(pyClass([])).toBe("<class 'list'>");
    expect([null, false, 0, "", [], {}].map(pyTruthy)).toEqual([false, false, false, false, false, false]);
    expect([true, 1, "a", [0], { a: 0 }].map(pyTruthy)).toEqual([true, true, true, true, true]);
  });

  test("pydantic's ValidationError text, with long input reprs cut to 25 + ... + 24 characters", () => {
    const long = "a".repeat(60);
    expect(
      pydanticText([{ loc: ["filters", "items", 0, "operator"], type: "string_type", msg: "Input should be a valid string", input: long }]),
    ).toBe(
      `1 validation error for PrepareParams\nfilters.items.0.operator\n  Input should be a valid string [type=string_type, input_value='${"a".repeat(24)}...${"a".repeat(23)}', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.9/v/string_type`,
    );
    const two = pydanticText([
      { loc: ["ordering"], type: "list_type", msg: "Input should be a valid list", input: 5 },
      { loc: ["selectedItems", "all"], type: "missing", msg: "Field required", input: {} },
    ]);
    expect(two.split("\n")[0]).toBe("2 validation errors for PrepareParams");
  });
});
