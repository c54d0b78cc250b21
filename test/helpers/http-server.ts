import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the test server saw it. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, else the text; undefined when empty. */
  readonly body: unknown;
}

export type Handler = (request: Received, response: ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>`: a valid base URL (no trailing slash). */
  readonly url: string;
  readonly requests: Received[];
  close(): Promise<void>;
}

/** A throwaway HTTP server on an ephemeral port that records every request. */
export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text === "" ? undefined : text;
      try {
        if (text !== "") body = JSON.parse(text);
      } catch {
        // keep the text
      }
      const url = new URL(req.url ?? "/", "http://localhost");
      const received: Received = { method: req.method ?? "", path: url.pathname, query: url.searchParams, headers: req.headers, body };
      requests.push(received);
      Promise.resolve(handler(received, res)).catch((error: unknown) => {
        if (!res.headersSent) json(res, 599, { detail: `test handler failed: ${String(error)}` });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers JSON (unless the connection is already gone, e.g. after a client timeout). */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

export function text(res: ServerResponse, status: number, body: string, contentType = "text/html; charset=utf-8"): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "content-type": contentType });
  res.end(body);
}

/** Label Studio's error body (docs/reference/errors.md#the-error-body). */
export function errorBody(status: number, detail: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: "00000000-0000-4000-8000-000000000000", status_code: status, version: "test", detail, exc_info: null, ...extra };
}

/** A port nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
