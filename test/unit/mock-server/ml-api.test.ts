import { describe, expect, test } from "vitest";
import { MAX_RETRIES, MLApi } from "../../../mock-server/ml/api.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";

/*
 * The mock's client for model servers, as the server's `requests` session behaves: a call that cannot connect
 * is tried twice more at once (urllib3's Retry without backoff), an answer or a read timeout is not retried,
 * and the time limits run on the mock's clock (asserted in virtual time, nothing waits).
 */
const backend = { url: "http://model.test:9090", timeout: 100, basic_auth_user: null, basic_auth_pass: null } as never;
const refused = () => Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });

/** A fetch that plays `steps` in order, recording the virtual time of each call. */
function scripted(clock: VirtualClock, steps: ("refuse" | "reset" | "ok" | "500" | "hang")[]) {
  const calls: number[] = [];
  const impl = ((_url: string, init: RequestInit) => {
    calls.push(clock.now());
    const step = steps[calls.length - 1] ?? "ok";
    if (step === "refuse") return Promise.reject(refused());
    if (step === "reset") return Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } }));
    if (step === "500") return Promise.resolve(new Response("boom", { status: 500, statusText: "Internal Server Error" }));
    if (step === "hang")
      return new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    return Promise.resolve(new Response(JSON.stringify({ model_version: "v1" }), { status: 200 }));
  }) as unknown as typeof fetch;
  return { calls, impl };
}

describe("MLApi", () => {
  test("a refused connection is tried twice more, at once; the third refusal is the server's 'Max retries exceeded'", async () => {
    const clock = new VirtualClock(0);
    const recovering = scripted(clock, ["refuse", "refuse", "ok"]);
    const ok = await new MLApi(backend, clock, recovering.impl).request("setup", {});
    expect([ok.status, ok.error, ok.response]).toEqual([200, undefined, { model_version: "v1" }]);
    expect(recovering.calls).toEqual([0, 0, 0]);
    const down = scripted(clock, ["refuse", "refuse", "refuse", "ok"]);
    const failed = await new MLApi(backend, clock, down.impl).request("health");
    expect(down.calls).toHaveLength(1 + MAX_RETRIES);
    expect([failed.status, failed.error]).toEqual([
      0,
      "HTTPConnectionPool(host='model.test', port=9090): Max retries exceeded with url: /health (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    ]);
    expect(clock.pending()).toEqual([]);
  });

  test("an answer (even a 500) and a connection lost after sending are not retried", async () => {
    const clock = new VirtualClock(0);
    const error = scripted(clock, ["500", "ok"]);
    const answered = await new MLApi(backend, clock, error.impl).request("predict", { tasks: [] });
    expect([error.calls.length, answered.status, answered.error]).toEqual([
      1,
      500,
      "500 Server Error: Internal Server Error for url: http://model.test:9090/predict",
    ]);
    const reset = scripted(clock, ["reset", "ok"]);
    expect((await new MLApi(backend, clock, reset.impl).request("versions")).status).toBe(0);
    expect(reset.calls).toHaveLength(1);
  });

  test("a model server that does not answer: 'Read timed out.' exactly at the endpoint's limit, on the mock's clock", async () => {
    const clock = new VirtualClock(0);
    const hung = scripted(clock, ["hang"]);
    let settled = false;
    const pending = new MLApi(backend, clock, hung.impl).request("health").then((r) => ((settled = true), r));
    await Promise.resolve();
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    const result = await pending;
    expect([result.status, result.error, clock.now()]).toEqual([
      0,
      "HTTPConnectionPool(host='model.test', port=9090): Read timed out.",
      1000,
    ]);
    expect(hung.calls).toEqual([0]);
    expect(clock.scheduled).toEqual([1000]);
  });
});
