import { serverRoutes, type Served } from "../../src/contract/routes.js";

/**
 * Every route the mock serves, by name: its method and its path as the server writes it (the
 * inventory of src/contract/routes.ts, parameters in braces: `{pk}`, `{action_id}`, …), and the
 * published interface's `/api/actions` aliases. `mock.use` takes these names. Derived from the
 * inventory, not from the route table, so that the package's declarations of `use` reach neither
 * the handlers nor json-server's types; the inventory test holds the table to the inventory.
 */
type ServedRoute = Extract<(typeof serverRoutes)[number], { readonly mock: Served }>;
type NamesOf<R> = R extends { readonly path: infer P extends string; readonly methods: readonly (infer M extends string)[] }
  ? `${M} ${P}`
  : never;

/** The published interface's paths (not server routes), served by the same views. */
const published = ["GET /api/actions", "POST /api/actions", "GET /api/actions/{action_id}/form"] as const;

/** A route's name, e.g. `"GET /api/projects/{pk}/"`. */
export type RouteKey = NamesOf<ServedRoute> | (typeof published)[number];

export const routeKeys: readonly RouteKey[] = [
  ...serverRoutes.flatMap((r) => (r.mock.served ? r.methods.map((m) => `${m} ${r.path}` as RouteKey) : [])),
  ...published,
];
