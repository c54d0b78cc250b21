import { describe, expect, test } from "vitest";
import { ApiError, ClientConfigError } from "../../src/index.js";
import { choice } from "../../testing/index.js";
import { useTarget } from "../../testing/vitest.js";

/*
 * `POST /api/projects/{id}/import/predictions`: predictions for tasks that exist, in one batch. The server
 * (community defaults) stores the ones `validate_prediction` accepts and leaves the others out without a
 * word; a task that is not the project's refuses the whole batch. Run on the mock by npm test and on a
 * real server by npm run test:real, unchanged.
 */
const ls = useTarget();

async function post(project: number, body: unknown, path = `/api/projects/${project}/import/predictions`) {
  const answer = await ls.target.fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: answer.status, json: json as Record<string, unknown> | undefined, text };
}

const rating = [{ from_name: "r", to_name: "text", type: "rating", value: { rating: 2 } }];
const CONFIG =
  '<View><Text name="text" value="$text"/><Choices name="label" toName="text"><Choice value="pos"/><Choice value="neg"/></Choices>' +
  '<Rating name="r" toName="text" maxRating="3"/></View>';

describe("import/predictions", () => {
  test("the accepted ones are stored as given and counted; the others are left out without a word", async () => {
    const seeded = await ls.seed({
      label_config: CONFIG,
      tasks: [
        { id: "t", data: { text: "a" } },
        { id: "u", data: { text: "b" } },
      ],
    });
    const [t, u] = [seeded.ids.tasks.get("t"), seeded.ids.tasks.get("u")];
    const answer = await post(seeded.id, [
      { task: t, result: choice("pos"), score: 0.75, model_version: "v9" },
      { task: u, result: choice("neg"), score: "0.5" },
      { task: u, result: rating },
      { task: t, result: "pos" }, // not a list
      { task: t, result: choice("pos"), score: 2 }, // a score past 1
      { task: t, result: choice("maybe") }, // a label the config does not declare
      { task: t, result: [{ ...rating[0], value: { rating: 4 } }] }, // past maxRating
      { task: u, result: [{ from_name: "nope", to_name: "text", type: "choices", value: { choices: ["pos"] } }] },
      { task: u, result: [{ from_name: "label", to_name: "text", type: "rating", value: { choices: ["pos"] } }] },
      { task: u }, // no result
    ]);
    expect([answer.status, answer.json]).toEqual([201, { created: 3 }]);
    const stored = await ls.client.predictions.list({ project: seeded.id });
    // In the order of (task, score): the server lists them in no fixed order.
    const rows = stored.map((p) => [p.task === t ? "t" : "u", p.result, p.score, p.model_version] as const);
    expect(rows.sort((a, b) => `${a[0]}${a[2]}`.localeCompare(`${b[0]}${b[2]}`))).toEqual([
      ["t", choice("pos"), 0.75, "v9"],
      ["u", choice("neg"), 0.5, "undefined"],
      ["u", rating, null, "undefined"],
    ]);
    expect((await ls.client.tasks.get(t)).total_predictions).toBe(1);
  });

  test("a task of another project (or none) refuses the batch: 400 naming the item and the project, nothing stored", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {} }] });
    const other = await ls.seed({ tasks: [{ id: "x", data: {} }] });
    const t = seeded.ids.tasks.get("t");
    const foreign = other.ids.tasks.get("x");
    const answer = await post(seeded.id, [
      { task: t, result: choice("pos") },
      { task: foreign, result: choice("pos"), score: 0.5 },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.json?.["validation_errors"]).toEqual({
      non_field_errors: [
        `{'task': ${foreign}, 'result': [{'from_name': 'label', 'to_name': 'text', 'type': 'choices', 'value': {'choices': ['pos']}}], 'score': 0.5} contains invalid "task" field: corresponding task ID couldn't be retrieved from project ${seeded.title} (id=${seeded.id}) tasks`,
      ],
    });
    const none = await post(seeded.id, [{ result: [] }]);
    expect(none.json?.["validation_errors"]).toEqual({
      non_field_errors: [
        `{'result': []} contains invalid "task" field: corresponding task ID couldn't be retrieved from project ${seeded.title} (id=${seeded.id}) tasks`,
      ],
    });
    expect(await ls.client.predictions.list({ project: seeded.id })).toEqual([]);
  });

  test("a body that is not a list of objects: Python's errors from the view's loop (500); an empty list creates none", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {} }] });
    const t = seeded.ids.tasks.get("t");
    const notObject = await post(seeded.id, [5]);
    expect([notObject.status, notObject.json?.["detail"]]).toEqual([500, "'int' object has no attribute 'get'"]);
    const dict = await post(seeded.id, { task: t, result: choice("pos") });
    expect([dict.status, dict.json?.["detail"]]).toEqual([500, "'str' object has no attribute 'get'"]);
    expect([(await post(seeded.id, [])).json]).toEqual([{ created: 0 }]);
    expect(await ls.client.predictions.list({ project: seeded.id })).toEqual([]);
  });

  test("the client's importPredictions: the count; a foreign task is an ApiError; a body that is not a list is refused unsent", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {} }] });
    const t = seeded.ids.tasks.get("t");
    expect(
      await ls.client.projects.importPredictions(seeded.id, [{ task: t, result: choice("neg"), score: 0.25, model_version: "c1" }]),
    ).toEqual({
      created: 1,
    });
    await expect(ls.client.projects.importPredictions(seeded.id, [{ task: 999999999, result: [] }])).rejects.toThrow(ApiError);
    // @ts-expect-error one prediction, not a list of them
    await expect(ls.client.projects.importPredictions(seeded.id, { task: t, result: [] })).rejects.toThrow(ClientConfigError);
    expect((await ls.client.predictions.list({ project: seeded.id })).map((p) => p.model_version)).toEqual(["c1"]);
  });

  test("the pattern has no trailing slash and only POST; an unknown project is the 404 page", async () => {
    const seeded = await ls.seed({ tasks: [{ id: "t", data: {} }] });
    const slash = await post(seeded.id, [], `/api/projects/${seeded.id}/import/predictions/`);
    expect([slash.status, slash.json]).toEqual([404, undefined]);
    expect(slash.text).toContain("<title>404 | Label Studio</title>");
    const missing = await post(seeded.id, [], "/api/projects/999999999/import/predictions");
    expect([missing.status, missing.json]).toEqual([404, undefined]);
    const get = await ls.target.fetch(`/api/projects/${seeded.id}/import/predictions`);
    expect([get.status, ((await get.json()) as { detail: string }).detail]).toEqual([405, 'Method "GET" not allowed.']);
  });
});

