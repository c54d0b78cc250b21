import { isPlainObject } from "../src/vocabulary/json.js";
import type { QueryNode } from "../src/query/nodes.js";
import type { ProjectRecord } from "../src/contract/records.js";
import { readQuery } from "../src/semantics/read-query.js";
import type { ParseOptions } from "../src/wire/parse.js";
import { pythonExceptionOrStrict, validationError } from "./errors.js";
import { PyException, ServerException } from "../src/emulation/exceptions.js";
import { pyUnquote } from "../src/emulation/query-dict.js";
import { ujsonLoads } from "../src/emulation/ujson.js";
import { bodyDict, intFromData, intFromQuery, param, type MockContext, type MockRequest } from "./http.js";
import { viewOr404 } from "./routes/lookup.js";
import type { ViewRecord } from "../src/contract/state.js";

/**
 * The server's `get_prepare_params` (`data_manager/functions.py`,
 * docs/reference/request.md#where-the-query-comes-from): where filters, ordering and the
 * selection come from. A `view` (query string, else body) wins and its stored query is used;
 * otherwise the `query` URL parameter (JSON, URL-encoded once more) or else the body. The parser
 * reports how the server treats each deviation; faithful mode answers like the server, strict mode
 * refuses every deviation with a 400 naming its path.
 */
export interface Prepared {
  readonly query: QueryNode;
  readonly view: ViewRecord | undefined;
  /** The object the query was read from (body, decoded `query` parameter, or the view's data). */
  readonly data: Readonly<Record<string, unknown>>;
}

/** Keys of a body that are part of the query (the rest are action fields or ignored). */
export const QUERY_KEYS = ["filters", "ordering", "selectedItems", "columnsDisplayType"] as const;

/** Which request an inline body belongs to: the keys it reads (parse options), and keys strict mode lets pass. */
export interface Reads {
  readonly options: ParseOptions;
  /** Top-level keys this request reads although the parser does not count them (the list's body `project`), or tolerated. */
  readonly allow?: readonly string[];
}

/**
 * The query to evaluate, or the problem to answer with (`readQuery`, the engine's own reader; strict mode
 * refuses every issue and an uncompilable regex). `at`: where the input sits, named in the answer's paths.
 */
export function settle(
  ctx: MockContext,
  input: unknown,
  context: "inline" | "view",
  at?: string,
  reads: Reads = { options: {} },
): QueryNode {
  const read = readQuery(input, {
    ...reads.options,
    context,
    ...(at === undefined ? {} : { at }),
    strict: ctx.strict,
    ...(reads.allow ? { allow: reads.allow } : {}),
  });
  if (read.problem) throw new ServerException(read.problem.answer);
  return read.query;
}

/** The query a saved view stands for (its filters, ordering, stored selection, display types). */
export function viewQuery(ctx: MockContext, view: ViewRecord): QueryNode {
  return settle(ctx, view.data, "view", `view ${view.id}: data`);
}

/** The view id of a request: `?view=`, else the body's `view` (0 = none). */
export function viewIdOf(req: MockRequest, ctx: MockContext): number {
  return intFromQuery(req.query, "view", 0) || intFromData(bodyDict(req, ctx), "view", 0);
}

/** Keys of the `query` URL parameter's object (none when it is absent or not a JSON object). */
function queryParamKeys(req: MockRequest): string[] {
  const raw = param(req.query, "query");
  if (raw === undefined) return [];
  try {
    const data = ujsonLoads(pyUnquote(raw));
    return isPlainObject(data) ? Object.keys(data) : [];
  } catch {
    return [];
  }
}

/**
 * The body is read only where `get_prepare_params` reads `request.data`: for `view` when the query string
 * has none, and for the query when neither a view nor a `query` parameter is given. Strict mode reads it
 * to name what the server ignores.
 */
export function prepareParams(req: MockRequest, ctx: MockContext, project: ProjectRecord, action?: string): Prepared {
  const viewId = viewIdOf(req, ctx);
  if (viewId > 0) {
    const view = viewOr404(ctx, viewId);
    if (view.project !== project.id) {
      throw pythonExceptionOrStrict(
        ctx,
        "DataManagerException",
        "Project and View mismatch",
        "view",
        `expected a view of project ${project.id}, found view ${view.id} of project ${view.project}`,
      );
    }
    if (ctx.strict) {
      const fromParam = queryParamKeys(req);
      const body = bodyDict(req, ctx);
      const ignored = QUERY_KEYS.filter((k) => k in body || fromParam.includes(k));
      if (ignored.length > 0) {
        const errors: Record<string, string[]> = {};
        for (const key of ignored)
          errors[key] = [`nothing: the server ignores ${key} when a view is given (view ${view.id} decides the selection)`];
        throw validationError(errors);
      }
    }
    return { query: viewQuery(ctx, view), view, data: view.data };
  }
  const raw = param(req.query, "query");
  if (raw !== undefined) {
    // `json.loads(unquote(request.GET['query']))` with ujson: its error text is the 500's detail.
    let data: unknown;
    try {
      data = ujsonLoads(pyUnquote(raw));
    } catch (error) {
      if (!(error instanceof PyException)) throw error;
      throw pythonExceptionOrStrict(
        ctx,
        error.pyClass,
        error.message,
        "query",
        `expected URL-encoded JSON, found text ujson refuses (${error.message})`,
      );
    }
    if (ctx.strict) {
      const body = bodyDict(req, ctx);
      const shadowed = QUERY_KEYS.filter((k) => k in body);
      if (shadowed.length > 0)
        throw validationError(
          Object.fromEntries(shadowed.map((k) => [k, [`nothing: the server ignores the body's ${k} when the query parameter is given`]])),
        );
    }
    // The parameter's object: never the view (read from the URL or the body) nor an action's fields.
    const reads: Reads = { options: { endpoint: "tasks" } };
    return { query: settle(ctx, data, "inline", "query", reads), view: undefined, data: isPlainObject(data) ? data : {} };
  }
  const body = bodyDict(req, ctx);
  // The task list reads `project` and `view` from its body as well (int_from_request(request.data, …));
  // an action's body carries its fields, and the official SDK's legacy client sends `project` there too.
  const reads: Reads =
    action === undefined ? { options: { endpoint: "tasks" }, allow: ["project", "view"] } : { options: { action }, allow: ["project"] };
  return { query: settle(ctx, body, "inline", undefined, reads), view: undefined, data: body };
}
