/** The semantics engine as a system under test: an answer (ids, or the status it would send). */
import { evaluate, evaluateBody, EvaluationError } from "../../src/semantics/index.js";
import type { Dataset } from "../../src/semantics/records.js";
import type { QueryNode } from "../../src/query/nodes.js";
import type { Answer } from "./oracle/outcome.js";

export function engineAnswer(dataset: Dataset, query: QueryNode): Answer {
  try {
    return { status: 200, ids: evaluate(dataset, query).ids };
  } catch (error) {
    if (error instanceof EvaluationError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

/**
 * A raw body through the engine's raw-body entry (wire parser, the server's up-front regex check
 * over every item — ignored ones included — then evaluation): the mock's path without HTTP.
 */
export function engineBodyAnswer(dataset: Dataset, body: unknown): Answer {
  try {
    return { status: 200, ids: evaluateBody(dataset, body).ids };
  } catch (error) {
    if (error instanceof EvaluationError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

/** The ids of a successful answer, or undefined for an error. */
export const idsOf = (answer: Answer): readonly number[] | undefined => (answer.status === 200 && "ids" in answer ? answer.ids : undefined);
