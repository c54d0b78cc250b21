import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  ApiError,
  NetworkError,
  RequestTimeoutError,
  UnexpectedResponseError,
  createClient,
  type Client,
} from "../../../src/client/index.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { LEGACY_KEY } from "./fixtures.js";

/**
 * A server that sends whatever bytes the test wants, or nothing: the client must turn every such
 * answer into one of its error types (or a result), never throw anything else, never leave a
 * promise rejection unhandled, and never show its key.
 */
type Reply = (socket: Socket) => void;
let reply: Reply = (socket) => socket.end();
let server: Server;
let baseUrl: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let seen = "";
    socket.on("data", (chunk: Buffer) => {
      seen += chunk.toString("latin1");
      // Answer once the request head has arrived (bodies are small and ignored).
      if (seen.includes("\r\n\r\n")) {
        seen = "";
        reply(socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let clock: VirtualClock;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  clock = new VirtualClock();
  // Waits between attempts pass at once; the 5 s attempt limits fire only when a test moves the clock.
  clock.autoAdvance = (_index, ms) => ms !== 5000;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
  for (const socket of sockets) socket.destroy();
  expect(unhandled).toEqual([]);
});

const clientOf = (extra: Parameters<typeof createClient>[0] = {}): Client => createClient({ baseUrl, apiKey: LEGACY_KEY, clock, ...extra });

/** An HTTP/1.1 answer with these parts; `length` may lie about the body. */
function http(status: number, headers: Record<string, string>, body: Buffer | string, length = Buffer.byteLength(body)): Buffer {
  const head = [`HTTP/1.1 ${status} X`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${length}`, "", ""].join(
    "\r\n",
  );
  return Buffer.concat([Buffer.from(head, "latin1"), Buffer.from(body)]);
}

const KNOWN = [ApiError, NetworkError, RequestTimeoutError];

/** Settles the call and checks it failed with one of the client's errors, none of which shows the key. */
async function failure(call: Promise<unknown>): Promise<Error> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  const error = outcome.error as Error;
  expect(
    KNOWN.some((kind) => error instanceof kind),
    `${error?.name}: ${error?.message}`,
  ).toBe(true);
  for (const text of [error.message, error.stack ?? "", JSON.stringify(error), inspect(error, { depth: 10 })])
    expect(text).not.toContain(LEGACY_KEY);
  return error;
}

describe("garbage answers", () => {
  test("a 2xx body that is not JSON, or is cut short, or is HTML: UnexpectedResponseError", async () => {
    for (const body of ["not json", '{"id": 1, "username": ', "<html><body>Login</body></html>", ""]) {
      for (const type of ["application/json", "text/html; charset=utf-8", "text/plain"]) {
        reply = (socket) => socket.end(http(200, { "Content-Type": type }, body));
        const error = await failure(clientOf().users.whoami());
        expect(error, `${type} ${body}`).toBeInstanceOf(UnexpectedResponseError);
      }
    }
  });

  test("an error status with a body that is not JSON: ApiError with the text", async () => {
    reply = (socket) => socket.end(http(502, { "Content-Type": "text/html" }, "<h1>Bad gateway</h1>"));
    const error = await failure(clientOf({ maxRetries: 0 }).projects.get(1));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 502, body: "<h1>Bad gateway</h1>" });
  });

  test("a body shorter than its Content-Length, then a closed socket: NetworkError (a GET after its retries)", async () => {
    reply = (socket) => socket.end(http(200, { "Content-Type": "application/json" }, '{"id": 1', 500));
    const error = await failure(clientOf().users.whoami());
    expect(error).toMatchObject({ name: "NetworkError", attempts: 3 });
  });

  test("a socket closed without an answer: NetworkError; a POST is not sent again", async () => {
    let requests = 0;
    reply = (socket) => {
      requests += 1;
      socket.destroy();
    };
    expect(await failure(clientOf().users.whoami())).toMatchObject({ name: "NetworkError", attempts: 3 });
    requests = 0;
    expect(await failure(clientOf().projects.create({ title: "x" }))).toMatchObject({ name: "NetworkError", attempts: 1 });
    expect(requests).toBe(1);
  });

  test("bytes that are not HTTP: NetworkError", async () => {
    reply = (socket) => socket.end("SSH-2.0-OpenSSH_9.6\r\n\r\n");
    expect(await failure(clientOf({ maxRetries: 0 }).users.whoami())).toBeInstanceOf(NetworkError);
  });

  test("a slow drip that never finishes: RequestTimeoutError when the attempt's limit passes", async () => {
    let dripped = 0;
    reply = (socket) => {
      socket.write(http(200, { "Content-Type": "application/json" }, '{"id": 1, ', 100));
      dripped += 1;
    };
    const call = clientOf().users.whoami();
    while (dripped === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(clock.pending()).toEqual([5000]);
    clock.advance(5000);
    expect(await failure(call)).toBeInstanceOf(RequestTimeoutError);
  });

  test("an abort while the answer drips in rejects at once with the signal's reason", async () => {
    reply = (socket) => void socket.write(http(200, { "Content-Type": "application/json" }, "{", 100));
    const controller = new AbortController();
    const call = clientOf().users.whoami({ signal: controller.signal });
    await clock.whenScheduled(1);
    const reason = new Error("cancelled by the user");
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  test("a server that echoes the key in its body, headers and status text: the key is scrubbed everywhere", async () => {
    reply = (socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 400 Token ${LEGACY_KEY}\r\nX-Echo: Token ${LEGACY_KEY}\r\nContent-Type: application/json\r\n`),
          Buffer.from(`Content-Length: ${JSON.stringify({ detail: `bad key ${LEGACY_KEY}` }).length}\r\n\r\n`),
          Buffer.from(JSON.stringify({ detail: `bad key ${LEGACY_KEY}` })),
        ]),
      );
    const error = await failure(clientOf().users.whoami());
    expect(error.message).toContain("bad key [redacted]");
  });
});

