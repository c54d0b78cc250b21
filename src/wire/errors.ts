import type { ParseIssue } from "./issues.js";

/**
 * Thrown by `parseQuery` when a body deviates from the documented shape in any way, including
 * the ways the server would silently ignore or evaluate. `issues` holds every finding; the
 * message lists them one per line as `<path>: expected <expected>, found <found>`.
 */
export class QueryParseError extends TypeError {
  override readonly name = "QueryParseError";
  readonly issues: readonly ParseIssue[];

  constructor(issues: readonly ParseIssue[]) {
    const n = issues.length;
    super(`invalid Data Manager query (${n} issue${n === 1 ? "" : "s"}):\n${issues.map((i) => `  ${i.message}`).join("\n")}`);
    this.issues = Object.freeze([...issues]);
  }
}
