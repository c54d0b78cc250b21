import { match, P } from "ts-pattern";
import type { ShapeName } from "../../vocabulary/value-shapes.js";
import type { JsonValue } from "../../vocabulary/json.js";
import { dataValues, fixtureTasks, type FixtureTask } from "./fixture.js";
import { ref, type TimeField } from "./refs.js";
import type { Trait } from "./scenario.js";

/**
 * Representative values for a column and a value shape, derived from the fixture: the values the
 * column holds (its smallest, middle and largest, one past them), the texts its data holds and the
 * edges around them (case, non-ASCII letters, LIKE wildcards, the empty string), references to the
 * fixture's ids and timestamps (resolved per target), and lists of them.
 */
export interface Sample {
  readonly value: unknown;
  /** For the scenario id: short and stable. */
  readonly label: string;
  readonly traits?: readonly Trait[];
}

/** Where a column's values come from, for the samples. */
export type ColumnSource =
  | { readonly k: "data"; readonly key: string }
  | { readonly k: "column"; readonly name: string; readonly enterprise: boolean };

const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const live = (t: FixtureTask) => t.annotations.filter((a) => !a.was_cancelled);

/** What a computed number column holds per fixture task (null where the server has NULL). */
const computedNumbers: Readonly<Record<string, (t: FixtureTask) => number | null>> = {
  total_annotations: (t) => live(t).length,
  cancelled_annotations: (t) => t.annotations.length - live(t).length,
  total_predictions: (t) => t.predictions.length,
  predictions_score: (t) => mean(t.predictions.flatMap((p) => (p.score === undefined ? [] : [p.score]))),
  avg_lead_time: (t) => mean(t.annotations.flatMap((a) => (a.lead_time === undefined ? [] : [a.lead_time]))),
  unresolved_comment_count: () => 0,
};

function numbersOf(source: ColumnSource): number[] {
  const raw =
    source.k === "data"
      ? dataValues(source.key).flatMap((v) =>
          typeof v === "number" ? [v] : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? [Number(v)] : [],
        )
      : fixtureTasks.flatMap((t) => {
          const v = computedNumbers[source.name]?.(t);
          return v === null || v === undefined ? [] : [v];
        });
  return [...new Set(raw.length ? raw : [0])].sort((a, b) => a - b);
}

/** Smallest, middle and largest (distinct), then one past the largest. */
function pickNumbers(xs: readonly number[]): number[] {
  const last = xs[xs.length - 1] as number;
  const picks = [xs[0] as number, xs[Math.floor((xs.length - 1) / 2)] as number, last];
  return [...new Set(picks), last + 1];
}

const TASK_SAMPLES = ["t1", "t5", "t10"] as const;

/**
 * Keys of tasks that have a value for a timestamp field: completed_at needs an annotation (the
 * import marks a task with only cancelled ones labeled too). The last is the latest of them all.
 */
function timeKeys(field: TimeField): string[] {
  if (field !== "completed_at") return fixtureTasks.map((t) => t.key);
  return fixtureTasks.filter((t) => t.annotations.length > 0).map((t) => t.key);
}

/** Texts that sit on the edges of case folding, LIKE and Unicode. */
const probeTexts: readonly Sample[] = [
  { value: "apple", label: "apple" },
  { value: "APPLE", label: "APPLE" },
  { value: "äpfel", label: "äpfel", traits: ["text-case-unicode"] },
  { value: "ÄPFEL", label: "ÄPFEL", traits: ["text-case-unicode"] },
  { value: "ß", label: "ß", traits: ["text-case-unicode"] },
  { value: "SS", label: "SS" },
  { value: "🍒", label: "cherry-emoji" },
  { value: "%", label: "percent", traits: ["text-like-wildcard"] },
  { value: "_", label: "underscore", traits: ["text-like-wildcard"] },
  { value: "", label: "empty-string" },
];

/** Regular expressions: plain ones, and ones whose meaning depends on the engine (`regex-dialect`). */
const probeRegexes: readonly Sample[] = [
  { value: "^a", label: "^a" },
  { value: "e$", label: "e$" },
  { value: "\\d", label: "digit" },
  { value: "^$", label: "empty" },
  { value: "ä", label: "a-umlaut" },
  { value: "[", label: "invalid" },
  { value: "^[[:upper:]]", label: "posix-class", traits: ["regex-dialect"] },
  { value: "(?i)apple", label: "inline-flag", traits: ["regex-dialect"] },
  { value: "\\bapple\\b", label: "word-boundary", traits: ["regex-dialect"] },
  { value: "(?<=p)ple", label: "lookbehind", traits: ["regex-dialect"] },
];

