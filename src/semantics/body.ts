import type { QueryNode } from "../query/nodes.js";
import type { JsonValue } from "../vocabulary/json.js";
import { refuses } from "../wire/issues.js";
import { parseQueryBody, type ParseOptions } from "../wire/parse.js";
import type { PreparedDataset } from "./dataset.js";
import { EvaluationError } from "./errors.js";
import { evaluate, type EvaluateOptions, type Evaluation } from "./evaluate.js";
import { str } from "../emulation/python.js";
import type { Dataset } from "./records.js";
import { checkPythonRegex } from "../emulation/regex/python-re.js";
import { pydanticValue } from "./values.js";

/**
 * Evaluate a raw request body (or the decoded `query` parameter, or a view's data) the way the
 * server does: parsed by the wire parser, refused where the server refuses it, then evaluated.
 */
export function evaluateBody(dataset: Dataset | PreparedDataset, body: unknown, options: EvaluateOptions & ParseOptions = {}): Evaluation {
  const parsed = parseQueryBody(body, options.context ? { context: options.context } : {});
  if (parsed.answer || !parsed.query) {
    const cause = parsed.issues.find(refuses) ?? parsed.issues[0];
    throw new EvaluationError({
      status: parsed.answer?.status === 400 ? 400 : 500,
      detail: parsed.answer?.detail ?? "the body could not be read",
      ...(parsed.answer?.validationErrors ? { validationErrors: parsed.answer.validationErrors } : {}),
      ...(parsed.answer?.exception ? { exception: parsed.answer.exception } : {}),
      path: cause?.path ?? "body",
      expected: cause?.expected ?? "a Data Manager query body",
      found: cause?.found ?? "a body the server refuses",
    });
  }
  return evaluate(dataset, parsed.query, options);
}

/**
 * The first `regex` value of a query (kept items, their children, or items the server skips) that
 * Python's `re` would not compile — the server then returns no task at all — or undefined. The
 * engine applies the rule itself; this names the culprit (the mock's strict mode refuses it).
 */
export function invalidRegex(query: QueryNode): { path: string; pattern: string; error: string } | undefined {
  const candidates: { path: string; value: JsonValue }[] = [];
  query.filters?.items.forEach((root, r) => {
    const at = `filters.items[${r}]`;
    if (root.operator === "regex") candidates.push({ path: `${at}.value`, value: root.value });
    root.children.forEach((child, c) => {
      if (child.operator === "regex") candidates.push({ path: `${at}.child_filters[${c}].value`, value: child.value });
    });
  });
  for (const [i, value] of (query.filters?.skippedRegex ?? []).entries()) candidates.push({ path: `filters.skippedRegex[${i}]`, value });
  for (const { path, value } of candidates) {
    const pattern = str(pydanticValue(value, path));
    const check = checkPythonRegex(pattern);
    if (!check.ok) return { path, pattern, error: check.error };
  }
  return undefined;
}
