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

describe("projects and the version", () => {
  test("a project's control_weights: every control tag of its config, 1.0 overall and per label, kept when given", async () => {
    // Project.save → get_updated_weights (label_studio/projects/models.py).
    const config =
      '<View><Text name="text" value="$text"/><Choices name="sentiment" toName="text"><Choice value="pos"/><Choice value="neg"/></Choices></View>';
    const created = await raw(server, "POST", "/api/projects/", { body: { title: "weights", label_config: config } });
    expect(created.body.control_weights).toEqual({ sentiment: { overall: 1, type: "Choices", labels: { pos: 1, neg: 1 } } });
    const given = await raw(server, "POST", "/api/projects/", {
      body: { title: "weights given", label_config: config, control_weights: { sentiment: { overall: 2, labels: { neg: 0.5 } } } },
    });
    expect(given.body.control_weights).toEqual({ sentiment: { overall: 2, type: "Choices", labels: { pos: 1, neg: 0.5 } } });
    expect((await raw(server, "POST", "/api/projects/", { body: { title: "no config" } })).body.control_weights).toEqual({});
  });

  test("/api/version answers every key a server's collect_versions does", async () => {
    // collect_versions (label_studio/core/utils/common.py), as a source install reports them.
    const version = (await raw(server, "GET", "/api/version")).body;
    expect(Object.keys(version).sort()).toEqual(
      [
        "backend",
        "dm2",
        "dmq_mock",
        "edition",
        "label-studio-converter",
        "label-studio-os-backend",
        "label-studio-os-package",
        "lsf",
        "release",
      ].sort(),
    );
    expect(Object.keys(version["label-studio-os-package"]).sort()).toEqual(
      ["current_version_is_outdated", "latest_version_from_pypi", "latest_version_upload_time", "short_version", "version"].sort(),
    );
    expect(version["label-studio-os-package"].short_version).toBe(version.release.split(".").slice(0, 2).join("."));
  });

  test("creating a task under a project id that is no integer: DRF's bare NotFound, an unknown one names the model", async () => {
    // TaskListAPI.get_serializer_context → rest_framework/generics.py get_object_or_404 (ValueError → Http404()).
    const notAnId = await raw(server, "POST", "/api/tasks/", { body: { project: "first", data: { text: "x" } } });
    expect([notAnId.status, notAnId.body.detail]).toEqual([404, "Not found."]);
    const unknown = await raw(server, "POST", "/api/tasks/", { body: { project: 999, data: { text: "x" } } });
    expect([unknown.status, unknown.body.detail]).toEqual([404, "No Project matches the given query."]);
  });

  test("project=abc: the key's message as a string, as int_from_request raises it", async () => {
    // int_from_request (label_studio/core/utils/params.py): ValidationError({key: message}) keeps the string.
    const bad = await raw(server, "GET", "/api/tasks/?project=abc");
    expect(bad.body.validation_errors).toEqual({ project: 'Incorrect value in key "project" = "abc". It should be digit string.' });
  });
});

describe("the Data Manager's errors", () => {
  const list = (body: unknown) => raw(server, "GET", `/api/tasks/?project=1&query=${encodeURIComponent(JSON.stringify(body))}`);
  const item = (column: string, operator: string, type: string, value: unknown) => ({
    filter: `filter:tasks:${column}`,
    operator,
    type,
    value,
  });

  test("a column the server has no field for: Django's FieldError lists the Task model's fields and the queryset's annotations", async () => {
    // Query.names_to_path (django/db/models/sql/query.py) over Task (label_studio/tasks/models.py); the annotations are
    // those annotate_queryset adds for the filters and the first ordering key (DATA_MANAGER_ANNOTATIONS_MAP).
    const fields =
      "annotations, cancelled_annotations, comment_authors, comment_count, created_at, data, drafts, failed_predictions, file_upload, " +
      "file_upload_id, id, inner_id, io_storages_azureblobimportstoragelink, io_storages_gcsimportstoragelink, " +
      "io_storages_localfilesimportstoragelink, io_storages_redisimportstoragelink, io_storages_s3importstoragelink, is_labeled, " +
      "last_comment_updated_at, locks, meta, overlap, predictions, project, project_id, total_annotations, total_predictions, " +
      "unresolved_comment_count, updated_at, updated_by, updated_by_id";
    const alone = await list({ filters: { conjunction: "and", items: [item("comments", "equal", "Number", 0)] } });
    expect(alone.status).toBe(500);
    expect(alone.body.detail).toBe(`Cannot resolve keyword 'comments' into field. Choices are: ${fields}`);
    const annotated = await list({
      filters: {
        conjunction: "and",
        items: [
          item("comments", "equal", "Number", 0),
          item("file_upload", "contains", "String", "x"),
          item("annotators", "empty", "List", true),
        ],
      },
      ordering: ["tasks:completed_at"],
    });
    const choices = (annotated.body.detail as string).split("Choices are: ")[1]!.split(", ");
    expect(choices.filter((c) => !fields.split(", ").includes(c))).toEqual(["annotators", "completed_at", "file_upload_field"]);
    expect([...choices].sort()).toEqual(choices);
  });
});

