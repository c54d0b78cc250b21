import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { raw, startFixture, BO_KEY } from "./fixture.js";

/**
 * Writes validated as the server's serializers validate them: DRF's field messages, the model's
 * limits, the serializers' `validate_<field>` rules and the views' own checks, with the server's
 * status. A refused write leaves the store as it was.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** POST/PATCH and check the 400 and that nothing changed. */
async function refused(method: string, path: string, body: unknown, errors: unknown): Promise<void> {
  const before = server.data();
  const r = await raw(server, method, path, { body });
  expect([r.status, r.body.detail], JSON.stringify(r.body)).toEqual([400, "Validation error"]);
  expect(r.body.validation_errors).toEqual(errors);
  expect(server.data()).toEqual(before);
}

describe("projects (ProjectSerializer over Project)", () => {
  test("title: 3 to 50 characters, blank and null accepted; several fields refused at once", async () => {
    await refused("POST", "/api/projects/", { title: "ab" }, { title: ["Ensure this field has at least 3 characters."] });
    await refused(
      "POST",
      "/api/projects/",
      { title: "x".repeat(51), maximum_annotations: "many", show_skip_button: "tRUE", sampling: "Random" },
      {
        title: ["Ensure this field has no more than 50 characters."],
        maximum_annotations: ["A valid integer is required."],
        show_skip_button: ["Must be a valid boolean."],
        sampling: ['"Random" is not a valid choice.'],
      },
    );
    expect((await raw(server, "POST", "/api/projects/", { body: { title: "   " } })).body.title).toBe("");
    expect((await raw(server, "POST", "/api/projects/", { body: { title: null } })).body.title).toBeNull();
  });

  test("integers: DRF's int() of the text, the column's range; booleans: DRF's exact spellings", async () => {
    const p = (
      await raw(server, "POST", "/api/projects/", { body: { title: "Numbers", maximum_annotations: " 3.0 ", show_skip_button: "off" } })
    ).body;
    expect([p.maximum_annotations, p.show_skip_button]).toEqual([3, false]);
    await refused(
      "PATCH",
      "/api/projects/1/",
      { maximum_annotations: 2 ** 31 },
      { maximum_annotations: ["Ensure this value is less than or equal to 2147483647."] },
    );
    await refused(
      "PATCH",
      "/api/projects/1/",
      { maximum_annotations: 1.5, is_draft: [] },
      { maximum_annotations: ["A valid integer is required."], is_draft: ["Must be a valid boolean."] },
    );
    await refused(
      "PATCH",
      "/api/projects/1/",
      { pinned_at: "yesterday" },
      {
        pinned_at: ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."],
      },
    );
    expect((await raw(server, "PATCH", "/api/projects/1/", { body: { pinned_at: "2024-05-01T10:00:00+02:00" } })).body.pinned_at).toBe(
      "2024-05-01T08:00:00Z",
    );
  });

  test("validate_color, validate_label_config, validate_model_version", async () => {
    await refused("PATCH", "/api/projects/1/", { color: "#GGGGGG" }, { color: ['Color must be in "#RRGGBB" format'] });
    await refused(
      "PATCH",
      "/api/projects/1/",
      { color: "#1234567890abcdefg" },
      { color: ["Ensure this field has no more than 16 characters."] },
    );
    expect((await raw(server, "PATCH", "/api/projects/1/", { body: { color: "#00ff00" } })).body.color).toBe("#00ff00");
    const crash = await raw(server, "PATCH", "/api/projects/1/", { body: { color: null } });
    expect([crash.status, crash.body.detail]).toEqual([500, "'NoneType' object has no attribute 'startswith'"]);
    await refused(
      "PATCH",
      "/api/projects/1/",
      { label_config: '<View><Text name="a" value="$a"/><Text name="a" value="$b"/></View>' },
      {
        label_config: ["Label config contains non-unique names"],
      },
    );
    await refused(
      "PATCH",
      "/api/projects/1/",
      { model_version: "v9" },
      { model_version: ["Model version doesn't exist either as live model or as static predictions."] },
    );
    expect((await raw(server, "PATCH", "/api/projects/1/", { body: { model_version: "v1" } })).body.model_version).toBe("v1");
    // ProjectSerializer.update: hiding predictions from collaborators clears the model version.
    expect((await raw(server, "PATCH", "/api/projects/1/", { body: { show_collab_predictions: false } })).body.model_version).toBe("");
  });

  test("start_training_on_annotation_update sets min_annotations_to_start_training to int(value); 500 where int() raises", async () => {
    const p = (await raw(server, "PATCH", "/api/projects/1/", { body: { start_training_on_annotation_update: "4" } })).body;
    expect([p.min_annotations_to_start_training, p.start_training_on_annotation_update]).toEqual([4, true]);
    const crash = await raw(server, "PATCH", "/api/projects/1/", { body: { start_training_on_annotation_update: "soon" } });
    expect([crash.status, crash.body.detail]).toEqual([500, "invalid literal for int() with base 10: 'soon'"]);
  });

  test("a nested created_by is a 500 (writable nested serializer), a non-dict one a 400; a body that is not a dict", async () => {
    const before = server.data();
    const nested = await raw(server, "POST", "/api/projects/", { body: { title: "Nested", created_by: { first_name: "X" } } });
    expect(nested.status).toBe(500);
    expect(nested.body.detail).toMatch(/^The `\.create\(\)` method does not support writable nested fields by default\./);
    expect(server.data()).toEqual(before);
    await refused(
      "POST",
      "/api/projects/",
      { title: "Nested", created_by: 2 },
      { created_by: { non_field_errors: ["Invalid data. Expected a dictionary, but got int."] } },
    );
    await refused("POST", "/api/projects/", [{ title: "In a list" }], {
      non_field_errors: ["Invalid data. Expected a dictionary, but got list."],
    });
  });
});

