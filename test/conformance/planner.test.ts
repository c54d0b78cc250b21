/**
 * The planner answers as a scan does (issue #25). A query whose lines are lookups an index answers —
 * equalities on the id, inner_id, a data key (as JSON or cast to a number), number ranges, `annotators
 * contains` (the tasks by their annotations' authors), each maybe with a child filter — combined by AND
 * or OR, evaluated on a dataset that keeps its indexes (the third evaluation: the second asks for them,
 * the third reads them), answers what a first evaluation on a fresh dataset answers (no index: one
 * test per task). A dataset that follows writes after its indexes were built answers alike too.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PreparedDataset } from "../../src/semantics/index.js";
import type { QueryNode } from "../../src/query/nodes.js";
import { parseQuery } from "../../src/wire/parse.js";
import type { RecordChange } from "../../src/semantics/changes.js";
import type { AnnotationRecord, Dataset } from "../../src/semantics/records.js";
import { datasetArb, PROJECT } from "./generators/datasets.js";
import * as pools from "./generators/pools.js";
import { datasetSnippet } from "./format.js";
import { check, timeLimit } from "./settings.js";
import { answer } from "./generators/kept-queries.js";

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
  | { readonly k: "annotators"; readonly users: readonly number[] };

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
);
const lineArb: fc.Arbitrary<Line> = fc.record({ root: condArb, child: fc.option(condArb, { nil: undefined }) });
const queryArb = fc.record({ lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }), or: fc.boolean() });

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
  }
}

/** The query as the wire parser builds it (the node tree the engine evaluates). */
function queryOf(spec: { lines: readonly Line[]; or: boolean }): QueryNode {
  const items = spec.lines.map((l) => ({ ...filterItem(l.root), ...(l.child ? { child_filters: [filterItem(l.child)] } : {}) }));
  return parseQuery({ filters: { conjunction: spec.or ? "or" : "and", items } });
}

/** A few annotations moved between tasks and re-authored: the row index must follow. */
function reauthor(dataset: Dataset, seed: number): { next: Dataset; changes: RecordChange[] } {
  const annotations = [...(dataset.annotations ?? [])];
  const changes: RecordChange[] = [];
  const tasks = dataset.tasks.filter((t) => t.project === PROJECT);
  for (let k = 0; k < annotations.length && tasks.length > 0; k += 2) {
    const before = annotations[k] as AnnotationRecord;
    if (before.project !== PROJECT) continue;
    const task = tasks[(seed + k) % tasks.length]?.id as number;
    const after: AnnotationRecord = { ...before, task, completed_by: pools.userIds[(seed + k) % pools.userIds.length] as number };
    annotations[k] = after;
    changes.push({ kind: "annotations", before, after });
  }
  return { next: { ...dataset, annotations }, changes };
}

describe("the planner answers as a scan", () => {
  test(
    "indexed lookups (AND / OR, children, rows by author) = one test per task, before and after writes",
    async () => {
      await check(
        fc.property(datasetArb({ maxTasks: 14 }), queryArb, fc.nat(7), (dataset, spec, seed) => {
          const query = queryOf(spec);
          const planned = new PreparedDataset(dataset);
          answer(planned, query);
          answer(planned, query);
          expect(answer(planned, query), "with indexes").toEqual(answer(new PreparedDataset(dataset), query));
          const { next, changes } = reauthor(dataset, seed);
          planned.apply(changes);
          expect(answer(planned, query), "indexes after writes").toEqual(answer(new PreparedDataset(next), query));
        }),
        { runs: 300 },
        (dataset, spec, seed) => `dataset: ${datasetSnippet(dataset)}\nquery: ${JSON.stringify(spec)}\nseed: ${seed}`,
      );
    },
    timeLimit(120_000),
  );
});
