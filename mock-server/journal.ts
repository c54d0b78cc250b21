import type { IncomingHttpHeaders } from "node:http";
import { jsonHead } from "./json-head.js";
import { DEFAULT_JOURNAL_BODY_LIMIT, DEFAULT_JOURNAL_CAPACITY } from "./options.js";

/**
 * The request journal: what each client sent and what the mock answered, so a contract test can
 * assert on the wire. Credentials never enter it: the Authorization scheme is kept (tests check
 * which one a client used), the credential is replaced; token-bearing body fields likewise.
 */
export interface JournalEntry {
  readonly method: string;
  /** Path without the query string, as sent (trailing slash kept). */
  readonly path: string;
  /** Parsed query parameters; repeated keys give arrays. */
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** Lower-case header names; secrets redacted. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The parsed JSON body (secrets redacted), or undefined when there was none. A body whose JSON
   * text is longer than the journal's body limit is kept as the start of that text (a string).
   */
  readonly body: unknown;
  /** Set when `body` was cut: the length of the whole JSON text. */
  readonly truncatedFrom?: number;
  /** The status answered; undefined while the request is in flight. */
  status: number | undefined;
}

/**
 * The journal is a ring: it keeps the newest `capacity` entries and counts the ones it let go, and
 * keeps at most `bodyLimit` characters of a body, so a long run or a soak holds bounded memory.
 */
export class Journal {
  /** Oldest first; the array the server exposes as `requests`. */
  readonly entries: JournalEntry[] = [];
  #dropped = 0;

  constructor(
    readonly capacity: number = DEFAULT_JOURNAL_CAPACITY,
    readonly bodyLimit: number = DEFAULT_JOURNAL_BODY_LIMIT,
  ) {}

  /** Entries let go to stay within the capacity since the start (or the last `clear`). */
  get dropped(): number {
    return this.#dropped;
  }

  add(entry: JournalEntry): void {
    if (this.capacity === 0) {
      this.#dropped += 1;
      return;
    }
    this.entries.push(entry);
    // V8 shifts small arrays in place; at the default capacity this is cheaper than index arithmetic.
    while (this.entries.length > this.capacity) {
      this.entries.shift();
      this.#dropped += 1;
    }
  }

  /** The body as the journal keeps it: redacted, cut to the limit. */
  body(raw: unknown): Pick<JournalEntry, "body" | "truncatedFrom"> {
    const body = redactBody(raw);
    if (body === undefined) return { body };
    // The head of the JSON text and its length, without printing a long body whole.
    const text = jsonHead(body, this.bodyLimit) ?? wholeText(body);
    if (text === undefined || text.length <= this.bodyLimit) return { body };
    return { body: text.head.slice(0, this.bodyLimit), truncatedFrom: text.length };
  }

  clear(): void {
    this.entries.length = 0;
    this.#dropped = 0;
  }
}

function wholeText(body: unknown): { readonly head: string; readonly length: number } | undefined {
  const text = JSON.stringify(body) as string | undefined;
  return text === undefined ? undefined : { head: text, length: text.length };
}

export const REDACTED = "[redacted]";
const secretHeaders = new Set(["authorization", "x-api-key", "cookie", "proxy-authorization"]);
const secretBodyFields = new Set(["refresh", "access", "token", "password"]);

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(", ") : raw;
    if (!secretHeaders.has(name)) {
      out[name] = value;
    } else if (name === "authorization" || name === "proxy-authorization") {
      const scheme = value.trim().split(/\s+/)[0] ?? "";
      out[name] = value.trim().includes(" ") ? `${scheme} ${REDACTED}` : REDACTED;
    } else {
      out[name] = REDACTED;
    }
  }
  return out;
}

export function redactBody(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) out[key] = secretBodyFields.has(key) ? REDACTED : value;
  return out;
}
