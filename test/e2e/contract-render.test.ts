import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { raw, seed } from "./fixture.js";

/**
 * What the mock renders, checked against the server's serializers field by field. The expected key
 * lists are transcribed from the serializers (label_studio/…), in the order DRF renders them: the
 * primary key, the declared fields, the model's plain fields, its relations.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({
    data: {
      ...seed,
      drafts: [
        { id: 1, task: 2, user: 1, result: [], created_at: "2024-03-01T00:00:00.5Z" },
        { id: 2, task: 2, user: 2, result: [] },
      ],
    },
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const ANNOTATION = [
  "id",
  "result",
  "created_username",
  "created_ago",
  "completed_by",
  "was_cancelled",
  "ground_truth",
  "created_at",
  "updated_at",
  "draft_created_at",
  "lead_time",
  "import_id",
  "last_action",
  "bulk_created",
  "task",
  "project",
  "updated_by",
  "parent_prediction",
  "parent_annotation",
  "last_created_by",
];
const PREDICTION = [
  "id",
  "result",
  "model_version",
  "created_ago",
  "score",
  "cluster",
  "neighbors",
  "mislabeling",
  "created_at",
  "updated_at",
  "model",
  "model_run",
  "task",
  "project",
];
const DRAFT = [
  "id",
  "user",
  "created_username",
  "created_ago",
  "result",
  "lead_time",
  "was_postponed",
  "import_id",
  "created_at",
  "updated_at",
  "task",
  "annotation",
];
const TASK_MODEL = [
  "id",
  "data",
  "meta",
  "created_at",
  "updated_at",
  "is_labeled",
  "overlap",
  "inner_id",
  "total_annotations",
  "cancelled_annotations",
  "total_predictions",
  "comment_count",
  "unresolved_comment_count",
  "last_comment_updated_at",
  "project",
  "updated_by",
  "file_upload",
  "comment_authors",
];
const DM_TAIL = [
  "annotators",
  "inner_id",
  "cancelled_annotations",
  "total_annotations",
  "total_predictions",
  "completed_at",
  "annotations_results",
  "predictions_results",
  "predictions_score",
  "file_upload",
  "storage_filename",
  "annotations_ids",
  "predictions_model_versions",
  "avg_lead_time",
  "draft_exists",
  "updated_by",
  "data",
  "meta",
  "created_at",
  "updated_at",
  "is_labeled",
  "overlap",
  "comment_count",
  "unresolved_comment_count",
  "last_comment_updated_at",
  "project",
  "comment_authors",
];
const PROJECT = [
  "id",
  "title",
  "description",
  "label_config",
  "expert_instruction",
  "show_instruction",
  "show_skip_button",
  "enable_empty_annotation",
  "show_annotation_history",
  "organization",
  "color",
  "maximum_annotations",
  "is_published",
  "model_version",
  "is_draft",
  "created_by",
  "created_at",
  "min_annotations_to_start_training",
  "start_training_on_annotation_update",
  "show_collab_predictions",
  "num_tasks_with_annotations",
  "task_number",
  "useful_annotation_number",
  "ground_truth_number",
  "skipped_annotations_number",
  "total_annotations_number",
  "total_predictions_number",
  "sampling",
  "show_ground_truth_first",
  "annotator_evaluation_enabled",
  "show_overlap_first",
  "overlap_cohort_percentage",
  "task_data_login",
  "task_data_password",
  "control_weights",
  "parsed_label_config",
  "evaluate_predictions_automatically",
  "config_has_control_tags",
  "skip_queue",
  "reveal_preannotations_interactively",
  "pinned_at",
  "finished_task_number",
  "queue_total",
  "queue_done",
  "config_suitable_for_bulk_annotation",
  "state",
];
const USER = [
  "id",
  "first_name",
  "last_name",
  "username",
  "email",
  "last_activity",
  "custom_hotkeys",
  "avatar",
  "initials",
  "phone",
  "active_organization",
  "active_organization_meta",
  "allow_newsletters",
  "date_joined",
];
/** DRF's DateTimeField with USE_TZ: isoformat(), microseconds only when not zero, "Z" for UTC. */
const DRF_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/;

