/**
 * Filter operators: wire name, builder method name, generic value arity, and whether the server
 * negates the positive form (names starting with `not_` are negated,
 * docs/reference/filters.md#generic-operators).
 * `implemented: false` operators appear in the SDK's enum but the server has no code for them:
 * they fall through to exact equality (or its negation for `not_*`). `meaning`: what the server
 * does, as the operator methods' documentation says it.
 */
export const operators = {
  equal: {
    method: "equal",
    arity: "scalar",
    negated: false,
    implemented: true,
    label: "=",
    meaning: "equal to the value (after the server casts it to the filter type)",
  },
  not_equal: {
    method: "notEqual",
    arity: "scalar",
    negated: true,
    implemented: true,
    label: "≠",
    meaning: "the negation of equal",
  },
  less: { method: "less", arity: "scalar", negated: false, implemented: true, label: "<", meaning: "strictly less than the value" },
  greater: {
    method: "greater",
    arity: "scalar",
    negated: false,
    implemented: true,
    label: ">",
    meaning: "strictly greater than the value",
  },
  less_or_equal: {
    method: "lessOrEqual",
    arity: "scalar",
    negated: false,
    implemented: true,
    label: "≤",
    meaning: "less than or equal to the value",
  },
  greater_or_equal: {
    method: "greaterOrEqual",
    arity: "scalar",
    negated: false,
    implemented: true,
    label: "≥",
    meaning: "greater than or equal to the value",
  },
  in: {
    method: "in",
    arity: "range",
    negated: false,
    implemented: true,
    label: "is between (inclusive)",
    meaning: "between min and max, both inclusive",
  },
  not_in: {
    method: "notIn",
    arity: "range",
    negated: true,
    implemented: true,
    label: "not between",
    meaning: "the negation of in: outside [min, max]",
  },
  in_list: {
    method: "inList",
    arity: "list",
    negated: false,
    implemented: true,
    label: "is any of",
    meaning: "equal to one of the values",
  },
  not_in_list: {
    method: "notInList",
    arity: "list",
    negated: true,
    implemented: true,
    label: "is none of",
    meaning: "the negation of in_list: equal to none of the values",
  },
  contains: {
    method: "contains",
    arity: "scalar",
    negated: false,
    implemented: true,
    label: "contains",
    meaning: "contains the text, case-insensitive",
  },
  not_contains: {
    method: "notContains",
    arity: "scalar",
    negated: true,
    implemented: true,
    label: "does not contain",
    meaning: "the negation of contains",
  },
  regex: {
    method: "regex",
    arity: "scalar",
    negated: false,
    implemented: true,
    label: "matches regex",
    meaning: "the regular expression matches somewhere in the text, case-sensitive (the server only checks it compiles in Python)",
  },
  empty: {
    method: "empty",
    arity: "flag",
    negated: false,
    implemented: true,
    label: "is empty",
    meaning: "true: the value is empty; false: it is not",
  },
  starts_with: {
    method: "startsWith",
    arity: "scalar",
    negated: false,
    implemented: false,
    label: "(acts as =)",
    meaning: "not implemented by the server: exact equality",
  },
  ends_with: {
    method: "endsWith",
    arity: "scalar",
    negated: false,
    implemented: false,
    label: "(acts as =)",
    meaning: "not implemented by the server: exact equality",
  },
  exists: {
    method: "exists",
    arity: "scalar",
    negated: false,
    implemented: false,
    label: "(acts as =)",
    meaning: "not implemented by the server: exact equality",
  },
  not_exists: {
    method: "notExists",
    arity: "scalar",
    negated: true,
    implemented: false,
    label: "(acts as ≠)",
    meaning: "not implemented by the server: negated exact equality",
  },
} as const;

/** An operator's wire name. */
export type OperatorName = keyof typeof operators;
export type OperatorMethod = (typeof operators)[OperatorName]["method"];
/** Operators the server actually implements; the builder only offers these. */
export type ImplementedOperator = {
  [K in OperatorName]: (typeof operators)[K]["implemented"] extends true ? K : never;
}[OperatorName];

/** Builder aliases: `between`/`notBetween` read better than `in`/`notIn` for ranges. */
export const operatorAliases = { between: "in", notBetween: "not_in" } as const;

/** Every operator's wire name, in table order. */
export const operatorNames = Object.keys(operators) as readonly OperatorName[];

export function isOperatorName(name: unknown): name is OperatorName {
  return typeof name === "string" && Object.hasOwn(operators, name);
}

/** Method name -> wire name, derived from the table. */
export const operatorByMethod: Readonly<Record<string, OperatorName>> = Object.freeze(
  Object.fromEntries([...operatorNames.map((op) => [operators[op].method, op] as const), ...Object.entries(operatorAliases)]),
);
