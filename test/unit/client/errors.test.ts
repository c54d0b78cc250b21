import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { faults, passthrough, reply, type MockServer, type OverrideRequest } from "../../../mock-server/index.js";
import { selection } from "../../../src/selection.js";
import { ApiError, UnexpectedResponseError, createClient, type Client } from "../../../src/client/index.js";
import { LEGACY_KEY } from "./fixtures.js";
import { closedPortUrl, startMock } from "./on-mock.js";

/* What the client makes of the server's failures; the mock answers them (`mock.use`). */
let mock: MockServer;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** Label Studio's error body (docs/reference/errors.md#the-error-body). */
const errorBody = (status: number, detail: string, extra: Record<string, string | object | null> = {}) => ({
  id: "00000000-0000-4000-8000-000000000000",
  status_code: status,
  version: "test",
  detail,
  exc_info: null,
  ...extra,
});

const caught = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
};

describe("ApiError", () => {
  test("a 500 from the actions endpoint: status, headers, parsed body, method, path, message", async () => {
    const body = errorBody(500, "Can't find 'x' in registered actions", { exc_info: "Traceback …" });
    mock.use("POST /api/dm/actions/", reply(500, body, { "x-request-id": "r-1" }));
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, maxRetries: 0 });
    const request = selection(1).all().toRequest({ customAction: "x" });
    const error = await caught(client.actions.perform(request));

    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe("ApiError");
    expect(error.message).toBe("POST /api/dm/actions/ → 500: Can't find 'x' in registered actions");
    expect(error).toMatchObject({ statusCode: 500, method: "POST", path: "/api/dm/actions/", body });
    expect((error as ApiError).headers["x-request-id"]).toBe("r-1");
    expect((error as ApiError).headers["content-type"]).toBe("application/json");
  });

  test("validation errors are named in the message", async () => {
    const body = errorBody(400, "Validation error", { validation_errors: { project: ["This field is required."] } });
    mock.use("POST /api/tasks/", reply(400, body));
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    const error = await caught(client.tasks.create({ project: 1, data: {} }));
    expect(error.message).toBe("POST /api/tasks/ → 400: Validation error; project: This field is required.");
  });

  test("a non-JSON error body is kept as text; an HTML page is named by its title, or its text", async () => {
    const page = "<html><body>\n  Bad gateway\n</body></html>";
    mock.use("GET /api/projects/{pk}/", faults.malformed({ status: 502, text: page, contentType: "text/html; charset=utf-8" }));
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, maxRetries: 0 });
    const error = (await caught(client.projects.get(2))) as ApiError;
    expect(error.body).toBe("<html><body>\n  Bad gateway\n</body></html>");
    expect(error.message).toBe("GET /api/projects/2/ → 502: an HTML page: Bad gateway");
    mock.use(
      "GET /api/projects/{pk}/",
      faults.malformed({
        status: 404,
        text: "<!DOCTYPE html>\n<html><head><title>404 | Label Studio</title></head><body>…</body></html>",
        contentType: "text/html; charset=utf-8",
      }),
    );
    expect(((await caught(client.projects.get(2))) as ApiError).message).toBe(
      'GET /api/projects/2/ → 404: an HTML page titled "404 | Label Studio"',
    );
  });

  test("an empty error body falls back to the status text", async () => {
    mock.use("DELETE /api/projects/{pk}/", reply(403));
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    const error = await caught(client.projects.delete(2));
    expect(error.message).toBe("DELETE /api/projects/2/ → 403: Forbidden");
  });

  test("a 2xx whose body is not JSON is an UnexpectedResponseError (an ApiError), not a crash", async () => {
    mock.use("GET /api/projects/{pk}/", faults.malformed({ text: "<html>login page</html>", contentType: "text/html; charset=utf-8" }));
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    const error = await caught(client.projects.get(2));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('GET /api/projects/2/ → 200: expected a JSON object with id, title, found string "<html>login page</html>"');
    expect(error).toMatchObject({ statusCode: 200, body: "<html>login page</html>", where: "" });
  });

  test("a 2xx with the wrong JSON names the place", async () => {
    mock.use(
      "GET /api/projects/",
      reply(200, {
        count: 2,
        next: null,
        previous: null,
        results: [
          { id: 1, title: "a" },
          { id: "2", title: "b" },
        ],
      }),
    );
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    const error = await caught(client.projects.list().page(1));
    expect(error.message).toBe('GET /api/projects/ → 200: expected results[1].id to be a number, found string "2"');
    expect((error as UnexpectedResponseError).where).toBe("results[1].id");
  });

  test("an empty 2xx where JSON is expected is reported; where none is expected it is fine", async () => {
    mock.use("DELETE /api/projects/{pk}/", reply(204));
    mock.use("GET /api/dm/actions/", reply(200));
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    await expect(client.projects.delete(1)).resolves.toBeUndefined();
    await expect(client.actions.list(1)).rejects.toThrow('GET /api/dm/actions/ → 200: expected a JSON array, found string ""');
  });

  test("a __proto__ key in a body is dropped, not made the prototype of the error's copy; a call with a query reads it alike", async () => {
    const text = '{"detail":"Not found.","__proto__":{"polluted":"yes"}}';
    mock.use("GET /api/projects/{pk}/", faults.malformed({ status: 404, text, contentType: "application/json" }));
    mock.use("GET /api/projects/", faults.malformed({ status: 404, text, contentType: "application/json" }));
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY, maxRetries: 0 });
    // No query: fetch is called directly; a page has one: through ofetch.
    for (const error of [await caught(client.projects.get(2)), await caught(client.projects.list().page(1))] as ApiError[]) {
      expect(error.message).toMatch(/ → 404: Not found\.$/);
      expect(Object.getPrototypeOf(error.body)).toBe(Object.prototype);
      expect(Object.keys(error.body as object)).toEqual(["detail"]);
      expect((error.body as { polluted?: string }).polluted).toBeUndefined();
    }
  });
});

