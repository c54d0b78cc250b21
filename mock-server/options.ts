import { isClock, type Clock } from "../src/vocabulary/clock.js";
import { describeValue } from "../src/vocabulary/json.js";
import type { CollectionName, RecordOf } from "../src/contract/state.js";

/**
 * Seed data (docs/mock-server.md#seed-data): any collection may be left out; within a record,
 * everything but the id and the fields the server requires may be left out and gets the server's
 * default.
 */
export type MockSeed = {
  readonly [C in CollectionName]?: readonly (Partial<RecordOf<C>> & { readonly id: number })[];
};

/** Options of `startMockServer`; every one may be left out. */
export interface MockServerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** A seed object or the path of a JSON seed file. Default: the demo data (`demoData()`). */
  readonly data?: MockSeed | string;
  /**
   * A JSON file kept across restarts: loaded at start when it exists (then `data` is not used).
   * Every change is appended to a write-ahead log next to it (`<file>.wal.<n>`) and fsynced before
   * the answer; the file itself is rewritten in the background once the log outgrows it.
   */
  readonly persist?: string;
  /** Refuse with 400 what the server silently ignores or answers with 500 (docs/mock-server.md). */
  readonly strict?: boolean;
  /** One line per request (`GET /api/tasks/?project=1 200 3.1 ms`); true writes to stderr. */
  readonly logger?: boolean | ((line: string) => void);
  /** Lifetime of the access tokens `POST /api/token/refresh/` issues, in seconds (server default 300). */
  readonly accessTokenLifetime?: number;
  /** Entries the request journal keeps (the newest); older ones are dropped and counted. Default 1000. */
  readonly journalCapacity?: number;
  /** Characters of a request body's JSON text the journal keeps; a longer body is cut. Default 8192. */
  readonly journalBodyLimit?: number;
  /** Seconds a request may take before it is answered 503 with nothing done. Default 30. */
  readonly requestTimeLimit?: number;
  /** Where token lifetimes and the time limit read the time (default: the system clock). */
  readonly clock?: Clock;
  /**
   * The largest request body read, in bytes: the server's `DATA_UPLOAD_MAX_MEMORY_SIZE` (default 250 MiB).
   * Past it the mock keeps nothing; a view that reads the body answers the server's 500, strict mode a 413.
   */
  readonly maxBodySize?: number;
  /**
   * The first user's legacy API key, kept across restarts and `reset()`: scripts and CI can export it
   * once. Default: the seed's, else a new random key at each start.
   */
  readonly token?: string;
}

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

type OptionRule = readonly [test: (v: unknown) => boolean, expected: string];
/** Each option's check and what it expects (also the command-line flags' checks, flags.ts). */
export const optionChecks: { readonly [O in MockOptionName]-?: OptionRule } = {
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
