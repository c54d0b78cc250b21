import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { jsonHead } from "../../../mock-server/json-head.js";
import { Journal } from "../../../mock-server/journal.js";

describe("jsonHead: the start of JSON.stringify's text and its whole length, without printing it whole", () => {
  // Bodies as parsing makes them, and the odd members JSON.stringify skips or prints as null.
  const member = fc.oneof(
    fc.jsonValue(),
    fc.constant(undefined),
    fc.constant(-0),
    fc.constant(Number.NaN),
    fc.integer({ min: -1e15, max: 1e15 }),
  );
  const body = fc.oneof(
    fc.jsonValue(),
    fc.array(member, { maxLength: 30 }),
    fc.dictionary(fc.string(), member, { maxKeys: 8 }),
    fc.record({ selectedItems: fc.record({ all: fc.boolean(), included: fc.array(fc.maxSafeInteger(), { maxLength: 60 }) }) }),
  );
  test("agrees with JSON.stringify at every limit", () => {
    fc.assert(
      fc.property(body, fc.nat({ max: 120 }), (value, limit) => {
        const text = JSON.stringify(value) as string | undefined;
        const got = jsonHead(value, limit);
        expect(got).toEqual(text === undefined ? undefined : { head: text.slice(0, limit), length: text.length });
      }),
      { numRuns: 1000 },
    );
  });

  test("a value that is not plain data is left to JSON.stringify", () => {
    expect(jsonHead(new Date(0), 10)).toBeUndefined();
    expect(jsonHead({ a: { toJSON: () => 1 } }, 10)).toBeUndefined();
    expect(jsonHead([1n], 10)).toBeUndefined();
  });

  test("the journal keeps the head of a long body and its length (a million ids)", () => {
    const included = Array.from({ length: 1_000_000 }, (_, i) => i * 7);
    const raw = { selectedItems: { all: false, included }, token: "secret" };
    const whole = JSON.stringify({ selectedItems: { all: false, included }, token: "[redacted]" });
    expect(new Journal(10, 100).body(raw)).toEqual({ body: whole.slice(0, 100), truncatedFrom: whole.length });
    expect(new Journal(10, 100).body({ a: 1 })).toEqual({ body: { a: 1 } });
  });
});
