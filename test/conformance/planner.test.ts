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
import type { RecordChange } from "../../src/semantics/changes.js";
import type { AnnotationRecord, Dataset } from "../../src/semantics/records.js";
import { datasetArb, PROJECT } from "./generators/datasets.js";
import * as pools from "./generators/pools.js";
import { datasetSnippet } from "./format.js";
import { check, timeLimit } from "./settings.js";
import { answer } from "./generators/kept-queries.js";
import { queryArb, queryOf } from "./generators/lookup-queries.js";

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
