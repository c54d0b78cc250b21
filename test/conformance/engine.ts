/** The semantics engine as a system under test: an answer (ids, or the status it would send). */
import { isDeepStrictEqual } from "node:util";
import { evaluate, evaluateBody, EvaluationError, PreparedDataset, type Evaluation } from "../../src/semantics/index.js";
import type { Dataset } from "../../src/semantics/records.js";
import type { QueryNode } from "../../src/query/nodes.js";
import type { Answer } from "./oracle/outcome.js";

function answer(run: () => Evaluation): Answer {
  try {
    return { status: 200, ids: run().ids };
  } catch (error) {
    if (error instanceof EvaluationError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

/**
 * Cold and indexed: a PreparedDataset builds its indexes (equality lookups, sort orders) the second
 * time a query asks for them, so the second evaluation of the same query takes the indexed paths.
 * Both must give the same answer; the indexed one is judged.
 */
function coldAndIndexed(dataset: Dataset, run: (ds: PreparedDataset) => Evaluation): Answer {
  const ds = new PreparedDataset(dataset);
  const cold = answer(() => run(ds));
  const indexed = answer(() => run(ds));
  if (!isDeepStrictEqual(cold, indexed)) {
    throw new Error(
      `the indexed evaluation differs from the cold one:\ncold:    ${JSON.stringify(cold)}\nindexed: ${JSON.stringify(indexed)}`,
    );
  }
  return indexed;
}

export function engineAnswer(dataset: Dataset, query: QueryNode): Answer {
  return coldAndIndexed(dataset, (ds) => evaluate(ds, query));
}

/**
 * A raw body through the engine's raw-body entry (wire parser, the server's up-front regex check
 * over every item — ignored ones included — then evaluation): the mock's path without HTTP.
 */
export function engineBodyAnswer(dataset: Dataset, body: unknown): Answer {
  return coldAndIndexed(dataset, (ds) => evaluateBody(ds, body));
}

/** The ids of a successful answer, or undefined for an error. */
export const idsOf = (answer: Answer): readonly number[] | undefined => (answer.status === 200 && "ids" in answer ? answer.ids : undefined);
