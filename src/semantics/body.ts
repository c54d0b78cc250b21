import type { QueryNode } from "../query/nodes.js";
import type { ParseOptions } from "../wire/parse.js";
import type { PreparedDataset } from "./dataset.js";
import { EvaluationError } from "./errors.js";
import { evaluate, type EvaluateOptions, type Evaluation } from "./evaluate.js";
import { readQuery, type QueryProblem } from "./read-query.js";
import type { Dataset } from "./records.js";

/**
 * Evaluate a raw request body (or the decoded `query` parameter, or a view's data) the way the
 * server does: parsed by the wire parser, refused where the server refuses it, then evaluated.
 */
export function evaluateBody(dataset: Dataset | PreparedDataset, body: unknown, options: EvaluateOptions & ParseOptions = {}): Evaluation {
  const read = readQuery(body, options.context ? { context: options.context } : {});
  if (read.problem) throw refusal(read.problem);
  return evaluate(dataset, read.query, options);
}

/**
 * The query a saved view stands for (docs/reference/views.md#a-view-at-query-time): its stored
 * `filters` (read back the way the server reads them, legacy user filters rewritten), `ordering`,
 * `selectedItems` and `columnsDisplayType`, from the view's `data`. Throws EvaluationError with the
 * server's answer when the stored data would make the server refuse the view.
 */
export function viewQuery(data: unknown): QueryNode {
  const read = readQuery(data, { context: "view", at: "data" });
  if (read.problem) throw refusal(read.problem);
  return read.query;
}

/** The engine's error for a body it does not evaluate: the server's answer and the named cause. */
function refusal({ answer, cause }: QueryProblem): EvaluationError {
  return new EvaluationError({
    status: answer.status === 400 ? 400 : 500,
    detail: answer.detail,
    ...(answer.validationErrors ? { validationErrors: answer.validationErrors } : {}),
    ...(answer.exception ? { exception: answer.exception } : {}),
    ...cause,
  });
}
