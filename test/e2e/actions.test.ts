import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { selection } from "../../src/selection.js";
import type { MockServer } from "../../mock-server/index.js";
import { clientFor, raw, startFixture, taskIds } from "./fixture.js";

let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const post = (query: string, body: unknown = {}) => raw(server, "POST", `/api/dm/actions/?${query}`, { body });
const annotationIds = () =>
  server
    .data()
    .annotations.map((a) => a.id)
    .sort((a, b) => a - b);

describe("the action list", () => {
  test("community actions in order, keys as registered, forms as null (docs/reference/actions-endpoint.md#listing-actions)", async () => {
    const list = await raw(server, "GET", "/api/dm/actions/?project=1");
    expect(list.status).toBe(200);
    expect(list.body.map((a: { id: string }) => a.id)).toEqual([
      "retrieve_tasks_predictions",
      "predictions_to_annotations",
      "remove_duplicates",
      "delete_tasks",
      "delete_tasks_annotations",
      "delete_tasks_predictions",
    ]);
    expect(list.body.map((a: object) => Object.keys(a).join(","))).toEqual([
      "id,title,order,permission,dialog",
      "id,title,order,permission,dialog",
      "id,title,order,permission,experimental,dialog",
      "id,title,order,permission,reload,dialog",
      "id,title,order,permission,dialog",
      "id,title,order,permission,dialog",
    ]);
    expect(list.body[1]).toEqual({
      id: "predictions_to_annotations",
      title: "Create Annotations From Predictions",
      order: 91,
      permission: "tasks.change",
      dialog: {
        title: "Create Annotations From Predictions",
        text: "Create annotations from predictions using selected predictions set for each selected task. Your account will be assigned as an owner to those annotations. ",
        type: "confirm",
        form: null,
      },
    });
    expect(list.body[3]).toEqual({
      id: "delete_tasks",
      title: "Delete Tasks",
      order: 100,
      permission: "tasks.delete",
      reload: true,
      dialog: { text: "You are going to delete the selected tasks. Please confirm your action.", type: "confirm" },
    });
    expect(list.body[4].permission).toEqual(["tasks.change", "annotations.delete"]);
    expect(list.body[0].dialog.text).toContain("connected to the project.This operation");
    expect((await clientFor(server).project(1).actions()).length).toBe(6);
  });

  test("without a project: 404; the published alias narrows by id", async () => {
    expect((await raw(server, "GET", "/api/dm/actions/")).status).toBe(404);
    expect((await raw(server, "GET", "/api/dm/actions/?project=9")).body.detail).toBe("No Project matches the given query.");
    const one = await raw(server, "GET", "/api/actions?project=1&id=delete_tasks");
    expect(one.body.map((a: { id: string }) => a.id)).toEqual(["delete_tasks"]);
    expect((await raw(server, "GET", "/api/dm/actions/?project=1&id=delete_tasks")).body).toHaveLength(6);
  });

  test("forms: model versions (current first), annotators, [] for others, 500 for unknown ids", async () => {
    const versions = await raw(server, "GET", "/api/dm/actions/predictions_to_annotations/form/?project=1");
    expect(versions.body).toEqual([
      {
        columnCount: 1,
        fields: [{ type: "select", name: "model_version", label: "Choose predictions", options: ["v2", "v1"], value: "v2" }],
      },
    ]);
    const annotators = await clientFor(server).actions.form(1, "delete_tasks_annotations");
    expect(annotators[0]?.fields[0]?.options).toEqual([
      { value: "1", label: "Ada Lovelace" },
      { value: "2", label: "bo" },
      { value: "3", label: "cy" },
    ]);
    expect((await raw(server, "GET", "/api/dm/actions/delete_tasks/form/?project=1")).body).toEqual([]);
    const rename = await raw(server, "GET", "/api/dm/actions/rename_labels/form/?project=1");
    expect(rename.body[0].fields.map((f: { options?: unknown }) => f.options)).toEqual([["sentiment"], ["Pos", "Neg"], undefined]);
    const propagate = await raw(server, "GET", "/api/dm/actions/propagate_annotations/form/?project=1");
    expect(propagate.body[0].fields[0].label).toBe("Enter source annotation ID [first ID: 1]");
    const unknown = await raw(server, "GET", "/api/dm/actions/nope/form/?project=1");
    expect([unknown.status, unknown.body.detail]).toEqual([500, "Can't find 'nope' in registered actions"]);
  });
});