describe("comment_authors, a relation every community task has and none fills", () => {
  // Task.comment_authors (label_studio/tasks/models.py); apply_filters sends it down the generic path.
  const list = (body: unknown) => raw(server, "GET", `/api/tasks/?project=1&query=${encodeURIComponent(JSON.stringify(body))}`);
  const filter = (operator: string, value: unknown) => ({
    filters: { conjunction: "and", items: [{ filter: "filter:tasks:comment_authors", operator, type: "List", value }] },
  });

  test("contains: icontains is no lookup of a relation (Django's FieldError)", async () => {
    const answer = await list(filter("contains", 1));
    expect([answer.status, answer.body.detail]).toEqual([
      500,
      "Unsupported lookup 'icontains' for ForeignKey or join on the field not permitted.",
    ]);
  });

  test("empty: every task has no author; ordering by it is ordering by NULLs", async () => {
    expect((await list(filter("empty", true))).body.total).toBe(1);
    expect((await list(filter("empty", false))).body.total).toBe(0);
    const ordered = await list({ ordering: ["-tasks:comment_authors"] });
    expect([ordered.status, ordered.body.total]).toEqual([200, 1]);
  });
});

describe("ordering", () => {
  test("text orders as glibc's en_US.UTF-8 does: punctuation and white space count only after letters and digits", async () => {
    // apply_ordering (label_studio/data_manager/managers.py) orders by data->>'key' under the database's collation.
    const project = (await raw(server, "POST", "/api/projects/", { body: { title: "collation" } })).body.id as number;
    const values = [5, -3, 0.5, "13", [1, 2], { k: 1 }, true, "x"];
    const imported = await raw(server, "POST", `/api/projects/${project}/import?return_task_ids=true`, {
      body: values.map((v) => ({ data: { text: "t", v } })),
    });
    const ids = imported.body.task_ids as number[];
    const ordered = await raw(
      server,
      "GET",
      `/api/tasks/?project=${project}&query=${encodeURIComponent(JSON.stringify({ ordering: ["tasks:data.v"] }))}`,
    );
    const order = (ordered.body.tasks as { id: number }[]).map((t) => values[ids.indexOf(t.id)]);
    // "0.5" ~ "05", "[1, 2]" ~ "12", "-3" ~ "3", "{"k": 1}" ~ "k1".
    expect(order).toEqual([0.5, [1, 2], "13", -3, 5, { k: 1 }, true, "x"]);
  });
});

describe("actions", () => {
  test("predictions_to_annotations makes the caller the updater of every task that got an annotation", async () => {
    // predictions_to_annotations (label_studio/data_manager/actions/predictions_to_annotations.py):
    // Task.objects.filter(id__in=tasks_ids).update(updated_at=now(), updated_by=request.user)
    const project = (await raw(server, "POST", "/api/projects/", { body: { title: "convert" } })).body.id as number;
    const imported = await raw(server, "POST", `/api/projects/${project}/import?return_task_ids=true`, {
      body: [{ data: { text: "a" }, predictions: [{ result: choice("pos") }] }, { data: { text: "b" } }],
    });
    const [withPrediction, without] = imported.body.task_ids as number[];
    const run = await raw(server, "POST", `/api/dm/actions/?id=predictions_to_annotations&project=${project}`, {
      body: { selectedItems: { all: true } },
    });
    expect(run.body).toEqual({ detail: "Created 1 annotations" });
    const updater = async (id: number) => (await raw(server, "GET", `/api/tasks/${id}/`)).body.updated_by;
    expect(await updater(withPrediction!)).toEqual([{ user_id: 1 }]);
    expect(await updater(without!)).toEqual([]);
  });
});

