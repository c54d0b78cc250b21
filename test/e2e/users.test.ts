import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { PyException } from "../../src/emulation/exceptions.js";
import type { MockContext, MockRequest } from "../../mock-server/http.js";
import { getToken } from "../../mock-server/routes/users.js";
import { ADA_KEY, BO_KEY, raw, startFixture } from "./fixture.js";

/*
 * `/api/users/` (UserAPI: GET, POST, PATCH, DELETE — no PUT) and the caller's legacy key
 * (`/api/current-user/token`, `/api/current-user/reset-token/`), as a server (1.22) answered them.
 * Fixture users: 1 ada (ADA_KEY), 2 bo (BO_KEY), 3 cy (no key).
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("POST /api/users/", () => {
  test("creates a user; the answer shows no active organization yet, the list then has them", async () => {
    const answer = await raw(server, "POST", "/api/users/", { body: { username: "dee", email: "dee@example.com", first_name: "Dee" } });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: 4,
      username: "dee",
      email: "dee@example.com",
      first_name: "Dee",
      last_name: "",
      initials: "D",
      phone: "",
      custom_hotkeys: {},
      avatar: null,
      active_organization: null,
      active_organization_meta: { title: "", email: "" },
      allow_newsletters: null,
    });
    expect(answer.body.date_joined).toMatch(/Z$/);
    expect(answer.body).not.toHaveProperty("token");
    const list = await raw(server, "GET", "/api/users/");
    expect(list.body.map((u: { id: number }) => u.id)).toEqual([1, 2, 3, 4]);
    // Like every user the server creates, the new one has a legacy key.
    expect(server.data().users[3]!.token).toMatch(/^[0-9a-f]{40}$/);
  });

  test("the server's field errors, all together", async () => {
    const empty = await raw(server, "POST", "/api/users/", { body: {} });
    expect([empty.status, empty.body.validation_errors]).toEqual([400, { username: ["This field is required."] }]);
    const taken = await raw(server, "POST", "/api/users/", { body: { email: "ada@example.com" } });
    expect(taken.body.validation_errors).toEqual({
      username: ["This field is required."],
      email: ["user with this email address already exists."],
    });
    const bad = await raw(server, "POST", "/api/users/", { body: { username: "x", email: "bad" } });
    expect(bad.body.validation_errors).toEqual({ email: ["Enter a valid email address."] });
    expect(server.data().users).toHaveLength(3);
  });
});

describe("PATCH and DELETE /api/users/{id}/", () => {
  test("PATCH changes the fields; id is read-only and ignored", async () => {
    const answer = await raw(server, "PATCH", "/api/users/2/", { body: { first_name: "Bo", last_name: "Z", phone: "123", id: 9 } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: 2, first_name: "Bo", last_name: "Z", initials: "BZ", phone: "123", active_organization: 1 });
  });

  test("email is read-only on update: 405, after the other fields were saved (as the server does)", async () => {
    const answer = await raw(server, "PATCH", "/api/users/2/", { body: { email: "new@example.com", first_name: "W" } });
    expect([answer.status, answer.body.detail]).toEqual([405, "Cannot update read-only field: email"]);
    const after = (await raw(server, "GET", "/api/users/2/")).body;
    expect([after.first_name, after.email]).toEqual(["W", "bo@example.com"]);
    const bad = await raw(server, "PATCH", "/api/users/2/", { body: { email: "bad" } });
    expect(bad.status).toBe(405);
  });

  test("PUT is not allowed; an unknown user is a 404", async () => {
    const put = await raw(server, "PUT", "/api/users/2/", { body: {} });
    expect([put.status, put.body.detail, put.headers.get("allow")]).toEqual([405, 'Method "PUT" not allowed.', "GET, PATCH, DELETE, HEAD"]);
    expect((await raw(server, "PATCH", "/api/users/99/", { body: {} })).status).toBe(404);
    expect((await raw(server, "DELETE", "/api/users/99/")).status).toBe(404);
  });

  test("DELETE: annotations keep their records without the author; the user's views go with them", async () => {
    await raw(server, "POST", "/api/dm/views/", { key: BO_KEY, body: { project: 1, data: { title: "bo's" } } });
    expect((await raw(server, "DELETE", "/api/users/2/")).status).toBe(204);
    const data = server.data();
    expect(data.users.map((u) => u.id)).toEqual([1, 3]);
    expect(data.annotations.filter((a) => [2, 4].includes(a.id)).map((a) => a.completed_by)).toEqual([null, null]);
    expect(data.views.some((v) => v.user === 2)).toBe(false);
    // Their key no longer authenticates.
    expect((await raw(server, "GET", "/api/current-user/whoami", { key: BO_KEY })).status).toBe(401);
  });
});

describe("the caller's legacy key", () => {
  test("GET /api/current-user/token answers it", async () => {
    const answer = await raw(server, "GET", "/api/current-user/token", { key: ADA_KEY });
    expect([answer.status, answer.body]).toEqual([200, { token: ADA_KEY }]);
  });

  test("POST /api/current-user/reset-token/ makes a new one (201); the old one stops working", async () => {
    const answer = await raw(server, "POST", "/api/current-user/reset-token/", { key: BO_KEY });
    expect(answer.status).toBe(201);
    expect(answer.body.token).toMatch(/^[0-9a-f]{40}$/);
    expect((await raw(server, "GET", "/api/current-user/whoami", { key: BO_KEY })).status).toBe(401);
    const me = await raw(server, "GET", "/api/current-user/token", { key: answer.body.token });
    expect(me.body).toEqual({ token: answer.body.token });
    // The other users' keys are untouched.
    expect((await raw(server, "GET", "/api/current-user/whoami", { key: ADA_KEY })).status).toBe(200);
  });

  test("a user without a key (a seed may leave one out) is the server's 500 DoesNotExist when asking for it", () => {
    const request = { user: { id: 3, username: "cy", email: "cy@example.com", first_name: "", last_name: "" } } as MockRequest;
    const thrown = (() => {
      try {
        getToken(request, {} as MockContext);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(PyException);
    expect((thrown as PyException).error).toMatchObject({ status: 500, detail: "Token matching query does not exist." });
  });
});
