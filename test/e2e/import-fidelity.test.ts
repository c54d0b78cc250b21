import { afterAll, beforeAll, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";

/*
 * The project import as the real server (1.22, measured) answers it: imported annotations default to
 * ground truth, a prediction without a model version gets "undefined" (and hands it to a project that
 * has none), and an author that is not a member refuses the whole import with the server's words
 * (tasks/serializers.py TaskSerializerBulk._insert_valid_completed_by, add_annotations, add_predictions).
 */
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({
    data: {
      users: [
        { id: 1, username: "ada", email: "ada@example.com" },
        { id: 2, username: "bo", email: "bo@example.com" },
      ],
      projects: [
        { id: 1, title: "p" },
        { id: 2, title: "q", model_version: "mine" },
      ],
    },
  });
});
afterAll(() => mock?.close());

async function importInto(project: number, body: unknown) {
  const answer = await fetch(`${mock.url}/api/projects/${project}/import`, {
    method: "POST",
    headers: { Authorization: `Token ${mock.legacyToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

test("annotations: ground truth unless told otherwise; the author by id or member email, else the caller", async () => {
  const r = await importInto(1, [
    {
      data: { n: 1 },
      annotations: [
        { result: [] },
        { result: [], ground_truth: false },
        { result: [], completed_by: 2 },
        { result: [], completed_by: { email: "bo@example.com" } },
        { result: [], completed_by: null },
      ],
    },
  ]);
  expect(r.status).toBe(201);
  expect(mock.data().annotations.map((a) => [a.ground_truth, a.completed_by])).toEqual([
    [true, 1],
    [false, 1],
    [true, 2],
    [true, 2],
    [true, 1],
  ]);
});

test.each([
  [9999, "Import data contains completed_by=9999 which is not a valid annotator's email or ID"],
  ["1", "Import data contains completed_by=1 which is not a valid annotator's email or ID"],
  [{ x: 1 }, "It's expected to have 'email' field in 'completed_by' data in annotations"],
  [{ email: "nobody@x.org" }, "Unknown annotator's email nobody@x.org"],
])("completed_by %j refuses the whole import: %s", async (by, message) => {
  const before = mock.data().tasks.length;
  const r = await importInto(1, [{ data: {} }, { data: {}, annotations: [{ result: [], completed_by: by }] }]);
  expect([r.status, r.body["detail"], r.body["validation_errors"]]).toEqual([400, "Validation error", { non_field_errors: [message] }]);
  expect(mock.data().tasks.length).toBe(before);
});

test('predictions: a missing model version is "undefined", and a project without one takes the last imported', async () => {
  await importInto(1, [{ data: {}, predictions: [{ result: [] }, { result: [], model_version: "m2" }] }]);
  const versions = mock.data().predictions.map((p) => p.model_version);
  expect(versions).toEqual(["undefined", "m2"]);
  expect(mock.data().projects.find((p) => p.id === 1)?.model_version).toBe("m2");
  await importInto(2, [{ data: {}, predictions: [{ result: [], model_version: "m3" }] }]);
  expect(mock.data().projects.find((p) => p.id === 2)?.model_version).toBe("mine");
});
