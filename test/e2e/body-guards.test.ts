import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { send, startFixture, type Answer } from "./fixture.js";

/**
 * Guards over every route that reads a body: a refused content type, a body past the size limit and
 * nesting past the depth limit are refused in the server's error shape, change nothing, log no
 * internal error, and leave the mock answering.
 */

/** Every route and method whose view reads `request.data`, with a body it would accept as JSON. */
const readers: readonly (readonly [string, string, unknown])[] = [
  ["POST", "/api/projects/", { title: "p" }],
  ["PATCH", "/api/projects/1/", { title: "p" }],
  ["PUT", "/api/projects/1/", { title: "p" }],
  ["POST", "/api/projects/1/import", [{ data: { text: "t" } }]],
  ["POST", "/api/tasks/", { project: 1, data: { text: "t" } }],
  ["PATCH", "/api/tasks/1/", { data: { text: "t" } }],
  ["PUT", "/api/tasks/1/", { data: { text: "t" } }],
  ["POST", "/api/tasks/1/annotations/", { result: [] }],
  ["PATCH", "/api/annotations/1/", { result: [] }],
  ["POST", "/api/predictions/", { task: 1, result: [] }],
  ["PATCH", "/api/predictions/1/", { score: 0.5 }],
  ["POST", "/api/dm/views/", { project: 1, data: { title: "v" } }],
  ["PATCH", "/api/dm/views/1/", { data: { title: "v" } }],
  ["POST", "/api/dm/views/order/", { project: 1, ids: [1] }],
  ["POST", "/api/dm/actions/?id=delete_tasks&project=1", { selectedItems: { all: true, excluded: [] } }],
  ["POST", "/api/dm/actions/?id=delete_tasks_annotations&project=1", { selectedItems: { all: true, excluded: [] } }],
  ["POST", "/api/actions/?id=delete_tasks&project=1", { selectedItems: { all: true, excluded: [] } }],
];

const ERROR_KEYS = ["detail", "exc_info", "id", "status_code", "version"];

describe.each([false, true])("body guards (strict: %s)", (strict) => {
  let server: MockServer;
  const internal: string[] = [];
  beforeAll(async () => {
    server = await startFixture({
      strict,
      maxBodySize: 16_384,
      logger: (line) => (line.startsWith("internal error") ? internal.push(line) : undefined),
    });
  });
  afterAll(() => server.close());

  /** Sends, and checks the answer is an error in the handler's shape and that nothing changed. */
  async function refused(method: string, path: string, bytes: Buffer, contentType: string | undefined): Promise<Answer> {
    await server.reset();
    const before = JSON.stringify(server.data());
    const answer = await send(server, method, path, bytes, contentType);
    const where = `${method} ${path} [${contentType}] → ${answer.status} ${answer.text.slice(0, 160)}`;
    expect(answer.status, where).toBeGreaterThanOrEqual(400);
    const keys = Object.keys(answer.body).sort();
    expect(keys, where).toEqual(keys.includes("validation_errors") ? [...ERROR_KEYS, "validation_errors"].sort() : ERROR_KEYS);
    expect(answer.body.status_code, where).toBe(answer.status);
    expect(answer.text, where).not.toMatch(/Maximum call stack|RangeError|at .*\.ts:\d+/);
    expect(JSON.stringify(server.data()), where).toBe(before);
    return answer;
  }

  test.each(readers)("%s %s: every refused content type is a 415 and changes nothing", async (method, path, body) => {
    const bytes = Buffer.from(JSON.stringify(body));
    for (const type of [
      undefined,
      "text/plain",
      "text/plain; charset=utf-8",
      "application/xml",
      "text/html",
      "application/octet-stream",
      "garbage",
    ]) {
      const answer = await refused(method, path, bytes, type);
      expect(answer.status, `${type}`).toBe(415);
      expect(answer.body.detail).toBe(`Unsupported media type "${type ?? "text/plain"}" in request.`);
    }
  });

  test.each(readers)("%s %s: a body past the size limit is refused (strict 413, else the server's 500)", async (method, path) => {
    const big = Buffer.from(JSON.stringify({ data: { text: "x".repeat(20_000) } }));
    const answer = await refused(method, path, big, "application/json");
    const detail = `Request body of ${big.length} bytes exceeds the mock's limit of 16384 bytes (maxBodySize).`;
    if (strict) expect([answer.status, answer.body.detail]).toEqual([413, detail]);
    else expect([answer.status, answer.body.detail]).toEqual([500, "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE."]);
  });

  test.each(readers)(
    "%s %s: nesting 2000 deep is refused without recursion (strict 400, else RecursionError 500)",
    async (method, path) => {
      // Python's parser hits its recursion limit before it could see that the last one is unterminated.
      for (const deep of ["[".repeat(2000) + "]".repeat(2000), `${'{"a":'.repeat(2000)}1${"}".repeat(2000)}`, "[".repeat(3000)]) {
        const answer = await refused(method, path, Buffer.from(deep), "application/json");
        expect(answer.status).toBe(strict ? 400 : 500);
        if (!strict)
          expect(answer.body.detail).toMatch(
            /^maximum recursion depth exceeded while decoding a JSON (array|object) from a unicode string$/,
          );
      }
    },
  );

  test("nothing above logged an internal error, and the mock still answers", async () => {
    expect(internal).toEqual([]);
    const alive = await send(server, "GET", "/api/current-user/whoami", Buffer.alloc(0), undefined);
    expect(alive.status).toBe(200);
  });
});
