import { request } from "node:http";
import { createClient, type Client } from "../../src/client/index.js";
import { startMockServer, type MockSeed, type MockServer, type MockServerOptions } from "../../mock-server/index.js";

/**
 * A small seed whose expected outcomes are worked out by hand in the tests (never computed by the
 * code under test). Project 1:
 *   task  data                 annotations (user)                 predictions (version score)
 *   1     alpha n=1            a1 (1)                              p1 (v1 .5)  p2 (v2 .9)
 *   2     beta  n=2            a2 (2), a3 (3, cancelled)           p3 (v1 .3)
 *   3     alpha n=1            -                                   -
 *   4     gamma n=4            a4 (2)                              p4 (v2 .8)
 *   5     delta n=5            -                                   p5 (v1 .6)
 *   6     alpha n=1            a6 (3)                              -
 * Project 2: task 7 with a5 (1). View 1 (project 1): total_annotations > 0, ordered -id → 6, 4, 2, 1.
 * View 2 belongs to project 2.
 */
export const ADA_KEY = "ada0000000000000000000000000000000000001";
export const BO_KEY = "bo00000000000000000000000000000000000002";

const result = (label: string) => [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: [label] } }];

export const seed: MockSeed = {
  users: [
    { id: 1, username: "ada", email: "ada@example.com", first_name: "Ada", last_name: "Lovelace", token: ADA_KEY },
    { id: 2, username: "bo", email: "bo@example.com", token: BO_KEY },
    { id: 3, username: "cy", email: "cy@example.com" },
  ],
  projects: [
    {
      id: 1,
      title: "Fixture",
      label_config:
        '<View><Text name="text" value="$text"/><Choices name="sentiment" toName="text"><Choice value="Pos"/><Choice value="Neg"/></Choices></View>',
      model_version: "v2",
    },
    { id: 2, title: "Other" },
  ],
  tasks: [
    { id: 1, project: 1, data: { text: "alpha", n: 1 }, created_at: "2024-01-01T00:00:01Z" },
    { id: 2, project: 1, data: { text: "beta", n: 2 }, created_at: "2024-01-01T00:00:02Z" },
    { id: 3, project: 1, data: { text: "alpha", n: 1 }, created_at: "2024-01-01T00:00:03Z" },
    { id: 4, project: 1, data: { text: "gamma", n: 4 }, created_at: "2024-01-01T00:00:04Z" },
    { id: 5, project: 1, data: { text: "delta", n: 5 }, created_at: "2024-01-01T00:00:05Z" },
    { id: 6, project: 1, data: { n: 1, text: "alpha" }, created_at: "2024-01-01T00:00:06Z" },
    { id: 7, project: 2, data: { text: "other" }, created_at: "2024-01-01T00:00:07Z" },
  ],
  annotations: [
    { id: 1, task: 1, completed_by: 1, result: result("Pos"), created_at: "2024-02-01T00:00:00Z" },
    { id: 2, task: 2, completed_by: 2, result: result("Neg"), created_at: "2024-02-02T00:00:00Z" },
    { id: 3, task: 2, completed_by: 3, result: [], was_cancelled: true, created_at: "2024-02-03T00:00:00Z" },
    { id: 4, task: 4, completed_by: 2, result: result("Pos"), created_at: "2024-02-04T00:00:00Z" },
    { id: 5, task: 7, completed_by: 1, result: result("Pos"), created_at: "2024-02-05T00:00:00Z" },
    { id: 6, task: 6, completed_by: 3, result: result("Neg"), created_at: "2024-02-06T00:00:00Z" },
  ],
  predictions: [
    { id: 1, task: 1, result: result("Pos"), score: 0.5, model_version: "v1" },
    { id: 2, task: 1, result: result("Neg"), score: 0.9, model_version: "v2" },
    { id: 3, task: 2, result: result("Neg"), score: 0.3, model_version: "v1" },
    { id: 4, task: 4, result: result("Pos"), score: 0.8, model_version: "v2" },
    { id: 5, task: 5, result: result("Pos"), score: 0.6, model_version: "v1" },
  ],
  views: [
    {
      id: 1,
      project: 1,
      data: {
        title: "Annotated",
        filters: {
          conjunction: "and",
          items: [{ filter: "filter:tasks:total_annotations", operator: "greater", type: "Number", value: 0 }],
        },
        ordering: ["-tasks:id"],
      },
    },
    { id: 2, project: 2, data: { title: "Other's" } },
  ],
};

export async function startFixture(options: MockServerOptions = {}): Promise<MockServer> {
  return startMockServer({ data: seed, ...options });
}

/** A client of the project's own; no retries so a 500 is seen once. */
export function clientFor(server: MockServer, apiKey = server.legacyToken, extra: Parameters<typeof createClient>[0] = {}): Client {
  return createClient({ baseUrl: server.url, apiKey, maxRetries: 0, ...extra });
}

export interface Raw {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON answer; each test asserts the fields it reads
  readonly body: any;
}

/** A bare HTTP call, for asserting the exact wire (status, headers, error bodies). */
export async function raw(
  server: MockServer,
  method: string,
  path: string,
  options: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Raw> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? server.legacyToken : options.key;
  if (key !== null) headers["authorization"] ??= `Token ${key}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    payload = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${server.url}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** The task ids of project 1 left in the store, sorted. */
export function taskIds(server: MockServer, project = 1): number[] {
  return server
    .data()
    .tasks.filter((t) => t.project === project)
    .map((t) => t.id)
    .sort((a, b) => a - b);
}

export interface Answer {
  readonly status: number;
  /** The parsed JSON, or the text when it is not JSON (undefined when empty). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON answer; each test asserts the fields it reads
  readonly body: any;
  readonly text: string;
}

/** A raw request: the body's bytes and Content-Type exactly as given (no header at all when undefined). */
export function send(server: MockServer, method: string, path: string, body?: string | Uint8Array, contentType?: string): Promise<Answer> {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body === undefined ? undefined : Buffer.from(body);
  const url = new URL(path, server.url);
  const headers: Record<string, string | number> = { Authorization: `Token ${server.legacyToken}` };
  if (contentType !== undefined) headers["Content-Type"] = contentType;
  if (bytes) headers["Content-Length"] = bytes.length;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, body, text });
      });
    });
    req.on("error", reject);
    req.end(bytes);
  });
}

/** A fresh fixture server for one test, closed afterwards. */
export async function withFixture(options: Parameters<typeof startFixture>[0], run: (server: MockServer) => Promise<void>): Promise<void> {
  const server = await startFixture(options);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}
