import { ApiError, ClientConfigError, UnexpectedResponseError } from "./errors.js";
import type { RequestOptions } from "./options.js";
import { anything } from "./shape.js";
import type { Send } from "./transport.js";

/**
 * Whether a release reads a filter line's `child_filters`: 1.23 and later do; earlier ones read only the singular
 * `child_filter` (data_manager/prepare_params.py `Filter.child_filter`) and drop the plural key without a word.
 * Undefined: the text is no release number (e.g. "develop").
 */
export function readsChildFilters(release: string): boolean | undefined {
  const match = /^(\d+)\.(\d+)/.exec(release);
  if (!match) return undefined;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 1 || (major === 1 && minor >= 23);
}

/** The lines of a body's `filters` (as sent) that hold `child_filters`, with how many conditions each holds there. */
export function linesWithChildFilters(filters: unknown): { index: number; children: number }[] {
  const items = (filters as { items?: unknown } | null | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown, index) => {
    const children = (item as { child_filters?: unknown } | null)?.child_filters;
    return Array.isArray(children) && children.length > 0 ? [{ index, children: children.length }] : [];
  });
}

/** The refusal's fix in the builder's words (the CLI says `--where`). */
export const OWN_LINE = ".and(column)";

/** What the client knows of the server's release: a string, or null when the server answered without one. */
export type Release = string | null;

/**
 * Refuses, before sending, a body whose `filters` would reach a server that drops `child_filters` (before 1.23):
 * the server would select more tasks than the selection. The error names the line, `filters.items[i]`.
 */
export type ChildFiltersGuard = (filters: unknown, options?: RequestOptions) => Promise<void>;

/**
 * One guard per client. The release is read once (`GET /api/version/`, no credentials: core/views.py version_page)
 * and only when a body holds `child_filters`. A server that answers without a release number (404, HTML, "develop")
 * is trusted to read the key; a server that does not answer at all (network error, time limit) leaves it unknown:
 * the body is refused and the next call asks again.
 */
export function childFiltersGuard(anonymous: Send): ChildFiltersGuard {
  let known: Promise<Release> | undefined;
  const release = (options?: RequestOptions): Promise<Release> => {
    known ??= readRelease(anonymous, options).catch((error: unknown) => {
      known = undefined;
      throw error;
    });
    return known;
  };
  return async (filters, options) => {
    const [line] = linesWithChildFilters(filters);
    if (line === undefined) return;
    const at = `filters.items[${line.index}]`;
    let found: Release;
    try {
      found = await release(options);
    } catch (error) {
      throw new ClientConfigError(
        at,
        "a server whose release (GET /api/version/) says it reads child_filters (1.23 or later)",
        `no answer (${(error as Error).message})`,
        "not sent: a server before 1.23 would drop the line's child_filters and select more tasks; try again",
      );
    }
    if (found === null || readsChildFilters(found) !== false) return;
    throw new ClientConfigError(
      at,
      "at most one child condition (sent as child_filter) on this server",
      `${line.children} in child_filters, and this server (Label Studio ${found}) reads only child_filter: it drops ` +
        "child_filters without a word and would select more tasks than the selection (an action would act on them)",
      `not sent. In an AND set write each child as its own line, ${OWN_LINE}: the same tasks on every server (unless two ` +
        "of the line's conditions test annotation or prediction rows, which one line holds to the same row); an OR set " +
        "of lines with several children has no form a server before 1.23 reads",
    );
  };
}

/** The `release` of `GET /api/version/`; null when the server answers without one. Network failures throw. */
async function readRelease(anonymous: Send, options?: RequestOptions): Promise<Release> {
  try {
    const body = await anonymous({ method: "GET", path: "/api/version/", expect: anything, anonymous: true }, options);
    const release = (body as Record<string, unknown> | null)?.["release"];
    return typeof release === "string" ? release : null;
  } catch (error) {
    // An answer that is no version (a 404 page, a proxy's HTML): the server said something, just not its release.
    // A 5xx after the retries is no answer.
    if (error instanceof UnexpectedResponseError || (error instanceof ApiError && error.statusCode < 500)) return null;
    throw error;
  }
}
