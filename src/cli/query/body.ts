import type { ParseOptions } from "../../wire/parse.js";
import { QueryParseError } from "../../wire/errors.js";
import type { JsonValue } from "../../vocabulary/json.js";
import { selection } from "../../selection.js";
import { CliUsageError } from "../errors.js";
import { isParams, readArgument, type Params } from "../params.js";
import type { DynamicSelection } from "./builder.js";

/**
 * A selection given as a body: `--query <json|@file|->`, or selection keys passed as parameters
 * (`-p filters=…`, `--body @body.json`). Either way it is replayed through `selection.from`, so the
 * parser's findings and the builder's rules apply before anything is sent, and it is sent where the
 * server reads it (the task list's `query` parameter, an action's body, a view's data).
 */

/**
 * The parameter names that carry a selection: the body's own keys, the Python SDK's `selected_items`
 * (its client sends it as selectedItems) and the SDK's `query` (the task list's JSON parameter).
 */
export const SELECTION_PARAMS = ["filters", "ordering", "selectedItems", "selected_items", "columnsDisplayType", "query"] as const;

/** Where a body came from, for messages: `--query`, `--param filters`, `--body`. */
export interface BodySource {
  readonly flag: string;
  /** JSON text (`--query`), `-` for stdin, or a value already read. */
  readonly value: string | Params;
}

/** Reads `--query`'s text: JSON, `@file`, or `-` for stdin. */
export async function readBodyText(text: string, readStdin: () => Promise<string>): Promise<unknown> {
  const raw = text === "-" ? await readStdin() : readArgument(text, "--query");
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw new CliUsageError(`--query: not JSON (${(error as Error).message})`);
  }
}

/**
 * Takes the selection keys out of an SDK-style parameter set: `{filters, ordering, selectedItems}`
 * as the body they form (`selected_items` spelt as the wire spells it, a `query` parameter's JSON
 * as its own body), and the rest of the parameters. Undefined body when there is none.
 */
export function selectionParams(params: Params): { body: Params | undefined; flag: string; rest: Params } {
  const rest: Params = { ...params };
  const body: Params = {};
  const given: string[] = [];
  for (const key of SELECTION_PARAMS) {
    const value = rest[key];
    if (value === undefined) continue;
    delete rest[key];
    given.push(key);
    if (key === "query") {
      const inner = typeof value === "string" ? parseJson(value, "--param query") : value;
      if (!isParams(inner))
        throw new CliUsageError(`--param query: expected a JSON object (the task list's query), found ${JSON.stringify(value)}`);
      Object.assign(body, inner);
    } else body[key === "selected_items" ? "selectedItems" : key] = value;
  }
  if (given.includes("selected_items") && given.includes("selectedItems")) {
    throw new CliUsageError(
      "--param selected_items and selectedItems: give the selection once (selectedItems is the key the server reads)",
    );
  }
  return { body: given.length === 0 ? undefined : body, flag: given.map((k) => `--param ${k}`).join(", "), rest };
}

function parseJson(text: string, flag: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new CliUsageError(`${flag}: not JSON (${(error as Error).message})`);
  }
}

/** A positive integer view id of a body's `view` key (number or digit string, as the server's int_from_request reads it). */
export function viewOfBody(value: unknown, flag: string): number {
  const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) {
    throw new CliUsageError(`${flag}: "view" must be a positive integer view id, found ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * The selection a body stands for, read as `read` says (where the body goes): every finding of the
 * parser refuses it, in one message that names the flag and each finding.
 */
export function fromBody(project: number, body: unknown, flag: string, read: ParseOptions): DynamicSelection {
  try {
    return selection.from(project, body, read);
  } catch (error) {
    if (!(error instanceof QueryParseError)) throw error;
    const lines = error.issues.map((i) => `  ${i.message}`);
    throw new CliUsageError(
      `${flag}: the server would not read this body as written, so nothing was sent:\n${lines.join("\n")}\n` +
        "(dmq explain --query '<body>' says what the server does with it)",
    );
  }
}