describe("field lists in the serializers' order", () => {
  test("annotation, prediction, project, users (AnnotationSerializer, PredictionSerializer, ProjectSerializer, BaseUserSerializer)", async () => {
    expect(Object.keys((await raw(server, "GET", "/api/annotations/1/")).body)).toEqual(ANNOTATION);
    expect(Object.keys((await raw(server, "GET", "/api/predictions/1/")).body)).toEqual(PREDICTION);
    expect(Object.keys((await raw(server, "GET", "/api/projects/1/")).body)).toEqual(PROJECT);
    expect(Object.keys((await raw(server, "GET", "/api/users/2/")).body)).toEqual(USER);
    expect(Object.keys((await raw(server, "GET", "/api/current-user/whoami")).body)).toEqual([...USER, "permissions"]);
    const view = (await raw(server, "GET", "/api/dm/views/1/")).body;
    expect(Object.keys(view)).toEqual(["id", "locked_by", "data", "order", "is_locked", "locked_at", "user", "project"]);
  });

  test("tasks: created (BaseTaskSerializer), patched (TaskSimpleSerializer), listed and one (DataManagerTaskSerializer)", async () => {
    const created = await raw(server, "POST", "/api/tasks/", { body: { project: 1, data: { text: "x" } } });
    expect(Object.keys(created.body)).toEqual(TASK_MODEL);
    const patched = await raw(server, "PATCH", `/api/tasks/${created.body.id}/`, { body: { meta: { a: 1 } } });
    expect(Object.keys(patched.body)).toEqual([...TASK_MODEL, "annotations", "predictions"]);
    const listed = (await raw(server, "GET", "/api/tasks/?project=1&fields=all")).body.tasks[0];
    expect(Object.keys(listed)).toEqual(["id", "predictions", "annotations", "drafts", ...DM_TAIL]);
    const one = (await raw(server, "GET", "/api/tasks/2/")).body;
    expect(Object.keys(one)).toEqual(["id", "predictions", "annotations", "drafts", ...DM_TAIL]);
    expect(Object.keys(one.annotations[0])).toEqual(ANNOTATION);
    expect(Object.keys(one.predictions[0])).toEqual(PREDICTION);
    expect(Object.keys(one.drafts[0])).toEqual(DRAFT);
  });
});

describe("the Data Manager list evaluates only the columns it needs (get_fields_for_evaluation)", () => {
  test("without fields=all: no annotations or predictions, empty drafts, annotated columns left out or empty", async () => {
    const task = (await raw(server, "GET", "/api/tasks/?project=1")).body.tasks[1];
    expect(task.id).toBe(2);
    expect(Object.keys(task)).toEqual([
      "id",
      "drafts",
      ...DM_TAIL.filter((k) => !["completed_at", "predictions_score", "avg_lead_time", "draft_exists"].includes(k)),
    ]);
    expect(task).toMatchObject({
      drafts: [],
      annotators: [],
      annotations_results: "",
      predictions_results: "",
      annotations_ids: "",
      file_upload: null,
    });
    expect(task).toMatchObject({ total_annotations: 1, cancelled_annotations: 1, is_labeled: true });
  });

  test("a filtered or ordered column is evaluated", async () => {
    const query = encodeURIComponent(
      JSON.stringify({
        ordering: ["-tasks:completed_at"],
        filters: { conjunction: "and", items: [{ filter: "filter:tasks:annotators", operator: "contains", type: "List", value: 2 }] },
      }),
    );
    const tasks = (await raw(server, "GET", `/api/tasks/?project=1&query=${query}`)).body.tasks;
    expect(tasks.map((t: { id: number }) => t.id)).toEqual([4, 2]);
    expect(tasks[0].completed_at).toBe("2024-02-04T00:00:00Z");
    expect(tasks[0].annotators.map((a: { user_id: number }) => a.user_id)).toEqual([2]);
    expect(tasks[0].avg_lead_time).toBeUndefined();
  });

  test("with fields=all: the caller's drafts only, annotations with their author as an id", async () => {
    const task = (await raw(server, "GET", "/api/tasks/?project=1&fields=all")).body.tasks[1];
    expect(task.drafts.map((d: { id: number; user: string }) => [d.id, d.user])).toEqual([[1, "ada@example.com"]]);
    expect(task.annotations.map((a: { completed_by: number }) => a.completed_by)).toEqual([2, 3]);
    expect(task.annotations_results).not.toBe("");
    expect(task.draft_exists).toBe(true);
    const asBo = (await raw(server, "GET", "/api/tasks/?project=1&fields=all", { key: "bo00000000000000000000000000000000000002" })).body
      .tasks[1];
    expect(asBo.drafts.map((d: { id: number }) => d.id)).toEqual([2]);
  });

  test("hiddenColumns of the query: every column shown in either mode is evaluated", async () => {
    const hidden = { explore: ["tasks:completed_at", "tasks:avg_lead_time"], labeling: ["tasks:completed_at"] };
    const query = encodeURIComponent(JSON.stringify({ hiddenColumns: hidden }));
    const task = (await raw(server, "GET", `/api/tasks/?project=1&query=${query}`)).body.tasks[1];
    expect(task.completed_at).toBeUndefined();
    expect(Object.hasOwn(task, "avg_lead_time")).toBe(true);
    expect(task.annotators).toHaveLength(2);
    const broken = encodeURIComponent(JSON.stringify({ hiddenColumns: { explore: [] } }));
    const crash = await raw(server, "GET", `/api/tasks/?project=1&query=${broken}`);
    expect([crash.status, crash.body.detail]).toEqual([500, "'labeling'"]);
  });

  test("one task (TaskAPI.get): every column but the two *_results, the author expanded, the caller's drafts", async () => {
    const one = (await raw(server, "GET", "/api/tasks/2/")).body;
    expect(one).toMatchObject({
      annotations_results: "",
      predictions_results: "",
      completed_at: "2024-02-03T00:00:00Z",
      draft_exists: true,
    });
    expect(one.annotations.map((a: { completed_by: { id: number } }) => a.completed_by)).toEqual([
      { id: 2, first_name: "", last_name: "", avatar: null, email: "bo@example.com", initials: "bo" },
      { id: 3, first_name: "", last_name: "", avatar: null, email: "cy@example.com", initials: "cy" },
    ]);
    expect(one.drafts.map((d: { id: number }) => d.id)).toEqual([1]);
    expect(one.drafts[0]).toMatchObject({ created_username: "Ada Lovelace ada@example.com, 1", created_at: "2024-03-01T00:00:00.500000Z" });
  });
});

