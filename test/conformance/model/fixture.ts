/** A mock server and one client per seeded user, for the HTTP-level conformance tests. */
import { createClient, type Client } from "../../../src/client/index.js";
import type { Dataset } from "../../../src/semantics/records.js";
import { startMockServer, type MockSeed, type MockServer } from "../../../mock-server/index.js";
import { userIds } from "../generators/pools.js";

export const tokenOf = (user: number) => `conformance${String(user).padStart(29, "0")}`;

export interface Real {
  readonly server: MockServer;
  /** Clients by user id (the first user is the caller of actions). */
  readonly clients: ReadonlyMap<number, Client>;
  readonly client: Client;
}

export const users = userIds.map((id) => ({
  id,
  username: `user${id}`,
  email: `user${id}@example.com`,
  first_name: `U${id}`,
  last_name: "Test",
  token: tokenOf(id),
}));

/** The seed for a generated dataset: its records, our users, both projects; no drafts. */
export function seedOf(dataset: Dataset): MockSeed {
  const projects = [dataset.project, { id: 2, title: "Other", label_config: "<View></View>", model_version: null }];
  return {
    users,
    projects,
    tasks: dataset.tasks,
    annotations: dataset.annotations,
    predictions: dataset.predictions,
    drafts: [],
    views: [],
  } as MockSeed;
}

export async function startReal(): Promise<Real> {
  const server = await startMockServer({ data: { users } as MockSeed });
  const clients = new Map(users.map((u) => [u.id, createClient({ baseUrl: server.url, apiKey: u.token, maxRetries: 0 })]));
  return { server, clients, client: clients.get(1) as Client };
}
