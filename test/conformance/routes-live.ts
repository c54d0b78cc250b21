/**
 * The route inventory against a running server (not part of `npm test`, which has none):
 *   npx tsx test/conformance/routes-live.ts http://127.0.0.1:8100 <legacy token>
 * For every inventory route, OPTIONS on it (ids 1, which need not exist: DRF answers OPTIONS from the
 * view class) must list exactly its methods in `Allow` (with HEAD beside GET, and OPTIONS where the view
 * answers it); for every Enterprise route the SDK calls, each method must get the answer
 * docs/reference/routes.md gives for a community server. Prints each difference; exits 1 on any.
 */
import { communityRouteOf, serverAnswerFor } from "../../scripts/generate-routes-doc.js";
import { enterpriseRoutes, serverRoutes, type EnterpriseRoute, type ServerRoute } from "../../src/contract/routes.js";

const [base, token] = process.argv.slice(2);
if (!base || !token) throw new Error("usage: routes-live.ts <base url> <legacy token>");
const headers = { Authorization: `Token ${token}` };
const concrete = (path: string) => path.replace(/\{action_id\}/g, "delete_tasks").replace(/\{\w+\}/g, "1");
const problems: string[] = [];

for (const route of serverRoutes as readonly ServerRoute[]) {
  const answer = await fetch(`${base}${concrete(route.path)}`, { method: "OPTIONS", headers });
  const allow = (answer.headers.get("allow") ?? "").split(",").map((m) => m.trim());
  const listed = allow.filter((m) => m !== "HEAD" && m !== "OPTIONS").sort();
  // A function view (the version page) answers OPTIONS without Allow.
  if (answer.headers.get("allow") === null) {
    if (answer.status >= 400) problems.push(`OPTIONS ${route.path}: ${answer.status} without Allow`);
    continue;
  }
  if (JSON.stringify(listed) !== JSON.stringify([...route.methods].sort()))
    problems.push(`${route.path}: Allow ${allow.join(", ")}, inventory ${route.methods.join(", ")}`);
}

for (const route of enterpriseRoutes as readonly EnterpriseRoute[]) {
  for (const method of route.methods) {
    const answer = await fetch(`${base}${concrete(route.path)}`, { method, headers, ...(method === "GET" ? {} : { body: "{}" }) });
    const expected = serverAnswerFor(route, method);
    if (answer.status !== expected)
      problems.push(
        `${method} ${route.path}: ${answer.status}, expected ${expected} (${communityRouteOf(route.path)?.path ?? "no community route"})`,
      );
  }
}

for (const p of problems) console.log(p);
console.log(`${serverRoutes.length} routes and ${enterpriseRoutes.length} Enterprise routes checked: ${problems.length} differences`);
process.exitCode = problems.length === 0 ? 0 : 1;
