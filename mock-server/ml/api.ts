import { systemClock, type Clock } from "../../src/vocabulary/clock.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import type { MLBackendRecord } from "../../src/contract/records.js";

/**
 * The server's client for a model server (label_studio/ml/api_connector.py `MLApi`): JSON over HTTP to
 * `<url>/<endpoint>`, and every outcome as an `MLApiResult` — an error carries the text the server would
 * store (`error_message`) and the status (0 when no answer came). Endpoints, methods and time limits are
 * the server's: `GET health` (1 s), `POST setup` (3 s), `POST predict` (100 s), `GET versions` (3 s),
 * `POST webhook` (training, 100 s). Like the server's `requests` session (`HTTPAdapter(max_retries=2)`:
 * urllib3's `Retry(2, read=False)`, no backoff), a call that cannot connect (refused, unknown host) is tried
 * twice more at once; one that got an answer, or timed out reading it, is not. Time limits run on the
 * mock's clock, so a test can hold a model server past one in virtual time.
 */
export interface MLApiResult {
  readonly url: string;
  readonly request: JsonValue;
  /** The decoded answer; `{error}` for an error. */
  readonly response: JsonValue;
  readonly status: number;
  readonly error: string | undefined;
}

export type Endpoint = "health" | "setup" | "predict" | "versions" | "webhook";

const TIMEOUT_SECONDS: Readonly<Record<Endpoint, number>> = { health: 1, setup: 3, predict: 100, versions: 3, webhook: 100 };
const METHOD: Readonly<Record<Endpoint, "GET" | "POST">> = {
  health: "GET",
  setup: "POST",
  predict: "POST",
  versions: "GET",
  webhook: "POST",
};

/** `MLApi._get_url`: the endpoint joined to the URL with one slash (urljoin). */
export function endpointUrl(base: string, endpoint: Endpoint): string {
  return new URL(endpoint, base.endsWith("/") ? base : `${base}/`).toString();
}

/** How `requests` words an error (what the server stores as `error_message`). */
function failure(url: string, error: unknown): string {
  const { pathname, hostname, port, protocol } = new URL(url);
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as { name?: string }).name;
  const pool = `${protocol === "https:" ? "HTTPS" : "HTTP"}ConnectionPool(host='${hostname}', port=${port || (protocol === "https:" ? 443 : 80)})`;
  if (cause === "ECONNREFUSED") {
    return `${pool}: Max retries exceeded with url: ${pathname} (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object>: Failed to establish a new connection: [Errno 111] Connection refused'))`;
  }
  if (cause === "TimeoutError" || cause === "AbortError") return `${pool}: Read timed out.`;
  if (cause === "ENOTFOUND" || cause === "EAI_AGAIN") {
    return `${pool}: Max retries exceeded with url: ${pathname} (Caused by NameResolutionError("<urllib3.connection.HTTPConnection object>: Failed to resolve '${hostname}'"))`;
  }
  return `${pool}: Max retries exceeded with url: ${pathname} (Caused by ${String((error as Error).message ?? error)})`;
}

/** `Response.raise_for_status`'s text. */
function statusText(status: number, reason: string, url: string): string {
  return `${status} ${status < 500 ? "Client" : "Server"} Error: ${reason} for url: ${url}`;
}

/** `BaseHTTPAPI.MAX_RETRIES`: connection attempts after the first. */
export const MAX_RETRIES = 2;

/** Errors urllib3 counts as connect errors (retried); anything else failed after the request went out. */
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
const connectFailed = (error: unknown) => CONNECT_ERRORS.has((error as { cause?: { code?: string } }).cause?.code ?? "");

export class MLApi {
  constructor(
    private readonly backend: Pick<MLBackendRecord, "url" | "timeout" | "basic_auth_user" | "basic_auth_pass">,
    private readonly clock: Clock = systemClock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** One call: JSON in, JSON out; never throws (the result says what went wrong). */
  async request(endpoint: Endpoint, body?: JsonValue, timeoutSeconds?: number): Promise<MLApiResult> {
    const url = endpointUrl(this.backend.url, endpoint);
    const method = METHOD[endpoint];
    const request = body ?? {};
    const headers: Record<string, string> = { "User-Agent": "heartex/" };
    const { basic_auth_user: user, basic_auth_pass: pass } = this.backend;
    if (user && pass) headers["Authorization"] = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    if (method === "POST") headers["Content-Type"] = "application/json";
    const seconds = timeoutSeconds ?? TIMEOUT_SECONDS[endpoint];
    let answer: Response | undefined;
    let text = "";
    let lastError: unknown;
    // The time limit on the mock's clock (its timers), for the whole call as `requests`' read timeout.
    const controller = new AbortController();
    const timer = this.clock.setTimeout(
      () => controller.abort(Object.assign(new Error("timed out"), { name: "TimeoutError" })),
      seconds * 1000,
    );
    try {
      for (let attempt = 0; attempt <= MAX_RETRIES && answer === undefined; attempt++) {
        try {
          answer = await this.fetchImpl(url, {
            method,
            headers,
            ...(method === "POST" ? { body: JSON.stringify(request) } : {}),
            signal: controller.signal,
          });
          text = await answer.text();
        } catch (error) {
          answer = undefined;
          lastError = controller.signal.aborted ? controller.signal.reason : error;
          if (controller.signal.aborted || !connectFailed(error)) break;
        }
      }
    } finally {
      this.clock.clearTimeout(timer);
    }
    if (answer === undefined)
      return { url, request, response: { error: failure(url, lastError) }, status: 0, error: failure(url, lastError) };
    if (answer.status >= 400) {
      const error = statusText(answer.status, answer.statusText, url);
      return { url, request, response: { error }, status: answer.status, error };
    }
    try {
      return { url, request, response: JSON.parse(text) as JsonValue, status: answer.status, error: undefined };
    } catch {
      // json.JSONDecodeError's text for a body that does not start as JSON.
      const error = "Expecting value: line 1 column 1 (char 0)";
      return { url, request, response: { error, response: text }, status: answer.status, error };
    }
  }
}