describe("repeated rows: an OR that reads an aggregate and a joined column", () => {
  // apply_filters ORs the lines into one Q; one line reads predictions_score (an Avg), so Django puts
  // the OR in HAVING and groups by the joined predictions.model_version it also tests there
  // (label_studio/data_manager/managers.py apply_filters; Django's split_having_qualify). Measured on 1.22/Postgres.
  let repeated: MockServer;
  beforeAll(async () => {
    repeated = await startMockServer({
      data: {
        users: [{ id: 1, username: "admin", email: "admin@example.com" }],
        projects: [{ id: 1, title: "Repeated rows" }],
        tasks: [
          { id: 1, project: 1, data: { text: "two versions" } },
          { id: 2, project: 1, data: { text: "scored zero" } },
          { id: 3, project: 1, data: { text: "no prediction" } },
        ],
        predictions: [
          { id: 1, task: 1, result: [], model_version: "m1", score: 0.5 },
          { id: 2, task: 1, result: [], model_version: "m2", score: 0.9 },
          { id: 3, task: 2, result: [], model_version: "m1", score: 0 },
        ],
      },
    });
  });
  afterAll(() => repeated.close());

  const list = async (conjunction: string, versions: string[], ordering: string[] = []) => {
    const query = {
      filters: {
        conjunction,
        items: [
          { filter: "filter:tasks:predictions_score", operator: "equal", type: "Number", value: 0 },
          { filter: "filter:tasks:predictions_model_versions", operator: "contains", type: "List", value: versions },
        ],
      },
      ordering,
    };
    const r = await raw(repeated, "GET", `/api/tasks/?project=1&query=${encodeURIComponent(JSON.stringify(query))}`);
    expect(r.status).toBe(200);
    return { ids: r.body.tasks.map((t: { id: number }) => t.id), total: r.body.total, predictions: r.body.total_predictions };
  };

  test("a task is listed, counted and summed once per model version its OR holds for", async () => {
    expect(await list("or", ["m"])).toEqual({ ids: [1, 1, 2], total: 3, predictions: 5 });
    expect(await list("or", ["m"], ["-tasks:id"])).toEqual({ ids: [2, 1, 1], total: 3, predictions: 5 });
  });

  test("once where only one of its groups holds, and always once under AND", async () => {
    expect(await list("or", ["m1"])).toEqual({ ids: [1, 2], total: 2, predictions: 3 });
    expect(await list("and", ["m"])).toEqual({ ids: [2], total: 1, predictions: 1 });
  });
});

describe("routes dmq verify reached in session 3 (label_studio 1.22, measured on PostgreSQL)", () => {
  const config =
    '<View><Text name="text" value="$text"/><Choices name="sentiment" toName="text"><Choice value="pos"/><Choice value="neg"/></Choices></View>';

  test("GET /api/version/ needs no credentials: core/views.py version_page is a plain Django view", async () => {
    const answer = await raw(server, "GET", "/api/version/", { key: null });
    expect([answer.status, typeof answer.body.release]).toEqual([200, "string"]);
  });

  test("POST /api/token/blacklist/ reads no credentials (simplejwt TokenViewBase): a missing token is the serializer's 400", async () => {
    const answer = await raw(server, "POST", "/api/token/blacklist/", { key: null, body: {} });
    expect([answer.status, answer.body.validation_errors]).toEqual([400, { refresh: ["This field is required."] }]);
  });

  test("POST /api/token/rotate/ with a token that does not verify: LSAPITokenRotateSerializer.validate's 400", async () => {
    const answer = await raw(server, "POST", "/api/token/rotate/", { body: { refresh: "not-a-token" } });
    expect([answer.status, answer.body.validation_errors]).toEqual([400, { non_field_errors: ["Invalid refresh token"] }]);
  });

  test("a user made by POST /api/users/ has no active organization (UserAPI.perform_create only adds it)", async () => {
    const made = await raw(server, "POST", "/api/users/", { body: { email: "new@example.com", username: "new" } });
    expect([made.status, made.body.active_organization]).toEqual([201, null]);
    const read = await raw(server, "GET", `/api/users/${made.body.id}/`);
    expect([read.body.active_organization, read.body.active_organization_meta]).toEqual([null, { title: "", email: "" }]);
    expect((await raw(server, "GET", "/api/users/1/")).body.active_organization).toBe(1);
    await raw(server, "DELETE", `/api/users/${made.body.id}/`);
  });

  test("PUT /api/projects/{id}/ clears created_by: its default (CreatedByFromContext) reads the create view's context only", async () => {
    const made = await raw(server, "POST", "/api/projects/", { body: { title: "owned", label_config: config } });
    expect(made.body.created_by.id).toBe(1);
    const patched = await raw(server, "PATCH", `/api/projects/${made.body.id}/`, { body: { title: "still owned" } });
    expect(patched.body.created_by.id).toBe(1);
    const put = await raw(server, "PUT", `/api/projects/${made.body.id}/`, { body: { title: "replaced" } });
    expect([put.status, put.body.created_by]).toEqual([200, null]);
    expect((await raw(server, "GET", `/api/projects/${made.body.id}/`)).body.created_by).toBeNull();
    await raw(server, "DELETE", `/api/projects/${made.body.id}/`);
  });

  test("the Data Manager's columns list the imported data keys in jsonb's key order (ProjectSummary.all_data_columns)", async () => {
    const made = await raw(server, "POST", "/api/projects/", { body: { title: "columns", label_config: config } });
    await raw(server, "POST", `/api/projects/${made.body.id}/import`, {
      body: [{ data: { text: "a", num: 1, flag: true, tag: "x", mixed: 2 } }],
    });
    const columns = (await raw(server, "GET", `/api/dm/columns/?project=${made.body.id}`)).body.columns as {
      id: string;
      parent?: string;
    }[];
    // The config's key first, then the others shortest first, equal lengths bytewise.
    expect(columns.filter((c) => c.parent === "data").map((c) => c.id)).toEqual(["text", "num", "tag", "flag", "mixed"]);
    await raw(server, "DELETE", `/api/projects/${made.body.id}/`);
  });

  test("converting an annotation to a draft makes the caller the task's updated_by (Annotation.delete → update_task)", async () => {
    const made = await raw(server, "POST", "/api/projects/", { body: { title: "convert", label_config: config } });
    await raw(server, "POST", `/api/projects/${made.body.id}/import`, {
      body: [{ data: { text: "a" }, annotations: [{ result: choice("pos") }] }],
    });
    const task = server.data().tasks.find((t) => t.project === made.body.id)!;
    const annotation = server.data().annotations.find((a) => a.task === task.id)!;
    expect((await raw(server, "GET", `/api/tasks/${task.id}/`)).body.updated_by).toEqual([]);
    expect((await raw(server, "POST", `/api/annotations/${annotation.id}/convert-to-draft`)).status).toBe(201);
    expect((await raw(server, "GET", `/api/tasks/${task.id}/`)).body.updated_by).toEqual([{ user_id: 1 }]);
    await raw(server, "DELETE", `/api/projects/${made.body.id}/`);
  });

  test("a config lxml cannot parse, on a project's validate: 400 with the traceback of the SDK's re-raised error", async () => {
    const answer = await raw(server, "POST", "/api/projects/1/validate/", { body: { label_config: "<View>" } });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(/^Premature end of data in tag View line 1/);
    expect(answer.body.exc_info).toMatch(/LabelStudioXMLSyntaxErrorSentryIgnored: Premature end of data/);
  });
});