describe("any bytes at all", () => {
  const statusArb = fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constantFrom(200, 201, 204, 301, 401, 404, 500, 503));
  const bodyArb = fc.oneof(
    fc.constantFrom("", "{", "[]", "null", '"text"', '{"id": 1, "username": "u"}', '{"detail": 3}', "<html>", "\u0000\u0001"),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ""),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  );
  const typeArb = fc.constantFrom(
    "application/json",
    "text/html",
    "text/plain",
    "application/octet-stream",
    "",
    "application/json; charset=utf-16",
  );

  test("every answer is a result or one of the client's errors", async () => {
    await fc.assert(
      fc.asyncProperty(
        statusArb,
        typeArb,
        bodyArb,
        fc.integer({ min: -5, max: 5 }),
        fc.constantFrom("GET", "POST"),
        async (status, type, body, lie, method) => {
          const bytes = Buffer.from(body, "latin1");
          // Lying lengths are cut off by closing the socket, so no answer hangs.
          reply = (socket) =>
            socket.end(
              http(status, type ? { "Content-Type": type } : {}, bytes, Math.max(0, bytes.length + Math.min(lie, 0) + (lie > 3 ? 10 : 0))),
            );
          const client = clientOf({ maxRetries: 1 });
          const call = method === "GET" ? client.users.whoami() : client.projects.create({ title: "x" });
          const outcome = await call.then(
            () => undefined,
            (error: unknown) => error,
          );
          if (outcome !== undefined) {
            expect(
              KNOWN.some((kind) => outcome instanceof kind),
              String(outcome),
            ).toBe(true);
            expect(JSON.stringify(outcome)).not.toContain(LEGACY_KEY);
          }
        },
      ),
      { numRuns: 150, seed: 14 },
    );
  });
});