describe("tasks (BaseTaskSerializer + TaskValidator on create, TaskSimpleSerializer on update)", () => {
  test("TaskValidator: data a dict or list, the config's keys of the right type; meta a dict or list", async () => {
    const assume = ' [assume: item["data"] = task root with values]';
    await refused("POST", "/api/tasks/", { project: 1, data: "text" }, { non_field_errors: ["Task[data] must be dict or list"] });
    await refused(
      "POST",
      "/api/tasks/",
      { project: 1, data: { title: "x" } },
      { non_field_errors: [`"text" key is expected in task data${assume}`] },
    );
    await refused(
      "POST",
      "/api/tasks/",
      { project: 1, data: { text: null } },
      {
        non_field_errors: [
          `data['text']=None is of type 'NoneType', but the object tag Text expects the following types: ['str', 'int', 'float', 'list']${assume}`,
        ],
      },
    );
    await refused(
      "POST",
      "/api/tasks/",
      { project: 1, data: { text: "x" }, meta: null },
      { non_field_errors: ["Task[meta] must be dict or list"] },
    );
    await refused(
      "POST",
      "/api/tasks/",
      { project: 1, data: null, overlap: 1.5 },
      { data: ["This field may not be null."], overlap: ["A valid integer is required."] },
    );
    // A project without a config takes any data dict.
    expect((await raw(server, "POST", "/api/tasks/", { body: { project: 2, data: { title: "x" } } })).status).toBe(201);
  });

  test("$undefined$ moves to the config's data key; the created task renders as BaseTaskSerializer", async () => {
    const r = await raw(server, "POST", "/api/tasks/", { body: { project: "1", data: { $undefined$: "plain text" }, overlap: "2" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      data: { text: "plain text" },
      overlap: 2,
      project: 1,
      inner_id: 7,
      file_upload: null,
      updated_by: null,
    });
  });

  test("update: any field of the model, the project of the route; a task asked for under another project is not found", async () => {
    await refused(
      "PATCH",
      "/api/tasks/1/",
      { overlap: "two", updated_by: 99, comment_authors: 3 },
      {
        overlap: ["A valid integer is required."],
        updated_by: ['Invalid pk "99" - object does not exist.'],
        comment_authors: ['Expected a list of items but got type "int".'],
      },
    );
    const other = await raw(server, "PATCH", "/api/tasks/1/", { body: { project: 2, meta: { moved: true } } });
    expect([other.status, other.body.detail]).toEqual([404, "No Task matches the given query."]);
    expect((await raw(server, "GET", "/api/tasks/1/?project=2")).status).toBe(404);
    const bad = await raw(server, "GET", "/api/tasks/1/?project=abc");
    expect(bad.status).toBe(500);
    expect(bad.body.detail).toMatch(
      /^1 validation error for PrepareParams\nproject\n {2}Input should be a valid integer, unable to parse string as an integer/,
    );
    await refused("PUT", "/api/tasks/1/", { meta: {} }, { data: ["This field is required."] });
    const patched = await raw(server, "PATCH", "/api/tasks/1/", { body: { project: 1, meta: { seen: true }, inner_id: 70 } });
    expect(patched.body).toMatchObject({ meta: { seen: true }, inner_id: 70, updated_by: null });
  });
});

describe("annotations (AnnotationSerializer)", () => {
  test("result: a list, or a string holding one; a string that is not JSON is a 500; no result stores null", async () => {
    await refused(
      "POST",
      "/api/tasks/3/annotations/",
      { result: {} },
      { result: ['annotation "result" field in annotation must be list'] },
    );
    await refused("POST", "/api/tasks/3/annotations/", { result: null }, { result: ["This field may not be null."] });
    const crash = await raw(server, "POST", "/api/tasks/3/annotations/", { body: { result: "{oops" } });
    expect([crash.status, crash.body.detail]).toEqual([500, `annotation "result" can't be parse from str to JSON`]);
    const fromText = await raw(server, "POST", "/api/tasks/3/annotations/", { body: { result: '[{"a": 1}]', lead_time: "1e3" } });
    expect(fromText.body).toMatchObject({ result: [{ a: 1 }], lead_time: 1000, completed_by: 1, updated_by: 1 });
    const bare = await raw(server, "POST", "/api/tasks/3/annotations/", { body: {} });
    expect(bare.body.result).toBeNull();
  });

  test("completed_by may not be null; the was_cancelled parameter is read as bool_from_request", async () => {
    await refused(
      "POST",
      "/api/tasks/3/annotations/",
      { completed_by: null, ground_truth: "maybe" },
      {
        completed_by: ["This field may not be null."],
        ground_truth: ["Must be a valid boolean."],
      },
    );
    const before = server.data();
    const r = await raw(server, "POST", "/api/tasks/3/annotations/?was_cancelled=perhaps", { body: { result: [] } });
    expect([r.status, r.body.validation_errors]).toEqual([
      400,
      // bool_from_request raises ValidationError({key: text}): DRF keeps a dict's string value a string.
      { was_cancelled: 'Incorrect bool value "perhaps". It should be one of [1, 0, true, false, yes, no]' },
    ]);
    expect(server.data()).toEqual(before);
  });

  test("a draft of someone else is a 403 and nothing is created; the caller's draft is consumed", async () => {
    await server.reset({
      ...structuredClone((await import("./fixture.js")).seed),
      drafts: [
        { id: 1, task: 3, user: 2, result: [] },
        { id: 2, task: 3, user: 1, result: [] },
      ],
    });
    const before = server.data();
    const r = await raw(server, "POST", "/api/tasks/3/annotations/", { body: { result: [], draft_id: 1 } });
    expect([r.status, r.body.detail]).toEqual([403, "You have no permission to draft id:1"]);
    expect(server.data()).toEqual(before);
    const mine = await raw(server, "POST", "/api/tasks/3/annotations/", { body: { result: [], draft_id: 2 } });
    expect(mine.status).toBe(201);
    expect(mine.body.draft_created_at).toMatch(/Z$/);
    expect(server.data().drafts.map((d) => d.id)).toEqual([1]);
  });

  test("a ground truth is unique per task (create and update); a refused update changes nothing", async () => {
    await raw(server, "POST", "/api/tasks/2/annotations/", { body: { result: [], ground_truth: true } });
    expect(
      server
        .data()
        .annotations.filter((a) => a.task === 2 && a.ground_truth)
        .map((a) => a.id),
    ).toEqual([7]);
    await raw(server, "PATCH", "/api/annotations/2/", { body: { ground_truth: true } });
    expect(
      server
        .data()
        .annotations.filter((a) => a.task === 2 && a.ground_truth)
        .map((a) => a.id),
    ).toEqual([2]);
    // AnnotationAPI.update drops the other ground truths before the serializer refuses the write; the mock undoes all of it.
    await refused(
      "PATCH",
      "/api/annotations/3/",
      { ground_truth: "yes", lead_time: "slow" },
      { lead_time: ["A valid number is required."] },
    );
  });
});

describe("predictions (PredictionSerializer, Prediction.prepare_prediction_result)", () => {
  test("result required; a list of dicts; a dict or a bare value placed under the config's control tag; model_version not null", async () => {
    await refused("POST", "/api/predictions/", { task: 3 }, { result: ["This field is required."] });
    await refused(
      "POST",
      "/api/predictions/",
      { task: 99, result: [], model_version: null },
      {
        task: ['Invalid pk "99" - object does not exist.'],
        model_version: ["This field may not be null."],
      },
    );
    await refused(
      "POST",
      "/api/predictions/",
      { task: 3, result: [1] },
      { non_field_errors: ["Each item in prediction result should be dict"] },
    );
    await refused(
      "POST",
      "/api/predictions/",
      { task: 3, result: 1.5 },
      { non_field_errors: ["Incorrect format <class 'float'> for prediction result 1.5"] },
    );
    const region = [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }];
    expect((await raw(server, "POST", "/api/predictions/", { body: { task: 3, result: { choices: ["Pos"] } } })).body).toMatchObject({
      result: region,
      model_version: "",
    });
    expect((await raw(server, "POST", "/api/predictions/", { body: { task: 3, result: "Pos", score: "0.5" } })).body).toMatchObject({
      result: region,
      score: 0.5,
    });
    expect((await raw(server, "POST", "/api/predictions/", { body: { task: 3, result: { rating: 3 } } })).body.result).toBeNull();
  });
});

