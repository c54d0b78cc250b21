import type { Clock } from "../vocabulary/clock.js";

/**
 * When a failed request is sent again. Requests that may be repeated safely (GET, PUT, DELETE, and
 * calls marked idempotent such as the token exchange) keep the official SDK's policy
 * (`core/http_client.py` `_should_retry`): 408, 409, 429 and every 5xx, and failures to get any
 * response. A POST or PATCH (a create, an action) is sent again only when the server certainly did
 * not act on it: 429 (refused before any work), 503 (not served), or a connection that failed
 * before the request went out. The server's `Retry-After` (seconds or an HTTP date),
 * `retry-after-ms` or `X-RateLimit-Reset` wins over the exponential backoff; all are capped.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * Error codes of connections that failed before any byte of the request was sent: refused, no
 * route, a name that does not resolve, a connect timeout. A reset or a closed socket after that
 * may have reached a server that acted.
 */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export type Failure = { readonly status: number } | { readonly networkCode: string | undefined };

export function shouldRetry(idempotent: boolean, failure: Failure): boolean {
  if ("status" in failure) return idempotent ? isRetryableStatus(failure.status) : failure.status === 429 || failure.status === 503;
  return idempotent || (failure.networkCode !== undefined && NOT_SENT_CODES.has(failure.networkCode));
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
  now: number,
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

/** Resolves after `ms` on `clock`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, clock: Clock): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
