import type { QueryBody } from "../../query/nodes.js";
import { describeValue } from "../../vocabulary/json.js";
import { ClientConfigError } from "../errors.js";
import type { QueryInput } from "../types.js";

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

/** A selection (its `toJSON()`) or a plain body, as the documented body. */
export function queryBody(field: string, query: QueryInput): QueryBody {
  if (typeof query !== "object" || query === null || Array.isArray(query)) {
    throw new ClientConfigError(field, "a query body { filters?, ordering?, selectedItems? } or a selection", describeValue(query));
  }
  const body = "toJSON" in query && typeof query.toJSON === "function" ? query.toJSON() : (query as QueryBody);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ClientConfigError(`${field}.toJSON()`, "a query body object", describeValue(body));
  }
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
