import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { faults, passthrough, type MockServer, type RouteKey } from "../../../mock-server/index.js";
import { ApiError, NetworkError, createClient, type Client } from "../../../src/client/index.js";
import { isIdempotent, isRetryableStatus, retryDelayMs, shouldRetry } from "../../../src/client/retry.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { LEGACY_KEY } from "./fixtures.js";
import { closedPortUrl, startMock } from "./on-mock.js";

/**
 * Everything runs on a virtual clock: the attempt time limits and the waits between attempts are
 * timers on it, so the schedules below are exact and nothing waits. Attempt limits are the default
 * 5 s; `skipWaits` jumps over every other timer (a wait between attempts) as soon as it is set.
 * The mock fails as each test says (`mock.use`), and its journal shows what was sent.
 */
let mock: MockServer;
let clock: VirtualClock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());
beforeEach(async () => {
  await mock.reset();
  clock = new VirtualClock();
  // Jitter factor 0.9 + 0.2 · 0.5 = 1: the backoff is exactly 1 s, 2 s, 4 s …
  vi.spyOn(Math, "random").mockReturnValue(0.5);
  return () => vi.restoreAllMocks();
});

const skipWaits = () => {
  clock.autoAdvance = (_index, ms) => ms !== 5000;
};
const clientOf = (url: string, extra: Parameters<typeof createClient>[0] = {}): Client =>
  createClient({ baseUrl: url, apiKey: LEGACY_KEY, clock, ...extra });

const ROUTES: readonly RouteKey[] = [
  "GET /api/projects/{pk}/",
  "POST /api/projects/",
  "PATCH /api/projects/{pk}/",
  "DELETE /api/tasks/{pk}/",
  "POST /api/dm/actions/",
  "POST /api/token/refresh/",
];

/** The mock answers `statuses` in turn on every route above (the last one repeats); 200 is its own answer. */
function sequence(statuses: number[], headers: Record<string, string> = {}): MockServer {
  let i = 0;
  const answer = () => {
    const status = statuses[Math.min(i++, statuses.length - 1)] ?? 200;
    return status === 200 ? passthrough() : faults.status(status, { headers });
  };
  for (const route of ROUTES) mock.use(route, answer);
  return mock;
}

describe("idempotent requests keep the official SDK's policy", () => {
  test.each([408, 409, 429, 500, 502, 503, 504])(
    "%i is retried up to maxRetries (default 2: three attempts, waits 1 s and 2 s)",
    async (status) => {
      const s = sequence([status]);
      skipWaits();
      const error = await clientOf(s.url)
        .projects.get(1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).statusCode).toBe(status);
      expect(s.requests).toHaveLength(3);
      expect(clock.scheduled).toEqual([5000, 1000, 5000, 2000, 5000]);
    },
  );

  test.each([400, 401, 403, 404, 405, 422])("%i is not retried", async (status) => {
    const s = sequence([status]);
    skipWaits();
    await expect(clientOf(s.url).projects.get(1)).rejects.toMatchObject({ statusCode: status });
    expect(s.requests).toHaveLength(1);
    expect(clock.scheduled).toEqual([5000]);
  });

  test("PUT and DELETE are retried like GET", async () => {
    const s = sequence([500]);
    skipWaits();
    const client = clientOf(s.url);
    await expect(client.tasks.delete(1)).rejects.toMatchObject({ statusCode: 500 });
    expect(s.requests.map((r) => r.method)).toEqual(["DELETE", "DELETE", "DELETE"]);
  });

  test("success after failures returns the data", async () => {
    const s = sequence([503, 429, 200]);
    skipWaits();
    await expect(clientOf(s.url).projects.get(1)).resolves.toMatchObject({ id: 1, title: "P" });
    expect(s.requests).toHaveLength(3);
  });

  test("client-level and per-request maxRetries set the count", async () => {
    const s = sequence([500]);
    skipWaits();
    const client = clientOf(s.url, { maxRetries: 4 });
    await expect(client.projects.get(1)).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(5);
    expect(clock.scheduled.filter((_, i) => i % 2 === 1)).toEqual([1000, 2000, 4000, 8000]);
    await expect(client.projects.get(1, { maxRetries: 1 })).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(7);
    await expect(client.projects.get(1, { maxRetries: 0 })).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(8);
  });

  test("connection errors are retried, then reported with the URL and the attempts", async () => {
    const url = await closedPortUrl();
    skipWaits();
    const error = await clientOf(url)
      .projects.get(3)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ method: "GET", url: `${url}/api/projects/3/`, attempts: 3, code: "ECONNREFUSED" });
    expect((error as Error).message).toMatch(new RegExp(`^GET ${url}/api/projects/3/ failed: .*ECONNREFUSED.* \\(3 attempts\\)$`));
    expect(clock.scheduled).toEqual([5000, 1000, 5000, 2000, 5000]);
  });

  test("a connection dropped before the answer is retried", async () => {
    mock.use("GET /api/current-user/whoami", faults.drop(), { times: 1 });
    skipWaits();
    await expect(clientOf(mock.url).users.whoami()).resolves.toMatchObject({ username: "u" });
    expect(mock.requests).toHaveLength(2);
  });
});

