import type { QueryBody } from "../../query/nodes.js";
import { describeValue } from "../../vocabulary/json.js";
import { ClientConfigError } from "../errors.js";
import type { QueryInput } from "../types.js";
import { parseQueryBody, type ParseOptions } from "../../wire/parse.js";
import { keyPath } from "../../wire/parse-cursor.js";

/** Ids go into paths: reject anything but a positive integer before a request is made. */
export function checkId(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new ClientConfigError(field, "a positive integer id", describeValue(value));
  }
  return value;
}

export function checkObject(field: string, value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ClientConfigError(field, "an object", describeValue(value));
  }
}

/**
 * A plain body's first top-level key the server does not read where it goes (the parser's
 * judgement, `read`): refused, since a misspelt `filters` or a `query` wrapper selects every task.
 * The rest of the body is the caller's to send as it is (a test may want the server's answer to it).
 */
export function checkReadKeys(field: string, body: object, read: ParseOptions): void {
  // project and id: the server reads them from the URL, where the client puts them anyway (the SDK sends project in the body too).
  const top = new Map(
    Object.keys(body)
      .filter((key) => key !== "project" && key !== "id")
      .map((key) => [keyPath("", key), key]),
  );
  const issue = parseQueryBody(body, read).issues.find((i) => i.effect === "ignored" && top.has(i.path));
  if (issue !== undefined) throw new ClientConfigError(`${field}.${top.get(issue.path)}`, issue.expected, issue.found);
}

/** A selection (its `toJSON()`) or a plain body, as the documented body; a plain body's keys checked for `read`. */
export function queryBody(field: string, query: QueryInput, read: ParseOptions): QueryBody {
  if (typeof query !== "object" || query === null || Array.isArray(query)) {
    throw new ClientConfigError(field, "a query body { filters?, ordering?, selectedItems? } or a selection", describeValue(query));
  }
  const selection = "toJSON" in query && typeof query.toJSON === "function";
  const body = selection ? query.toJSON() : (query as QueryBody);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ClientConfigError(`${field}.toJSON()`, "a query body object", describeValue(body));
  }
  if (!selection) checkReadKeys(field, body, read);
  return body;
}

/** The `project`/`view` a selection carries, to catch a query meant for another project or view. */
export function boundTo(query: QueryInput | undefined): { project?: number; view?: number } {
  if (typeof query !== "object" || query === null || !("toJSON" in query)) return {};
  const { project, view } = query as { project?: unknown; view?: unknown };
  return {
    ...(typeof project === "number" ? { project } : {}),
    ...(typeof view === "number" ? { view } : {}),
  };
}
