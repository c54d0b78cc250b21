import { inspect } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { selection } from "../../../src/selection.js";
import { ApiError, UnexpectedResponseError, createClient, type Client } from "../../../src/client/index.js";
import { closedPortUrl, errorBody, json, startTestServer, text, type TestServer } from "../../helpers/http-server.js";
import { LEGACY_KEY, TokenAuthority, personalAccessToken } from "./fixtures.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
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
    server = await startTestServer((_request, res) => json(res, 500, body, { "x-request-id": "r-1" }));
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, maxRetries: 0 });
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
    server = await startTestServer((_request, res) => json(res, 400, body));
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    const error = await caught(client.tasks.create({ project: 1, data: {} }));
    expect(error.message).toBe("POST /api/tasks/ → 400: Validation error; project: This field is required.");
  });

  test("a non-JSON error body is kept as text; an HTML page is named by its title, or its text", async () => {
    server = await startTestServer((_request, res) => text(res, 502, "<html><body>\n  Bad gateway\n</body></html>"));
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, maxRetries: 0 });
    const error = (await caught(client.projects.get(2))) as ApiError;
    expect(error.body).toBe("<html><body>\n  Bad gateway\n</body></html>");
    expect(error.message).toBe("GET /api/projects/2/ → 502: an HTML page: Bad gateway");
    await server.close();
    server = await startTestServer((_request, res) =>
      text(res, 404, "<!DOCTYPE html>\n<html><head><title>404 | Label Studio</title></head><body>…</body></html>"),
    );
    const other = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY, maxRetries: 0 });
    expect(((await caught(other.projects.get(2))) as ApiError).message).toBe(
      'GET /api/projects/2/ → 404: an HTML page titled "404 | Label Studio"',
    );
  });

  test("an empty error body falls back to the status text", async () => {
    server = await startTestServer((_request, res) => {
      res.writeHead(403);
      res.end();
    });
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    const error = await caught(client.projects.delete(2));
    expect(error.message).toBe("DELETE /api/projects/2/ → 403: Forbidden");
  });

  test("a 2xx whose body is not JSON is an UnexpectedResponseError (an ApiError), not a crash", async () => {
    server = await startTestServer((_request, res) => text(res, 200, "<html>login page</html>"));
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    const error = await caught(client.projects.get(2));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('GET /api/projects/2/ → 200: expected a JSON object with id, title, found string "<html>login page</html>"');
    expect(error).toMatchObject({ statusCode: 200, body: "<html>login page</html>", where: "" });
  });

  test("a 2xx with the wrong JSON names the place", async () => {
    server = await startTestServer((_request, res) =>
      json(res, 200, {
        count: 2,
        next: null,
        previous: null,
        results: [
          { id: 1, title: "a" },
          { id: "2", title: "b" },
        ],
      }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    const error = await caught(client.projects.list().page(1));
    expect(error.message).toBe('GET /api/projects/ → 200: expected results[1].id to be a number, found string "2"');
    expect((error as UnexpectedResponseError).where).toBe("results[1].id");
  });

  test("an empty 2xx where JSON is expected is reported; where none is expected it is fine", async () => {
    server = await startTestServer((request, res) => {
      res.writeHead(request.method === "DELETE" ? 204 : 200);
      res.end();
    });
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    await expect(client.projects.delete(1)).resolves.toBeUndefined();
    await expect(client.actions.list(1)).rejects.toThrow('GET /api/dm/actions/ → 200: expected a JSON array, found string ""');
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
    server = await startTestServer((request, res) =>
      json(res, 401, { detail: `Invalid token ${request.headers.authorization}` }, { "x-echo": String(request.headers.authorization) }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: LEGACY_KEY });
    const error = (await caught(client.users.whoami())) as ApiError;
    expect(error.message).toBe("GET /api/current-user/whoami → 401: Invalid token Token [redacted]");
    expect(error.headers["x-echo"]).toBe("Token [redacted]");
    expectAbsent(error, [LEGACY_KEY]);
  });

  test("personal access token and access tokens, in every kind of failure", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    let mode = "echo";
    server = await startTestServer(async (request, res) => {
      if (await authority.handleRefresh(request, res)) return;
      const auth = String(request.headers.authorization);
      if (mode === "echo") return json(res, 418, { detail: auth, pat, tokens: [auth], [auth]: 1 }, { "x-echo": auth });
      if (mode === "bad-2xx") return json(res, 200, { access: auth, pat });
      if (mode === "slow") return;
    });
    const client = createClient({ baseUrl: server.url, apiKey: pat, timeoutInSeconds: 0.3 });
    const failures: unknown[] = [];
    failures.push(await caught(client.users.whoami()));
    mode = "bad-2xx";
    failures.push(await caught(client.projects.get(1)));
    mode = "slow";
    failures.push(await caught(client.users.whoami()));
    authority.failNextRefresh = { status: 400, body: { detail: `bad ${pat}` } };
    const other = createClient({ baseUrl: server.url, apiKey: pat });
    failures.push(await caught(other.users.whoami()));
    failures.push(await caught(createClient({ baseUrl: await closedPortUrl(), apiKey: pat, maxRetries: 0 }).users.whoami()));
    failures.push(await caught(client.tokens.refresh(`${pat} `.repeat(2))));

    const access = authority.issued;
    expect(access.length).toBeGreaterThan(0);
    for (const failure of failures) expectAbsent(failure, [pat, ...access]);
    expect((failures[0] as ApiError).body).toMatchObject({ detail: "Bearer [redacted]", pat: "[redacted]" });
  });

  test("util.inspect and JSON.stringify of the client show no secret", async () => {
    const pat = await personalAccessToken();
    const authority = new TokenAuthority(pat);
    server = await startTestServer(async (request, res) => {
      if (await authority.handleRefresh(request, res)) return;
      json(res, 200, { id: 1, username: "u" });
    });
    const clients: Client[] = [
      createClient({ baseUrl: server.url, apiKey: pat }),
      createClient({ baseUrl: server.url, apiKey: LEGACY_KEY }),
    ];
    for (const client of clients) {
      await client.users.whoami();
      const project = client.project(1);
      for (const value of [client, project, client.tokens, client.projects]) {
        const shown = [inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }), JSON.stringify(value)];
        for (const text of shown) for (const secret of [pat, LEGACY_KEY, ...authority.issued]) expect(text).not.toContain(secret);
      }
    }
    expect(JSON.stringify(clients[0])).toBe(JSON.stringify({ baseUrl: server.url, authMode: "personal access token" }));
    expect(inspect(clients[1])).toBe(`Client {"baseUrl":"${server.url}","authMode":"legacy token"}`);
  });
});
