import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ApiError } from "../../src/client/errors.js";
import { errorAnswer, errorFromAnswer, type ServerError } from "../../src/emulation/error-answer.js";
import { clientFor, raw, withFixture, type Raw } from "./fixture.js";

/**
 * One server-error type (`ServerError`) and one converter each way: the mock answers with `errorAnswer`, the
 * client reads answers back with `errorFromAnswer` (as `ApiError.serverError`). Over HTTP, each kind of answer
 * the server gives comes back as what it is.
 */

async function apiErrorOf(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

/** The client's error for a raw answer: what its transport builds for a non-2xx response. */
function clientErrorOf(answer: Raw, method: string, path: string): ApiError {
  return new ApiError({ method, path, statusCode: answer.status, headers: Object.fromEntries(answer.headers), body: answer.body });
}

describe("the server's error answers, read back by the client", () => {
  test("a DRF APIException (404), field errors (400), a 500 naming its exception, a view's bare {detail} (422)", async () => {
    await withFixture({}, async (server) => {
      const client = clientFor(server);
      const notFound = await apiErrorOf(() => client.tasks.get(999));
      expect(notFound.serverError).toEqual({ status: 404, detail: "No Task matches the given query." });

      const invalid = clientErrorOf(await raw(server, "GET", "/api/dm/actions/?project=x"), "GET", "/api/dm/actions/");
      expect(invalid.serverError).toEqual({
        status: 400,
        detail: "Validation error",
        validationErrors: { project: 'Incorrect value in key "project" = "x". It should be digit string.' },
      });
      expect(invalid.message).toContain('Validation error; project: Incorrect value in key "project"');

      const crashed = clientErrorOf(
        await raw(server, "POST", "/api/dm/actions/?project=1&id=nope", { body: {} }),
        "POST",
        "/api/dm/actions/",
      );
      expect(crashed.serverError).toMatchObject({
        status: 500,
        detail: "Can't find 'nope' in registered actions",
        exception: "DataManagerException",
      });
      expect(crashed.serverError?.excInfo).toMatch(/\nDataManagerException: Can't find 'nope' in registered actions\n$/);

      const bare = await raw(server, "POST", "/api/dm/actions/?project=1", { body: {} });
      expect(bare.body).toEqual({ detail: 'No action id "None", use ?id=<action-id>' });
      expect(errorFromAnswer(bare.status, bare.body)).toEqual({
        status: 422,
        detail: 'No action id "None", use ?id=<action-id>',
        bare: true,
      });
    });
  });

  test("a 401 keeps DRF's WWW-Authenticate header", async () => {
    await withFixture({}, async (server) => {
      const answer = await raw(server, "GET", "/api/projects/", { key: "not-a-key" });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Token");
      expect(errorFromAnswer(answer.status, answer.body, Object.fromEntries(answer.headers))).toEqual({
        status: 401,
        detail: "Invalid token.",
        headers: { "www-authenticate": "Token" },
      });
    });
  });

  test("a 415 from the body layer and a parse error are APIExceptions like any other", async () => {
    await withFixture({}, async (server) => {
      const answer = await raw(server, "POST", "/api/dm/actions/?project=1&id=delete_tasks", {
        body: "x",
        headers: { "content-type": "text/plain" },
      });
      const error = clientErrorOf(answer, "POST", "/api/dm/actions/");
      expect(error.serverError).toEqual({ status: 415, detail: 'Unsupported media type "text/plain" in request.' });
      expect(error.message).toBe('POST /api/dm/actions/ → 415: Unsupported media type "text/plain" in request.');
    });
  });
});

describe("errorAnswer and errorFromAnswer are inverses", () => {
  const detail = fc.string({ minLength: 1, maxLength: 40 });
  const serverError: fc.Arbitrary<ServerError> = fc.oneof(
    fc.record({ status: fc.integer({ min: 400, max: 499 }), detail }),
    fc.record({
      status: fc.constant(400),
      detail: fc.constant("Validation error"),
      validationErrors: fc.dictionary(fc.string({ minLength: 1 }), fc.array(detail, { minLength: 1 })),
    }),
    fc.record({ status: fc.integer({ min: 400, max: 599 }), detail, bare: fc.constant(true) }),
    fc
      .tuple(fc.constantFrom("ValueError", "data_manager.functions.DataManagerException", "AttributeError"), detail)
      .map(([exception, message]) => ({
        status: 500,
        detail: message,
        exception,
        excInfo: `Traceback (most recent call last):\n  ...\n${exception}: ${message}\n`,
      })),
  );
  test("every answer reads back as the error it came from", () => {
    fc.assert(
      fc.property(serverError, fc.uuid(), (error, id) => {
        const answer = errorAnswer(error, { id, version: "1.23.2" });
        expect(errorFromAnswer(answer.status, JSON.parse(JSON.stringify(answer.body)), answer.headers)).toEqual(error);
      }),
    );
  });
  test("what is not an error body is not read as one", () => {
    for (const body of ["<html>Bad gateway</html>", null, [], { message: "x" }, { detail: 5 }])
      expect(errorFromAnswer(502, body)).toBeUndefined();
  });
});