describe("views (ViewSerializer, ViewOrderSerializer, ViewResetSerializer)", () => {
  test("order: ids a non-empty list of integers; reset: a project", async () => {
    await refused("POST", "/api/dm/views/order/", { project: 1, ids: [] }, { ids: ["This list may not be empty."] });
    await refused(
      "POST",
      "/api/dm/views/order/",
      { project: "one", ids: [1, "x"] },
      { project: ["A valid integer is required."], ids: { 1: ["A valid integer is required."] } },
    );
    await refused("DELETE", "/api/dm/views/reset/", {}, { project: ["This field may not be null."] });
    await refused("POST", "/api/dm/views/", { project: 1, order: "first" }, { order: ["A valid integer is required."] });
  });

  test("a locked view: locked_by the caller; a write that does not unlock it only changes columnsWidth", async () => {
    const created = (await raw(server, "POST", "/api/dm/views/", { body: { project: 1, data: { title: "Locked" }, is_locked: true } }))
      .body;
    expect(created).toMatchObject({ is_locked: true, locked_by: { id: 1, name: "Ada Lovelace", email: "ada@example.com" } });
    expect(created.locked_at).toMatch(/Z$/);
    const ignored = (
      await raw(server, "PATCH", `/api/dm/views/${created.id}/`, { body: { data: { title: "Changed", columnsWidth: { id: 80 } } } })
    ).body;
    expect(ignored.data).toEqual({ title: "Locked", columnsWidth: { id: 80 } });
    const unlocked = (
      await raw(server, "PATCH", `/api/dm/views/${created.id}/`, { body: { is_locked: false, data: { title: "Changed" } }, key: BO_KEY })
    ).body;
    expect(unlocked).toMatchObject({ is_locked: false, locked_by: null, locked_at: null, data: { title: "Changed" } });
  });
});

describe("strict mode", () => {
  test("unknown and read-only fields, which the server drops, are refused naming each", async () => {
    const strict = await startFixture({ strict: true });
    try {
      const r = await raw(strict, "PATCH", "/api/tasks/1/", { body: { meta: {}, total: 3, created_at: "2024-01-01T00:00:00Z" } });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.validation_errors)).toEqual(["total", "created_at"]);
      expect(r.body.validation_errors.created_at[0]).toMatch(/^expected a writable field, found the read-only field "created_at"/);
      expect((await raw(strict, "POST", "/api/tasks/3/annotations/", { body: { result: [], draft_id: null } })).status).toBe(201);
    } finally {
      await strict.close();
    }
  });
});
