import { toWireDatetime, WIRE_DATETIME, wireDatetimeMicros, type DatetimeInput } from "./datetime.js";
import type { JsonValue } from "./json.js";

/**
 * Value shapes: what an operator takes on a given kind of column. Each row holds the text used in
 * errors and docs, the builder-side encoder (input -> wire value, or a problem) and the wire-side
 * check (is this exactly the documented wire form?). `ShapeInput` below maps each row to its
 * TypeScript input type; the builder's parameter types come from it.
 */
export interface ShapeInput {
  number: number;
  integer: number;
  numberRange: { readonly min: number; readonly max: number };
  integerRange: { readonly min: number; readonly max: number };
  datetime: DatetimeInput;
  datetimeRange: { readonly min: DatetimeInput; readonly max: DatetimeInput };
  boolean: boolean;
  string: string;
  scalar: string | number | boolean;
  regex: string;
  numberList: NonEmptyList<number, EmptyListRule>;
  integerList: NonEmptyList<number, EmptyListRule>;
  scalarList: NonEmptyList<string | number | boolean, EmptyListRule>;
  idList: number | NonEmptyList<number, EmptyListRule>;
  userIds: number | NonEmptyList<number, EmptyListRule>;
  stringList: string | NonEmptyList<string, EmptyListRule>;
  json: JsonValue;
}
/** The name of a value shape. */
export type ShapeName = keyof ShapeInput;

/**
 * A list with at least one element. Empty lists are where the server surprises: `in_list []` matches
 * nothing, `not_in_list []` and `contains []` on user columns are dropped (no constraint), and
 * `{all: false, included: []}` selects every task. Narrow a `T[]` with `isNonEmpty` first; a literal
 * with an item before or after a spread (`[5, ...ids]`, `[...ids, 5]`) is non-empty as written.
 */
export type NonEmpty<T> = readonly [...T[], T] | readonly [T, ...T[]];

declare const emptyList: unique symbol;
/** Nothing has this type: it only carries the rule into `NonEmptyList`'s name in compile errors. */
export interface EmptyListRefused<Why extends string> {
  readonly [emptyList]: Why;
}
/**
 * `NonEmpty<T>`, named with the rule an empty list would break, so a compile error on `[]` names it
 * ("… not assignable to parameter of type 'NonEmptyList<number, "…rule…">'").
 */
export type NonEmptyList<T, Why extends string> = NonEmpty<T> | EmptyListRefused<Why>;

/** Why operator values refuse an empty list. */
export const emptyListRule =
  "an empty list is refused: the server matches no task with in_list [] and drops not_in_list [] and contains [] (no constraint)";
export type EmptyListRule = typeof emptyListRule;

/** Narrows a list to `NonEmpty` (what `including()` and list operators take). */
export function isNonEmpty<T>(list: readonly T[]): list is NonEmpty<T> {
  return list.length > 0;
}

export type Encoded = { ok: true; value: WireValue } | { ok: false; expected: string };
/** Every value a filter item may carry on the wire. */
export type WireValue =
  | number
  | string
  | boolean
  | { readonly min: number | string; readonly max: number | string }
  | readonly (string | number | boolean)[];