describe("each action's effect and result body", () => {
  test("retrieve_tasks_predictions: no ML backend, nothing changes", async () => {
    const before = server.data();
    const r = await post("id=retrieve_tasks_predictions&project=1");
    expect([r.status, r.body]).toEqual([200, { processed_items: 6, detail: "Retrieved 6 predictions" }]);
    expect(server.data()).toEqual(before);
  });

  test("predictions_to_annotations: every unconverted prediction, by model_version, never twice", async () => {
    const v2 = await post("id=predictions_to_annotations&project=1", { model_version: "v2" });
    expect(v2.body).toEqual({ detail: "Created 2 annotations" });
    const made = server.data().annotations.filter((a) => a.parent_prediction);
    expect(made.map((a) => [a.task, a.parent_prediction, a.completed_by])).toEqual([
      [1, 2, 1],
      [4, 4, 1],
    ]);
    expect(made[0]?.result).toEqual(server.data().predictions.find((p) => p.id === 2)?.result);
    expect((await post("id=predictions_to_annotations&project=1", { model_version: ["v1", "v2"] })).body).toEqual({
      detail: "Created 3 annotations",
    });
    expect((await post("id=predictions_to_annotations&project=1")).body).toEqual({ detail: "Created 0 annotations" });
  });

  test("remove_duplicates: moves annotations to the first annotated duplicate, deletes the rest", async () => {
    const r = await post("id=remove_duplicates&project=1");
    expect([r.status, r.body]).toEqual([200, {}]);
    expect(taskIds(server)).toEqual([1, 2, 4, 5]);
    expect(server.data().annotations.find((a) => a.id === 6)?.task).toBe(1);
  });

  test("remove_duplicates counts skipped annotations too: they move to the first task, and the duplicate goes", async () => {
    // remove_duplicated_tasks, move_annotations: task['total_annotations'] + task['cancelled_annotations'] > 0
    // (label_studio/data_manager/actions/remove_duplicates.py); found by dmq verify against a running server.
    const skipped = await clientFor(server).annotations.create(3, { result: [], was_cancelled: true });
    const r = await post("id=remove_duplicates&project=1");
    expect(r.status).toBe(200);
    expect(taskIds(server)).toEqual([1, 2, 4, 5]);
    expect(server.data().annotations.find((a) => a.id === skipped.id)?.task).toBe(1);
  });

  test("delete_tasks: the selected ones; reload and no views once the project is empty", async () => {
    const some = await post("id=delete_tasks&project=1", { selectedItems: { all: false, included: [5, 6] } });
    expect(some.body).toEqual({ processed_items: 2, reload: false, detail: "Deleted 2 tasks" });
    expect(taskIds(server)).toEqual([1, 2, 3, 4]);
    expect(server.data().annotations.some((a) => a.task === 6)).toBe(false);
    const rest = await post("id=delete_tasks&project=1");
    expect(rest.body).toEqual({ processed_items: 4, reload: true, detail: "Deleted 4 tasks" });
    expect(server.data().views.map((v) => v.id)).toEqual([2]);
    expect(taskIds(server, 2)).toEqual([7]);
  });

  test("delete_tasks_annotations: all of the selection, or one annotator's; cancelled ones count", async () => {
    const bo = await post("id=delete_tasks_annotations&project=1", { annotator: "2" });
    expect(bo.body).toEqual({ processed_items: 2, detail: "Deleted 2 annotations" });
    expect(annotationIds()).toEqual([1, 3, 5, 6]);
    expect(server.data().tasks.find((t) => t.id === 4)?.updated_by).toBe(1);
    const all = await post("id=delete_tasks_annotations&project=1");
    expect(all.body).toEqual({ processed_items: 3, detail: "Deleted 3 annotations" });
    expect(annotationIds()).toEqual([5]);
  });

  test("delete_tasks_predictions", async () => {
    const r = await post("id=delete_tasks_predictions&project=1", { selectedItems: { all: true, excluded: [1] } });
    expect(r.body).toEqual({ processed_items: 3, detail: "Deleted 3 predictions" });
    expect(server.data().predictions.map((p) => p.id)).toEqual([1, 2]);
  });

  test("next_task (hidden, still POST-able): the labeling stream and the Data Manager queue, both over the open tasks", async () => {
    // get_next_task (projects/functions/next_task.py): tasks the caller has not annotated and that are not labeled.
    const stream = await post("id=next_task&project=1");
    expect(stream.body).toMatchObject({ id: 3, queue: "Sequence queue" });
    expect(stream.body.unique_lock_id).toMatch(/^[0-9a-f-]{36}$/);
    const queue = await post("id=next_task&project=1", { ordering: ["-tasks:id"] });
    expect(queue.body).toMatchObject({ id: 5, queue: "Data manager queue" });
    const end = await post("id=next_task&project=1", { selectedItems: { all: false, included: [1, 2] } });
    expect([end.status, end.body.detail]).toEqual([
      404,
      "There are still some tasks to complete for the user=ada@example.com, but they seem to be locked by another user.",
    ]);
  });

  test("experimental actions are performed when POSTed", async () => {
    const propagate = await post("id=propagate_annotations&project=1", {
      source_annotation_id: 1,
      selectedItems: { all: false, included: [1, 3, 5] },
    });
    expect(propagate.body).toEqual({ detail: "Created 2 annotations" });
    const rename = await post("id=rename_labels&project=1", { control_tag: "sentiment", old_label_name: "Pos", new_label_name: "Good" });
    expect(rename.body).toEqual({ detail: "Updated 4 labels in 4" });
    const cache = await post("id=cache_labels&project=1", { control_tag: "sentiment", selectedItems: { all: false, included: [1] } });
    expect(cache.body).toEqual({});
    expect(server.data().tasks.find((t) => t.id === 1)?.data["cache_sentiment"]).toBe("Good: 1");
    expect((await post("id=add_data_field&project=1", { column_name: "x", value_type: "String", value: "1" })).status).toBe(403);
  });

  test("rename_labels without a known control tag: Python's TypeError names the old label's Python type", async () => {
    const texts: string[] = [];
    for (const old of [5, 2.5, true, null]) {
      const r = await post("id=rename_labels&project=1", { control_tag: "nope", old_label_name: old, new_label_name: "x" });
      expect(r.status).toBe(500);
      texts.push(r.body.detail);
    }
    expect(texts).toEqual(["int", "float", "bool", "NoneType"].map((t) => `can only concatenate str (not "${t}") to str`));
  });
});

