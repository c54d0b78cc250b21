import { isClock } from "../src/vocabulary/clock.js";
import { describeValue } from "../src/vocabulary/json.js";
import type { MockServerOptions } from "./index.js";

/** A bad `startMockServer` option: names the option, what was expected and what was found. */
export class MockOptionError extends TypeError {
  override readonly name = "MockOptionError";
  constructor(
    readonly option: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`startMockServer: options.${option}: expected ${expected}, found ${found}`);
  }
}

/** The name of a `startMockServer` option. */
export type MockOptionName = keyof MockServerOptions;

export const DEFAULT_REQUEST_TIME_LIMIT_SECONDS = 30;
/** The journal's defaults: entries kept, and characters of a body kept per entry. */
export const DEFAULT_JOURNAL_CAPACITY = 1_000;
export const DEFAULT_JOURNAL_BODY_LIMIT = 8_192;
/** Lifetime of an access token, in seconds (the server's default). */
export const DEFAULT_ACCESS_LIFETIME_SECONDS = 5 * 60;

/**
 * What a legacy key may be: DRF's authtoken keeps it in a 40-character column, and the
 * `Authorization: Token <key>` header is split on whitespace, so a key holds none.
 */
const LEGACY_KEY_EXPECTED = "a legacy API key: 1 to 40 visible ASCII characters, no spaces";
export function isLegacyKey(v: unknown): boolean {
  return typeof v === "string" && /^[\x21-\x7e]{1,40}$/.test(v);
}

type Check = readonly [test: (v: unknown) => boolean, expected: string];
/** Each option's check and what it expects (also the command-line flags' checks, flags.ts). */
export const optionChecks: { readonly [O in MockOptionName]-?: Check } = {
  port: [(v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535, "an integer port from 0 to 65535"],
  host: [(v) => typeof v === "string" && v.length > 0, "a host name or address"],
  data: [
    (v) => typeof v === "string" || (typeof v === "object" && v !== null && !Array.isArray(v)),
    "a seed object or the path of a JSON seed file",
  ],
  persist: [(v) => typeof v === "string" && v.length > 0, "a file path"],
  strict: [(v) => typeof v === "boolean", "a boolean"],
  logger: [(v) => typeof v === "boolean" || typeof v === "function", "a boolean or a function (line) => void"],
  accessTokenLifetime: [(v) => typeof v === "number" && Number.isFinite(v) && v > 0, "a positive number of seconds"],
  journalCapacity: [(v) => Number.isSafeInteger(v) && (v as number) >= 0, "a whole number of entries ≥ 0"],
  journalBodyLimit: [(v) => Number.isSafeInteger(v) && (v as number) >= 0, "a whole number of characters ≥ 0"],
  requestTimeLimit: [
    (v) => typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 2_147_483,
    "a positive number of seconds ≤ 2147483",
  ],
  clock: [isClock, "a clock { now(), setTimeout(callback, ms), clearTimeout(handle) }"],
  maxBodySize: [(v) => Number.isSafeInteger(v) && (v as number) >= 0, "a number of bytes (a non-negative integer)"],
  token: [isLegacyKey, LEGACY_KEY_EXPECTED],
};

export function checkOptions(options: unknown): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new MockOptionError("(options)", "an options object", describeValue(options));
  }
  for (const [key, value] of Object.entries(options)) {
    const check = Object.hasOwn(optionChecks, key) ? optionChecks[key as MockOptionName] : undefined;
    if (!check) throw new MockOptionError(key, `one of the options ${Object.keys(optionChecks).join(", ")}`, `an unknown option "${key}"`);
    if (value !== undefined && !check[0](value)) throw new MockOptionError(key, check[1], describeValue(value));
  }
}
