import { ACTIONS_PATH } from "../query/nodes.js";
import { isClock, systemClock, type Clock } from "../vocabulary/clock.js";
import { describeValue } from "../vocabulary/json.js";
import { ClientConfigError } from "./errors.js";

/** Per-request options; every resource method takes them as its last argument. */
export interface RequestOptions {
  /** Time limit of each attempt, in seconds (default: the client's, which defaults to 5). */
  timeoutInSeconds?: number;
  /** Retries after the first attempt for retryable failures (default: the client's, which defaults to 2). */
  maxRetries?: number;
  /** Cancels the request (and any backoff wait); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Path overrides for servers mounted under another prefix. */
export interface ClientRoutes {
  /** Data Manager actions: list, perform, and `<path>/<id>/form/`. Default `/api/dm/actions/`. */
  actions?: string;
}

/** Options of `createClient`; `baseUrl` and `apiKey` fall back to `LABEL_STUDIO_URL` and `LABEL_STUDIO_API_KEY`. */
export interface ClientOptions {
  /** `http://` or `https://`, no trailing slash. Default: the `LABEL_STUDIO_URL` environment variable. */
  baseUrl?: string;
  /** A legacy token or a personal access token. Default: the `LABEL_STUDIO_API_KEY` environment variable. */
  apiKey?: string;
  /** Default time limit of each request attempt, in seconds. Default 5 (the published limit). */
  timeoutInSeconds?: number;
  /** Default number of retries of a retryable failure. Default 2 (3 attempts), as the official SDK. */
  maxRetries?: number;
  routes?: ClientRoutes;
  /** The fetch implementation the transport uses (default: the global `fetch`). */
  fetch?: typeof globalThis.fetch;
  /** Exponential backoff between retries when the server sends no `Retry-After`. */
  retryDelay?: {
    /** First delay, doubled on each retry, ±10 % jitter. Default 1. */
    initialInSeconds?: number;
    /** Cap on any delay, including `Retry-After`. Default 60. */
    maxInSeconds?: number;
  };
  /**
   * Where time limits, retry waits and access-token lifetimes read the time and set timers. Default:
   * the system clock. A test can pass a virtual clock and run them without waiting.
   */
  clock?: Clock;
}

export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutInSeconds: number;
  readonly maxRetries: number;
  readonly actionsPath: string;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly clock: Clock;
}

export const DEFAULT_TIMEOUT_IN_SECONDS = 5;
export const DEFAULT_MAX_RETRIES = 2;
export const URL_ENV = "LABEL_STUDIO_URL";
export const KEY_ENV = "LABEL_STUDIO_API_KEY";
/** setTimeout's ceiling; longer limits would fire at once. */
const MAX_TIMER_SECONDS = 2_147_483;

/** Environment variables where there are any (Node, Deno, Bun); a browser has none. */
function environment(): Record<string, string | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env ?? {};
}