describe("no key or token in errors or in the client", () => {
  /** Everything a user might print or log about an error. */
  const renderings = (value: unknown): string[] => {
    const error = value as Error;
    return [
      String(error.message),
      String(error.stack),
      JSON.stringify(error),
      inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      String(error),
    ];
  };

  const expectAbsent = (value: unknown, secrets: string[]) => {
    for (const rendering of renderings(value)) for (const secret of secrets) expect(rendering).not.toContain(secret);
  };

  test("a server that echoes the legacy key in its body and headers", async () => {
    mock.use("GET /api/current-user/whoami", (request) =>
      reply(401, { detail: `Invalid token ${request.headers.authorization}` }, { "x-echo": String(request.headers.authorization) }),
    );
    const client = createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY });
    const error = (await caught(client.users.whoami())) as ApiError;
    expect(error.message).toBe("GET /api/current-user/whoami → 401: Invalid token Token [redacted]");
    expect(error.headers["x-echo"]).toBe("Token [redacted]");
    expectAbsent(error, [LEGACY_KEY]);
  });

  /** The access tokens the client sent: the mock issues them, the override sees them as sent. */
  const sent = (seen: string[]) => (request: OverrideRequest) => {
    const auth = String(request.headers.authorization);
    if (auth.startsWith("Bearer ")) seen.push(auth.slice("Bearer ".length));
    return auth;
  };

  test("personal access token and access tokens, in every kind of failure", async () => {
    const pat = mock.personalAccessToken;
    const access: string[] = [];
    const record = sent(access);
    let mode = "echo";
    const answer = (request: OverrideRequest) => {
      const auth = record(request);
      if (mode === "echo") return reply(418, { detail: auth, pat, tokens: [auth], [auth]: 1 }, { "x-echo": auth });
      if (mode === "bad-2xx") return reply(200, { access: auth, pat });
      return faults.delay(Infinity);
    };
    mock.use("GET /api/current-user/whoami", answer);
    mock.use("GET /api/projects/{pk}/", answer);
    const client = createClient({ baseUrl: mock.url, apiKey: pat, timeoutInSeconds: 0.3 });
    const failures: unknown[] = [];
    failures.push(await caught(client.users.whoami()));
    mode = "bad-2xx";
    failures.push(await caught(client.projects.get(1)));
    mode = "slow";
    failures.push(await caught(client.users.whoami()));
    mock.use("POST /api/token/refresh/", reply(400, { detail: `bad ${pat}` }), { times: 1 });
    const other = createClient({ baseUrl: mock.url, apiKey: pat });
    failures.push(await caught(other.users.whoami()));
    failures.push(await caught(createClient({ baseUrl: await closedPortUrl(), apiKey: pat, maxRetries: 0 }).users.whoami()));
    failures.push(await caught(client.tokens.refresh(`${pat} `.repeat(2))));

    expect(access.length).toBeGreaterThan(0);
    for (const failure of failures) expectAbsent(failure, [pat, ...access]);
    expect((failures[0] as ApiError).body).toMatchObject({ detail: "Bearer [redacted]", pat: "[redacted]" });
  });

  test("util.inspect and JSON.stringify of the client show no secret", async () => {
    const pat = mock.personalAccessToken;
    const access: string[] = [];
    const record = sent(access);
    mock.use("GET /api/current-user/whoami", (request) => (record(request), passthrough()));
    const clients: Client[] = [createClient({ baseUrl: mock.url, apiKey: pat }), createClient({ baseUrl: mock.url, apiKey: LEGACY_KEY })];
    for (const client of clients) {
      await client.users.whoami();
      const project = client.project(1);
      for (const value of [client, project, client.tokens, client.projects]) {
        const shown = [inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }), JSON.stringify(value)];
        for (const text of shown) for (const secret of [pat, LEGACY_KEY, ...access]) expect(text).not.toContain(secret);
      }
    }
    expect(access).toHaveLength(1);
    expect(JSON.stringify(clients[0])).toBe(JSON.stringify({ baseUrl: mock.url, authMode: "personal access token" }));
    expect(inspect(clients[1])).toBe(`Client {"baseUrl":"${mock.url}","authMode":"legacy token"}`);
  });
});