describe("selections", () => {
  test("no selectedItems means every task; filters narrow; the selection narrows the filtered set", async () => {
    const r = await post("id=retrieve_tasks_predictions&project=1", {
      filters: { conjunction: "and", items: [{ filter: "filter:tasks:total_predictions", operator: "greater", type: "Number", value: 0 }] },
      selectedItems: { all: false, included: [1, 3, 4] },
    });
    expect(r.body.processed_items).toBe(2);
  });

  test("a view wins over the body", async () => {
    const r = await post("id=delete_tasks&project=1&view=1", { selectedItems: { all: false, included: [5] } });
    expect(r.body.processed_items).toBe(4);
    expect(taskIds(server)).toEqual([3, 5]);
  });

  test("the builder and the client: selection(client.project(1)).run()", async () => {
    const client = clientFor(server);
    const result = await selection(client.project(1))
      .where("tasks:annotators")
      .contains(2)
      .run("delete_tasks_annotations", { annotator: 2 });
    expect(result).toEqual({ processed_items: 2, detail: "Deleted 2 annotations" });
    const sent = server.requests.at(-1);
    expect(sent).toMatchObject({
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "delete_tasks_annotations", project: "1" },
      status: 200,
    });
    expect(sent?.body).toMatchObject({ annotator: 2, filters: { conjunction: "and" } });
  });

  test("the published path /api/actions performs too (client routes option)", async () => {
    const client = clientFor(server, server.legacyToken, { routes: { actions: "/api/actions" } });
    const result = await selection(client.project(1)).including([2]).run("delete_tasks");
    expect(result).toEqual({ processed_items: 1, reload: false, detail: "Deleted 1 tasks" });
    expect(server.requests.at(-1)?.path).toBe("/api/actions");
  });
});

