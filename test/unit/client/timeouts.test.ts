import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { RequestTimeoutError, createClient, type Client } from "../../../src/client/index.js";
import { json, startTestServer, type TestServer } from "../../helpers/http-server.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { LEGACY_KEY } from "./fixtures.js";

/**
 * The time limit is a timer on the client's clock. Here the clock is virtual: the test server
 * holds the answer back, the test moves the clock, and the schedule is asserted exactly.
 */
let server: TestServer | undefined;
let clock: VirtualClock;
/** Answers held back by the server, released by the test. */
let held: (() => void)[];
beforeEach(() => {
  clock = new VirtualClock();
  held = [];
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers whoami only when the test releases it. */
async function heldServer(): Promise<TestServer> {
  server = await startTestServer((_request, res) => {
    held.push(() => json(res, 200, { id: 1, username: "u" }));
  });
  return server;
}

const clientOf = (url: string, extra: Parameters<typeof createClient>[0] = {}): Client =>
  createClient({ baseUrl: url, apiKey: LEGACY_KEY, clock, ...extra });

/** Resolves once the server has received `count` requests. */
async function received(s: TestServer, count: number): Promise<void> {
  while (s.requests.length < count) await new Promise((resolve) => setImmediate(resolve));
}

describe("time limits", () => {
  test("default: 5 s for every request, then an error naming the request and the limit; not retried", async () => {
    const s = await heldServer();
    const result = clientOf(s.url).users.whoami();
    await received(s, 1);
    expect(clock.pending()).toEqual([5000]);
    clock.advance(4999);
    clock.advance(1);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).message).toBe(
      "GET /api/current-user/whoami timed out after 5 s (raise the limit with the client's or this request's timeoutInSeconds)",
    );
    expect(error).toMatchObject({ method: "GET", path: "/api/current-user/whoami", timeoutInSeconds: 5 });
    expect(clock.scheduled).toEqual([5000]);
    expect(s.requests).toHaveLength(1);
  });

  test("an answer just inside the limit is accepted, and its timer is cleared", async () => {
    const s = await heldServer();
    const result = clientOf(s.url).users.whoami();
    await received(s, 1);
    clock.advance(4999);
    held[0]?.();
    await expect(result).resolves.toMatchObject({ username: "u" });
    expect(clock.pending()).toEqual([]);
  });

  test("client-level timeoutInSeconds overrides the default", async () => {
    const s = await heldServer();
    const result = clientOf(s.url, { timeoutInSeconds: 0.3 }).projects.get(4);
    await received(s, 1);
    clock.advance(300);
    const error = await result.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "RequestTimeoutError", timeoutInSeconds: 0.3, path: "/api/projects/4/" });
    expect((error as Error).message).toMatch(/^GET \/api\/projects\/4\/ timed out after 0.3 s/);
    expect(clock.scheduled).toEqual([300]);
  });

  test("per-request timeoutInSeconds overrides the client's, shorter or longer", async () => {
    const s = await heldServer();
    const client = clientOf(s.url, { timeoutInSeconds: 10 });
    const short = client.users.whoami({ timeoutInSeconds: 0.2 });
    await received(s, 1);
    clock.advance(200);
    await expect(short).rejects.toMatchObject({ name: "RequestTimeoutError", timeoutInSeconds: 0.2 });
    const long = client.users.whoami({ timeoutInSeconds: 30 });
    await received(s, 2);
    clock.advance(29_000);
    held[1]?.();
    await expect(long).resolves.toMatchObject({ username: "u" });
    expect(clock.scheduled).toEqual([200, 30_000]);
  });

  test("the limit covers a body that arrives too slowly", async () => {
    server = await startTestServer((_request, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id": 1, ');
    });
    const result = clientOf(server.url, { timeoutInSeconds: 0.3 }).users.whoami();
    await received(server, 1);
    clock.advance(300);
    await expect(result).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  test("an abort signal cancels the request at once, with the signal's reason", async () => {
    const s = await heldServer();
    const controller = new AbortController();
    const reason = new Error("user navigated away");
    const result = clientOf(s.url).users.whoami({ signal: controller.signal });
    await received(s, 1);
    controller.abort(reason);
    // No clock movement and no answer from the server: the abort alone settles the call.
    await expect(result).rejects.toBe(reason);
    expect(clock.pending()).toEqual([]);
  });

  test("an already aborted signal sends nothing", async () => {
    const s = await heldServer();
    const reason = new Error("too late");
    await expect(clientOf(s.url).users.whoami({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(s.requests).toHaveLength(0);
  });
});
