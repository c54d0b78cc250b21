/**
 * Filter operators: wire name, builder method name, generic value arity, and whether the server
 * negates the positive form (names starting with `not_` are negated, server-semantics §3.5).
 * `implemented: false` operators appear in the SDK's enum but the server has no code for them:
 * they fall through to exact equality (or its negation for `not_*`).
 */
export const operators = {
  equal: { method: "equal", arity: "scalar", negated: false, implemented: true, label: "=" },
  not_equal: { method: "notEqual", arity: "scalar", negated: true, implemented: true, label: "≠" },
  less: { method: "less", arity: "scalar", negated: false, implemented: true, label: "<" },
  greater: { method: "greater", arity: "scalar", negated: false, implemented: true, label: ">" },
  less_or_equal: { method: "lessOrEqual", arity: "scalar", negated: false, implemented: true, label: "≤" },
  greater_or_equal: { method: "greaterOrEqual", arity: "scalar", negated: false, implemented: true, label: "≥" },
  in: { method: "in", arity: "range", negated: false, implemented: true, label: "is between (inclusive)" },
  not_in: { method: "notIn", arity: "range", negated: true, implemented: true, label: "not between" },
  in_list: { method: "inList", arity: "list", negated: false, implemented: true, label: "is any of" },
  not_in_list: { method: "notInList", arity: "list", negated: true, implemented: true, label: "is none of" },
  contains: { method: "contains", arity: "scalar", negated: false, implemented: true, label: "contains" },
  not_contains: { method: "notContains", arity: "scalar", negated: true, implemented: true, label: "does not contain" },
  regex: { method: "regex", arity: "scalar", negated: false, implemented: true, label: "matches regex" },
  empty: { method: "empty", arity: "flag", negated: false, implemented: true, label: "is empty" },
  starts_with: { method: "startsWith", arity: "scalar", negated: false, implemented: false, label: "(acts as =)" },
  ends_with: { method: "endsWith", arity: "scalar", negated: false, implemented: false, label: "(acts as =)" },
  exists: { method: "exists", arity: "scalar", negated: false, implemented: false, label: "(acts as =)" },
  not_exists: { method: "notExists", arity: "scalar", negated: true, implemented: false, label: "(acts as ≠)" },
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
  Object.fromEntries([
    ...operatorNames.map((op) => [operators[op].method, op] as const),
    ...Object.entries(operatorAliases),
  ]),
);