describe("drf-flex-fields include / omit", () => {
  test("include keeps exactly the named fields (no implicit id), omit drops, names are not trimmed, * keeps all", async () => {
    expect(Object.keys((await raw(server, "GET", "/api/tasks/?project=1&include=data,total_annotations")).body.tasks[0])).toEqual([
      "total_annotations",
      "data",
    ]);
    expect(Object.keys((await raw(server, "GET", "/api/tasks/?project=1&include=id,%20data")).body.tasks[0])).toEqual(["id"]);
    expect(Object.keys((await raw(server, "GET", "/api/tasks/?project=1&include=id&include=data")).body.tasks[0])).toEqual(["id", "data"]);
    expect((await raw(server, "GET", "/api/tasks/?project=1&omit=data")).body.tasks[0].data).toBeUndefined();
    expect(Object.keys((await raw(server, "GET", "/api/tasks/?project=1&include=*")).body.tasks[0])).toContain("meta");
    expect(Object.keys((await raw(server, "GET", "/api/projects/1/?include=id,title")).body)).toEqual(["id", "title"]);
    expect(Object.keys((await raw(server, "GET", "/api/annotations/1/?omit=result,created_ago")).body)).toEqual(
      ANNOTATION.filter((k) => k !== "result" && k !== "created_ago"),
    );
    // PredictionSerializer is not a flex serializer: include does nothing.
    expect(Object.keys((await raw(server, "GET", "/api/predictions/1/?include=id")).body)).toEqual(PREDICTION);
  });

  test("the list's nested annotation serializer is a root serializer too: include applies to it", async () => {
    const task = (await raw(server, "GET", "/api/tasks/?project=1&fields=all&include=id,annotations")).body.tasks[0];
    expect(Object.keys(task)).toEqual(["id", "annotations"]);
    expect(task.annotations).toEqual([{ id: 1 }]);
  });
});

