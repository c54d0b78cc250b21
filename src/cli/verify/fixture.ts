import type { JsonValue } from "../../vocabulary/json.js";

/**
 * The state `dmq verify` builds on both targets, through the public API only. Every value is chosen
 * to sit on an edge the filter semantics turn on: case and Unicode (`ÄPFEL`/`äpfel`, `ß`, CJK,
 * emoji), JSON null against a missing key, numbers as numbers and as numeric text, booleans as
 * booleans and as text, empty strings and empty results, cancelled and ground-truth annotations,
 * predictions with and without a model version or score, and two tasks with equal data (for
 * remove_duplicates). The catalogue derives its representative values from this table.
 */

export interface FixtureAnnotation {
  readonly key: string;
  readonly result: readonly JsonValue[];
  readonly was_cancelled?: boolean;
  readonly ground_truth?: boolean;
  readonly lead_time?: number;
}

export interface FixturePrediction {
  readonly key: string;
  readonly result: readonly JsonValue[];
  readonly model_version?: string;
  readonly score?: number;
}

export interface FixtureTask {
  readonly key: string;
  readonly data: { readonly [key: string]: JsonValue };
  readonly annotations: readonly FixtureAnnotation[];
  readonly predictions: readonly FixturePrediction[];
}

export const FIXTURE_CONTROL = "sentiment";
export const FIXTURE_LABELS = ["pos", "neg", "neutral"] as const;

/** One Text object and one Choices control: the data key `text` is the config's; the other keys are free. */
export const fixtureLabelConfig =
  `<View><Text name="text" value="$text"/><Choices name="${FIXTURE_CONTROL}" toName="text">` +
  FIXTURE_LABELS.map((l) => `<Choice value="${l}"/>`).join("") +
  `</Choices></View>`;

const choice = (label: string): JsonValue[] => [
  { from_name: FIXTURE_CONTROL, to_name: "text", type: "choices", value: { choices: [label] } },
];

/**
 * The data keys and what each holds, for the catalogue: `text` is the config's key (always present,
 * a string); `num` numbers (one numeric string, one null, some missing); `flag` booleans (one text
 * "true", one null); `tag` short strings for equality and lists; `mixed` every JSON type at once.
 */
export const fixtureDataKeys = ["text", "num", "flag", "tag", "mixed"] as const;
export type FixtureDataKey = (typeof fixtureDataKeys)[number];

export const fixtureTasks: readonly FixtureTask[] = [
  {
    key: "t1",
    data: { text: "ÄPFEL und Birnen", num: 5, flag: true, tag: "a", mixed: 1 },
    annotations: [
      { key: "a1", result: choice("pos"), lead_time: 2.5 },
      { key: "a2", result: choice("neg"), lead_time: 10 },
    ],
    predictions: [
      { key: "p1", result: choice("pos"), model_version: "m1", score: 0.5 },
      { key: "p2", result: choice("neg"), model_version: "m2", score: 0.9 },
    ],
  },
  {
    key: "t2",
    data: { text: "äpfel klein", num: null, flag: false, tag: "", mixed: "1" },
    annotations: [],
    predictions: [{ key: "p3", result: choice("neg"), model_version: "m1", score: 0.3 }],
  },
  {
    key: "t3",
    data: { text: "apple", num: -3, tag: "B", mixed: "x" },
    annotations: [{ key: "a3", result: choice("pos"), lead_time: 1 }],
    predictions: [],
  },
  {
    key: "t4",
    data: { text: "Banana", num: 0.5, flag: null, tag: "b", mixed: true },
    annotations: [{ key: "a4", result: [], was_cancelled: true }],
    predictions: [],
  },
  {
    key: "t5",
    data: { text: "cherry" },
    annotations: [],
    predictions: [{ key: "p4", result: choice("pos") }],
  },
  {
    key: "t6",
    data: { text: "", num: 0, flag: true, tag: "a", mixed: null },
    annotations: [{ key: "a5", result: [], lead_time: 0 }],
    predictions: [],
  },
  {
    key: "t7",
    data: { text: "日本語 テキスト 🍒", num: 1000000, tag: "ß", mixed: 2.5 },
    annotations: [{ key: "a6", result: choice("neutral"), ground_truth: true, lead_time: 4 }],
    predictions: [{ key: "p5", result: choice("neutral"), model_version: "m2", score: 0.1 }],
  },
  {
    key: "t8",
    data: { text: "apple pie", num: "12", flag: "true", tag: "A", mixed: [1, 2] },
    annotations: [],
    predictions: [{ key: "p6", result: choice("pos"), model_version: "m10", score: 1 }],
  },
  {
    key: "t9",
    data: { text: "apple", num: -3, tag: "B", mixed: "x" },
    annotations: [{ key: "a7", result: choice("neg"), lead_time: 3 }],
    predictions: [],
  },
  {
    key: "t10",
    data: { text: "Straße 100%_x", num: 1e-7, flag: false, tag: "a_b", mixed: { k: 1 } },
    annotations: [{ key: "a8", result: choice("pos"), was_cancelled: true, lead_time: 7 }],
    predictions: [{ key: "p7", result: choice("neg"), model_version: "m1", score: 0 }],
  },
];

/** The fixture's keys in creation order, by record kind. */
export const fixtureKeys = {
  tasks: fixtureTasks.map((t) => t.key),
  annotations: fixtureTasks.flatMap((t) => t.annotations.map((a) => a.key)),
  predictions: fixtureTasks.flatMap((t) => t.predictions.map((p) => p.key)),
};

/** The values of a data key over the fixture's tasks (missing keys left out). */
export function dataValues(key: string): JsonValue[] {
  return fixtureTasks.filter((t) => Object.hasOwn(t.data, key)).map((t) => t.data[key] as JsonValue);
}
