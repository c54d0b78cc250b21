import type { ShapeName } from "./value-shapes.js";
import type { ValueTypeName } from "./value-types.js";
import type { OperatorName } from "./operators.js";

/**
 * Column kinds: every column behaves like one of these. A kind fixes the filter `type` the builder
 * sends, which operators it allows with which value shape
 * (docs/reference/columns.md#what-the-web-ui-sends, docs/reference/filters.md#special-columns), and
 * what `empty` means for it. The engine dispatches on the kind; the builder's operator methods, the
 * parser's checks, the CLI and the docs tables are derived from this table.
 */
const numeric = {
  equal: "number",
  not_equal: "number",
  less: "number",
  greater: "number",
  less_or_equal: "number",
  greater_or_equal: "number",
  in: "numberRange",
  not_in: "numberRange",
} as const;
const listMembership = { in_list: "numberList", not_in_list: "numberList" } as const;
const integerComparisons = {
  equal: "integer",
  not_equal: "integer",
  less: "integer",
  greater: "integer",
  less_or_equal: "integer",
  greater_or_equal: "integer",
} as const;
/** Integer model columns: the same operators, on integers (the server truncates a fraction). */
const integers = {
  ...integerComparisons,
  in: "integerRange",
  not_in: "integerRange",
  in_list: "integerList",
  not_in_list: "integerList",
} as const;
const text = {
  contains: "string",
  not_contains: "string",
  regex: "regex",
  equal: "string",
  not_equal: "string",
} as const;

/** What `empty: true` matches, per rule (`empty: false` is its complement, with the quirks the engine documents). */
export const emptyRules = {
  isNull: "the value is NULL (missing)",
  zero: "the counter is 0",
  blank: "the value is NULL, missing, JSON null or the empty string",
  noAuthor: "no annotation has an author (updated_by: the task has no updater)",
  nullOrEmptyResult: "some annotation result is null or [] (or the task has no annotation)",
  noAnnotations: "the task has no annotation at all",
  noPredictionVersion: "no prediction of the task has a model_version",
  notAllowed: "not offered: the server has no empty test for it",
} as const;
export type EmptyRule = keyof typeof emptyRules;

export interface ColumnKind {
  readonly type: ValueTypeName;
  readonly operators: Partial<Record<OperatorName, ShapeName>>;
  readonly empty: EmptyRule;
  readonly description: string;
}

/**
 * The wire type the builder sends for a `dataAny` condition: Number for numeric values, Boolean
 * for booleans — each only where that type's kind has the operator — otherwise String.
 */
export function inferDataType(operator: string, value: unknown): "Number" | "Boolean" | "String" {
  if (operator === "empty") return "String";
  const parts = Array.isArray(value) ? value : typeof value === "object" && value !== null ? Object.values(value) : [value];
  const has = (kind: "dataNumber" | "dataBoolean") => Object.hasOwn(columnKinds[kind].operators, operator);
  if (parts.length > 0 && parts.every((v) => typeof v === "number") && has("dataNumber")) return "Number";
  if (parts.length > 0 && parts.every((v) => typeof v === "boolean") && has("dataBoolean")) return "Boolean";
  return "String";
}

/**
 * Column kinds: for each, the wire `type` a filter sends and the operators it allows with their value shapes.
 * The builder's operator methods, the engine, the CLI and the docs all derive from this table.
 *
 * @example
 * ```ts
 * console.log(Object.keys(columnKinds.datetime.operators)); // the operators a Datetime column allows
 * ```
 */
