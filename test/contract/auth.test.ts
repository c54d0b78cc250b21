import { expect, test } from "vitest";
import { ApiError, createClient } from "../../src/index.js";
import { useTarget } from "../../testing/vitest.js";

/* Authentication and the error body: what a client sees when its key is missing or wrong, or a record is not there. */
const ls = useTarget();

const errorKeys = ["detail", "exc_info", "id", "status_code", "version"];

test("no credentials: 401, a Token challenge and the server's error body", async () => {
  const answer = await ls.target.fetch("/api/projects/", { headers: { Authorization: "" } });
  expect(answer.status).toBe(401);
  expect(answer.headers.get("www-authenticate")).toBe("Token");
  const body = (await answer.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(errorKeys);
  expect([body["status_code"], body["detail"]]).toEqual([401, "Authentication credentials were not provided."]);
});

test("a wrong legacy token: 401 Invalid token.", async () => {
  const answer = await ls.target.fetch("/api/current-user/whoami", {
    headers: { Authorization: "Token 0000000000000000000000000000000000000000" },
  });
  expect(answer.status).toBe(401);
  expect(((await answer.json()) as { detail: string }).detail).toBe("Invalid token.");
});

test("the client's ApiError for a wrong key says the status and the server's words, never the key", async () => {
  const key = "ffffffffffffffffffffffffffffffffffffffff";
  const client = createClient({ baseUrl: ls.target.url, apiKey: key, maxRetries: 0 });
  const error = await client.projects
    .list()
    .page(1)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect([(error as ApiError).statusCode, (error as ApiError).message]).toEqual([401, "GET /api/projects/ → 401: Invalid token."]);
  expect(JSON.stringify(error)).not.toContain(key);
});

test("a record that is not there: 404 in the error body", async () => {
  const seeded = await ls.seed();
  // A project id past the one just created, which nobody else holds yet in this test.
  const answer = await ls.target.fetch(`/api/projects/${seeded.id + 1_000_000}/`);
  expect(answer.status).toBe(404);
  const body = (await answer.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(errorKeys);
  expect([body["status_code"], body["detail"]]).toEqual([404, "No Project matches the given query."]);
});

test("a malformed body is refused by name before anything is created", async () => {
  const seeded = await ls.seed();
  const answer = await ls.target.fetch("/api/dm/views/", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ project: "not a number", data: {} }),
  });
  expect(answer.status).toBe(400);
  const body = (await answer.json()) as { detail: string; validation_errors: Record<string, unknown> };
  expect([body.detail, Object.keys(body.validation_errors)]).toEqual(["Validation error", ["project"]]);
  expect(await seeded.project.views()).toEqual([]);
});
