import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { raw } from "./fixture.js";

/*
 * Fixes `dmq verify` forced: each test holds the mock to an answer a running Label Studio gave where
 * the mock answered otherwise (docs/verify.md; the import's own are in import.test.ts). The server's
 * code path is named in each test.
 */
const choice = (label: string) => [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: [label] } }];
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({
    data: {
      users: [
        { id: 1, username: "admin", email: "admin@example.com" },
        { id: 2, username: "ada", email: "ada@example.com", first_name: "Ada" },
      ],
      projects: [{ id: 1, title: "Verified" }],
      tasks: [{ id: 1, project: 1, data: { text: "a" } }],
      annotations: [
        { id: 1, task: 1, completed_by: 1, result: choice("pos") },
        { id: 2, task: 1, completed_by: 2, result: choice("neg") },
      ],
      drafts: [{ id: 1, task: 1, user: 1, result: [] }],
    },
  });
});
afterAll(() => server.close());

describe("answers", () => {
  test("created_username: an annotation's always has a space before the email, a draft's only after a name", async () => {
    // AnnotationSerializer.get_created_username: name += f' {user.email}, {user.id}';
    // AnnotationDraftSerializer.get_created_username: name += (' ' if name else '') + … (label_studio/tasks/serializers.py)
    const task = (await raw(server, "GET", "/api/tasks/1/")).body;
    expect(task.annotations.map((a: { created_username: string }) => a.created_username)).toEqual([
      " admin@example.com, 1",
      "Ada ada@example.com, 2",
    ]);
    expect(task.drafts[0].created_username).toBe("admin@example.com, 1");
  });
});
