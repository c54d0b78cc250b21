import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { closedPort, startMLBackend, type MLBackend } from "../helpers/ml-backend.js";
import { ADA_KEY, raw, startFixture } from "./fixture.js";

/*
 * `/api/ml/` against a model server running beside the mock (test/helpers/ml-backend.ts), with the
 * requests a server (1.22) sent a model server: `GET /health` and `POST /setup` on create and on every
 * read, `POST /predict` with TaskSimpleSerializer tasks, `GET /versions`, the training webhook.
 * Fixture project 1: choices "sentiment" (Pos, Neg); tasks 1–6; task 3 and 6 have no prediction.
 */
let server: MockServer;
let model: MLBackend;
beforeAll(async () => {
  server = await startFixture();
  model = await startMLBackend({ version: "tiny-v1" });
});
afterAll(async () => {
  await server.close();
  await model.close();
});
beforeEach(async () => {
  await server.reset();
  model.seen.length = 0;
});

const register = (body: Record<string, unknown> = {}) =>
  raw(server, "POST", "/api/ml/", { body: { url: model.url, project: 1, title: "tiny", ...body } });

describe("registering a backend", () => {
  test("POST checks it (health, setup), stores it connected with the version setup answered", async () => {
    const answer = await register({ description: "for tests" });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: 1,
      state: "CO",
      readable_state: "Connected",
      is_interactive: false,
      url: model.url,
      error_message: null,
      title: "tiny",
      auth_method: "NONE",
      basic_auth_user: "",
      basic_auth_pass_is_set: false,
      description: "for tests",
      extra_params: null,
      model_version: "tiny-v1",
      timeout: 100,
      auto_update: true,
      project: 1,
    });
    expect(answer.body).not.toHaveProperty("basic_auth_pass");
    expect(model.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /health", "POST /setup", "GET /health", "POST /setup"]);
    const setup = model.seen[1]!.body as Record<string, unknown>;
    expect(Object.keys(setup)).toEqual(["project", "schema", "hostname", "access_token", "extra_params"]);
    expect(setup["project"]).toMatch(/^1\.\d+$/);
    expect(setup["schema"]).toBe(server.data().projects[0]!.label_config);
    expect(model.seen[0]!.headers["user-agent"]).toBe("heartex/");
  });

  test("a project that shows predictions and has no version takes the backend's title", async () => {
    await raw(server, "PATCH", "/api/projects/1/", { body: { model_version: "" } });
    await register();
    expect(server.data().projects[0]!.model_version).toBe("tiny");
  });

  test("field errors, an unreachable server, a server that is not a backend", async () => {
    const missing = await raw(server, "POST", "/api/ml/", { body: { project: 1 } });
    expect(missing.body.validation_errors).toEqual({ url: ["This field is required."] });
    const noProject = await raw(server, "POST", "/api/ml/", { body: { url: model.url } });
    expect(noProject.body.validation_errors).toEqual({ project: ["This field is required."] });
    const port = await closedPort();
    const down = await raw(server, "POST", "/api/ml/", { body: { url: `http://127.0.0.1:${port}`, project: 1 } });
    expect(down.status).toBe(400);
    expect(down.body.validation_errors.non_field_errors[0]).toMatch(
      new RegExp(`^Can't connect to ML backend http://127\\.0\\.0\\.1:${port}, health check failed\\. .*Connection refused'\\)\\)$`),
    );
    const broken = await startMLBackend({ fail: { setup: 500 } });
    try {
      const answer = await raw(server, "POST", "/api/ml/", { body: { url: broken.url, project: 1 } });
      expect(answer.body.validation_errors.non_field_errors[0]).toMatch(
        new RegExp(`^Successfully connected to ${broken.url} but it doesn't look like a valid ML backend\\. Reason: 500 Server Error`),
      );
    } finally {
      await broken.close();
    }
    const basic = await raw(server, "POST", "/api/ml/", { body: { url: model.url, project: 1, auth_method: "BASIC_AUTH" } });
    expect(basic.body.validation_errors).toEqual({
      non_field_errors: ["Authentication username and password is required for Basic Authentication."],
    });
    expect(server.data().ml_backends).toEqual([]);
  });
});

