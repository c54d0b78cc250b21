import type { QueryNode } from "../query/nodes.js";
import type { JsonValue } from "../vocabulary/json.js";
import { pythonFailure, validationFailure, type ServerError } from "../emulation/error-answer.js";
import { str } from "../emulation/python.js";
import { checkPythonRegex } from "../emulation/regex/python-re.js";
import { refuses, type ParseIssue } from "../wire/issues.js";
import { parseQueryBody, type ParseOptions } from "../wire/parse.js";
import { pydanticValue } from "./values.js";

/**
 * The one path from a raw body (an inline body, the decoded `query` parameter, a view's data) to the
 * query the engine evaluates: the engine's `evaluateBody` and `viewQuery` and the mock's request
 * handling all read through `readQuery`, and each only turns a `QueryProblem` into its own error
 * (`EvaluationError`, the mock's `ServerException`).
 */
export interface ReadQueryOptions extends ParseOptions {
  /**
   * Where the input sits in the request (`data` of a view, `query` for the URL parameter), put before
   * every path of the problem: `data.ordering[0]`. Absent: the request's body, paths as they are.
   */
  readonly at?: string;
  /**
   * The mock's strict mode: every issue the parser reports (also those the server answers normally over)
   * and a regex Python would not compile are a 400 whose `validation_errors` are keyed by path.
   */
  readonly strict?: boolean;
  /** Top-level keys the request reads although the parser does not count them (the list's body `project`): no issue in strict mode. */
  readonly allow?: readonly string[];
}

/** Why a body is not evaluated: the server refuses it, or strict mode refuses what the server would let pass. */
export type ProblemKind = "refused" | "strict" | "invalid-regex";

/** What the named cause of a problem is: where it is (with `at` before it), what was expected there and what was found. */
export interface ProblemCause {
  readonly path: string;
  readonly expected: string;
  readonly found: string;
}

/** A body that is not evaluated: the answer (the server's, or strict mode's 400), the issues behind it, and the named cause. */
export interface QueryProblem {
  readonly kind: ProblemKind;
  readonly answer: ServerError;
  /** "refused": every issue the parser reported; "strict": those strict mode counts; "invalid-regex": none. */
  readonly issues: readonly ParseIssue[];
  readonly cause: ProblemCause;
}

/** The query to evaluate, or the problem to answer with. */
export type QueryReading =
  | { readonly query: QueryNode; readonly problem?: undefined }
  | { readonly query?: undefined; readonly problem: QueryProblem };

/** Read `input` the way the server does (and, with `strict`, the way the mock's strict mode does). */
export function readQuery(input: unknown, options: ReadQueryOptions = {}): QueryReading {
  const { at, strict = false, allow = [], ...parse } = options;
  const parsed = parseQueryBody(input, parse);
  const counted = strict ? parsed.issues.filter((i) => !allow.includes(i.path)) : [];
  const [first] = counted;
  if (first !== undefined) {
    const errors: Record<string, string[]> = {};
    for (const issue of counted) (errors[under(at, issue.path)] ??= []).push(`expected ${issue.expected}, found ${issue.found}`);
    return problem("strict", validationFailure(errors), counted, first, at);
  }
  if (parsed.answer !== undefined || parsed.query === undefined) {
    // The parser answers exactly when an issue refuses the body (its report is then blocked), and that
    // issue comes first; the fallbacks only keep the types whole.
    const cause = parsed.issues.find(refuses) ??
      parsed.issues[0] ?? { path: "", expected: "a Data Manager query body", found: "a body the server refuses" };
    return problem("refused", parsed.answer ?? pythonFailure("Exception", "the query could not be read"), parsed.issues, cause, at);
  }
  // The engine answers an uncompilable regex with no task, silently; strict mode names it.
  const bad = strict ? invalidRegex(parsed.query) : undefined;
  if (bad !== undefined) {
    const cause = { path: bad.path, expected: "a pattern Python's re compiles", found: `${JSON.stringify(bad.pattern)} (${bad.error})` };
    const answer = validationFailure({
      [under(at, bad.path)]: [`expected ${cause.expected}, found ${cause.found}: the server would return no task`],
    });
    return problem("invalid-regex", answer, [], cause, at);
  }
  return { query: parsed.query };
}

/** A path inside the input, as a path in the request. */
const under = (at: string | undefined, path: string): string => (at === undefined ? path : path === "" ? at : `${at}.${path}`);

function problem(
  kind: ProblemKind,
  answer: ServerError,
  issues: readonly ParseIssue[],
  cause: ProblemCause,
  at: string | undefined,
): QueryReading {
  const path = cause.path === "" && at === undefined ? "body" : under(at, cause.path);
  return { problem: { kind, answer, issues, cause: { path, expected: cause.expected, found: cause.found } } };
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
