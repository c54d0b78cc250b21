import { afterEach, describe, expect, test } from "vitest";
import { RequestTimeoutError, createClient } from "../../../src/client/index.js";
import { json, startTestServer, type TestServer } from "../../helpers/http-server.js";
import { LEGACY_KEY } from "./fixtures.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers whoami after `delayMs` (per request: `?delay=` wins). */
async function slowServer(delayMs: number): Promise<TestServer> {
  server = await startTestServer((request, res) => {
    setTimeout(() => json(res, 200, { id: 1, username: "u" }), delayMs);
  });
  return server;
}

async function timing<T>(promise: Promise<T>): Promise<{ error: unknown; seconds: number }> {
  const start = performance.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, seconds: (performance.now() - start) / 1000 };
}

describe("timeouts", () => {
  test("default: 5 s for every request, then an error naming the request and the limit", async () => {
    const s = await slowServer(7_000);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    const { error, seconds } = await timing(client.users.whoami());
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).message).toBe(
      "GET /api/current-user/whoami timed out after 5 s (raise the limit with the client's or this request's timeoutInSeconds)",
    );
    expect(error).toMatchObject({ method: "GET", path: "/api/current-user/whoami", timeoutInSeconds: 5 });
    expect(seconds).toBeGreaterThanOrEqual(4.95);
    expect(seconds).toBeLessThan(6.5);
    expect(s.requests).toHaveLength(1); // a timeout is not retried
  }, 15_000);

  test("client-level timeoutInSeconds overrides the default", async () => {
    const s = await slowServer(3_000);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, timeoutInSeconds: 0.3 });
    const { error, seconds } = await timing(client.projects.get(4));
    expect(error).toMatchObject({ name: "RequestTimeoutError", timeoutInSeconds: 0.3, path: "/api/projects/4/" });
    expect((error as Error).message).toMatch(/^GET \/api\/projects\/4\/ timed out after 0.3 s/);
    expect(seconds).toBeGreaterThanOrEqual(0.29);
    expect(seconds).toBeLessThan(2);
  });

  test("per-request timeoutInSeconds overrides the client's, shorter", async () => {
    const s = await slowServer(3_000);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, timeoutInSeconds: 10 });
    const { error, seconds } = await timing(client.users.whoami({ timeoutInSeconds: 0.2 }));
    expect(error).toMatchObject({ name: "RequestTimeoutError", timeoutInSeconds: 0.2 });
    expect(seconds).toBeLessThan(2);
  });

  test("per-request timeoutInSeconds overrides the client's, longer", async () => {
    const s = await slowServer(600);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, timeoutInSeconds: 0.2 });
    await expect(client.users.whoami({ timeoutInSeconds: 3 })).resolves.toMatchObject({ username: "u" });
    await expect(client.users.whoami()).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  test("the limit covers a body that arrives too slowly", async () => {
    server = await startTestServer((request, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id": 1, ');
      setTimeout(() => res.end('"username": "u"}'), 2_000);
    });
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, timeoutInSeconds: 0.3 });
    await expect(client.users.whoami()).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  test("an abort signal cancels the request with the signal's reason", async () => {
    const s = await slowServer(3_000);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    const controller = new AbortController();
    const reason = new Error("user navigated away");
    setTimeout(() => controller.abort(reason), 100);
    await expect(client.users.whoami({ signal: controller.signal })).rejects.toBe(reason);
  });
});
