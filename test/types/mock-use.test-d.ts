import { describe, expectTypeOf, test } from "vitest";
import type { Project, Task } from "../../src/client/index.js";
import { faults, passthrough, type MockServer, type ReplyOf, type RouteKey } from "../../mock-server/index.js";

declare const mock: MockServer;

describe("mock.use is typed by the route's declared reply", () => {
  test("the reply of a declared route is the client's type of that answer", () => {
    expectTypeOf<ReplyOf<"GET /api/projects/{pk}/">>().toEqualTypeOf<Project>();
    expectTypeOf<ReplyOf<"GET /api/tasks/{pk}/">>().toEqualTypeOf<Task>();
  });

  test("a reply missing a declared field, or of the wrong type, is refused", () => {
    // @ts-expect-error a project answer has every field of ProjectSerializer
    mock.use("GET /api/projects/{pk}/", { id: 1, title: "t" });
    // @ts-expect-error a handler's reply too: `title` is a string
    mock.use("GET /api/projects/{pk}/", (request) => (request.call === 0 ? faults.status(503) : { ...({} as Project), title: 5 }));
    mock.use("GET /api/projects/{pk}/", {} as Project);
  });

  test("faults, passthrough() and a route without a declaration (any JSON)", () => {
    mock.use("GET /api/projects/{pk}/", faults.rateLimited(5), { times: 2 });
    mock.use("POST /api/projects/{pk}/import", { task_count: 1, anything: [1, "two"] });
    mock.use("DELETE /api/tasks/{pk}/", async () => passthrough());
  });

  test("the handler's params are the route's {segments}", () => {
    mock.use("GET /api/dm/actions/{action_id}/form/", (request) => {
      expectTypeOf(request.params).toEqualTypeOf<{ readonly action_id: string }>();
      return passthrough();
    });
    mock.use("GET /api/tasks/", (request) => {
      expectTypeOf(request.params).toEqualTypeOf<{}>();
      return passthrough();
    });
  });

  test("routes are the mock's: method and path as the server writes them", () => {
    expectTypeOf<"GET /api/current-user/whoami">().toMatchTypeOf<RouteKey>();
    // @ts-expect-error the path with its trailing slash
    mock.use("GET /api/projects/{pk}", faults.drop());
    // @ts-expect-error no such method on the route
    mock.use("PATCH /api/tasks/", faults.drop());
  });
});
