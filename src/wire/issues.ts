import { match } from "ts-pattern";

/**
 * What the parser reports about a body. Each issue says where (`filters.items[2].value`), what was
 * expected and what was found, and how the real server treats that input — so the mock can be
 * faithful (answer like the server) or strict (turn every issue into a 400).
 */
export type IssueEffect =
  /** The server drops it without a word (e.g. a filter without the `filter:tasks:` prefix). */
  | "ignored"
  /** The server evaluates it, maybe surprisingly (unknown operator -> equal, a non-standard datetime). */
  | "evaluated"
  /** The server answers 400 (DRF ValidationError), e.g. `__` traversal in a column. */
  | "rejected"
  /** The server answers 500 (pydantic ValidationError, DataManagerException), e.g. a filter without `conjunction`. */
  | "server-error";

/** One deviation from the documented body, with what the server does about it. */
export interface ParseIssue {
  /** Path in the documented body, e.g. `filters.items[2].value` or `selectedItems.included[0]`. */
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  readonly effect: IssueEffect;
  /** For "rejected" and "server-error": the server's `detail` text (or the closest we know). */
  readonly serverDetail?: string;
  /** One line: `<path>: expected <expected>, found <found>`. */
  readonly message: string;
}

/** Whether the server refuses the body over this issue (a 400 or a 500) rather than answering normally. */
export function refuses(issue: ParseIssue): boolean {
  return match(issue.effect)
    .with("ignored", "evaluated", () => false)
    .with("rejected", "server-error", () => true)
    .exhaustive();
}
