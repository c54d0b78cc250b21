import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { raw } from "./fixture.js";

/*
 * The server's bulk import (TaskSerializerBulk.create, label_studio/tasks/serializers.py) has defaults
 * of its own, different from the single-record APIs. Each was found by `dmq verify` against a running
 * server, where the mock answered otherwise.
 */
const choice = (label: string) => [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: [label] } }];
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ data: { users: [{ id: 1, username: "admin" }], projects: [{ id: 1, title: "Import" }] } });
});
afterAll(() => server.close());

async function importInto(project: number, tasks: unknown[]) {
  const answer = await raw(server, "POST", `/api/projects/${project}/import?return_task_ids=true`, { body: tasks });
  expect(answer.status).toBe(201);
  return answer.body as { task_ids: number[]; data_columns: unknown };
}

async function newProject(): Promise<number> {
  const created = await raw(server, "POST", "/api/projects/", { body: { title: "import defaults" } });
  return created.body.id as number;
}

const listed = async (project: number) =>
  (await raw(server, "GET", `/api/tasks/?project=${project}&fields=all`)).body.tasks as Record<string, unknown>[];

describe("import", () => {
  test("an imported annotation is a ground truth unless it says otherwise (add_annotations)", async () => {
    const project = await newProject();
    await importInto(project, [
      { data: { text: "a" }, annotations: [{ result: choice("pos") }, { result: choice("neg"), ground_truth: false }] },
    ]);
    const [task] = await listed(project);
    expect((task!["annotations"] as { ground_truth: boolean }[]).map((a) => a.ground_truth)).toEqual([true, false]);
  });

  test('a prediction without a model version gets "undefined"; the project takes the last one\'s version when it has none', async () => {
    const project = await newProject();
    await importInto(project, [
      { data: { text: "a" }, predictions: [{ result: choice("pos"), score: 0.2 }] },
      { data: { text: "b" }, predictions: [{ result: choice("neg"), score: 0.8, model_version: "m2" }] },
    ]);
    const tasks = await listed(project);
    expect(tasks.map((t) => (t["predictions"] as { model_version: string }[])[0]?.model_version)).toEqual(["undefined", "m2"]);
    expect((await raw(server, "GET", `/api/projects/${project}/`)).body.model_version).toBe("m2");
    // predictions_score counts the project's model version only.
    expect(tasks.map((t) => t["predictions_score"])).toEqual([null, 0.8]);
    // A project that has a model version keeps it.
    await importInto(project, [{ data: { text: "c" }, predictions: [{ result: choice("pos"), model_version: "m3" }] }]);
    expect((await raw(server, "GET", `/api/projects/${project}/`)).body.model_version).toBe("m2");
  });

  test("a task is labeled when it has as many annotations as its overlap, cancelled ones included, until its annotations change", async () => {
    const project = await newProject();
    const { task_ids } = await importInto(project, [
      { data: { text: "skipped" }, annotations: [{ result: [], was_cancelled: true }] },
      { data: { text: "none" } },
    ]);
    const labeled = async () => (await listed(project)).map((t) => [t["is_labeled"], t["completed_at"] === null]);
    expect(await labeled()).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(server.data().tasks.find((t) => t.id === task_ids[0])?.is_labeled).toBe(true);
    // A new annotation makes the server recompute the flag: a cancelled annotation does not count then.
    const posted = await raw(server, "POST", `/api/tasks/${task_ids[0]}/annotations/?was_cancelled=1`, { body: { result: [] } });
    expect(posted.status).toBe(201);
    expect(await labeled()).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(server.data().tasks.find((t) => t.id === task_ids[0])).not.toHaveProperty("is_labeled");
  });

  test("every row gets a timestamp of its own, increasing, as Django stamps each row of a bulk_create", async () => {
    const project = await newProject();
    await importInto(project, [
      { data: { text: "a" }, annotations: [{ result: choice("pos") }] },
      { data: { text: "b" }, annotations: [{ result: choice("neg") }] },
      { data: { text: "c" } },
    ]);
    const tasks = await listed(project);
    const created = tasks.map((t) => t["created_at"] as string);
    expect(new Set(created).size).toBe(3);
    expect([...created].sort()).toEqual(created);
    // Tasks first, then annotations (add_tasks, then add_annotations).
    const annotated = tasks.flatMap((t) => (t["annotations"] as { created_at: string }[]).map((a) => a.created_at));
    expect(annotated[0]! > created[2]!).toBe(true);
    const filtered = await raw(
      server,
      "GET",
      `/api/tasks/?project=${project}&query=${encodeURIComponent(
        JSON.stringify({
          filters: {
            conjunction: "and",
            items: [{ filter: "filter:tasks:created_at", operator: "greater", type: "Datetime", value: created[0] }],
          },
        }),
      )}`,
    );
    expect(filtered.body.total).toBe(2);
  });

  test("data_columns is empty for a JSON body (load_tasks collects data keys from uploaded files only)", async () => {
    const project = await newProject();
    expect((await importInto(project, [{ data: { text: "a", other: 1 } }])).data_columns).toEqual([]);
  });
});

