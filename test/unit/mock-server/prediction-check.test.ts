import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { predictionChecker } from "../../../mock-server/prediction-check.js";

/*
 * The mock's `validate_prediction` against the SDK's own: prediction-cases.json holds predictions for one
 * config with many control tags, each with the verdict label-studio-sdk 2.x's
 * `LabelInterface(config).validate_prediction(p, return_errors=True) == []` gave (recorded with the real
 * server's Python; the cases cover scores, region fields, value shapes with pydantic's lax coercion, labels,
 * Rating's maximum, Taxonomy's paths, nesting under the control's name, relations).
 */
const { config, cases } = JSON.parse(readFileSync(join(import.meta.dirname, "prediction-cases.json"), "utf8")) as {
  config: string;
  cases: { prediction: Record<string, unknown>; valid: boolean }[];
};

describe("predictionChecker", () => {
  const passes = predictionChecker(config);
  test.each(cases.map((c, i) => [i, JSON.stringify(c.prediction).slice(0, 120), c] as const))("case %i: %s", (_i, _text, c) => {
    expect(passes(c.prediction)).toBe(c.valid);
  });
  test("both verdicts are represented", () => {
    expect(new Set(cases.map((c) => c.valid))).toEqual(new Set([true, false]));
  });
});