describe("reading, updating, deleting", () => {
  test("list (by project) and get update the state first; a backend that went away is disconnected", async () => {
    await register();
    const list = await raw(server, "GET", "/api/ml/?project=1");
    expect(list.body.map((b: { id: number }) => b.id)).toEqual([1]);
    expect((await raw(server, "GET", "/api/ml/?project=2")).body).toEqual([]);
    expect((await raw(server, "GET", "/api/ml/")).status).toBe(404);
    const other = await startMLBackend();
    await raw(server, "POST", "/api/ml/", { body: { url: other.url, project: 2 } });
    await other.close();
    const gone = await raw(server, "GET", "/api/ml/2");
    expect([gone.body.state, gone.body.readable_state]).toEqual(["DI", "Disconnected"]);
  });

  test("PATCH must carry url and project (the server checks the written fields only), and renames the project's version", async () => {
    await raw(server, "PATCH", "/api/projects/1/", { body: { model_version: "" } });
    await register();
    const noUrl = await raw(server, "PATCH", "/api/ml/1", { body: { title: "renamed" } });
    expect([noUrl.status, noUrl.body.detail]).toEqual([500, "MLBackend.healthcheck_() missing 1 required positional argument: 'url'"]);
    const answer = await raw(server, "PATCH", "/api/ml/1", {
      body: { url: model.url, project: 1, title: "renamed", is_interactive: true },
    });
    expect([answer.status, answer.body.title, answer.body.is_interactive]).toEqual([200, "renamed", true]);
    expect(server.data().projects[0]!.model_version).toBe("renamed");
  });

  test("DELETE; the project's version named for it is cleared", async () => {
    await raw(server, "PATCH", "/api/projects/1/", { body: { model_version: "" } });
    await register();
    expect((await raw(server, "DELETE", "/api/ml/1")).status).toBe(204);
    expect(server.data().projects[0]!.model_version).toBe("");
    // ml/urls.py's patterns have no trailing slash: the view's 404 reaches the client as the HTML 404 page (measured on 1.22).
    const gone = await raw(server, "GET", "/api/ml/1");
    expect([gone.status, gone.headers.get("content-type")?.startsWith("text/html")]).toEqual([404, true]);
  });
});

describe("a prediction's model and model run (PrimaryKeyRelatedField, measured on 1.22)", () => {
  const result = [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }];
  const predict = (body: Record<string, unknown>) => raw(server, "POST", "/api/predictions/", { body: { task: 3, result, ...body } });
  const errors = async (body: Record<string, unknown>) => {
    const answer = await predict(body);
    return [answer.status, answer.body.validation_errors];
  };

  test("model names a backend, of any project, by its id or the id's text; deleting the backend deletes its predictions", async () => {
    const backend = (await register()).body.id as number;
    const made = await predict({ model: backend });
    expect([made.status, made.body.model, made.body.model_run]).toEqual([201, backend, null]);
    const byText = await predict({ model: String(backend) });
    expect([byText.status, byText.body.model]).toEqual([201, backend]);
    // Prediction.model is a ForeignKey with on_delete CASCADE (tasks/models.py).
    expect((await raw(server, "DELETE", `/api/ml/${backend}`)).status).toBe(204);
    expect(server.data().predictions.filter((p) => p.id === made.body.id || p.id === byText.body.id)).toEqual([]);
    expect((await raw(server, "GET", `/api/predictions/${made.body.id}/`)).status).toBe(404);
    expect(await errors({ model: backend })).toEqual([400, { model: [`Invalid pk "${backend}" - object does not exist.`] }]);
  });

  test("an id that names nothing, or a value of the wrong type: DRF's two messages; model_run names nothing on a community server", async () => {
    expect(await errors({ model: 999999 })).toEqual([400, { model: ['Invalid pk "999999" - object does not exist.'] }]);
    expect(await errors({ model: "12" })).toEqual([400, { model: ['Invalid pk "12" - object does not exist.'] }]);
    expect(await errors({ model: [1] })).toEqual([400, { model: ["Incorrect type. Expected pk value, received list."] }]);
    expect(await errors({ model_run: 999999 })).toEqual([400, { model_run: ['Invalid pk "999999" - object does not exist.'] }]);
    expect(await errors({ model_run: 1.5 })).toEqual([400, { model_run: ['Invalid pk "1.5" - object does not exist.'] }]);
    expect(await errors({ model_run: "abc" })).toEqual([400, { model_run: ["Incorrect type. Expected pk value, received str."] }]);
    expect(await errors({ model_run: true })).toEqual([400, { model_run: ["Incorrect type. Expected pk value, received bool."] }]);
    expect(await errors({ model_run: {} })).toEqual([400, { model_run: ["Incorrect type. Expected pk value, received dict."] }]);
    const plain = await predict({ model: null, model_run: null });
    expect([plain.status, plain.body.model, plain.body.model_run]).toEqual([201, null, null]);
  });
});

