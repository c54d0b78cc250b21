import { match } from "ts-pattern";
import { serverRoutes, type HttpMethod } from "../../contract/routes.js";
import type { Scenario } from "./scenario.js";
import type { Request } from "./target.js";

/**
 * Which routes of the inventory (src/contract/routes.ts) the catalogue calls. A route the mock serves
 * must be called, with credentials, by at least one scenario for each of its methods, or be listed in
 * `unverifiedRoutes` with the reason it cannot be compared; test/unit/cli/verify/route-coverage.test.ts
 * holds the catalogue to that.
 */

/** One method of one route the mock serves, as the inventory writes it. */
export interface RouteMethod {
  readonly method: HttpMethod;
  readonly path: string;
}

export function servedMethods(): RouteMethod[] {
  return serverRoutes.flatMap((r) => (r.mock.served ? r.methods.map((method) => ({ method, path: r.path })) : []));
}

/** `METHOD path`, the key of `unverifiedRoutes`. */
export const routeKey = (r: RouteMethod): string => `${r.method} ${r.path}`;

/** Served methods no scenario calls, each with why comparing it would be meaningless or harmful. */
export const unverifiedRoutes: Readonly<Record<string, string>> = {
  "POST /api/current-user/reset-token/":
    "it replaces the caller's legacy token, the credential dmq verify authenticates with on the server: every later " +
    "request of the run would fail, and the caller's scripts with it (community servers have no way to reset another " +
    "user's token)",
  "POST /api/invite/reset-token":
    "it replaces the organization's invite token: every invite link already sent stops working, and nothing puts the " +
    "old token back (the answer, 201 with the new token and its signup path, is held by test/e2e/organizations.test.ts)",
};

/** A pattern's segments; `undefined` for a parameter, which matches any one segment (a number, an action id, a reference). */
const segmentsOf = (path: string): (string | undefined)[] =>
  path
    .replace(/\/$/, "")
    .split("/")
    .map((segment) => (segment.startsWith("{") && segment.endsWith("}") ? undefined : segment));

const patterns = servedMethods().map((r) => ({ ...r, segments: segmentsOf(r.path) }));

/**
 * The served route (and method) a request calls, if any: the trailing slash as either, a scenario's reference
 * (`{task:t1}`, `{made:draft}`) as a parameter. Where a literal segment and a parameter both match (`validate`
 * against `{pk}`), the route with more literal segments is the one the server resolves.
 */
export function routeOf(request: Pick<Request, "method" | "path">): RouteMethod | undefined {
  const asked = request.path.replace(/\/$/, "").split("/");
  const fits = (segments: readonly (string | undefined)[]) =>
    segments.length === asked.length && segments.every((s, i) => s === undefined || s === asked[i]);
  const found = patterns.filter((p) => p.method === request.method && fits(p.segments));
  const literal = (p: (typeof patterns)[number]) => p.segments.filter((s) => s !== undefined).length;
  found.sort((a, b) => literal(b) - literal(a));
  const best = found[0];
  return best && { method: best.method, path: best.path };
}

/** Every request a scenario sends with the target's credentials (the seeding aside). */
export function requestsOf(s: Scenario): Request[] {
  const requests = match(s.probe)
    .with({ kind: "request" }, (p) => [p.request])
    .with({ kind: "writes" }, (p) => p.steps.map((step) => step.request))
    .with({ kind: "list" }, (p): Request[] => [
      { method: "GET", path: "/api/tasks/" },
      ...(p.view === undefined ? [] : [{ method: "POST", path: "/api/dm/views/" } as const]),
    ])
    .with({ kind: "action" }, (p): Request[] => [
      { method: "POST", path: "/api/dm/actions/" },
      ...(p.view === undefined ? [] : [{ method: "POST", path: "/api/dm/views/" } as const]),
    ])
    .with({ kind: "values" }, (): Request[] => [{ method: "GET", path: "/api/tasks/" }])
    .exhaustive();
  return requests.filter((r) => r.auth === undefined || r.auth === "key");
}

/** For each served method, the scenarios that call it with credentials (an empty list: none does). */
export function routeCoverage(scenarios: readonly Scenario[]): Map<string, string[]> {
  const out = new Map(servedMethods().map((r) => [routeKey(r), [] as string[]]));
  for (const s of scenarios) {
    for (const request of requestsOf(s)) {
      const route = routeOf(request);
      if (route) out.get(routeKey(route))!.push(s.id);
    }
  }
  return out;
}