describe("predictions in a task import", () => {
  const importing = (project: number, body: unknown) => post(project, body, `/api/projects/${project}/import`);
  /** Each prediction as text with its keys sorted (the server stores results as jsonb, in its own key order), sorted. */
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, canon(x)]),
          )
        : v;
  const stored = async (project: number) =>
    (await ls.client.predictions.list({ project })).map((p) => JSON.stringify(canon([p.result, p.score, p.model_version]))).sort();

  test("results as prepare_prediction_result reads them, scores float() reads or null, versions as text; validate_prediction is not applied", async () => {
    const seeded = await ls.seed({ label_config: CONFIG, tasks: [] });
    const answer = await importing(seeded.id, [
      {
        data: { text: "a" },
        predictions: [
          { result: "pos" }, // a text: the first single-valued control taking one
          { result: { choices: ["neg"] } }, // an object: under the control of its key's type
          { result: 2 }, // an integer: Rating
          { result: choice("pos"), score: "0.5" },
          { result: choice("pos"), score: "high", model_version: 3 },
          { result: [{ from_name: "nope", to_name: "text", type: "choices", value: { choices: ["pos"] } }], score: 7 },
        ],
      },
    ]);
    expect([answer.status, answer.json?.["prediction_count"], answer.json?.["data_columns"]]).toEqual([201, 6, []]);
    const region = (from: string, type: string, value: object) => [{ from_name: from, to_name: "text", type, value }];
    const expected = [
      [region("label", "choices", { choices: ["pos"] }), null, "undefined"],
      [region("label", "choices", { choices: ["neg"] }), null, "undefined"],
      [region("r", "rating", { rating: [2] }), null, "undefined"],
      [choice("pos"), 0.5, "undefined"],
      [choice("pos"), null, "3"],
      [region("nope", "choices", { choices: ["pos"] }), 7, "undefined"],
    ] as const;
    expect(await stored(seeded.id)).toEqual(expected.map((row) => JSON.stringify(canon(row))).sort());
  });

  test("a prediction that is not an object, or a result it cannot read: tasks and annotations are kept, no prediction, then a 500", async () => {
    const seeded = await ls.seed({ label_config: CONFIG, tasks: [] });
    for (const bad of [5, { result: 1.5 }, { result: [1] }]) {
      const answer = await importing(seeded.id, [
        { data: { text: "kept" }, annotations: [{ result: choice("pos") }], predictions: [{ result: choice("pos") }, bad] },
        { data: { text: "also kept" }, predictions: [{ result: choice("neg") }] },
      ]);
      expect([answer.status, answer.json?.["detail"]]).toEqual([500, "'BaseTaskSerializerBulk' object has no attribute 'db_predictions'"]);
    }
    const tasks = await ls.client.tasks.list({ project: seeded.id, fields: "all" }).toArray();
    expect([tasks.length, tasks.reduce((n, t) => n + (t.total_annotations ?? 0), 0)]).toEqual([6, 3]);
    expect(await stored(seeded.id)).toEqual([]);
  });

  test("TaskValidator: predictions must be a list, each object in it with a result; the import is refused whole", async () => {
    const seeded = await ls.seed({ label_config: CONFIG, tasks: [] });
    const notList = await importing(seeded.id, [{ data: { text: "x" }, predictions: { result: [] } }]);
    expect([notList.status, notList.json?.["validation_errors"]]).toEqual([
      400,
      { non_field_errors: ["Error at item 0: Task[predictions] must be list :: {'data': {'text': 'x'}, 'predictions': {'result': []}}"] },
    ]);
    const noResult = await importing(seeded.id, [{ data: { text: "ok" } }, { data: { text: "y" }, predictions: [{ score: 0.5 }] }]);
    expect(noResult.json?.["validation_errors"]).toEqual({
      non_field_errors: [
        {},
        "Error at item 1: Prediction must have \"result\" fields :: {'data': {'text': 'y'}, 'predictions': [{'score': 0.5}]}",
      ],
    });
    expect((await ls.client.tasks.list({ project: seeded.id }).toArray()).length).toBe(0);
  });
});
