/**
 * Queries of lookups an index or a fused scan answers (issue #25): equalities and ranges on the id,
 * inner_id, a data key (as JSON or cast to a number), created_at, `contains` on a data key,
 * `annotators contains`, each maybe with a child filter, combined by AND or OR. test/conformance/planner.test.ts and fused.test.ts.
 */
import fc from "fast-check";
import type { QueryNode } from "../../../src/query/nodes.js";
import { parseQuery } from "../../../src/wire/parse.js";
import * as pools from "./pools.js";

type Cond =
  | { readonly k: "id" | "inner"; readonly op: "equal" | "greater" | "less_or_equal"; readonly v: number }
  | { readonly k: "json"; readonly key: string; readonly v: string }
  | {
      readonly k: "number";
      readonly key: string;
      readonly op: "equal" | "greater" | "less" | "in";
      readonly v: number;
      readonly to: number;
    }
  | { readonly k: "annotators"; readonly users: readonly number[] }
  | { readonly k: "contains"; readonly key: string; readonly v: string }
  | { readonly k: "created"; readonly op: "equal" | "greater" | "less" | "in"; readonly v: string; readonly to: string };

interface Line {
  readonly root: Cond;
  readonly child: Cond | undefined;
}

const small = fc.integer({ min: -1, max: 14 });
const numberArb = fc.constantFrom(...pools.numbers);
const condArb: fc.Arbitrary<Cond> = fc.oneof(
  fc.record({
    k: fc.constantFrom("id" as const, "inner" as const),
    op: fc.constantFrom("equal" as const, "greater" as const, "less_or_equal" as const),
    v: small,
  }),
  fc.record({
    k: fc.constant("json" as const),
    key: fc.constantFrom(...pools.dataKeys),
    v: fc.constantFrom(...pools.words),
  }),
  fc.record({
    k: fc.constant("number" as const),
    key: fc.constantFrom("num", "mixed", "Score", "sparse"),
    op: fc.constantFrom("equal" as const, "greater" as const, "less" as const, "in" as const),
    v: numberArb,
    to: numberArb,
  }),
  fc.record({
    k: fc.constant("annotators" as const),
    users: fc.uniqueArray(fc.constantFrom(...pools.userIds), { minLength: 1, maxLength: 2 }),
  }),
  fc.record({ k: fc.constant("contains" as const), key: fc.constantFrom(...pools.dataKeys), v: fc.constantFrom(...pools.words) }),
  fc.record({
    k: fc.constant("created" as const),
    op: fc.constantFrom("equal" as const, "greater" as const, "less" as const, "in" as const),
    v: fc.constantFrom(...pools.timestamps),
    to: fc.constantFrom(...pools.timestamps),
  }),
);
const lineArb: fc.Arbitrary<Line> = fc.record({ root: condArb, child: fc.option(condArb, { nil: undefined }) });
export const queryArb = fc.record({ lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }), or: fc.boolean() });

function filterItem(c: Cond): Record<string, unknown> {
  switch (c.k) {
    case "id":
    case "inner":
      return { filter: `filter:tasks:${c.k === "id" ? "id" : "inner_id"}`, operator: c.op, type: "Number", value: c.v };
    case "json":
      return { filter: `filter:tasks:data.${c.key}`, operator: "equal", type: "String", value: c.v };
    case "number":
      return c.op === "in"
        ? {
            filter: `filter:tasks:data.${c.key}`,
            operator: "in",
            type: "Number",
            value: { min: Math.min(c.v, c.to), max: Math.max(c.v, c.to) },
          }
        : { filter: `filter:tasks:data.${c.key}`, operator: c.op, type: "Number", value: c.v };
    case "annotators":
      return { filter: "filter:tasks:annotators", operator: "contains", type: "List", value: c.users };
    case "contains":
      return { filter: `filter:tasks:data.${c.key}`, operator: "contains", type: "String", value: c.v };
    case "created":
      return c.op === "in"
        ? {
            filter: "filter:tasks:created_at",
            operator: "in",
            type: "Datetime",
            value: { min: [c.v, c.to].sort()[0], max: [c.v, c.to].sort()[1] },
          }
        : { filter: "filter:tasks:created_at", operator: c.op, type: "Datetime", value: c.v };
  }
}

/** The query as the wire parser builds it (the node tree the engine evaluates). */
export function queryOf(spec: { lines: readonly Line[]; or: boolean }): QueryNode {
  const items = spec.lines.map((l) => ({ ...filterItem(l.root), ...(l.child ? { child_filters: [filterItem(l.child)] } : {}) }));
  return parseQuery({ filters: { conjunction: spec.or ? "or" : "and", items } });
}
