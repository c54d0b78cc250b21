import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { faults, passthrough, type MockServer } from "../../../mock-server/index.js";
import { RequestTimeoutError, createClient, type Client } from "../../../src/client/index.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { LEGACY_KEY } from "./fixtures.js";
import { holdInto, received, startMock } from "./on-mock.js";

/**
 * The time limit is a timer on the client's clock. Here the clock is virtual: the mock holds the
 * answer back (`mock.use`), the test moves the clock, and the schedule is asserted exactly.
 */
let mock: MockServer;
let clock: VirtualClock;
/** Answers held back by the mock, released by the test. */
let held: (() => void)[];
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());
beforeEach(async () => {
  await mock.reset();
  clock = new VirtualClock();
  held = [];
});

/** The mock answers whoami and project reads only when the test releases them. */
function holding(): MockServer {
  mock.use("GET /api/current-user/whoami", holdInto(held, passthrough()));
  mock.use("GET /api/projects/{pk}/", holdInto(held, passthrough()));
  return mock;
}

const clientOf = (extra: Parameters<typeof createClient>[0] = {}): Client =>
  createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, clock, ...extra });

describe("time limits", () => {
  test("default: 5 s for every request, then an error naming the request and the limit; not retried", async () => {
    const s = holding();
    const result = clientOf().users.whoami();
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
    const s = holding();
    const result = clientOf().users.whoami();
    await received(s, 1);
    clock.advance(4999);
    held[0]?.();
    await expect(result).resolves.toMatchObject({ username: "u" });
    expect(clock.pending()).toEqual([]);
  });

  test("client-level timeoutInSeconds overrides the default", async () => {
    const s = holding();
    const result = clientOf({ timeoutInSeconds: 0.3 }).projects.get(4);
    await received(s, 1);
    clock.advance(300);
    const error = await result.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "RequestTimeoutError", timeoutInSeconds: 0.3, path: "/api/projects/4/" });
    expect((error as Error).message).toMatch(/^GET \/api\/projects\/4\/ timed out after 0.3 s/);
    expect(clock.scheduled).toEqual([300]);
  });

  test("per-request timeoutInSeconds overrides the client's, shorter or longer", async () => {
    const s = holding();
    const client = clientOf({ timeoutInSeconds: 10 });
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
    mock.use("GET /api/current-user/whoami", faults.stall('{"id": 1, '));
    const result = clientOf({ timeoutInSeconds: 0.3 }).users.whoami();
    await received(mock, 1);
    clock.advance(300);
    await expect(result).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  test("an abort signal cancels the request at once, with the signal's reason", async () => {
    const s = holding();
    const controller = new AbortController();
    const reason = new Error("user navigated away");
    const result = clientOf().users.whoami({ signal: controller.signal });
    await received(s, 1);
    controller.abort(reason);
    // No clock movement and no answer from the server: the abort alone settles the call.
    await expect(result).rejects.toBe(reason);
    expect(clock.pending()).toEqual([]);
  });

  test("an already aborted signal sends nothing", async () => {
    const s = holding();
    const reason = new Error("too late");
    await expect(clientOf().users.whoami({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(s.requests).toHaveLength(0);
  });
});
