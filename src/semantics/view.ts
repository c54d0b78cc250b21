import type { QueryNode } from "../query/nodes.js";
import { refuses } from "../wire/issues.js";
import { parseQueryBody } from "../wire/parse.js";
import { EvaluationError } from "./errors.js";

/**
 * The query a saved view stands for (docs/reference/views.md#a-view-at-query-time): its stored
 * `filters` (read back the way the server reads them, legacy user filters rewritten), `ordering`,
 * `selectedItems` and `columnsDisplayType`, from the view's `data`. Throws EvaluationError with the
 * server's answer when the stored data would make the server refuse the view.
 */
export function viewQuery(data: unknown): QueryNode {
  const parsed = parseQueryBody(data, { context: "view" });
  if (parsed.answer) {
    const cause = parsed.issues.find(refuses) ?? parsed.issues[0];
    throw new EvaluationError({
      status: parsed.answer.status === 400 ? 400 : 500,
      detail: parsed.answer.detail,
      ...(parsed.answer.validationErrors ? { validationErrors: parsed.answer.validationErrors } : {}),
      ...(parsed.answer.exception ? { exception: parsed.answer.exception } : {}),
      path: cause ? `data.${cause.path}` : "data",
      expected: cause?.expected ?? "a view the server can use",
      found: cause?.found ?? "view data the server refuses",
    });
  }
  return parsed.query ?? {};
}