const resultProbes: readonly Sample[] = [
  { value: "pos", label: "pos" },
  { value: "POS", label: "POS", traits: ["results-text"] },
  { value: '"choices": ["pos"]', label: "choices-spaced", traits: ["results-text"] },
  { value: '"from_name": "sentiment", "to_name"', label: "key-order", traits: ["results-text"] },
  { value: "neutral", label: "neutral" },
];

/** A value's label: strings as they are unless they read as another JSON type ("true", "1"), which keep their quotes. */
const label = (v: unknown): string => {
  if (typeof v !== "string") return JSON.stringify(v);
  if (v === "") return "empty-string";
  try {
    JSON.parse(v);
    return JSON.stringify(v);
  } catch {
    return v;
  }
};
const scalarsOf = (key: string): (string | number | boolean)[] => [
  ...new Set(dataValues(key).filter((v): v is string | number | boolean => v !== null && typeof v !== "object")),
];
const isResults = (s: ColumnSource) => s.k === "column" && (s.name === "annotations_results" || s.name === "predictions_results");

/** The representative values of one shape on one column. */
export function samplesFor(source: ColumnSource, shape: ShapeName): Sample[] {
  const column = source.k === "column" ? source.name : `data.${source.key}`;
  const enterprise = source.k === "column" && source.enterprise;
  const all = match(shape)
    .with("number", () => numberSamples(source))
    .with("integer", () =>
      source.k === "column" && source.name === "annotations_ids"
        ? [
            { value: ref.annotation("a3"), label: "a3" },
            { value: 0, label: "0" },
          ]
        : numberSamples(source),
    )
    .with(P.union("numberRange", "integerRange"), () => rangeSamples(source))
    .with("datetime", () => datetimeSamples(column as TimeField))
    .with("datetimeRange", () => {
      const keys = timeKeys(column as TimeField);
      const [lo, mid] = [keys[0] as string, keys[Math.floor((keys.length - 1) / 2)] as string];
      return [
        {
          value: { min: ref.time(lo, column as TimeField), max: ref.time(mid, column as TimeField) },
          label: `${lo}..${mid}`,
          traits: ["timestamps"] as const,
        },
        { value: { min: "2000-01-01T00:00:00.000000Z", max: "2100-01-01T00:00:00.000000Z" }, label: "2000..2100" },
      ];
    })
    .with("boolean", () => [
      { value: true, label: "true" },
      { value: false, label: "false" },
    ])
    .with("string", () => stringSamples(source))
    .with("scalar", () => (source.k === "data" ? [...scalarsOf(source.key).map((v) => ({ value: v, label: label(v) })), absent] : [absent]))
    .with("regex", () => (source.k === "data" && source.key !== "text" ? probeRegexes.slice(0, 4) : [...probeRegexes]))
    .with(P.union("numberList", "integerList"), () => numberListSamples(source))
    .with("scalarList", () => {
      const values = source.k === "data" ? scalarsOf(source.key) : [];
      const blank = (list: readonly unknown[]): readonly Trait[] => (list.includes("") ? ["in-list-blank"] : []);
      return [
        { value: values, label: "all-values", traits: blank(values) },
        { value: values.slice(0, 2), label: "first-two", traits: blank(values.slice(0, 2)) },
        { value: ["nonexistent"], label: "nonexistent" },
      ].filter((s) => s.value.length > 0);
    })
    .with("idList", () => [
      { value: ref.annotation("a3"), label: "a3" },
      { value: [ref.annotation("a1"), ref.annotation("a3")], label: "[a1,a3]" },
    ])
    .with("userIds", () => [
      { value: ref.user(), label: "user" },
      { value: [ref.user()], label: "[user]" },
      { value: 999999, label: "unknown-user" },
    ])
    .with("stringList", () => [
      { value: "m1", label: "m1" },
      { value: ["m1", "m2"], label: "[m1,m2]" },
      { value: "m", label: "m" },
      { value: "", label: "empty-string" },
    ])
    .with("json", () => [
      { value: JSON.stringify(fixtureTasks[0]?.annotations[0]?.result ?? []), label: "a1-result" },
      { value: "[]", label: "[]" },
      { value: "{", label: "not-json" },
    ])
    .exhaustive();
  // The same value twice (a range whose ends coincide) is one sample.
  const distinct = all.filter((s, i) => all.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(s.value)) === i);
  // Enterprise columns: a community server refuses them whatever the value; one value says so.
  return enterprise ? distinct.slice(0, 1) : distinct;
}

