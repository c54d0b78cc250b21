import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { examplesPath, generate, generateExamples, generatedPath } from "../../../scripts/generate-query-types.js";
import { shapeExamples, valueShapes, type ShapeName } from "../../../src/vocabulary/value-shapes.js";

describe("generated declarations (operator docs, refused members, params texts)", () => {
  test("src/query/generated.ts is what the vocabulary and the rules give (npx tsx scripts/generate-query-types.ts)", () => {
    expect(readFileSync(generatedPath, "utf8")).toBe(generate());
  });
  test("the examples type test is current", () => {
    expect(readFileSync(examplesPath, "utf8")).toBe(generateExamples());
  });
  test.each(Object.keys(shapeExamples) as ShapeName[])("the %s example is a valid input", (shape) => {
    const value: unknown = new Function(`return (${shapeExamples[shape]});`)();
    expect(valueShapes[shape].encode(value)).toMatchObject({ ok: true });
  });
});
