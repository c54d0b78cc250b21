/**
 * A fused scan answers as the closures do (issue #25). A one-off `evaluate(records, query)` whose
 * filter has conditions a generated loop reads inline (fused.ts) answers what the same evaluation
 * answers with generated scans turned off (the closures, one call per task and condition), and what
 * a dataset prepared the usual way answers: on a project's tasks in id order (the scan checks them
 * on the way) and on records holding another project's tasks in any order (the check fails and the
 * evaluation starts again).
 */
import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import { evaluate, EvaluationError, PreparedDataset } from "../../src/semantics/index.js";
import type { QueryNode } from "../../src/query/nodes.js";
import type { Dataset } from "../../src/semantics/records.js";
import { useFusedScans } from "../../src/semantics/fused.js";
import { datasetArb, PROJECT } from "./generators/datasets.js";
import { queryArb, queryOf } from "./generators/lookup-queries.js";
import { datasetSnippet } from "./format.js";
import { check, timeLimit } from "./settings.js";

type Outcome = { ids: readonly number[]; totals: unknown } | { status: number; detail: unknown };

function outcome(dataset: Dataset | PreparedDataset, query: QueryNode): Outcome {
  try {
    const e = evaluate(dataset, query);
    return { ids: e.ids, totals: e.totals() };
  } catch (error) {
    if (error instanceof EvaluationError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

/** The project's tasks alone, ascending by id: the records a fused scan takes as they are. */
const ownTasks = (d: Dataset): Dataset => ({
  ...d,
  tasks: d.tasks.filter((t) => t.project === PROJECT).sort((a, b) => a.id - b.id),
});

afterEach(() => useFusedScans(true));

describe("a fused scan answers as the closures", () => {
  test(
    "one-off evaluations: fused = closures = a prepared dataset, on the project's tasks in order and on mixed records",
    async () => {
      await check(
        fc.property(datasetArb({ maxTasks: 14 }), queryArb, (dataset, spec) => {
          const query = queryOf(spec);
          for (const records of [ownTasks(dataset), dataset]) {
            useFusedScans(true);
            const fused = outcome(records, query);
            useFusedScans(false);
            expect(fused, "fused vs closures").toEqual(outcome(records, query));
            expect(fused, "fused vs prepared").toEqual(outcome(new PreparedDataset(records), query));
          }
        }),
        { runs: 300 },
        (dataset, spec) => `dataset: ${datasetSnippet(dataset)}\nquery: ${JSON.stringify(spec)}`,
      );
    },
    timeLimit(120_000),
  );
});