const absent: Sample = { value: "absent-value", label: "absent-value" };

function numberSamples(source: ColumnSource): Sample[] {
  if (source.k === "column" && source.name === "id") return TASK_SAMPLES.map((k) => ({ value: ref.task(k), label: k }));
  if (source.k === "column" && source.name === "inner_id") return TASK_SAMPLES.map((k) => ({ value: ref.innerId(k), label: k }));
  return pickNumbers(numbersOf(source)).map((n) => ({ value: n, label: String(n) }));
}

function rangeSamples(source: ColumnSource): Sample[] {
  if (source.k === "column" && (source.name === "id" || source.name === "inner_id")) {
    const r = source.name === "id" ? ref.task : ref.innerId;
    return [
      { value: { min: r("t2"), max: r("t5") }, label: "t2..t5" },
      { value: { min: r("t5"), max: r("t5") }, label: "t5..t5" },
    ];
  }
  if (source.k === "column" && source.name === "annotations_ids") {
    return [{ value: { min: ref.annotation("a1"), max: ref.annotation("a3") }, label: "a1..a3" }];
  }
  const xs = numbersOf(source);
  const lo = xs[0] as number,
    mid = xs[Math.floor((xs.length - 1) / 2)] as number,
    hi = xs[xs.length - 1] as number;
  return [
    { value: { min: lo, max: mid }, label: `${lo}..${mid}` },
    { value: { min: mid, max: mid }, label: `${mid}..${mid}` },
    { value: { min: hi + 1, max: hi + 2 }, label: `${hi + 1}..${hi + 2}` },
  ];
}

function numberListSamples(source: ColumnSource): Sample[] {
  if (source.k === "column" && (source.name === "id" || source.name === "inner_id")) {
    const r = source.name === "id" ? ref.task : ref.innerId;
    return [
      { value: [r("t1"), r("t5")], label: "[t1,t5]" },
      { value: [r("t3")], label: "[t3]" },
    ];
  }
  const xs = pickNumbers(numbersOf(source));
  return [
    { value: xs.slice(0, 2), label: `[${xs.slice(0, 2).join(",")}]` },
    { value: [xs[xs.length - 1]], label: `[${String(xs[xs.length - 1])}]` },
  ];
}

/**
 * A timestamp's samples: the first and a middle task's exactly, one microsecond before the first and
 * after the last (the edges of `<`/`>=` with no neighbour there to tie with), and a time before all.
 */
function datetimeSamples(field: TimeField): Sample[] {
  const keys = timeKeys(field);
  const first = keys[0] as string,
    middle = keys[Math.floor((keys.length - 1) / 2)] as string,
    last = keys[keys.length - 1] as string;
  return [
    { value: ref.time(first, field), label: `${first}`, traits: ["timestamps"] },
    { value: ref.time(middle, field), label: `${middle}`, traits: ["timestamps"] },
    { value: ref.time(first, field, -1), label: `${first}-1us`, traits: ["timestamps"] },
    { value: ref.time(last, field, 1), label: `${last}+1us`, traits: ["timestamps"] },
    { value: "2000-01-01T00:00:00.000000Z", label: "2000-01-01" },
  ];
}

function stringSamples(source: ColumnSource): Sample[] {
  if (isResults(source)) return [...resultProbes];
  if (source.k === "column")
    return [
      { value: "", label: "empty-string" },
      { value: "x", label: "x" },
    ];
  const own = dataValues(source.key).map((v: JsonValue) => (typeof v === "string" ? v : JSON.stringify(v)));
  const exact = [...new Set(own)].map((v) => ({
    value: v,
    label: `=${label(v)}`,
    ...(/[\u0080-\uffff]/.test(v) ? { traits: ["text-case-unicode" as const] } : {}),
  }));
  return source.key === "text" ? [...exact, ...probeTexts] : exact;
}