describe("a task's meta (label_studio 1.22, measured on PostgreSQL in session 5)", () => {
  test("an update stores meta null (TaskSimpleSerializer, JSONField null=True) and every rendering shows null", async () => {
    const made = await raw(server, "POST", "/api/tasks/", { body: { project: 1, data: { text: "meta" } } });
    expect([made.status, made.body.meta]).toEqual([201, {}]);
    const id = made.body.id as number;
    expect((await raw(server, "PATCH", `/api/tasks/${id}/`, { body: { meta: null } })).body.meta).toBeNull();
    expect((await raw(server, "GET", `/api/tasks/${id}/`)).body.meta).toBeNull();
    const listed = (await raw(server, "GET", "/api/tasks/?project=1")).body.tasks.find((t: { id: number }) => t.id === id);
    expect(listed.meta).toBeNull();
    const simple = (await raw(server, "GET", "/api/projects/1/tasks/?page_size=-1")).body.find((t: { id: number }) => t.id === id);
    expect(simple.meta).toBeNull();
    expect((await raw(server, "PUT", `/api/tasks/${id}/`, { body: { data: { text: "meta" }, meta: { k: 1 } } })).body.meta).toEqual({
      k: 1,
    });
    expect((await raw(server, "PUT", `/api/tasks/${id}/`, { body: { data: { text: "meta" }, meta: null } })).body.meta).toBeNull();
    await raw(server, "DELETE", `/api/tasks/${id}/`);
  });

  test("a create or an import refuses meta null (TaskValidator.raise_if_wrong_class: 'dict or list'); an import keeps a list", async () => {
    const created = await raw(server, "POST", "/api/tasks/", { body: { project: 1, data: { text: "m" }, meta: null } });
    expect([created.status, created.body.validation_errors]).toEqual([400, { non_field_errors: ["Task[meta] must be dict or list"] }]);
    const before = server.data().tasks.length;
    const imported = await raw(server, "POST", "/api/projects/1/import", {
      body: [
        { data: { text: "m" }, meta: null },
        { data: { text: "o" }, meta: { k: 1 } },
      ],
    });
    expect([imported.status, imported.body.validation_errors]).toEqual([
      400,
      { non_field_errors: ["Error at item 0: Task[meta] must be dict or list :: {'data': {'text': 'm'}, 'meta': None}", {}] },
    ]);
    expect(server.data().tasks.length).toBe(before);
    expect((await raw(server, "POST", "/api/projects/1/import", { body: [{ data: { text: "l" }, meta: [1, "a"] }] })).status).toBe(201);
    const listed = server.data().tasks.at(-1)!;
    expect([listed.data, listed.meta]).toEqual([{ text: "l" }, [1, "a"]]);
    await raw(server, "DELETE", `/api/tasks/${listed.id}/`);
  });
});