export const columnKinds = {
  id: {
    type: "Number",
    operators: { ...integers, empty: "boolean" },
    empty: "isNull",
    description: "task ids (never empty); the only non-data columns with is-any-of besides the counters",
  },
  counter: {
    type: "Number",
    operators: { ...integers, empty: "boolean" },
    empty: "zero",
    description: "denormalised counters; empty means == 0",
  },
  number: {
    type: "Number",
    operators: { ...numeric, empty: "boolean" },
    empty: "isNull",
    description: "computed numbers (averages); NULL when there is nothing to average",
  },
  datetime: {
    type: "Datetime",
    operators: {
      equal: "datetime",
      not_equal: "datetime",
      less: "datetime",
      greater: "datetime",
      less_or_equal: "datetime",
      greater_or_equal: "datetime",
      in: "datetimeRange",
      not_in: "datetimeRange",
      empty: "boolean",
    },
    empty: "isNull",
    description: "timestamps compared as UTC instants with microsecond precision",
  },
  boolean: {
    type: "Boolean",
    operators: { equal: "boolean", not_equal: "boolean", empty: "boolean" },
    empty: "isNull",
    description: "booleans",
  },
  text: {
    type: "String",
    operators: { ...text, empty: "boolean" },
    empty: "blank",
    description: "text; contains is case-insensitive, regex case-sensitive",
  },
  users: {
    type: "List",
    operators: { contains: "userIds", not_contains: "userIds", empty: "boolean" },
    empty: "noAuthor",
    description: "user ids; contains = any of the users, not_contains = none of them",
  },
  usersNoEmpty: {
    type: "List",
    operators: { contains: "userIds", not_contains: "userIds" },
    empty: "notAllowed",
    description: "user ids without an empty test",
  },
  results: {
    type: "String",
    operators: { contains: "string", not_contains: "string", equal: "json", not_equal: "json", empty: "boolean" },
    empty: "nullOrEmptyResult",
    description: "annotation/prediction results; contains is case-sensitive on the JSON text",
  },
  annotationIds: {
    type: "String",
    operators: {
      contains: "idList",
      not_contains: "idList",
      ...integerComparisons,
      in: "numberRange",
      not_in: "numberRange",
      empty: "boolean",
    },
    empty: "noAnnotations",
    description: "ids of the task's annotations",
  },
  modelVersions: {
    type: "List",
    operators: { contains: "stringList", not_contains: "stringList", empty: "boolean" },
    empty: "noPredictionVersion",
    description: "model versions of the task's predictions; contains is a substring test per version",
  },
  dataNumber: {
    type: "Number",
    operators: { ...numeric, ...listMembership, empty: "boolean" },
    empty: "isNull",
    description: "a data key cast to float (numeric strings count)",
  },
  dataText: {
    type: "String",
    operators: { ...text, in_list: "scalarList", not_in_list: "scalarList", empty: "boolean" },
    empty: "blank",
    description: "a data key compared as JSON (equal) or as text (contains, regex)",
  },
  dataUnknown: {
    type: "Unknown",
    operators: {
      ...text,
      equal: "scalar",
      not_equal: "scalar",
      in_list: "scalarList",
      not_in_list: "scalarList",
      empty: "boolean",
    },
    empty: "blank",
    description: "a data key of unknown type; equality is JSON-typed",
  },
  dataAny: {
    type: "String",
    operators: {
      ...text,
      ...numeric,
      equal: "scalar",
      not_equal: "scalar",
      in_list: "scalarList",
      not_in_list: "scalarList",
      empty: "boolean",
    },
    empty: "blank",
    description: "a data key with no declared type: the builder sends Number for numeric values, Boolean for booleans, String otherwise",
  },
  dataBoolean: {
    type: "Boolean",
    operators: { equal: "boolean", not_equal: "boolean", empty: "boolean" },
    empty: "isNull",
    description: "a data key holding booleans",
  },
} as const satisfies Record<string, ColumnKind>;

/** The name of a column kind. */
export type ColumnKindName = keyof typeof columnKinds;
export type KindOperators<K extends ColumnKindName> = (typeof columnKinds)[K]["operators"];

/** The kind a `data.<key>` filter gets from its `type` (the filter's type drives the server's casting). */
export const dataKindByType = {
  Number: "dataNumber",
  String: "dataText",
  Unknown: "dataUnknown",
  Boolean: "dataBoolean",
  Image: "dataText",
  Audio: "dataText",
  AudioPlus: "dataText",
  Video: "dataText",
} as const satisfies Partial<Record<ValueTypeName, ColumnKindName>>;
/** A filter `type` a `tasks:data.<key>` condition may declare. */
export type DataTypeName = keyof typeof dataKindByType;
