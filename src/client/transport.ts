import { ofetch, type $Fetch } from "ofetch";
import type { Auth, Credential } from "./auth.js";
import { ApiError, NetworkError, RequestTimeoutError, UnexpectedResponseError, headersRecord } from "./errors.js";
import { resolveRequestOptions, type RequestOptions, type ResolvedOptions } from "./options.js";
import { isIdempotent, retryDelayMs, shouldRetry, sleep } from "./retry.js";
import type { Secrets } from "./secrets.js";
import { ShapeMismatch, describeFound, type Reader } from "./shape.js";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
/** Arrays become repeated keys (`a=1&a=2`). */
export type QueryValue = string | number | boolean | undefined | readonly (string | number)[];

/** One API call as the resources describe it. */
export interface Call<T> {
  readonly method: Method;
  /** Starts with `/`; appended to the base URL. */
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
  /** Checks and types a 2xx body; without it the body is ignored (deletes). */
  readonly expect?: Reader<T>;
  /** Sent without `Authorization` (the token exchange). */
  readonly anonymous?: boolean;
  /** Token endpoints: a 2xx body never reaches an error, and mismatches are described by shape only. */
  readonly sensitive?: boolean;
  /** A POST that may be repeated safely (the token exchange): retried like a GET. */
  readonly idempotent?: boolean;
}

/** A download: a GET whose 2xx body is a file, handed over as a stream. */
export interface StreamCall {
  readonly method: "GET";
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
}

/** A file answer: its status and headers, and its body not yet read. */
export interface Streamed {
  readonly status: number;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array>;
}

/** JSON calls, and `stream` for files (retried and authenticated alike; the time limit covers the answer's headers). */
export type Send = (<T>(call: Call<T>, options?: RequestOptions) => Promise<T>) & {
  stream(call: StreamCall, options?: RequestOptions): Promise<Streamed>;
};

type Outcome =
  | { readonly kind: "response"; readonly status: number; readonly statusText: string; readonly headers: Headers; readonly data: unknown }
  | { readonly kind: "timeout" }
  | { readonly kind: "network"; readonly error: unknown };

const TIMED_OUT = Symbol("timed out");

/**
 * The request loop: ofetch builds URLs with a query and sends JSON bodies; a call with neither goes
 * to the same fetch directly (ofetch's per-call work, an options merge and a headers copy, buys it
 * nothing; it is most of the client's own cost on a small answer). This adds the credential, a
 * per-attempt time limit, the retry policy (retry.ts), one re-authentication after a 401 for a
 * rejected access token, reads the answer (`read`), and turns every failure into a typed,
 * secret-free error. Timers and the time come from the configured clock.
 */
export function createTransport(config: ResolvedOptions, secrets: Secrets): (auth: Auth | undefined) => Send {
  // Bodies are read by `read`, so ofetch hands the answer over unread.
  const fetcher: $Fetch = ofetch.create(
    { retry: false, ignoreResponseError: true, responseType: "stream" },
    config.fetch ? { fetch: config.fetch } : {},
  );
  const base = config.baseUrl;

  const { clock } = config;

  async function attempt(
    call: Call<unknown>,
    credential: Credential | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    stream: boolean,
  ): Promise<Outcome> {
    const controller = new AbortController();
    const timer = clock.setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const accept = stream ? "*/*" : "application/json";
    const headers: Record<string, string> = credential ? { accept, authorization: `${credential.scheme} ${credential.token}` } : { accept };
    let streaming = false;
    try {
      const url = `${base}${call.path}`;
      const response: Response =
        call.query || call.body !== undefined
          ? await fetcher.raw(url, {
              method: call.method,
              headers,
              signal: controller.signal,
              ...(call.query ? { query: definedOnly(call.query) } : {}),
              ...(call.body !== undefined ? { body: call.body as Record<string, unknown> } : {}),
            })
          : await fetcher.native(url, { method: call.method, headers, signal: controller.signal });
      let data: unknown;
      if (stream && response.ok) {
        streaming = true;
        data = response.body;
      } else if (response.body) data = await read(response);
      return { kind: "response", status: response.status, statusText: response.statusText, headers: response.headers, data };
    } catch (error) {
      if (controller.signal.aborted) {
        if (controller.signal.reason === TIMED_OUT) return { kind: "timeout" };
        throw signal?.reason;
      }
      return { kind: "network", error };
    } finally {
      clock.clearTimeout(timer);
      // A streamed body is still arriving: the caller's signal keeps cancelling it.
      if (!streaming) signal?.removeEventListener("abort", onAbort);
    }
  }

  /** The request loop: one attempt after another until an answer to keep, a final failure, or a stop. */
  async function loop(auth: Auth | undefined, call: Call<unknown>, options: RequestOptions | undefined, stream: boolean) {
    const { timeoutInSeconds, maxRetries, signal } = resolveRequestOptions(config, options);
    const idempotent = call.idempotent === true || isIdempotent(call.method);
    let retries = 0;
    let reauthenticated = false;
    for (;;) {
      signal?.throwIfAborted();
      const credential = call.anonymous || !auth ? undefined : await auth.credential();
      signal?.throwIfAborted();
      const outcome = await attempt(call, credential, timeoutInSeconds * 1000, signal, stream);

      if (outcome.kind === "timeout") throw new RequestTimeoutError(call.method, call.path, timeoutInSeconds);
      if (outcome.kind === "network") {
        if (retries < maxRetries && shouldRetry(idempotent, { networkCode: errorCode(outcome.error) })) {
          await sleep(retryDelayMs(config, retries++, undefined, clock.now()), signal, clock);
          continue;
        }
        throw networkError(call, config.baseUrl, retries + 1, outcome.error, secrets);
      }

      const { status, headers, data } = outcome;
      if (status >= 200 && status < 300) return outcome;
      if (status === 401 && credential?.scheme === "Bearer" && !reauthenticated && saysAccessTokenRejected(data)) {
        // The cached access token was refused (expired early, revoked, clock skew): exchange once more.
        auth?.reject(credential);
        reauthenticated = true;
        continue;
      }
      if (retries < maxRetries && shouldRetry(idempotent, { status })) {
        await sleep(retryDelayMs(config, retries++, headers, clock.now()), signal, clock);
        continue;
      }
      throw new ApiError({
        method: call.method,
        path: call.path,
        statusCode: status,
        headers: headersRecord(headers, secrets),
        body: secrets.scrubValue(data),
        ...(data === undefined || data === "" ? { detail: secrets.scrub(outcome.statusText) || "(no body)" } : {}),
      });
    }
  }

  return (auth) => {
    const send = async <T>(call: Call<T>, options?: RequestOptions): Promise<T> =>
      accept(call, await loop(auth, call as Call<unknown>, options, false), secrets);
    const stream = async (call: StreamCall, options?: RequestOptions): Promise<Streamed> => {
      const { status, headers, data } = await loop(auth, call, options, true);
      return { status, headers, body: data as ReadableStream<Uint8Array> };
    };
    return Object.assign(send, { stream });
  };
}