describe("predictions from the backend", () => {
  test("retrieve_tasks_predictions sends the tasks without a prediction of the backend's version, stores what it answers", async () => {
    await register();
    model.seen.length = 0;
    const answer = await raw(server, "POST", "/api/dm/actions/?id=retrieve_tasks_predictions&project=1", {
      body: { selectedItems: { all: false, included: [1, 3] } },
    });
    expect(answer.body).toEqual({ processed_items: 2, detail: "Retrieved 2 predictions" });
    const predict = model.seen.find((r) => r.path === "/predict")!.body as Record<string, unknown>;
    expect(Object.keys(predict)).toEqual(["tasks", "project", "label_config", "params"]);
    expect((predict["tasks"] as { id: number }[]).map((t) => t.id)).toEqual([1, 3]);
    expect(Object.keys((predict["tasks"] as Record<string, unknown>[])[0]!)).toContain("annotations");
    expect(predict["params"]).toEqual({ login: null, password: null, context: null });
    const made = server.data().predictions.filter((p) => p.model_version === "tiny-v1");
    expect(made.map((p) => [p.task, p.score, p.result])).toEqual([
      [1, 0.5, [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }]],
      [3, 0.5, [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }]],
    ]);
    // Asked again, tasks that have this version's prediction are not sent.
    model.seen.length = 0;
    await raw(server, "POST", "/api/dm/actions/?id=retrieve_tasks_predictions&project=1", {
      body: { selectedItems: { all: false, included: [1, 3] } },
    });
    expect(model.seen.some((r) => r.path === "/predict")).toBe(false);
  });

  test("a project without a backend: the same answer, nothing made", async () => {
    const answer = await raw(server, "POST", "/api/dm/actions/?id=retrieve_tasks_predictions&project=2", { body: {} });
    expect(answer.body).toEqual({ processed_items: 1, detail: "Retrieved 1 predictions" });
    expect(server.data().predictions).toHaveLength(5);
  });

  test("evaluate_predictions_automatically: the task list predicts its page's tasks that have none", async () => {
    await register();
    await raw(server, "PATCH", "/api/projects/1/", { body: { evaluate_predictions_automatically: true } });
    const list = await raw(server, "GET", "/api/tasks/?project=1&fields=all");
    const byId = new Map(list.body.tasks.map((t: { id: number; predictions: unknown[] }) => [t.id, t.predictions.length]));
    expect([byId.get(3), byId.get(6), byId.get(1)]).toEqual([1, 1, 2]);
  });

  test("predict/test?random=true shows one round trip and stores nothing; without random 501", async () => {
    await register();
    const answer = await raw(server, "POST", "/api/ml/1/predict/test?random=true", { body: {} });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["status", "error_message", "url", "task", "request", "response"]);
    expect(answer.body.url).toBe(`${model.url}/predict`);
    expect(answer.body.response[0].score).toBe(0.5);
    expect(server.data().predictions).toHaveLength(5);
    const plain = await raw(server, "POST", "/api/ml/1/predict/test", { body: {} });
    expect([plain.status, plain.body]).toEqual([501, { error: "Not implemented - you must provide random=true query parameter" }]);
  });

  test("interactive annotating: refused unless interactive, then the first result with the context", async () => {
    await register();
    expect((await raw(server, "POST", "/api/ml/1/interactive-annotating", { body: { task: 1 } })).body).toEqual({
      errors: ["Model is not set to be used for interactive preannotations"],
    });
    expect((await raw(server, "POST", "/api/ml/1/interactive-annotating", { body: {} })).body.validation_errors).toEqual({
      task: ["This field is required."],
    });
    await raw(server, "PATCH", "/api/ml/1", { body: { url: model.url, project: 1, is_interactive: true } });
    const answer = await raw(server, "POST", "/api/ml/1/interactive-annotating", { body: { task: 1, context: { x: 1 } } });
    expect(answer.body.data.score).toBe(0.5);
    const sent = model.seen.filter((r) => r.path === "/predict").at(-1)!.body as { params: { context: unknown } };
    expect(sent.params.context).toEqual({ x: 1 });
    expect((await raw(server, "POST", "/api/ml/1/interactive-annotating", { body: { task: 7 } })).status).toBe(404);
  });

  test("versions: the backend's list; one without the endpoint gets its own version and a hint", async () => {
    await register();
    expect((await raw(server, "GET", "/api/ml/1/versions")).body).toEqual({ versions: ["tiny-v1"] });
    const old = await startMLBackend({ fail: { versions: 404 } });
    try {
      await raw(server, "POST", "/api/ml/", { body: { url: old.url, project: 2 } });
      expect((await raw(server, "GET", "/api/ml/2/versions")).body).toEqual({
        versions: ["tiny-v1"],
        message: "Upgrade your ML backend version to latest.",
      });
    } finally {
      await old.close();
    }
  });

  test("train posts START_TRAINING with the project; the backend is training", async () => {
    await register();
    const answer = await raw(server, "POST", "/api/ml/1/train", { key: ADA_KEY, body: {} });
    expect(answer.status).toBe(200);
    const hook = model.seen.find((r) => r.path === "/webhook")!.body as { action: string; project: { id: number } };
    expect([hook.action, hook.project.id]).toEqual(["START_TRAINING", 1]);
    expect(server.data().ml_backends[0]!.state).toBe("TR");
  });

  test("model-versions lists the live backends on request", async () => {
    await register();
    const answer = await raw(server, "GET", "/api/projects/1/model-versions/?extended=1&include_live_models=1");
    expect(answer.body.live.map((b: { title: string }) => b.title)).toEqual(["tiny"]);
  });
});

