import type { IncomingHttpHeaders } from "node:http";

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
  /** The parsed JSON body (secrets redacted), or undefined when there was none. */
  readonly body: unknown;
  /** The status answered; undefined while the request is in flight. */
  status: number | undefined;
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