/**
 * An answer's body: JSON when it parses, else the text (the 404 page, a plain message, an empty
 * body). A `__proto__` key is dropped (as JSON parsers guarding against prototype pollution do): a
 * parsed body is copied into errors, where such a key would set the copy's prototype.
 */
async function read(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return "";
  try {
    return text.includes("__proto__") ? JSON.parse(text, withoutProto) : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

function withoutProto(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

function accept<T>(call: Call<T>, outcome: Extract<Outcome, { kind: "response" }>, secrets: Secrets): T {
  if (!call.expect) return undefined as T;
  try {
    return call.expect(outcome.data, "");
  } catch (error) {
    if (!(error instanceof ShapeMismatch)) throw error;
    const sensitive = call.sensitive === true;
    throw new UnexpectedResponseError(
      {
        method: call.method,
        path: call.path,
        statusCode: outcome.status,
        headers: headersRecord(outcome.headers, secrets),
        body: sensitive ? "[withheld: token endpoint]" : secrets.scrubValue(outcome.data),
      },
      error.where,
      error.expected,
      secrets.scrub(describeFound(error.value, sensitive)),
    );
  }
}

/**
 * Label Studio answers a Bearer token it will not accept with 401 "Authentication credentials were
 * not provided." (its JWT middleware swallows the error,
 * docs/reference/errors.md#authentication-errors); simplejwt itself says "token_not_valid" / "Token
 * is invalid or expired". Other 401s (e.g. "User not found") are final.
 */
function saysAccessTokenRejected(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const { detail, code } = body as { detail?: unknown; code?: unknown };
  if (code === "token_not_valid") return true;
  if (typeof detail !== "string") return false;
  return detail === "Authentication credentials were not provided." || /expired|token (is )?(not valid|invalid)/i.test(detail);
}

function definedOnly(query: Readonly<Record<string, QueryValue>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined) out[key] = value;
  return out;
}

/** The causes of a fetch failure, outermost first (bounded: a cause chain may loop). */
function causes(error: unknown): Error[] {
  const out: Error[] = [];
  for (let current = error; out.length < 6 && current instanceof Error; current = current.cause) out.push(current);
  return out;
}

/** The innermost system error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …), if any. */
function errorCode(error: unknown): string | undefined {
  let code: string | undefined;
  for (const cause of causes(error)) {
    const own = (cause as { code?: unknown }).code;
    if (typeof own === "string") code = own;
  }
  return code;
}

/** The innermost cause carries the useful part (`connect ECONNREFUSED 127.0.0.1:9`, `ENOTFOUND`). */
function networkError(call: Call<unknown>, baseUrl: string, attempts: number, error: unknown, secrets: Secrets): NetworkError {
  let reason = "no response";
  for (const cause of causes(error)) if (cause.message && cause.name !== "FetchError") reason = cause.message;
  const code = errorCode(error);
  if (code && !reason.includes(code)) reason = `${reason} (${code})`;
  return new NetworkError(call.method, `${baseUrl}${call.path}`, attempts, secrets.scrub(reason), code);
}
