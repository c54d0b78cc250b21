import { isPlainObject } from "../vocabulary/json.js";
import type { QueryNode } from "../query/nodes.js";
import { QueryParseError } from "./errors.js";
import type { ParseIssue } from "./issues.js";
import { toConditions } from "./parse-condition.js";
import { has, keyPath } from "./parse-cursor.js";
import { inlineFilters } from "./parse-filters-inline.js";
import { actionFields, checkKeys, type ParseEndpoint } from "./parse-keys.js";
import { viewFilters } from "./parse-filters-view.js";
import { parseOrdering } from "./parse-ordering.js";
import { pyType } from "../emulation/python-json.js";
import { Report, type ServerAnswer } from "./parse-report.js";
import { parseSelectedItems } from "./parse-selected.js";

export type { ServerAnswer } from "./parse-report.js";
export type { ParseEndpoint } from "./parse-keys.js";

/**
 * `inline`: a request body (or the decoded `query` URL parameter), read as `get_prepare_params`
 * and the pydantic `PrepareParams` model read it.
 * `view`: a view's `data` as it is saved (ViewSerializer) and then used: an issue's effect is
 * what the server answers for the view, at save (400s of its serializers) or, for what the
 * serializers let through, whenever the view is used (PrepareParams: 400 for `__` in an ordering
 * key, 500 for shape errors). `data.selectedItems` stands for the view's stored selection.
 */
export type ParseContext = "inline" | "view";

/** Options of `parseQueryBody`. */
export interface ParseOptions {
  readonly context?: ParseContext;
  /**
   * Where an inline body is sent, which decides the top-level keys the server reads:
   * `"tasks"`, the task list's `query` parameter (the selection and `hiddenColumns`); `"actions"`, an
   * action's body (the selection and `view`). Default: either. Every other key is reported as ignored.
   */
  readonly endpoint?: ParseEndpoint;
  /**
   * The action the body is sent to: its own fields (`model_version`…) are read too, and the endpoint
   * is `"actions"`. For an id the vocabulary does not know, any key may be one of its fields, so only
   * near misses of the selection's keys are reported.
   */
  readonly action?: string;
}

/** What `parseQueryBody` found: the query the server evaluates, every issue, and the server's answer when it refuses. */
export interface ParseResult {
  /** What the server evaluates; undefined when a "rejected" or "server-error" issue stops it. */
  readonly query: QueryNode | undefined;
  /**
   * Every deviation from the documented shape, in the order the server meets them: the first
   * "rejected" / "server-error" issue is the one it answers with.
   */
  readonly issues: ParseIssue[];
  /** The server's error answer (status, detail, validation_errors) when it refuses; else undefined. */
  readonly answer: ServerAnswer | undefined;
}

/**
 * Read a Data Manager body the way the server does: `filters`, `ordering`, `selectedItems` and
 * `columnsDisplayType`. Every other top-level key the server does not read where the body goes
 * (`options.endpoint`, `options.action`) is an "ignored" issue: a misspelt key ("did you mean
 * filters?"), the task list's `query` wrapper, `project` or `id`. A view's own keys (title, …) are
 * left alone. Never throws: problems come back as issues.
 */
export function parseQueryBody(input: unknown, options: ParseOptions = {}): ParseResult {
  const context = options.context ?? "inline";
  const report = new Report();
  let body: Readonly<Record<string, unknown>>;
  if (isPlainObject(input)) body = input;
  else if (input === undefined || (context === "view" && input === null)) body = {};
  else {
    if (context === "view") {
      report.pydantic("data", "an object (the view's data)", input, [
        { loc: ["data"], type: "dict_type", msg: "Input should be a valid dictionary", input },
      ]);
    } else {
      report.refuse("crash", "body", "a JSON object", input, `'${pyType(input)}' object has no attribute 'get'`);
    }
    const { issues, answer } = report.finish();
    return { query: undefined, issues, answer };
  }
  if (options.action !== undefined && options.endpoint === "tasks") {
    throw new TypeError("parseQueryBody: options.action names an action's body; options.endpoint \"tasks\" is the task list's query");
  }
  // Keys first: a misspelt "filters" explains everything after it.
  checkKeys(body, report, {
    context,
    endpoint: options.action !== undefined ? "actions" : options.endpoint,
    fields: options.action !== undefined ? actionFields(options.action) : [],
  });
  // The server's order: ordering, selectedItems, filters (PrepareParams' field order).
  const ordering = parseOrdering(body, report, context);
  const selectedItems = parseSelectedItems(body, report, context);
  const filters = context === "view" ? viewFilters(body, report) : inlineFilters(body, report);
  const read = filters ? toConditions(filters.items, report, context) : undefined;
  const columnsDisplayType = parseColumnsDisplayType(body, report);
  const { issues, answer } = report.finish();
  if (report.blocked) return { query: undefined, issues, answer };
  const query: { -readonly [K in keyof QueryNode]: QueryNode[K] } = {};
  if (filters && read) {
    const { conditions, skippedRegex } = read;
    query.filters = Object.freeze({
      conjunction: filters.conjunction,
      items: Object.freeze(conditions),
      ...(skippedRegex.length > 0 ? { skippedRegex: Object.freeze(skippedRegex) } : {}),
    });
  }
  if (ordering) query.ordering = ordering;
  if (selectedItems) query.selectedItems = selectedItems;
  if (columnsDisplayType) query.columnsDisplayType = columnsDisplayType;
  return { query: Object.freeze(query), issues, answer };
}

/**
 * The strict entry for library users: the query when the body has no issue at all (not even one
 * the server would silently accept), else a `QueryParseError` listing every issue.
 */
export function parseQuery(input: unknown, options?: ParseOptions): QueryNode {
  const { query, issues } = parseQueryBody(input, options);
  if (issues.length > 0 || query === undefined) throw new QueryParseError(issues);
  return query;
}

/** Used by the server only to order `data.*` numerically (`"Number"`); other values never match. */
function parseColumnsDisplayType(body: Readonly<Record<string, unknown>>, report: Report): Readonly<Record<string, string>> | undefined {
  if (!has(body, "columnsDisplayType") || body.columnsDisplayType === null) return undefined;
  const raw = body.columnsDisplayType;
  if (!isPlainObject(raw)) {
    report.soft(
      "columnsDisplayType",
      "ignored",
      'an object mapping "tasks:data.<key>" to a type name, e.g. {"tasks:data.score": "Number"}',
      raw,
    );
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === "string") out[key] = value;
    else report.soft(keyPath("columnsDisplayType", key), "ignored", "a type name (string)", value);
  }
  return Object.freeze(out);
}