describe("a POST or PATCH is sent again only when the server certainly did not act on it", () => {
  test.each([429, 503])("%i (refused or not served) is retried", async (status) => {
    const s = sequence([status]);
    skipWaits();
    await expect(clientOf(s.url).projects.create({ title: "x" })).rejects.toMatchObject({ statusCode: status });
    expect(s.requests.map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    expect(clock.scheduled).toEqual([5000, 1000, 5000, 2000, 5000]);
  });

  test.each([408, 409, 500, 502, 504])("%i (the server may have acted) is not retried", async (status) => {
    const s = sequence([status]);
    skipWaits();
    await expect(clientOf(s.url).projects.create({ title: "x" })).rejects.toMatchObject({ statusCode: status });
    await expect(clientOf(s.url).projects.update(1, { title: "y" })).rejects.toMatchObject({ statusCode: status });
    expect(s.requests.map((r) => r.method)).toEqual(["POST", "PATCH"]);
  });

  test("a PATCH answered 503 is retried", async () => {
    const s = sequence([503, 200]);
    skipWaits();
    await expect(clientOf(s.url).projects.update(1, { title: "renamed" })).resolves.toMatchObject({ id: 1, title: "renamed" });
    expect(s.requests.map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
  });

  test("a refused connection (nothing was sent) is retried", async () => {
    const url = await closedPortUrl();
    skipWaits();
    await expect(clientOf(url).projects.create({ title: "x" })).rejects.toMatchObject({
      name: "NetworkError",
      attempts: 3,
      code: "ECONNREFUSED",
    });
  });

  test("a connection dropped after the request arrived is not retried", async () => {
    mock.use("POST /api/projects/", faults.drop());
    skipWaits();
    const error = await clientOf(mock.url)
      .projects.create({ title: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ method: "POST", attempts: 1 });
    expect(mock.requests).toHaveLength(1);
  });

  test("an action (POST) is sent once on a 500", async () => {
    const s = sequence([500]);
    skipWaits();
    const request = { method: "POST", path: "/api/dm/actions/", query: { id: "delete_tasks", project: 1 }, body: {} } as const;
    const error = await clientOf(s.url)
      .actions.perform(request)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 500 });
    expect(s.requests).toHaveLength(1);
  });

  test("the token exchange (a POST that may be repeated) is retried like a GET", async () => {
    const s = sequence([500]);
    skipWaits();
    await expect(clientOf(s.url).tokens.refresh("a-personal-access-token")).rejects.toMatchObject({ statusCode: 500 });
    expect(s.requests.map((r) => r.path)).toEqual(["/api/token/refresh/", "/api/token/refresh/", "/api/token/refresh/"]);
  });
});

describe("waits", () => {
  test("Retry-After in seconds is honoured over the backoff", async () => {
    const s = sequence([429, 200], { "retry-after": "3" });
    skipWaits();
    await clientOf(s.url).projects.get(1);
    expect(clock.scheduled).toEqual([5000, 3000, 5000]);
  });

  test("Retry-After as an HTTP date is honoured (measured on the client's clock)", async () => {
    const at = new Date(clock.now() + 7000).toUTCString();
    const s = sequence([503, 200], { "retry-after": at });
    skipWaits();
    await clientOf(s.url).projects.get(1);
    expect(clock.scheduled).toEqual([5000, 7000, 5000]);
  });

  test("retry-after-ms is honoured", async () => {
    const s = sequence([503, 503, 200], { "retry-after-ms": "300" });
    skipWaits();
    await clientOf(s.url).projects.get(1);
    expect(clock.scheduled).toEqual([5000, 300, 5000, 300, 5000]);
  });

  test("X-RateLimit-Reset waits until then, plus up to 20 % jitter", async () => {
    const s = sequence([429, 200], { "x-ratelimit-reset": String(clock.now() / 1000 + 5) });
    skipWaits();
    await clientOf(s.url).projects.get(1);
    expect(clock.scheduled).toEqual([5000, 5000 * 1.1, 5000]);
  });

  test("every wait is capped by retryDelay.maxInSeconds", async () => {
    const s = sequence([429, 200], { "retry-after": "3600" });
    skipWaits();
    await clientOf(s.url, { retryDelay: { maxInSeconds: 0.2 } }).projects.get(1);
    expect(clock.scheduled).toEqual([5000, 200, 5000]);
  });

  test("an abort signal cancels the wait at once, with its reason", async () => {
    const s = sequence([429], { "retry-after": "30" });
    const controller = new AbortController();
    const result = clientOf(s.url).projects.get(1, { signal: controller.signal });
    await clock.whenScheduled(2);
    expect(clock.pending()).toEqual([30_000]);
    controller.abort(new Error("stop"));
    await expect(result).rejects.toThrow("stop");
    expect(clock.pending()).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });
});

describe("the policy (pure)", () => {
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

  test("the retryable statuses of idempotent requests are 408, 409, 429 and ≥ 500", () => {
    const retryable = Array.from({ length: 500 }, (_, i) => i + 100).filter(isRetryableStatus);
    expect(retryable.filter((s) => s < 500)).toEqual([408, 409, 429]);
    expect(retryable.filter((s) => s >= 500)).toHaveLength(100);
  });

  test("which methods are idempotent, and what a non-idempotent one is retried for", () => {
    expect(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "POST", "PATCH"].filter(isIdempotent)).toEqual([
      "GET",
      "HEAD",
      "OPTIONS",
      "PUT",
      "DELETE",
    ]);
    const statuses = Array.from({ length: 500 }, (_, i) => i + 100);
    expect(statuses.filter((status) => shouldRetry(false, { status }))).toEqual([429, 503]);
    expect(shouldRetry(false, { networkCode: "ECONNREFUSED" })).toBe(true);
    expect(shouldRetry(false, { networkCode: "ENOTFOUND" })).toBe(true);
    expect(shouldRetry(false, { networkCode: "ECONNRESET" })).toBe(false);
    expect(shouldRetry(false, { networkCode: "UND_ERR_SOCKET" })).toBe(false);
    expect(shouldRetry(false, { networkCode: undefined })).toBe(false);
    expect(shouldRetry(true, { networkCode: "ECONNRESET" })).toBe(true);
  });
});
