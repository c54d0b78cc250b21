/**
 * Value pools shared by the dataset and filter generators, so that filters hit the data: the same
 * words in several cases, numbers and numeric strings that sort differently as text, unicode,
 * timestamps with ties and microseconds, result payloads and their substrings.
 */
import type { JsonValue } from "../../../src/vocabulary/json.js";

export const words = [
  "apple",
  "Apple",
  "APPLE",
  "banana split",
  "Cherry",
  "cherry pie",
  "Ünïcode",
  "ünïcode",
  "日本語",
  "emoji 😀",
  "x2",
  "opop",
  "Test example phrase 1",
  "yoyo",
  "a%b_c",
] as const;
/** Substrings and case variants to search for. */
export const needles = ["app", "APP", "pLe", "an", "split", "ÜNÏ", "ünï", "本", "😀", "%", "_", "e 1", "x", "zzz", ""] as const;
export const numbers = [0, 1, 2, 5, 9, 10, 11, -3, 2.5, -0.5, 100] as const;
export const numericStrings = ["10", "9", "007", " 5", "-2.5", "1e3", "0"] as const;
export const nonNumericStrings = ["abc", "", "10 apples", "true"] as const;

export const dataKeys = ["text", "num", "mixed", "flag", "nested", "list", "Score", "ünï", "a.b", "sparse"] as const;
/** A key that the filter generator uses but no task holds. */
export const missingKey = "absent";

export const timestamps = [
  "2024-01-01T00:00:00.000000Z",
  "2024-01-01T00:00:00.000001Z",
  "2024-01-01T00:00:00.500000Z",
  "2024-02-29T12:30:00.000000Z",
  "2024-02-29T12:30:00.000000Z",
  "2024-06-15T08:00:00.123456Z",
  "2025-01-01T00:00:00.000000Z",
] as const;

export const uploads = [null, "upload/a.csv", "Upload/B.json", "upload/Ünï.txt", ""] as const;
export const storages = [null, "s3://bucket/x.jpg", "gs://Bucket/Y.PNG", ""] as const;
export const modelVersions = [null, "v1", "v2", "V1-beta", "model-10"] as const;
export const scores = [null, 0, 0.25, 0.5, 0.75, 1] as const;
export const leadTimes = [null, 0, 1.5, 3, 10] as const;
export const userIds = [1, 2, 3, 4] as const;

/** Result payloads; keys deliberately not in jsonb's order (shorter keys first). */
export const results: readonly (readonly JsonValue[] | null)[] = [
  null,
  [],
  [{ from_name: "label", to_name: "text", type: "choices", value: { choices: ["Positive"] } }],
  [{ from_name: "label", to_name: "text", type: "choices", value: { choices: ["Negative"] } }],
  [{ type: "labels", value: { start: 0, end: 5, labels: ["PER"] } }],
  [{ value: { text: ["Hello World"] }, type: "textarea" }],
];
export const resultNeedles = [
  '"Positive"',
  "Positive",
  "positive",
  "choices",
  '"type": "choices"',
  '"from_name": "label", "to_name"',
  '{"type": "labels"',
  "PER",
  "Hello",
  "zzz",
] as const;
/** JSON texts for results equal / not_equal: payloads (some re-ordered) and texts that do not parse. */
export const resultJsonValues: readonly JsonValue[] = [
  ...(results.filter((r) => r !== null) as JsonValue[]),
  [{ type: "choices", value: { choices: ["Positive"] }, to_name: "text", from_name: "label" }],
  123,
];

/** Regexes valid in Python, Postgres and JavaScript alike, and some that no engine compiles. */
export const regexes = [
  "^a",
  "pple$",
  "[Aa]pple",
  "^[0-9]+$",
  "an+",
  ".*",
  "b.n",
  "(cherry|yoyo)",
  "^$",
  "\\d",
  "APP",
  "^ *5$",
  "😀",
] as const;
export const badRegexes = ["(", "[a", "*a", "a)"] as const;