describe("faithful errors (docs/reference/errors.md#the-actions-endpoint-case-by-case)", () => {
  const cases: [string, string, unknown, number, unknown][] = [
    ["missing id", "project=1", {}, 422, { detail: 'No action id "None", use ?id=<action-id>' }],
    ["unknown id", "id=nope&project=1", {}, 500, "Can't find 'nope' in registered actions"],
    ["enterprise id", "id=delete_reviewers&project=1", {}, 500, "Can't find 'delete_reviewers' in registered actions"],
    ["missing project", "id=delete_tasks", {}, 404, "No Project matches the given query."],
    ["non-integer project", "id=delete_tasks&project=abc", {}, 400, "Validation error"],
    ["view of another project", "id=delete_tasks&project=1&view=2", {}, 500, "Project and View mismatch"],
    ["missing view", "id=delete_tasks&project=1&view=99", {}, 404, "No View matches the given query."],
    [
      "selectedItems a list",
      "id=delete_tasks&project=1",
      { selectedItems: [1] },
      500,
      expect.stringContaining("selectedItems must be dict"),
    ],
    [
      "__ traversal",
      "id=delete_tasks&project=1",
      {
        filters: {
          conjunction: "and",
          items: [{ filter: "filter:tasks:updated_by__email", operator: "equal", type: "String", value: "x" }],
        },
      },
      400,
      "Validation error",
    ],
  ];
  for (const [name, query, body, status, detail] of cases) {
    test(name, async () => {
      const before = taskIds(server);
      const r = await post(query, body);
      expect(r.status).toBe(status);
      if (typeof detail === "object" && detail !== null && "detail" in detail) expect(r.body).toEqual(detail);
      else expect(r.body.detail).toEqual(detail);
      if (status === 500) expect(r.body.exc_info).toEqual(expect.stringContaining("Traceback"));
      expect(taskIds(server)).toEqual(before);
    });
  }

  test("a query URL parameter is read before the body; one that is not JSON is a 500", async () => {
    const query = encodeURIComponent(JSON.stringify({ selectedItems: { all: false, included: [2] } }));
    const r = await post(`id=delete_tasks&project=1&query=${query}`, { selectedItems: { all: false, included: [3] } });
    expect(r.body.processed_items).toBe(1);
    expect(taskIds(server)).toEqual([1, 3, 4, 5, 6]);
    const broken = await post("id=delete_tasks&project=1&query=%7Bnot-json");
    expect(broken.status).toBe(500);
    expect(taskIds(server)).toEqual([1, 3, 4, 5, 6]);
  });

  test("a filter without the prefix is ignored: the action runs on every task", async () => {
    const r = await post("id=delete_tasks&project=1", {
      filters: { conjunction: "and", items: [{ filter: "tasks:id", operator: "equal", type: "Number", value: 1 }] },
    });
    expect(r.body.processed_items).toBe(6);
  });

  test("an invalid regex anywhere, even in an ignored item, makes the action run on no task", async () => {
    const badRegex = { filter: "tasks:data.text", operator: "regex", type: "String", value: "(unclosed" };
    const r = await post("id=delete_tasks&project=1", {
      filters: { conjunction: "or", items: [badRegex, { filter: "filter:tasks:id", operator: "greater", type: "Number", value: 0 }] },
    });
    expect(r.body).toEqual({ processed_items: 0, reload: false, detail: "Deleted 0 tasks" });
    expect(taskIds(server)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("an empty selection runs on 0 tasks ({all: false, included: []} is every task)", async () => {
    const none = await post("id=delete_tasks&project=1", {
      filters: { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "greater", type: "Number", value: 100 }] },
    });
    expect(none.body).toEqual({ processed_items: 0, reload: false, detail: "Deleted 0 tasks" });
    const quirk = await post("id=retrieve_tasks_predictions&project=1", { selectedItems: { all: false, included: [] } });
    expect(quirk.body.processed_items).toBe(6);
  });
});

describe("strict mode: 400s naming the field", () => {
  let strict: MockServer;
  beforeAll(async () => {
    strict = await startFixture({ strict: true });
  });
  afterAll(() => strict.close());
  const spost = (query: string, body: unknown = {}) => raw(strict, "POST", `/api/dm/actions/?${query}`, { body });

  test("unknown action id", async () => {
    const r = await spost("id=nope&project=1");
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.validation_errors)).toEqual(["id"]);
  });

  test("a filter the server would ignore, keyed by its path", async () => {
    const r = await spost("id=delete_tasks&project=1", {
      filters: { conjunction: "and", items: [{ filter: "tasks:id", operator: "equal", type: "Number", value: 1 }] },
    });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.validation_errors)).toEqual(["filters.items[0].filter"]);
    expect(taskIds(strict)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("a view mismatch, body fields a view overrides, unknown and mistyped action fields", async () => {
    expect((await spost("id=delete_tasks&project=1&view=2")).body.validation_errors).toHaveProperty("view");
    expect(
      (await spost("id=delete_tasks&project=1&view=1", { selectedItems: { all: true, excluded: [] } })).body.validation_errors,
    ).toHaveProperty("selectedItems");
    expect((await spost("id=delete_tasks&project=1", { annotator: 2 })).body.validation_errors).toHaveProperty("annotator");
    expect((await spost("id=delete_tasks_annotations&project=1", { annotator: "bo" })).body.validation_errors).toHaveProperty("annotator");
    expect(taskIds(strict)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("the task list's selectedItems URL parameter, which the server ignores", async () => {
    const faithful = await raw(server, "GET", `/api/tasks/?project=1&selectedItems=${encodeURIComponent('{"all":false,"included":[1]}')}`);
    expect(faithful.body.total).toBe(6);
    const r = await raw(strict, "GET", `/api/tasks/?project=1&selectedItems=${encodeURIComponent('{"all":false,"included":[1]}')}`);
    expect([r.status, Object.keys(r.body.validation_errors)]).toEqual([400, ["selectedItems"]]);
  });

  test("query parameter problems", async () => {
    expect((await spost("id=delete_tasks&project=1&query=%7Bnot-json")).body.validation_errors).toHaveProperty("query");
    const query = encodeURIComponent(JSON.stringify({ selectedItems: { all: false, included: [2] } }));
    expect((await spost(`id=delete_tasks&project=1&query=${query}`, { filters: null })).body.validation_errors).toHaveProperty("filters");
    expect((await spost(`id=delete_tasks&project=1&view=1&query=${query}`)).body.validation_errors).toHaveProperty("selectedItems");
    expect(taskIds(strict)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("a top-level key the server does not read: a misspelt filters, the query wrapper, project in the query parameter", async () => {
    const filters = { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "equal", type: "Number", value: 1 }] };
    const misspelt = await spost("id=delete_tasks&project=1", { filter: filters });
    expect([misspelt.status, misspelt.body.validation_errors]).toEqual([
      400,
      { filter: [expect.stringContaining('found an unknown key "filter" (did you mean filters?), so the server applies no filter')] },
    ]);
    const wrapped = await spost("id=delete_tasks&project=1", { query: { filters } });
    expect(Object.keys(wrapped.body.validation_errors)).toEqual(["query"]);
    const list = await raw(strict, "GET", `/api/tasks/?project=1&query=${encodeURIComponent(JSON.stringify({ filters, project: 1 }))}`);
    expect([list.status, Object.keys(list.body.validation_errors)]).toEqual([400, ["query.project"]]);
    // The SDK's legacy client sends project in an action's body: tolerated.
    // Task 3 is open (not labeled, not the caller's), so next_task has a task to answer.
    const open = { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "equal", type: "Number", value: 3 }] };
    expect((await spost("id=next_task&project=1", { filters: open, project: 1 })).body).toMatchObject({ id: 3 });
    expect(taskIds(strict)).toEqual([1, 2, 3, 4, 5, 6]);
    // Faithful, as the server: the misspelt key is dropped and every task goes.
    expect((await raw(server, "POST", "/api/dm/actions/?id=delete_tasks&project=1", { body: { filter: filters } })).body).toMatchObject({
      processed_items: 6,
    });
  });

  test("an invalid regex, which the server answers with an empty result", async () => {
    const r = await spost("id=delete_tasks&project=1", {
      filters: { conjunction: "and", items: [{ filter: "filter:tasks:data.text", operator: "regex", type: "String", value: "a(" }] },
    });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.validation_errors)).toEqual(["filters.items[0].value"]);
    expect(taskIds(strict)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("a selectedItems the server answers 500 for", async () => {
    const r = await spost("id=delete_tasks&project=1", { selectedItems: [1] });
    expect(r.status).toBe(400);
    expect(r.body.validation_errors).toHaveProperty("selectedItems");
  });

  test("valid requests behave as in faithful mode", async () => {
    const r = await spost("id=delete_tasks_predictions&project=1", { selectedItems: { all: false, included: [1] } });
    expect(r.body).toEqual({ processed_items: 2, detail: "Deleted 2 predictions" });
  });
});
