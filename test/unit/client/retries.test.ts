import { afterEach, describe, expect, test } from "vitest";
import { ApiError, NetworkError, createClient } from "../../../src/client/index.js";
import { isRetryableStatus, retryDelayMs } from "../../../src/client/retry.js";
import { closedPortUrl, errorBody, json, startTestServer, type TestServer } from "../../helpers/http-server.js";
import { LEGACY_KEY } from "./fixtures.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Fast backoff so retry counts can be tested without waiting seconds. */
const fast = { initialInSeconds: 0.01, maxInSeconds: 2 };

/** Answers `statuses` in turn (the last one repeats); 200 answers a project. */
async function sequence(statuses: number[], headers: Record<string, string> = {}): Promise<TestServer> {
  let i = 0;
  server = await startTestServer((request, res) => {
    const status = statuses[Math.min(i++, statuses.length - 1)] ?? 200;
    if (status === 200) json(res, 200, { id: 1, title: "P", label_config: "<View/>" });
    else json(res, status, errorBody(status, `status ${status}`), headers);
  });
  return server;
}

describe("which failures are retried", () => {
  test.each([408, 409, 429, 500, 502, 503, 504])("%i is retried up to maxRetries (default 2: three attempts)", async (status) => {
    const s = await sequence([status]);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: fast });
    const error = await client.projects.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(status);
    expect(s.requests).toHaveLength(3);
  });

  test.each([400, 401, 403, 404, 405, 422])("%i is not retried", async (status) => {
    const s = await sequence([status]);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: fast });
    await expect(client.projects.get(1)).rejects.toMatchObject({ statusCode: status });
    expect(s.requests).toHaveLength(1);
  });

  test("a POST is retried too, as by the official SDK (maxRetries: 0 sends it once)", async () => {
    const s = await sequence([500]);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: fast });
    await expect(client.projects.create({ title: "x" })).rejects.toMatchObject({ statusCode: 500 });
    expect(s.requests.map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    await expect(client.projects.create({ title: "x" }, { maxRetries: 0 })).rejects.toMatchObject({ statusCode: 500 });
    expect(s.requests).toHaveLength(4);
  });

  test("success after failures returns the data", async () => {
    const s = await sequence([503, 429, 200]);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: fast });
    await expect(client.projects.get(1)).resolves.toMatchObject({ id: 1, title: "P" });
    expect(s.requests).toHaveLength(3);
  });

  test("client-level and per-request maxRetries set the count", async () => {
    const s = await sequence([500]);
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: fast, maxRetries: 4 });
    await expect(client.projects.get(1)).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(5);
    await expect(client.projects.get(1, { maxRetries: 1 })).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(7);
    await expect(client.projects.get(1, { maxRetries: 0 })).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(8);
  });

  test("connection errors are retried, then reported with the URL and the attempts", async () => {
    const url = await closedPortUrl();
    const client = createClient({ baseUrl: url, apiKey: LEGACY_KEY, retryDelay: fast });
    const error = await client.projects.get(3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ method: "GET", url: `${url}/api/projects/3/`, attempts: 3, code: "ECONNREFUSED" });
    expect((error as Error).message).toMatch(new RegExp(`^GET ${url}/api/projects/3/ failed: .*ECONNREFUSED.* \\(3 attempts\\)$`));
  });

  test("a connection dropped before the answer is retried", async () => {
    let i = 0;
    server = await startTestServer((request, res) => {
      if (i++ === 0) return void res.socket?.destroy();
      json(res, 200, { id: 1, username: "u" });
    });
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, retryDelay: fast });
    await expect(client.users.whoami()).resolves.toMatchObject({ username: "u" });
    expect(server.requests).toHaveLength(2);
  });
});

describe("delays", () => {
  const gaps = (s: TestServer) => s.requests.slice(1).map((r, i) => (r.at - s.requests[i]!.at) / 1000);

  test("Retry-After in seconds is honoured over the backoff", async () => {
    const s = await sequence([429, 200], { "retry-after": "1" });
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: fast });
    await client.projects.get(1);
    const [gap] = gaps(s);
    expect(gap).toBeGreaterThanOrEqual(0.97);
    expect(gap).toBeLessThan(1.8);
  });

  test("Retry-After as an HTTP date is honoured", async () => {
    let i = 0;
    server = await startTestServer((request, res) => {
      if (i++ > 0) return json(res, 200, { id: 1, username: "u" });
      // HTTP dates have whole seconds: ask for the second after next.
      const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
      json(res, 503, errorBody(503, "busy"), { "retry-after": at.toUTCString() });
    });
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, retryDelay: fast });
    await client.users.whoami();
    const [gap] = gaps(server);
    expect(gap).toBeGreaterThanOrEqual(0.9);
    expect(gap).toBeLessThan(2.5);
  });

  test("retry-after-ms is honoured", async () => {
    const s = await sequence([503, 503, 200], { "retry-after-ms": "300" });
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: fast });
    await client.projects.get(1);
    for (const gap of gaps(s)) {
      expect(gap).toBeGreaterThanOrEqual(0.29);
      expect(gap).toBeLessThan(1);
    }
  });

  test("Retry-After is capped by retryDelay.maxInSeconds", async () => {
    const s = await sequence([429, 200], { "retry-after": "3600" });
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY, retryDelay: { initialInSeconds: 0.01, maxInSeconds: 0.2 } });
    await client.projects.get(1);
    expect(gaps(s)[0]).toBeLessThan(1);
  });

  test("an abort signal cancels the backoff wait", async () => {
    const s = await sequence([429], { "retry-after": "30" });
    const client = createClient({ baseUrl: s.url, apiKey: LEGACY_KEY });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 100);
    await expect(client.projects.get(1, { signal: controller.signal })).rejects.toThrow("stop");
    expect(s.requests).toHaveLength(1);
  });
});

describe("retryDelayMs (pure)", () => {
  const policy = { initialDelayMs: 1000, maxDelayMs: 60_000 };
  const middle = () => 0.5;

  test("exponential: 1 s, 2 s, 4 s … capped at the maximum, ±10 % jitter", () => {
    expect([0, 1, 2, 3, 10].map((n) => retryDelayMs(policy, n, undefined, 0, middle))).toEqual([1000, 2000, 4000, 8000, 60_000]);
    expect(retryDelayMs(policy, 0, undefined, 0, () => 0)).toBeCloseTo(900);
    expect(retryDelayMs(policy, 0, undefined, 0, () => 1)).toBeCloseTo(1100);
  });

  test("Retry-After: 0 or garbage falls through to the backoff", () => {
    for (const value of ["0", "-3", "soon"]) {
      expect(retryDelayMs(policy, 1, new Headers({ "retry-after": value }), 0, middle)).toBe(2000);
    }
  });

  test("X-RateLimit-Reset (epoch seconds) waits until then, plus up to 20 %", () => {
    const now = 1_000_000_000;
    const headers = new Headers({ "x-ratelimit-reset": String(now / 1000 + 5) });
    expect(retryDelayMs(policy, 0, headers, now, () => 0)).toBe(5000);
    expect(retryDelayMs(policy, 0, headers, now, () => 1)).toBe(6000);
  });

  test("the retryable statuses are 408, 409, 429 and ≥ 500", () => {
    const retryable = Array.from({ length: 500 }, (_, i) => i + 100).filter(isRetryableStatus);
    expect(retryable.filter((s) => s < 500)).toEqual([408, 409, 429]);
    expect(retryable.filter((s) => s >= 500)).toHaveLength(100);
  });
});