describe("an import body the server refuses", () => {
  test("not a list or an object: load_tasks finds no data; an empty list: no tasks; a number among the tasks: a TypeError", async () => {
    // load_tasks (label_studio/data_import/uploader.py); BaseTaskSerializer.validate (`'data' not in task`).
    const project = await newProject();
    const post = (body: unknown) => raw(server, "POST", `/api/projects/${project}/import`, { body: JSON.stringify(body) });
    for (const body of ["x", 1, null]) {
      const answer = await post(body);
      expect([answer.status, answer.body.validation_errors]).toEqual([
        400,
        { non_field_errors: ["load_tasks: No data found in DATA or in FILES"] },
      ]);
    }
    const empty = await post([]);
    expect(empty.body.validation_errors).toEqual({ non_field_errors: ["load_tasks: No tasks added"] });
    const number = await post([{ data: { text: "a" } }, 1]);
    expect([number.status, number.body.detail]).toEqual([500, "argument of type 'int' is not iterable"]);
    expect((await listed(project)).length).toBe(0);
  });

  // TaskValidator.validate (label_studio/tasks/validation.py) per item, BaseTaskSerializerBulk.format_error; measured
  // on Label Studio 1.22: one entry per item, {} for a good one, nothing imported.
  const textProject = async () =>
    (
      await raw(server, "POST", "/api/projects/", {
        body: {
          title: "checked",
          label_config: '<View><Text name="text" value="$text"/><Choices name="c" toName="text"><Choice value="a"/></Choices></View>',
        },
      })
    ).body.id as number;

  test("each item's data, annotations and their results are checked in the validator's order, in its words", async () => {
    const project = await textProject();
    const answer = await raw(server, "POST", `/api/projects/${project}/import`, {
      body: [
        { data: { text: "ok" } },
        { data: "x" },
        { data: { text: "a" }, annotations: "y" },
        { data: { text: "a" }, annotations: [{ x: 1 }] },
        { data: { text: "a" }, annotations: [{ result: null }] },
        { data: null },
        { data: ["t"] },
        "abc",
        [1],
      ],
    });
    expect([answer.status, answer.body.validation_errors]).toEqual([
      400,
      {
        non_field_errors: [
          {},
          "Error at item 1: Task[data] must be dict or list :: {'data': 'x'}",
          "Error at item 2: Task[annotations] must be list :: {'data': {'text': 'a'}, 'annotations': 'y'}",
          "Error at item 3: Annotation must have \"result\" fields :: {'data': {'text': 'a'}, 'annotations': [{'x': 1}]}",
          "Error at item 4: \"result\" field in annotation must be list :: {'data': {'text': 'a'}, 'annotations': [{'result': None}]}",
          "Error at item 5: Task[data] must be dict or list :: {'data': None}",
          "Error at item 6: \"text\" key is expected in task data [assume: item[\"data\"] = task root with values] :: {'data': ['t']}",
          'Error at item 7: Task root must be dict with "data", "meta", "annotations", "predictions" fields :: abc',
          'Error at item 8: Task root must be dict with "data", "meta", "annotations", "predictions" fields :: [1]',
        ],
      },
    ]);
    expect((await listed(project)).length).toBe(0);
  });

  test("an annotation that is not an object passes the validator and fails the import with a 500, nothing stored", async () => {
    // _insert_valid_completed_by calls annotation.get('completed_by') (tasks/serializers.py).
    const project = await textProject();
    for (const [entry, type] of [
      [1, "int"],
      ["s", "str"],
      [null, "NoneType"],
    ] as const) {
      const answer = await raw(server, "POST", `/api/projects/${project}/import`, {
        body: [{ data: { text: "a" }, annotations: [{ result: [] }, entry] }],
      });
      expect([answer.status, answer.body.detail]).toEqual([500, `'${type}' object has no attribute 'get'`]);
    }
    expect((await listed(project)).length).toBe(0);
    expect(server.data().annotations.filter((a) => a.project === project)).toEqual([]);
  });

  test("strict mode refuses a non-object annotation with a 400 naming it; list data holding the key is the server's TypeError", async () => {
    const strict = await startMockServer({
      strict: true,
      data: {
        users: [{ id: 1, username: "admin" }],
        projects: [{ id: 1, title: "Strict", label_config: '<View><Text name="text" value="$text"/></View>' }],
      },
    });
    try {
      const answer = await raw(strict, "POST", "/api/projects/1/import", {
        body: [{ data: { text: "a" } }, { data: { text: "b" }, annotations: [{ result: [] }, 7] }],
      });
      expect([answer.status, answer.body.validation_errors]).toEqual([
        400,
        { "[1].annotations[1]": ["expected an annotation object, found int (the server answers 500)"] },
      ]);
      const listed = await raw(strict, "POST", "/api/projects/1/import", { body: [{ data: ["text"] }] });
      expect([listed.status, listed.body.detail]).toEqual([500, "list indices must be integers or slices, not str"]);
      expect(strict.data().tasks).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  test("past a hundred entries the list ends with '...'", async () => {
    const project = await textProject();
    const answer = await raw(server, "POST", `/api/projects/${project}/import`, {
      body: Array.from({ length: 150 }, () => ({ data: "x" })),
    });
    const errors = answer.body.validation_errors.non_field_errors as string[];
    expect([errors.length, errors[98], errors[99]]).toEqual([
      100,
      "Error at item 98: Task[data] must be dict or list :: {'data': 'x'}",
      "...",
    ]);
  });
});
