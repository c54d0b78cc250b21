import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { routes } from "../../mock-server/routes/index.js";
import { currentPage, mockAnswerFor, routesPagePath } from "../../scripts/generate-routes-doc.js";
import { enterpriseRoutes, serverRoutes, type EnterpriseRoute, type ServerRoute } from "../../src/contract/routes.js";
import type { FileUploadRecord, MLBackendRecord } from "../../src/contract/records.js";
import { raw, seed, startFixture, type Raw } from "./fixture.js";

/*
 * The route inventory (src/contract/routes.ts) against the mock: the routing table serves
 * exactly the methods of every route the inventory calls served, and every one of them answers
 * (neither the 404 page of an unknown path nor 405); routes it does not serve, and the Enterprise
 * routes the official SDK calls, get the server's answers for a path it does not route.
 */
const inventory: readonly ServerRoute[] = serverRoutes;
const enterprise: readonly EnterpriseRoute[] = enterpriseRoutes;

let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());

/** A concrete URL for an inventory path: ids of the fixture's records, an action id. */
// A membership of user 2: the caller (user 1) may not remove their own (a 405 of the view, not of the routing).
const concrete = (path: string) =>
  path
    .replace(/\{action_id\}/g, "delete_tasks")
    .replace(/\{user_pk\}/g, "2")
    .replace(/\{\w+\}/g, "1");

/** The server's page for a path no pattern matches (not a view's JSON 404). */
const isNotFoundPage = (answer: Raw) => answer.status === 404 && (answer.headers.get("content-type") ?? "").startsWith("text/html");

const mlBackend: MLBackendRecord = {
  id: 1,
  project: 1,
  url: "http://127.0.0.1:9",
  title: "seeded",
  description: null,
  state: "CO",
  is_interactive: false,
  error_message: null,
  auth_method: "NONE",
  basic_auth_user: null,
  basic_auth_pass: null,
  extra_params: {},
  model_version: null,
  timeout: 1,
  auto_update: true,
  created_at: "2024-01-01T00:00:00.000000Z",
  updated_at: "2024-01-01T00:00:00.000000Z",
};

/** An uploaded file of project 1 (data_import's patterns have no trailing slash either: a missing upload is the 404 page). */
const fileUpload: FileUploadRecord = { id: 1, project: 1, user: 1, file: "upload/1/0123abcd-t.json", content: "W10=", size: 2 };

async function call(method: string, path: string): Promise<Raw> {
  // An ML backend's routes answer the 404 page for a backend that does not exist (ml/urls.py has no trailing
  // slashes): backend 1 is seeded for them.
  await server.reset(
    path.startsWith("/api/ml/{pk}")
      ? { ...seed, ml_backends: [mlBackend] }
      : path.startsWith("/api/import/file-upload/")
        ? { ...seed, file_uploads: [fileUpload] }
        : undefined,
  );
  // So do a snapshot's (their patterns have no trailing slash either): make snapshot 1 first.
  if (path.includes("{export_pk}")) await raw(server, "POST", "/api/projects/1/exports/", { body: {} });
  const body = ["POST", "PUT", "PATCH"].includes(method) ? { body: {} } : {};
  return raw(server, method, `${concrete(path)}${path.includes("?") ? "&" : "?"}project=1`, body);
}

describe("the inventory", () => {
  test("docs/reference/routes.md shows it (npx tsx scripts/generate-routes-doc.ts)", () => {
    const page = readFileSync(routesPagePath, "utf8");
    expect(page).toBe(currentPage(page));
  });

  test("lists each path once, and every served route with a reason-free status", () => {
    const paths = inventory.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const r of inventory) expect(r.methods.length, r.path).toBeGreaterThan(0);
    expect(inventory.filter((r) => !r.mock.served && r.mock.reason.trim() === "")).toEqual([]);
  });

  test("the mock's routing table serves exactly the methods of each served route, and nothing the server lacks", () => {
    for (const r of inventory.filter((r) => r.mock.served)) {
      const mine = routes.filter((m) => m.server === r.path);
      expect(mine, r.path).toHaveLength(1);
      expect(Object.keys(mine[0]!.methods).sort(), r.path).toEqual([...r.methods].sort());
    }
    for (const m of routes.filter((m) => m.server !== undefined)) {
      const r = inventory.find((i) => i.path === m.server);
      expect(r, m.path).toBeDefined();
      for (const method of Object.keys(m.methods)) expect(r!.methods, `${method} ${m.path}`).toContain(method);
    }
  });
});

describe("every served route answers each of its methods", () => {
  const cases = inventory.filter((r) => r.mock.served).flatMap((r) => r.methods.map((m) => [m, r.path] as const));
  test.each(cases)("%s %s", async (method, path) => {
    const answer = await call(method, path);
    expect(isNotFoundPage(answer), `${method} ${path}: ${answer.status}`).toBe(false);
    expect(answer.status).not.toBe(405);
  });
});

describe("a route the mock does not serve answers the server's 404 page", () => {
  const cases = inventory
    .filter((r) => !r.mock.served && !routes.some((m) => m.server === r.path))
    .map((r) => [r.methods[0]!, r.path, r.mock.served ? "" : r.mock.reason] as const);
  test.each(cases)("%s %s (%s)", async (method, path) => {
    expect(isNotFoundPage(await call(method, path))).toBe(true);
  });
});

describe("Enterprise routes the official SDK calls get a community server's answer", () => {
  const cases = enterprise.flatMap((r) => r.methods.map((m) => [m, r.path, r] as const));
  test.each(cases)("%s %s", async (method, path, route) => {
    const answer = await call(method, path);
    const expected = mockAnswerFor(route, method);
    expect(answer.status).toBe(expected);
    if (expected === 404) expect(isNotFoundPage(answer)).toBe(true);
  });
});
