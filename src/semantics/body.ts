import type { JsonValue } from "../vocabulary/json.js";
import { parseQueryBody, type ParseOptions } from "../wire/parse.js";
import type { PreparedDataset } from "./dataset.js";
import { EvaluationError } from "./errors.js";
import { evaluate, emptyEvaluation, type EvaluateOptions, type Evaluation } from "./evaluate.js";
import { str } from "./python.js";
import type { Dataset } from "./records.js";
import { checkPythonRegex } from "./regex/python-re.js";
import { pydanticValue } from "./values.js";

/**
 * Evaluate a raw request body (or the decoded `query` parameter, or a view's data) the way the
 * server does: parsed by the wire parser, refused where the server refuses it, and then the one
 * check the parsed query cannot carry. The server compiles every `regex` value with Python `re`
 * before filtering, including items it then ignores for lacking the `filter:tasks:` prefix (and
 * their children), so such an item with a bad pattern still empties the result.
 */
export function evaluateBody(
  dataset: Dataset | PreparedDataset,
  body: unknown,
  options: EvaluateOptions & ParseOptions = {},
): Evaluation {
  const parsed = parseQueryBody(body, options.context ? { context: options.context } : {});
  if (parsed.answer || !parsed.query) {
    const cause = parsed.issues.find((i) => i.effect === "rejected" || i.effect === "server-error") ?? parsed.issues[0];
    throw new EvaluationError({
      status: parsed.answer?.status ?? 500,
      detail: parsed.answer?.detail ?? "the body could not be read",
      ...(parsed.answer?.validationErrors ? { validationErrors: parsed.answer.validationErrors } : {}),
      path: cause?.path ?? "body",
      expected: cause?.expected ?? "a Data Manager query body",
      found: cause?.found ?? "a body the server refuses",
    });
  }
  if (invalidRegex(body) !== undefined) return emptyEvaluation(dataset);
  return evaluate(dataset, parsed.query, options);
}

/**
 * The first `regex` value of a body's filter items (kept or ignored, root or child) that Python's
 * `re` would not compile — the server then returns no task at all — or undefined.
 */
export function invalidRegex(body: unknown): { path: string; pattern: string; error: string } | undefined {
  for (const { path, pattern } of regexValues(body)) {
    const check = checkPythonRegex(pattern);
    if (!check.ok) return { path, pattern, error: check.error };
  }
  return undefined;
}

/** Every `regex` value of `filters.items` and their children (plural or legacy singular), as Python's str(). */
function regexValues(body: unknown): { path: string; pattern: string }[] {
  const filters = isObject(body) ? body.filters : undefined;
  const items = isObject(filters) && Array.isArray(filters.items) ? filters.items : [];
  const out: { path: string; pattern: string }[] = [];
  const visit = (item: unknown, path: string) => {
    if (!isObject(item)) return;
    if (item.operator === "regex" && item.value !== null && item.value !== undefined) {
      out.push({ path: `${path}.value`, pattern: str(pydanticValue(item.value as JsonValue, path)) });
    }
  };
  items.forEach((item: unknown, i: number) => {
    visit(item, `filters.items[${i}]`);
    if (!isObject(item)) return;
    const children = Array.isArray(item.child_filters) ? item.child_filters : isObject(item.child_filter) ? [item.child_filter] : [];
    children.forEach((child: unknown, c: number) => visit(child, `filters.items[${i}].child_filters[${c}]`));
  });
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
