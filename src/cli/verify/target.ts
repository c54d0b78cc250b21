import type { Target as KitTarget } from "../../../testing/index.js";

/**
 * One server `dmq verify` talks to: a target of the testing kit (dmq/testing), which holds the
 * credentials, seeds projects and cleans up, seen here through raw HTTP — malformed requests must
 * reach the server exactly as written (the typed client would refuse them), and every answer is kept
 * whole: status, media type, and the body as text and as JSON when it parses.
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

/** The wrong key of `auth: "bad"`: well-formed, never issued. */
export const WRONG_KEY = "0000000000000000000000000000000000000000";

/** No answer at all (refused, reset, timed out): the run cannot go on. */
export class TargetUnreachable extends Error {
  override readonly name = "TargetUnreachable";
}

/** Sends one request to a kit target, with its credentials (or none, or a wrong one), within `timeoutMs`. */
export async function send(target: KitTarget, request: Request, timeoutMs = 60_000): Promise<Answer> {
  const query = new URLSearchParams(Object.entries(request.query ?? {})).toString();
  const path = `${request.path}${query ? `?${query}` : ""}`;
  const headers: Record<string, string> = { Accept: "application/json" };
  let body: string | undefined;
  if (request.body && "json" in request.body) {
    body = JSON.stringify(request.body.json);
    headers["Content-Type"] = "application/json";
  } else if (request.body) {
    body = request.body.raw;
    if (request.body.contentType !== undefined) headers["Content-Type"] = request.body.contentType;
  }
  if (request.auth === "bad") headers["Authorization"] = `Token ${WRONG_KEY}`;
  const init: RequestInit = { method: request.method, headers, body: body ?? null, signal: AbortSignal.timeout(timeoutMs) };
  let response: Response;
  try {
    // Without credentials the kit's fetch (which adds them) is bypassed.
    response = request.auth === "none" ? await fetch(`${target.url}${path}`, init) : await target.fetch(path, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new TargetUnreachable(
      `${request.method} ${target.url}${request.path}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
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
