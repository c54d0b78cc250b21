/**
 * Retry policy of the official SDK (client-conventions §4): 408, 409, 429 and every 5xx, plus
 * failures to get any response. The server's `Retry-After` (seconds or an HTTP date),
 * `retry-after-ms` or `X-RateLimit-Reset` wins over the exponential backoff; all are capped.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface DelayPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/** Milliseconds to wait before retry number `retry` (0 for the first retry). */
export function retryDelayMs(
  policy: DelayPolicy,
  retry: number,
  headers: Headers | undefined,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  const asked = headers ? serverDelayMs(headers, now) : undefined;
  if (asked !== undefined) return Math.min(asked.ms, policy.maxDelayMs) * (asked.jitter ? 1 + 0.2 * random() : 1);
  const backoff = Math.min(policy.initialDelayMs * 2 ** retry, policy.maxDelayMs);
  return backoff * (0.9 + 0.2 * random());
}

function serverDelayMs(headers: Headers, now: number): { ms: number; jitter: boolean } | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms > 0) return { ms, jitter: false };

  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    // Seconds, or an HTTP date (which always names a weekday or month; Date.parse("-3") is a year).
    const seconds = /^\d+(\.\d+)?$/.test(retryAfter)
      ? Number(retryAfter)
      : /[a-z]/i.test(retryAfter)
        ? (Date.parse(retryAfter) - now) / 1000
        : Number.NaN;
    if (Number.isFinite(seconds) && seconds > 0) return { ms: seconds * 1000, jitter: false };
  }

  const reset = Number(headers.get("x-ratelimit-reset") ?? Number.NaN);
  if (Number.isFinite(reset) && reset * 1000 > now) return { ms: reset * 1000 - now, jitter: true };
  return undefined;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
