/**
 * What a server's release says about how it reads a body, for the refusals that depend on it. `GET /api/version/`
 * needs no credentials (core/views.py version_page).
 */

/** The server's `release` (e.g. "1.22.0.dev0"), or undefined when it does not say (an old server, a proxy, no answer). */
export async function releaseOf(baseUrl: string, timeoutInSeconds: number): Promise<string | undefined> {
  try {
    const answer = await fetch(`${baseUrl}/api/version/`, { signal: AbortSignal.timeout(timeoutInSeconds * 1000) });
    if (!answer.ok) return undefined;
    const release = ((await answer.json()) as Record<string, unknown> | null)?.["release"];
    return typeof release === "string" ? release : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a release reads a filter line's `child_filters`: 1.23 and later do; earlier ones read only the singular
 * `child_filter` (data_manager/prepare_params.py Filter) and drop the plural key without a word. Undefined: unknown.
 */
export function readsChildFilters(release: string): boolean | undefined {
  const match = /^(\d+)\.(\d+)/.exec(release);
  if (!match) return undefined;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 1 || (major === 1 && minor >= 23);
}