/** Reads and checks the options and the environment, once, when the client is created. */
export function resolveOptions(options: ClientOptions = {}): ResolvedOptions {
  if (typeof options !== "object" || options === null) {
    throw new ClientConfigError("options", "an options object", describeValue(options));
  }
  const env = environment();
  const baseUrl = checkBaseUrl(options.baseUrl ?? nonEmpty(env[URL_ENV]), options.baseUrl === undefined);
  const apiKey = checkApiKey(options.apiKey ?? nonEmpty(env[KEY_ENV]), options.apiKey === undefined);
  const retryDelay = options.retryDelay ?? {};
  return Object.freeze({
    baseUrl,
    apiKey,
    timeoutInSeconds: checkTimeout("timeoutInSeconds", options.timeoutInSeconds ?? DEFAULT_TIMEOUT_IN_SECONDS),
    maxRetries: checkRetries("maxRetries", options.maxRetries ?? DEFAULT_MAX_RETRIES),
    actionsPath: checkRoute("routes.actions", options.routes?.actions ?? ACTIONS_PATH),
    fetch: checkFetch(options.fetch),
    initialDelayMs: checkDelay("retryDelay.initialInSeconds", retryDelay.initialInSeconds ?? 1) * 1000,
    maxDelayMs: checkDelay("retryDelay.maxInSeconds", retryDelay.maxInSeconds ?? 60) * 1000,
    clock: checkClock(options.clock),
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

const BASE_URL_RULE = "an http:// or https:// URL without a trailing slash (the published rule)";

function checkBaseUrl(value: unknown, fromEnv: boolean): string {
  const field = fromEnv ? `baseUrl (from ${URL_ENV})` : "baseUrl";
  if (value === undefined) {
    throw new ClientConfigError("baseUrl", BASE_URL_RULE, "nothing", `pass createClient({ baseUrl }) or set ${URL_ENV}`);
  }
  if (typeof value !== "string") throw new ClientConfigError(field, BASE_URL_RULE, describeValue(value));
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  // An error shows the URL with its password and query values hidden, and so does every hint built from it.
  const safe = shownUrl(value);
  const shown = url ? JSON.stringify(safe) : describeValue(safe);
  if (value.trim() !== "" && !value.includes("://")) {
    // `127.0.0.1:8080`, `localhost:8080`, `ls.example.com`: no scheme at all.
    throw new ClientConfigError(field, BASE_URL_RULE, shown, `add the scheme: ${JSON.stringify(withScheme(withoutTrailingSlashes(safe)))}`);
  }
  if (!/^https?:\/\//.test(value) || !url) throw new ClientConfigError(field, BASE_URL_RULE, shown);
  // Before the rules whose hints quote the URL: a hint never holds a credential to copy.
  if (url.username || url.password) {
    throw new ClientConfigError(field, `${BASE_URL_RULE} and no user name or password`, shown, "pass the credential as apiKey");
  }
  const bare = withoutTrailingSlashes(safe);
  if (/\/api$/i.test(withoutTrailingSlashes(url.pathname))) {
    // The client adds /api/… to every path: a base ending in /api asks for /api/api/….
    throw new ClientConfigError(
      field,
      `${BASE_URL_RULE}, the server's root (the client adds /api/… itself)`,
      shown,
      `drop the /api at the end: ${JSON.stringify(bare.slice(0, -"/api".length))}`,
    );
  }
  if (value.endsWith("/")) {
    throw new ClientConfigError(field, BASE_URL_RULE, shown, `drop the trailing slash: ${JSON.stringify(bare)}`);
  }
  if (url.search || url.hash || value.includes("?") || value.includes("#")) {
    throw new ClientConfigError(field, `${BASE_URL_RULE} and no query string or fragment`, shown);
  }
  return value;
}

/** `http://` for a server on this machine or a private network, `https://` for any other. */
function withScheme(hostAndPath: string): string {
  const host = hostAndPath.split(/[/:]/)[0]?.toLowerCase() ?? "";
  const local =
    host === "localhost" ||
    host === "" ||
    /^(127\.|10\.|192\.168\.|0\.0\.0\.0$|172\.(1[6-9]|2\d|3[01])\.)/.test(host) ||
    hostAndPath.startsWith("[");
  return `${local ? "http" : "https"}://${hostAndPath}`;
}

/** A loop, not `/\/+$/`: that pattern is quadratic on a long run of slashes that does not end the text. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charAt(end - 1) === "/") end--;
  return path.slice(0, end);
}

/** A base URL as an error may show it: the password of `user:password@` and every query value as `***`, scheme or not. */
function shownUrl(raw: string): string {
  const scheme = raw.indexOf("//");
  const from = scheme < 0 ? 0 : scheme + 2;
  const ends = ["/", "?", "#"].map((c) => raw.indexOf(c, from)).filter((i) => i >= 0);
  const authorityEnd = ends.length === 0 ? raw.length : Math.min(...ends);
  const at = raw.lastIndexOf("@", authorityEnd - 1);
  const colon = at < from ? -1 : raw.indexOf(":", from);
  const masked = colon >= 0 && colon < at ? `${raw.slice(0, colon + 1)}***${raw.slice(at)}` : raw;
  const question = masked.indexOf("?");
  if (question < 0) return masked;
  const hash = masked.indexOf("#", question);
  const query = masked.slice(question + 1, hash < 0 ? undefined : hash);
  const hidden = query
    .split("&")
    .map((pair) => (pair.includes("=") ? `${pair.slice(0, pair.indexOf("="))}=***` : pair))
    .join("&");
  return `${masked.slice(0, question + 1)}${hidden}${hash < 0 ? "" : masked.slice(hash)}`;
}

/** Header-safe tokens only: fetch would otherwise throw an error that quotes the header value. */
function checkApiKey(value: unknown, fromEnv: boolean): string {
  const field = fromEnv ? `apiKey (from ${KEY_ENV})` : "apiKey";
  const expected = "a legacy token or a personal access token";
  if (value === undefined) {
    throw new ClientConfigError(
      "apiKey",
      expected,
      "nothing",
      `pass createClient({ apiKey }) or set ${KEY_ENV} (Account & Settings page of the server)`,
    );
  }
  if (typeof value !== "string") throw new ClientConfigError(field, expected, typeof value);
  const key = value.trim();
  if (key === "") throw new ClientConfigError(field, expected, "an empty string");
  const bad = /[^\x21-\x7e]/.exec(key);
  if (bad) {
    // The key as copied from a curl line or a header: its scheme word is not part of it.
    const scheme = /^(Token|Bearer)\s+\S+$/i.exec(key)?.[1];
    throw new ClientConfigError(
      field,
      `${expected} (visible ASCII characters, no spaces)`,
      scheme
        ? `a value that starts with "${scheme} "`
        : `a value with a ${bad[0] === " " ? "space" : "non-printable or non-ASCII character"} at position ${bad.index + 1} of ${key.length}`,
      scheme ? `pass the key alone, without "${scheme} " (the client adds the header's scheme itself)` : undefined,
    );
  }
  return key;
}

export function checkTimeout(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_SECONDS) {
    throw new ClientConfigError(field, `a number of seconds > 0 and ≤ ${MAX_TIMER_SECONDS}`, describeValue(value));
  }
  return value;
}

export function checkRetries(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new ClientConfigError(field, "a whole number ≥ 0", describeValue(value));
  }
  return value;
}

function checkDelay(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > MAX_TIMER_SECONDS) {
    throw new ClientConfigError(field, "a number of seconds ≥ 0", describeValue(value));
  }
  return value;
}

function checkRoute(field: string, value: unknown): string {
  if (typeof value !== "string" || !/^\/[^?#\s]*$/.test(value)) {
    throw new ClientConfigError(field, 'a path starting with "/" (e.g. "/api/actions"), without query or spaces', describeValue(value));
  }
  return value;
}

function checkClock(value: unknown): Clock {
  if (value === undefined) return systemClock;
  if (!isClock(value)) {
    throw new ClientConfigError("clock", "a clock { now(), setTimeout(callback, ms), clearTimeout(handle) }", describeValue(value));
  }
  return value;
}

function checkFetch(value: unknown): typeof globalThis.fetch | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw new ClientConfigError("fetch", "a fetch function", describeValue(value));
  }
  return value as typeof globalThis.fetch | undefined;
}

/** Per-request options merged over the client's defaults. */
export function resolveRequestOptions(
  defaults: ResolvedOptions,
  options: RequestOptions | undefined,
): { timeoutInSeconds: number; maxRetries: number; signal: AbortSignal | undefined } {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new ClientConfigError("options", "a request options object { timeoutInSeconds?, maxRetries?, signal? }", describeValue(options));
  }
  return {
    timeoutInSeconds:
      options?.timeoutInSeconds === undefined
        ? defaults.timeoutInSeconds
        : checkTimeout("options.timeoutInSeconds", options.timeoutInSeconds),
    maxRetries: options?.maxRetries === undefined ? defaults.maxRetries : checkRetries("options.maxRetries", options.maxRetries),
    signal: options?.signal,
  };
}
