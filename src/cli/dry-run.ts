import { match } from "ts-pattern";
import { render, type Format } from "./output.js";

/**
 * `--dry-run`: the client runs as usual but its fetch records each request instead of sending it.
 * The request printed is the one the client would put on the wire (method, URL with query, headers,
 * body as sent), with the key and tokens masked. A personal access token's exchange is recorded and
 * answered locally with a placeholder access token, so the call it precedes is recorded too. The client's read of the
 * server's release (before a body with child_filters) is answered locally with no release: the body is shown, not refused.
 */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text as sent (JSON), or undefined. */
  readonly body: string | undefined;
}

export const MASK = "***";
const TOKEN_EXCHANGE = "/api/token/refresh/";
const VERSION = "/api/version/";

/** Thrown by the recording fetch once it holds the command's request: nothing goes out. */
export class DryRunStop extends Error {
  override readonly name = "DryRunStop";
}

export class DryRun {
  readonly requests: RecordedRequest[] = [];
  readonly #secrets: string[];

  constructor(secrets: readonly (string | undefined)[]) {
    this.#secrets = secrets.filter((s): s is string => typeof s === "string" && s.length > 0);
  }

  /** True once a request other than a token exchange was recorded. */
  get done(): boolean {
    return this.requests.some((r) => !new URL(r.url).pathname.endsWith(TOKEN_EXCHANGE));
  }

  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname.endsWith(VERSION)) return Response.json({});
    const body = request.body === null ? undefined : await request.text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = name === "authorization" ? `${value.split(" ")[0] ?? ""} ${MASK}` : this.#mask(value);
    });
    const exchange = new URL(request.url).pathname.endsWith(TOKEN_EXCHANGE);
    this.requests.push({
      method: request.method,
      url: this.#mask(request.url),
      headers,
      body: body === undefined ? undefined : exchange ? JSON.stringify({ refresh: MASK }) : this.#mask(body),
    });
    if (exchange) return Response.json({ access: placeholderAccessToken() });
    throw new DryRunStop("dry run: request recorded, not sent");
  };

  #mask(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(MASK);
    return out;
  }
}

/** An unsigned JWT that the client reads as an access token valid for five minutes. */
function placeholderAccessToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: "none", typ: "JWT" })}.${part({ token_type: "access", iat: now, exp: now + 300 })}.dry-run`;
}

/** A request as a record: the body parsed when it is JSON. */
function requestRecord(request: RecordedRequest): object {
  let body: unknown = request.body;
  try {
    body = request.body === undefined ? undefined : JSON.parse(request.body);
  } catch {
    // not JSON: keep the text
  }
  return { method: request.method, url: request.url, headers: request.headers, body };
}

/** A request as an HTTP message. */
function requestMessage(request: RecordedRequest): string {
  const head = [`${request.method} ${request.url}`, ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`)];
  return request.body === undefined ? head.join("\n") : `${head.join("\n")}\n\n${request.body}`;
}

/** The recorded requests as a JSON list (`--format json`), HTTP messages (`table`), or rows (`csv`, `jsonl`). */
export function formatRequests(requests: readonly RecordedRequest[], format: Format): string {
  return match(format)
    .with("json", () => JSON.stringify(requests.map(requestRecord), null, 2))
    .with("table", () => requests.map(requestMessage).join("\n\n"))
    .with("csv", "jsonl", (f) => render(requests.map(requestRecord), f))
    .exhaustive();
}
