import { describe, expect, test } from "vitest";
import { catalogue } from "../../../../src/cli/verify/catalogue.js";
import { routeCoverage, routeOf, servedMethods, unverifiedRoutes } from "../../../../src/cli/verify/coverage.js";
import { serverRoutes } from "../../../../src/contract/routes.js";

/** dmq verify must call every route the mock serves: a route served from now on comes with its scenarios. */
describe("dmq verify covers the route inventory", () => {
  const coverage = routeCoverage(catalogue());

  test("every method of every served route is called with credentials by a scenario, or left out with a reason", () => {
    const missing = [...coverage].filter(([key, ids]) => ids.length === 0 && !Object.hasOwn(unverifiedRoutes, key)).map(([key]) => key);
    expect(missing).toEqual([]);
  });

  test("a route is left out only while no scenario calls it, and only if the mock serves it", () => {
    for (const [key, reason] of Object.entries(unverifiedRoutes)) {
      expect(coverage.get(key), `${key} is not a served method of the inventory`).toBeDefined();
      expect(coverage.get(key), `${key} is called by a scenario: drop it from unverifiedRoutes`).toEqual([]);
      expect(reason.length, key).toBeGreaterThan(40);
    }
  });

  test("each served method has a request without credentials too (generated from the inventory)", () => {
    const ids = new Set(catalogue().map((s) => s.id));
    for (const r of servedMethods()) expect(ids.has(`errors/auth/none/${r.method} ${r.path}`), `${r.method} ${r.path}`).toBe(true);
  });

  test("requests are matched to the server's route: literal segments before parameters, slashes as written", () => {
    expect(routeOf({ method: "POST", path: "/api/projects/validate/" })).toEqual({ method: "POST", path: "/api/projects/validate/" });
    expect(routeOf({ method: "POST", path: "/api/projects/{project}/validate/" })?.path).toBe("/api/projects/{pk}/validate/");
    expect(routeOf({ method: "GET", path: "/api/projects/{made:project}/" })?.path).toBe("/api/projects/{pk}/");
    expect(routeOf({ method: "GET", path: "/api/tasks/{task:t1}/annotations/{annotation:a1}/drafts" })?.path).toBe(
      "/api/tasks/{pk}/annotations/{annotation_id}/drafts",
    );
    expect(routeOf({ method: "PUT", path: "/api/users/1/" })).toBeUndefined();
    expect(routeOf({ method: "GET", path: "/api/dm/actions/delete_tasks/form/" })?.path).toBe("/api/dm/actions/{action_id}/form/");
  });

  test("the coverage fails for a newly served route no scenario calls", () => {
    const served = serverRoutes.filter((r) => r.mock.served).length;
    expect(servedMethods().length).toBeGreaterThanOrEqual(served);
    const withoutMl = routeCoverage(catalogue().filter((s) => s.area !== "ml"));
    expect(withoutMl.get("POST /api/ml/{pk}/predict/test")).toEqual([]);
  });
});
