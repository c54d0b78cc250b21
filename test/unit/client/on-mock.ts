import { createServer, type AddressInfo } from "node:net";
import { startMockServer, type MockServer, type MockServerOptions } from "../../../mock-server/index.js";
import { LEGACY_KEY } from "./fixtures.js";

/*
 * The client's tests run against the mock; where a test needs the server to fail or to answer
 * something particular, it says so with `mock.use` (mock-server/overrides.ts).
 */

/** A user whose legacy key is the tests' `LEGACY_KEY`, and a project with a few tasks. */
export const SEED = {
  users: [{ id: 1, username: "u", email: "u@example.com", token: LEGACY_KEY }],
  projects: [{ id: 1, title: "P", label_config: "<View/>" }],
  tasks: [1, 2, 3].map((id) => ({ id, project: 1, data: { text: `t${id}` } })),
};

/** A mock with `SEED` (or `options.data`). */
export function startMock(options: MockServerOptions = {}): Promise<MockServer> {
  return startMockServer({ data: SEED, ...options });
}

/** Resolves once the mock has received `count` requests in all (its journal, since the last reset). */
export async function received(mock: MockServer, count: number): Promise<void> {
  while (mock.requests.length < count) await new Promise((resolve) => setImmediate(resolve));
}

/** An override handler that answers only when the test calls the function it pushes onto `held`. */
export function holdInto<T>(held: (() => void)[], answer: T): () => Promise<T> {
  return () => new Promise<T>((resolve) => held.push(() => resolve(answer)));
}

/** A URL whose port nothing listens on (bound, then released): a refused connection. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