/*
 * A task's total_predictions after a delete of several predictions at once, as measured on fresh 1.22 servers
 * (PostgreSQL and SQLite, the same figures on both): Prediction's pre_delete receiver sets the counter to the
 * count before minus one, once per prediction, all before any row goes, so a task losing k of n keeps n − 1.
 */
describe("total_predictions after a delete of several predictions at once (measured on 1.22)", () => {
  const result = [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }];
  const newTask = async (text: string) =>
    (await raw(server, "POST", "/api/tasks/", { body: { project: 1, data: { text } } })).body.id as number;
  const predict = async (task: number, body: Record<string, unknown> = {}) =>
    (await raw(server, "POST", "/api/predictions/", { body: { task, result, ...body } })).body.id as number;
  const counted = async (task: number) => (await raw(server, "GET", `/api/tasks/${task}/`)).body.total_predictions as number;
  const left = (task: number) => server.data().predictions.filter((p) => p.task === task).length;
  const dmIds = async (query: unknown) => {
    const answer = await raw(server, "GET", `/api/tasks/?project=1&page_size=1000&query=${encodeURIComponent(JSON.stringify(query))}`);
    return (answer.body.tasks as { id: number }[]).map((t) => t.id).sort((a, b) => a - b);
  };

  test("deleting the ML backend: a task that lost k of its n predictions counts n − 1, until its predictions change", async () => {
    const backend = (await register()).body.id as number;
    // [name, predictions by the backend, others]: the four cases measured.
    const made: Record<string, number> = {};
    for (const [name, byIt, others] of [
      ["T1", 2, 1],
      ["T2", 1, 1],
      ["T3", 2, 0],
      ["T4", 3, 0],
    ] as const) {
      const task = (made[name] = await newTask(name));
      for (let i = 0; i < others; i++) await predict(task);
      for (let i = 0; i < byIt; i++) await predict(task, { model: backend });
    }
    const ids = Object.values(made);
    expect(await Promise.all(ids.map(counted))).toEqual([3, 2, 2, 3]);
    expect((await raw(server, "DELETE", `/api/ml/${backend}`)).status).toBe(204);
    expect(ids.map(left)).toEqual([1, 1, 0, 0]);
    expect(await Promise.all(ids.map(counted))).toEqual([2, 1, 1, 2]);
    // The Data Manager filters and orders on the stored counter, and sums it in the list's head.
    const two = {
      filters: { conjunction: "and", items: [{ filter: "filter:tasks:total_predictions", operator: "equal", type: "Number", value: 2 }] },
    };
    expect(await dmIds(two)).toEqual(expect.arrayContaining([made["T1"], made["T4"]]));
    expect(await dmIds(two)).not.toContain(made["T2"]);
    const head = await raw(
      server,
      "GET",
      `/api/tasks/?project=1&query=${encodeURIComponent(JSON.stringify({ filters: { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "in_list", type: "Number", value: ids }] } }))}`,
    );
    expect(head.body.total_predictions).toBe(6);
    // A prediction made (post_save recounts) or deleted one at a time (count − 1 before it goes) puts it right.
    await predict(made["T1"] as number);
    expect(await counted(made["T1"] as number)).toBe(2);
    const t2Prediction = server.data().predictions.find((p) => p.task === made["T2"])!.id;
    await raw(server, "DELETE", `/api/predictions/${t2Prediction}/`);
    expect(await counted(made["T2"] as number)).toBe(0);
    // The Data Manager's delete_tasks_annotations recounts every counter of the tasks that lost annotations.
    await raw(server, "POST", `/api/tasks/${made["T4"]}/annotations/`, { body: { result } });
    const action = await raw(server, "POST", "/api/dm/actions/?id=delete_tasks_annotations&project=1", {
      body: { selectedItems: { all: false, included: [made["T3"], made["T4"]] } },
    });
    expect(action.status).toBe(200);
    expect([await counted(made["T3"] as number), await counted(made["T4"] as number)]).toEqual([1, 0]);
  });

  test("deleting a model version (a queryset's delete) leaves the same counter; delete_tasks_predictions recounts", async () => {
    const task = await newTask("versions");
    for (const version of ["m1", "m2", "m2"]) await predict(task, { model_version: version });
    const deleted = await raw(server, "DELETE", "/api/projects/1/model-versions/", { body: { model_version: "m2" } });
    expect(deleted.body).toEqual({ deleted_predictions: 2 });
    expect([await counted(task), left(task)]).toEqual([2, 1]);
    const action = await raw(server, "POST", "/api/dm/actions/?id=delete_tasks_predictions&project=1", {
      body: { selectedItems: { all: false, included: [task] } },
    });
    expect(action.body).toEqual({ processed_items: 1, detail: "Deleted 1 predictions" });
    expect([await counted(task), left(task)]).toEqual([0, 0]);
  });
});
