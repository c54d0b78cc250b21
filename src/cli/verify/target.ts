import { createAuth, type Auth } from "../../client/auth.js";
import { Secrets } from "../../client/secrets.js";

/**
 * One server `dmq verify` talks to, over raw HTTP: malformed requests must reach it exactly as
 * written (a typed client would refuse them), and every answer is kept whole — status, headers and
 * the body as text and as JSON when it parses.
 */
export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** The parsed JSON body; undefined when the body is not JSON. */
  readonly json: unknown;
}

/** A body to send: JSON (`json`), or raw text with its content type (for malformed requests). */
export type Body = { readonly json: unknown } | { readonly raw: string; readonly contentType?: string };

export interface Request {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: Body;
  /** "key" (the default): the target's credential; "none": no Authorization; "bad": a wrong legacy token. */
  readonly auth?: "key" | "none" | "bad";
}

export interface Target {
  /** "target" or "mock": how reports name it. */
  readonly name: string;
  readonly baseUrl: string;
  send(request: Request): Promise<Answer>;
}

/** The wrong key of `auth: "bad"`: well-formed, never issued. */
export const WRONG_KEY = "0000000000000000000000000000000000000000";

/** No answer at all (refused, reset, timed out): the run cannot go on. */
export class TargetUnreachable extends Error {
  override readonly name = "TargetUnreachable";
}

export function httpTarget(name: string, baseUrl: string, apiKey: string, options: { timeoutMs?: number } = {}): Target {
  const base = baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 60_000;
  const exchange = async (refresh: string): Promise<string> => {
    const answer = await raw(base, { method: "POST", path: "/api/token/refresh/", body: { json: { refresh } } }, undefined, timeoutMs);
    const access = (answer.json as { access?: unknown } | undefined)?.access;
    if (answer.status !== 200 || typeof access !== "string") {
      throw new Error(`${name}: POST /api/token/refresh/ answered ${answer.status}: the personal access token was not accepted`);
    }
    return access;
  };
  const auth: Auth = createAuth(apiKey, new Secrets(), exchange);
  return {
    name,
    baseUrl: base,
    async send(request) {
      const mode = request.auth ?? "key";
      const header =
        mode === "none"
          ? undefined
          : mode === "bad"
            ? `Token ${WRONG_KEY}`
            : await auth.credential().then((c) => `${c.scheme} ${c.token}`);
      return raw(base, request, header, timeoutMs);
    },
  };
}

async function raw(base: string, request: Request, authorization: string | undefined, timeoutMs: number): Promise<Answer> {
  const url = new URL(base + request.path);
  for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (authorization) headers["Authorization"] = authorization;
  let body: string | undefined;
  if (request.body && "json" in request.body) {
    body = JSON.stringify(request.body.json);
    headers["Content-Type"] = "application/json";
  } else if (request.body) {
    body = request.body.raw;
    if (request.body.contentType !== undefined) headers["Content-Type"] = request.body.contentType;
  }
  let response: Response;
  try {
    response = await fetch(url, { method: request.method, headers, body: body ?? null, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new TargetUnreachable(`${request.method} ${url.origin}${url.pathname}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text, json };
}
