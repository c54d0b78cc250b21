import { describe, expect, test } from "vitest";
import { ApiError, ClientConfigError, NetworkError } from "../../../src/client/errors.js";
import { childFiltersGuard, linesWithChildFilters, readsChildFilters } from "../../../src/client/server-release.js";
import type { Call, Send } from "../../../src/client/transport.js";

const item = (children?: number) => ({
  filter: "filter:tasks:id",
  operator: "greater",
  type: "Number",
  value: 1,
  ...(children === undefined ? {} : { child_filters: Array.from({ length: children }, () => ({ filter: "filter:tasks:id" })) }),
});
const twoChildren = { conjunction: "and", items: [item(), item(2)] };

/** A Send that answers GET /api/version/ from the list (a value, or an error to throw), and counts the calls. */
function versions(...answers: unknown[]): { send: Send; calls: Call<unknown>[] } {
  const calls: Call<unknown>[] = [];
  const send = (async (call: Call<unknown>) => {
    calls.push(call);
    const answer = answers.shift();
    if (answer instanceof Error) throw answer;
    return answer;
  }) as Send;
  return { send, calls };
}

test("child_filters is read from 1.23 on; a release that is no version number says nothing", () => {
  expect(["1.22.0.dev0", "1.22.0", "1.9.2", "0.9"].map(readsChildFilters)).toEqual([false, false, false, false]);
  expect(["1.23.0", "1.23.2", "1.24.0.dev1", "2.0.0"].map(readsChildFilters)).toEqual([true, true, true, true]);
  expect(readsChildFilters("develop")).toBeUndefined();
});

test("the lines that hold child_filters (one child_filter is not one of them)", () => {
  const single = { ...item(), child_filter: item() };
  expect(linesWithChildFilters({ items: [item(), single, item(2), item(0), item(1)] })).toEqual([
    { index: 2, children: 2 },
    { index: 4, children: 1 },
  ]);
  expect(linesWithChildFilters(undefined)).toEqual([]);
  expect(linesWithChildFilters({ items: "x" })).toEqual([]);
});

describe("childFiltersGuard", () => {
  test("a body without child_filters never asks the server's release", async () => {
    const { send, calls } = versions();
    const guard = childFiltersGuard(send);
    await guard(undefined);
    await guard({ conjunction: "and", items: [item(), { ...item(), child_filter: item() }] });
    expect(calls).toEqual([]);
  });

  test("before 1.23: refused, naming the line, the release, why and the fix; the release is read once", async () => {
    const { send, calls } = versions({ release: "1.22.0" });
    const guard = childFiltersGuard(send);
    const refusal = await guard(twoChildren).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ClientConfigError);
    expect(refusal).toMatchObject({ field: "filters.items[1]" });
    const message = (refusal as Error).message;
    expect(message).toMatch(/^filters\.items\[1\]: expected at most one child condition \(sent as child_filter\)/);
    expect(message).toContain("found 2 in child_filters, and this server (Label Studio 1.22.0) reads only child_filter");
    expect(message).toContain("would select more tasks than the selection");
    expect(message).toContain("write each child as its own line, .and(column)");
    expect(message).toContain("an OR set");
    await expect(guard({ items: [item(3)] })).rejects.toThrow(/^filters\.items\[0\]: .*found 3 in child_filters/);
    expect(calls).toEqual([{ method: "GET", path: "/api/version/", expect: expect.any(Function), anonymous: true }]);
  });

  test("1.23 and later, and a server that answers without a release number: sent", async () => {
    for (const answer of [{ release: "1.23.0" }, { release: "develop" }, {}, "<html>", null]) {
      const { send, calls } = versions(answer);
      const guard = childFiltersGuard(send);
      await guard(twoChildren);
      await guard(twoChildren);
      expect(calls).toHaveLength(1);
    }
    const notFound = new ApiError({ method: "GET", path: "/api/version/", statusCode: 404, headers: {}, body: "no" });
    const { send } = versions(notFound);
    await expect(childFiltersGuard(send)(twoChildren)).resolves.toBeUndefined();
  });

  test("no answer (network, 5xx): refused, and the next call asks again", async () => {
    const down = new NetworkError("GET", "http://x/api/version/", 1, "connection refused", "ECONNREFUSED");
    const failing = new ApiError({ method: "GET", path: "/api/version/", statusCode: 502, headers: {}, body: "bad gateway" });
    const { send, calls } = versions(down, failing, { release: "1.22.0" });
    const guard = childFiltersGuard(send);
    await expect(guard(twoChildren)).rejects.toThrow(
      /^filters\.items\[1\]: expected a server whose release \(GET \/api\/version\/\) says it reads child_filters \(1\.23 or later\), found no answer \(GET http:\/\/x\/api\/version\/ failed: connection refused/,
    );
    await expect(guard(twoChildren)).rejects.toThrow(/found no answer \(GET \/api\/version\/ → 502/);
    await expect(guard(twoChildren)).rejects.toThrow(/Label Studio 1\.22\.0/);
    await expect(guard(twoChildren)).rejects.toThrow(/Label Studio 1\.22\.0/);
    expect(calls).toHaveLength(3);
  });
});