describe("formats and values", () => {
  test("datetimes as DRF renders them: no fraction when the microseconds are zero, six digits otherwise", async () => {
    expect((await raw(server, "GET", "/api/tasks/1/")).body.created_at).toBe("2024-01-01T00:00:01Z");
    const created = (await raw(server, "POST", "/api/tasks/", { body: { project: 1, data: { text: "x" } } })).body;
    expect(created.created_at).toMatch(DRF_DATETIME);
    const me = (await raw(server, "GET", "/api/current-user/whoami")).body;
    expect(me.date_joined).toMatch(DRF_DATETIME);
    expect(me.last_activity).toMatch(DRF_DATETIME);
  });

  test("users: initials (User.get_initials), the organization, every permission of AllPermissions in its order", async () => {
    const users = (await raw(server, "GET", "/api/users/")).body;
    expect(users.map((u: { id: number; initials: string }) => [u.id, u.initials])).toEqual([
      [1, "AL"],
      [2, "bo"],
      [3, "cy"],
    ]);
    expect(users[0]).toMatchObject({
      active_organization: 1,
      active_organization_meta: { title: "Label Studio", email: "ada@example.com" },
      avatar: null,
      phone: "",
    });
    const me = (await raw(server, "GET", "/api/current-user/whoami")).body;
    expect(me.permissions.slice(0, 6)).toEqual([
      "organizations.create",
      "organizations.view",
      "organizations.change",
      "organizations.delete",
      "organizations.invite",
      "projects.create",
    ]);
    expect(me.permissions).toHaveLength(44);
    expect((await raw(server, "GET", "/api/users/9/")).body.detail).toBe("No User matches the given query.");
  });

  test("project counters (projects/functions annotate_*): useful excludes ground truth and empty results; queue per caller", async () => {
    await raw(server, "PATCH", "/api/annotations/4/", { body: { ground_truth: true } });
    const p = (await raw(server, "GET", "/api/projects/1/")).body;
    expect(p).toMatchObject({
      task_number: 6,
      finished_task_number: 4,
      total_annotations_number: 4,
      skipped_annotations_number: 1,
      useful_annotation_number: 3,
      ground_truth_number: 1,
      num_tasks_with_annotations: 3,
      total_predictions_number: 5,
      queue_total: 3,
      queue_done: 1,
      start_training_on_annotation_update: false,
      config_has_control_tags: true,
      config_suitable_for_bulk_annotation: true,
      organization: 1,
      state: null,
      created_by: null,
    });
    expect(p.parsed_label_config.sentiment).toMatchObject({ type: "Choices", to_name: ["text"], labels: ["Pos", "Neg"] });
    const asBo = (await raw(server, "GET", "/api/projects/1/", { key: "bo00000000000000000000000000000000000002" })).body;
    expect([asBo.queue_total, asBo.queue_done]).toEqual([4, 2]);
  });

  test("next_task: NextTaskSerializer plus queue; predictions of the project's model version only, no annotations", async () => {
    const r = await raw(server, "POST", "/api/dm/actions/?id=next_task&project=1", { body: {} });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      "id",
      "predictions",
      "annotations",
      "drafts",
      "updated_by",
      "unique_lock_id",
      "data",
      "meta",
      "created_at",
      "updated_at",
      "is_labeled",
      "overlap",
      "inner_id",
      "total_annotations",
      "cancelled_annotations",
      "total_predictions",
      "comment_count",
      "unresolved_comment_count",
      "last_comment_updated_at",
      "project",
      "file_upload",
      "comment_authors",
      "queue",
    ]);
    // The lock next_task sets on the task (get_unique_lock_id): a server answers its id (measured by dmq verify).
    expect(r.body).toMatchObject({ id: 3, annotations: [], predictions: [], queue: "Sequence queue" });
    expect(r.body.unique_lock_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // Task 5 is open (not labeled, not the caller's): with a prediction of each version, only the project's (v2) shows.
    const added = (await raw(server, "POST", "/api/predictions/", { body: { task: 5, result: [], model_version: "v2" } })).body;
    const five = await raw(server, "POST", "/api/dm/actions/?id=next_task&project=1", {
      body: { selectedItems: { all: false, included: [5] } },
    });
    expect(five.body.id).toBe(5);
    expect(five.body.predictions.map((p: { id: number; model_version: string }) => [p.id, p.model_version])).toEqual([[added.id, "v2"]]);
    await raw(server, "DELETE", `/api/predictions/${added.id}/`);
  });

  test("the action list: each entry has the registry's keys, permission as a string or a list", async () => {
    const list = (await raw(server, "GET", "/api/dm/actions/?project=1")).body;
    const annotations = list.find((a: { id: string }) => a.id === "delete_tasks_annotations");
    expect(Object.keys(annotations)).toEqual(["id", "title", "order", "permission", "dialog"]);
    expect(annotations.permission).toEqual(["tasks.change", "annotations.delete"]);
    expect(Object.keys(list.find((a: { id: string }) => a.id === "delete_tasks"))).toEqual([
      "id",
      "title",
      "order",
      "permission",
      "reload",
      "dialog",
    ]);
  });
});