interface ShapeRow {
  readonly expected: string;
  readonly encode: (input: unknown) => Encoded;
  readonly isWire: (value: unknown) => boolean;
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const int = (v: unknown): v is number => Number.isSafeInteger(v);
const ok = (value: WireValue): Encoded => ({ ok: true, value });
const bad = (expected: string): Encoded => ({ ok: false, expected });
const isRange = (v: unknown): v is { min: unknown; max: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "min" in v && "max" in v && Object.keys(v).length === 2;

/**
 * A list shape. `scalarAllowed`: the builder also takes a single item (and sends a one-item list);
 * `wireScalar`: the server also reads a single item as a one-item list (user and annotation ids),
 * so a scalar on the wire is documented, not a deviation.
 */
function list(expected: string, item: (v: unknown) => boolean, opts: { scalarAllowed?: boolean; wireScalar?: boolean } = {}): ShapeRow {
  return {
    expected,
    encode(input) {
      const arr = Array.isArray(input) ? input : opts.scalarAllowed && item(input) ? [input] : undefined;
      if (!arr || arr.length === 0 || !arr.every(item)) return bad(expected);
      return ok(Object.freeze([...arr]));
    },
    isWire: (v) => (Array.isArray(v) ? v.length > 0 && v.every(item) : opts.wireScalar === true && item(v)),
  };
}

function range(
  expected: string,
  end: (v: unknown, which: "min" | "max") => { ok: true; value: number | string } | { ok: false },
  compare: (a: never, b: never) => number,
): ShapeRow {
  return {
    expected,
    encode(input) {
      if (!isRange(input)) return bad(expected);
      const min = end(input.min, "min"),
        max = end(input.max, "max");
      if (!min.ok || !max.ok) return bad(expected);
      if (compare(min.value as never, max.value as never) > 0) return bad(`${expected} with min <= max`);
      return ok(Object.freeze({ min: min.value, max: max.value }));
    },
    isWire: (v) => isRange(v) && end(v.min, "min").ok && end(v.max, "max").ok && typeof v.min === typeof v.max,
  };
}

const numberEnd = (v: unknown) => (finite(v) ? { ok: true as const, value: v } : { ok: false as const });
const integerEnd = (v: unknown) => (int(v) ? { ok: true as const, value: v } : { ok: false as const });
/**
 * Integer columns (ids, counters): Django prepares a number for an IntegerField with `int()`, so the
 * server reads `equal 2.9` as `equal 2` (docs/reference/filters.md#value-casting). The builder takes integers only.
 */
const TRUNCATES = "as the server truncates a fraction";
const INTEGER = `an integer, ${TRUNCATES}`;
/** A bare date as `max` is the end of that day: the range holds the whole day (the day-range rule). */
const datetimeEnd = (v: unknown, which: "min" | "max") => {
  const r = toWireDatetime(v, { endOfDay: which === "max" });
  return r.ok ? { ok: true as const, value: r.value } : { ok: false as const };
};
const wireDatetimeEnd = (v: unknown) =>
  typeof v === "string" && WIRE_DATETIME.test(v) ? { ok: true as const, value: v } : { ok: false as const };

/** Value shapes: how each is checked and what it expects, for the builder's run-time checks and the parser. */
export const valueShapes: { readonly [K in ShapeName]: ShapeRow } = {
  number: { expected: "a finite number", encode: (v) => (finite(v) ? ok(v) : bad("a finite number")), isWire: finite },
  integer: { expected: INTEGER, encode: (v) => (int(v) ? ok(v) : bad(INTEGER)), isWire: int },
  numberRange: range("{ min: number, max: number }", numberEnd, (a: number, b: number) => a - b),
  integerRange: range(`{ min: integer, max: integer }, ${TRUNCATES}`, integerEnd, (a: number, b: number) => a - b),
  datetime: {
    expected: "a Date or an ISO-8601 string",
    encode(v) {
      const r = toWireDatetime(v);
      return r.ok ? ok(r.value) : bad(r.expected);
    },
    isWire: (v) => typeof v === "string" && WIRE_DATETIME.test(v),
  },
  datetimeRange: {
    // Compare instants, not text: ".000Z" and ".000500Z" differ in length.
    ...range("{ min: Date | ISO string, max: Date | ISO string }", datetimeEnd, (a: string, b: string) =>
      Math.sign((wireDatetimeMicros(a) ?? 0) - (wireDatetimeMicros(b) ?? 0)),
    ),
    isWire: (v) => isRange(v) && wireDatetimeEnd(v.min).ok && wireDatetimeEnd(v.max).ok,
  },
  boolean: {
    expected: "a boolean",
    encode: (v) => (typeof v === "boolean" ? ok(v) : bad("a boolean")),
    isWire: (v) => typeof v === "boolean",
  },
  string: {
    expected: "a string",
    encode: (v) => (typeof v === "string" ? ok(v) : bad("a string")),
    isWire: (v) => typeof v === "string",
  },
  scalar: {
    expected: "a string, number or boolean",
    encode: (v) => (typeof v === "string" || typeof v === "boolean" || finite(v) ? ok(v) : bad("a string, number or boolean")),
    isWire: (v) => typeof v === "string" || typeof v === "boolean" || finite(v),
  },
  regex: {
    expected: "a regular expression source string",
    encode: (v) => (typeof v === "string" ? ok(v) : bad("a regular expression source string")),
    isWire: (v) => typeof v === "string",
  },
  numberList: list("a non-empty array of finite numbers", finite),
  integerList: list(`a non-empty array of integers, ${TRUNCATES}`, int),
  scalarList: list(
    "a non-empty array of strings, numbers or booleans",
    (v) => typeof v === "string" || typeof v === "boolean" || finite(v),
  ),
  idList: list("an integer id or a non-empty array of integer ids", int, { scalarAllowed: true, wireScalar: true }),
  userIds: list("a user id or a non-empty array of user ids", int, { scalarAllowed: true, wireScalar: true }),
  stringList: list("a string or a non-empty array of strings", (v) => typeof v === "string", { scalarAllowed: true }),
  json: {
    expected: "a JSON-serialisable value (sent as JSON text)",
    encode(v) {
      try {
        const text = JSON.stringify(v);
        return typeof text === "string" ? ok(text) : bad("a JSON-serialisable value (sent as JSON text)");
      } catch {
        return bad("a JSON-serialisable value (sent as JSON text)");
      }
    },
    isWire(v) {
      if (typeof v !== "string") return false;
      try {
        JSON.parse(v);
        return true;
      } catch {
        return false;
      }
    },
  },
};

/** A sample input per shape, as TypeScript source: the `@example` of the generated operator docs. */
export const shapeExamples: { readonly [K in ShapeName]: string } = {
  number: "10",
  integer: "10",
  numberRange: "{ min: 1, max: 5 }",
  integerRange: "{ min: 1, max: 5 }",
  datetime: '"2024-01-01T00:00:00Z"',
  datetimeRange: '{ min: "2024-01-01", max: new Date() }',
  boolean: "true",
  string: '"cat"',
  scalar: '"cat"',
  regex: '"^img_"',
  numberList: "[1, 2]",
  integerList: "[1, 2]",
  scalarList: '["cat", "dog"]',
  idList: "[3, 4]",
  userIds: "[1, 2]",
  stringList: '"v2"',
  json: '[{ value: { choices: ["A"] } }]',
};
