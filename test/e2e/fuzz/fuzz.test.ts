import { Agent, request } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NOT_FOUND_PAGE } from "../../../mock-server/guards.js";
import type { MockServer } from "../../../mock-server/index.js";
import { ADA_KEY, startFixture } from "../fixture.js";
import { requestArb, routed, routeOf, type FuzzRequest } from "./requests.js";

/**
 * Hostile requests against every route (requests.ts), in faithful and in strict mode. For each one:
 * the server answers; a routed path answers JSON (a success body, or an error in the server's shape:
 * the handler's `{id, status_code, version, detail, exc_info}` or a view's bare `{detail}`), an
 * unrouted one the 404 page; a request answered 400 or more leaves the store byte for byte as it was;
 * no request makes the mock hit an error it did not mean (its log says "internal error"); no promise
 * rejection goes unhandled; and the server still answers afterwards.
 */
const RUNS = 100;
const PER_RUN = 12;

interface Answer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly disposition: string | undefined;
  readonly text: string;
}

const agent = new Agent({ keepAlive: true });

function send(server: MockServer, fuzz: FuzzRequest): Promise<Answer> {
  const url = new URL(server.url);
  const headers: Record<string, string | number> = {};
  if (fuzz.credential === "valid") headers["Authorization"] = `Token ${ADA_KEY}`;
  if (fuzz.credential === "bad") headers["Authorization"] = "Token not-a-key";
  if (fuzz.contentType !== undefined) headers["Content-Type"] = fuzz.contentType;
  if (fuzz.body) headers["Content-Length"] = fuzz.body.length;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers["content-type"],
          disposition: res.headers["content-disposition"],
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(fuzz.body);
  });
}

const HANDLER_KEYS = ["detail", "exc_info", "id", "status_code", "version"];

/** The checks every answer must pass; returns a description of the first failure, if any. */
function check(fuzz: FuzzRequest, answer: Answer): string | undefined {
  if (!routed(fuzz.url)) {
    if (answer.status !== 404 || answer.contentType !== "text/html; charset=utf-8") return "an unrouted path did not get the 404 page";
    return fuzz.method === "HEAD" || answer.text === NOT_FOUND_PAGE ? undefined : "the 404 page differs";
  }
  if (fuzz.method === "HEAD" || answer.status === 204 || (answer.status === 200 && fuzz.method === "OPTIONS" && answer.text === ""))
    return undefined;
  // A file (an export) is sent as it is, with its own type.
  if (answer.status < 400 && answer.disposition?.startsWith("attachment; ")) return undefined;
  // A view without the trailing slash in its pattern: its 404 reaches the client as the 404 page.
  if (answer.status === 404 && routeOf(fuzz.url)?.slash === false) {
    return answer.contentType === "text/html; charset=utf-8" && answer.text === NOT_FOUND_PAGE
      ? undefined
      : "a 404 that is not the 404 page";
  }
  if (!answer.contentType?.startsWith("application/json")) return `a routed path answered ${answer.contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return "the body is not JSON";
  }
  if (answer.status < 400) return undefined;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "an error body that is not an object";
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  if (keys.length === 1 && keys[0] === "detail")
    return typeof record["detail"] === "string" ? undefined : "a bare detail that is not a string";
  // LabelConfigValidateAPI answers its serializer's errors through DRF's own handler: bare `{field: [messages]}`.
  if (/^\/api\/projects\/validate\/?(\?|$)/.test(fuzz.url) && answer.status === 400 && !("status_code" in record))
    return Object.values(record).every((v) => Array.isArray(v) && v.every((m) => typeof m === "string"))
      ? undefined
      : "field errors that are not lists of text";
  // UserHotkeysAPI answers its own errors: `{error, details}` for a body its serializer refuses, `{error}` when saving fails.
  if (/^\/api\/current-user\/hotkeys\/?(\?|$)/.test(fuzz.url) && !("status_code" in record))
    return typeof record["error"] === "string" && keys.every((k) => k === "error" || k === "details")
      ? undefined
      : "hotkeys errors that are not {error, details}";
  const expected = "validation_errors" in record ? [...HANDLER_KEYS, "validation_errors"].sort() : HANDLER_KEYS;
  if (JSON.stringify(keys) !== JSON.stringify(expected)) return `error keys ${keys.join(",")}`;
  if (record["status_code"] !== answer.status) return "status_code differs from the status";
  if (typeof record["detail"] !== "string") return "detail is not a string";
  if (answer.status < 500 && record["exc_info"] !== null) return "exc_info on a 4xx";
  return undefined;
}

describe.each([false, true])("hostile requests (strict: %s)", (strict) => {
  let server: MockServer;
  const internal: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(async () => {
    server = await startFixture({ strict, logger: (line) => (line.startsWith("internal error") ? internal.push(line) : undefined) });
    process.on("unhandledRejection", onUnhandled);
  });
  afterAll(async () => {
    process.off("unhandledRejection", onUnhandled);
    await server.close();
  });

  test("answered in the server's shapes; refused requests change nothing; no crash", async () => {
    let fuzzed = 0;
    let refused = 0;
    const changedByRefused: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: 1, maxLength: PER_RUN }), async (batch) => {
        await server.reset();
        for (const fuzz of batch) {
          const before = JSON.stringify(server.data());
          const answer = await send(server, fuzz);
          fuzzed += 1;
          const problem = check(fuzz, answer);
          const where = `${fuzz.method} ${fuzz.url} [${fuzz.contentType}] → ${answer.status} ${answer.text.slice(0, 200)}`;
          expect(problem, where).toBeUndefined();
          if (answer.status >= 400) {
            refused += 1;
            if (JSON.stringify(server.data()) !== before) changedByRefused.push(where);
          }
          expect(changedByRefused).toEqual([]);
          expect(internal, where).toEqual([]);
        }
      }),
      { numRuns: RUNS, seed: strict ? 1101 : 1100, endOnFailure: true },
    );
    expect(unhandled).toEqual([]);
    expect(fuzzed).toBeGreaterThan(RUNS * 2);
    expect(refused).toBeGreaterThan(fuzzed / 4);
    // Still up and answering (from the seed again: a batch may have reset the caller's token or deleted the caller).
    await server.reset();
    const alive = await send(server, {
      method: "GET",
      url: "/api/current-user/whoami",
      contentType: undefined,
      body: undefined,
      credential: "valid",
    });
    expect(alive.status).toBe(200);
  }, 120_000);
});
