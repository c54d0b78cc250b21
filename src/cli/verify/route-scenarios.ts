import { FIXTURE_CONTROL, fixtureLabelConfig } from "./fixture.js";
import { ref } from "./refs.js";
import { TAG_DATA_TYPES } from "../../contract/task-data-types.js";
import type { Compare, Loosening, Scenario, Step } from "./scenario.js";
import type { Request } from "./target.js";

/**
 * The routes area: every route the mock serves (src/contract/routes.ts) that the Data Manager areas do
 * not already exercise, each with a success (compared by value where both servers must agree, else by
 * keys and value types), its main validation errors, and its writes followed by a read that shows
 * their effect. test/unit/cli/verify/route-coverage.test.ts holds the inventory to it: a route the
 * mock serves and no scenario calls fails that test, unless `unverifiedRoutes` says why.
 */

const P = "{project}";
const result = [{ from_name: FIXTURE_CONTROL, to_name: "text", type: "choices", value: { choices: ["neutral"] } }];

type Method = Request["method"];
const req = (method: Method, path: string, json?: unknown, query?: Record<string, string>): Request => ({
  method,
  path,
  ...(json === undefined ? {} : { body: { json } }),
  ...(query ? { query } : {}),
});
const step = (name: string, request: Request, extra: Partial<Omit<Step, "name" | "request">> = {}): Step => ({ name, request, ...extra });
const read = (name: string, request: Request, compare: Compare = "shape", loosening: Loosening = {}): Scenario => ({
  id: `routes/${name}`,
  area: "routes",
  traits: [],
  probe: { kind: "request", request, compare, ...loosening },
});
const error = (name: string, request: Request, loosening: Loosening = {}): Scenario => read(name, request, "error", loosening);
const writes = (name: string, steps: readonly Step[], fixture: "copy" | "main" = "copy"): Scenario => ({
  id: `routes/${name}`,
  area: "routes",
  traits: [],
  probe: { kind: "writes", steps, ...(fixture === "main" ? { fixture } : {}) },
});
/**
 * The one-step export writes the tasks it serialised to a file named by the project, the minute and the
 * data's digest, then converts that file (DataExport.save_export_files and generate_export_file,
 * label_studio/data_export/models.py; the format is not checked first). Two one-step exports of the same
 * tasks within a minute share the file: one truncates it while the other reads it, and answers a cut
 * body. So these scenarios run one at a time.
 */
const oneStepExport = (scenario: Scenario): Scenario => ({ ...scenario, serial: "one-step-export" });
/**
 * The caller's account and organization: the area `accounts`, run last and one at a time, since it writes what
 * every other scenario reads (the organization's users, the caller's tokens).
 */
const account = (scenario: Scenario): Scenario => ({
  ...scenario,
  id: scenario.id.replace(/^routes\//, "accounts/"),
  area: "accounts",
  serial: "accounts",
  ...(scenario.probe.kind === "writes" ? { probe: { ...scenario.probe, fixture: "main" as const } } : {}),
});
/** The project's model versions: a GROUP BY without ORDER BY, so the database orders them. */
const MODEL_VERSION_ITEMS = /^body$|\.schema\.items$/;

/**
 * The project id and the 8 random hex digits of an uploaded file's stored name (`upload/<project>/<hex>-<name>`), and
 * the upload's id in a refused item (`:: {'data': {...}, 'file_upload_id': 12}`).
 */
const UPLOAD_NAME = /(?:upload\/\d+\/)?\b[0-9a-f]{8}-|'file_upload_id': \d+/g;
/** The data keys common to the files read: a Python set on the server, so in no order. */
const DATA_COLUMNS = /^body\.data_columns$/;
const BOUNDARY = "dmq-verify-upload";
/** A multipart request carrying text files, `[field, file name, content]` each, as `curl -F field=@name` sends them. */
const upload = (
  method: Method,
  path: string,
  files: readonly (readonly [string, string, string])[],
  query?: Record<string, string>,
): Request => ({
  method,
  path,
  ...(query ? { query } : {}),
  body: {
    raw:
      files
        .map(
          ([field, name, content]) =>
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n` +
            `Content-Type: application/octet-stream\r\n\r\n${content}\r\n`,
        )
        .join("") + `--${BOUNDARY}--\r\n`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  },
});
const CSV = "text,n\nc1,1\nc2,\n";

export function routeScenarios(): Scenario[] {
  return [
    // ---- label configs ----------------------------------------------------------------------------
    read("validate/config", req("POST", "/api/projects/validate/", { label_config: fixtureLabelConfig }), "values"),
    error("validate/config-malformed", req("POST", "/api/projects/validate/", { label_config: "<View><Nope" })),
    error("validate/config-missing", req("POST", "/api/projects/validate/", {})),
    error(
      "validate/config-unknown-to-name",
      req("POST", "/api/projects/validate/", { label_config: fixtureLabelConfig.replace('toName="text"', 'toName="nope"') }),
    ),
    read("project-validate/get", req("GET", `/api/projects/${P}/validate/`), "values"),
    read("project-validate/same", req("POST", `/api/projects/${P}/validate/`, { label_config: fixtureLabelConfig }), "values"),
    error("project-validate/malformed", req("POST", `/api/projects/${P}/validate/`, { label_config: "<View>" })),

    // ---- the Data Manager's columns and project state -----------------------------------------------
    read("dm-columns", req("GET", "/api/dm/columns/", undefined, { project: P }), "values", { unordered: MODEL_VERSION_ITEMS }),
    error("dm-columns/project=abc", req("GET", "/api/dm/columns/", undefined, { project: "abc" })),
    error("dm-columns/unknown-project", req("GET", "/api/dm/columns/", undefined, { project: "999999999" })),
    read("dm-project", req("GET", "/api/dm/project/", undefined, { project: P })),
    error("dm-project/unknown-project", req("GET", "/api/dm/project/", undefined, { project: "999999999" })),

    // ---- model versions -----------------------------------------------------------------------------
    read("model-versions", req("GET", `/api/projects/${P}/model-versions/`), "values", { unordered: MODEL_VERSION_ITEMS }),
    read("model-versions/extended", req("GET", `/api/projects/${P}/model-versions/`, undefined, { extended: "1" })),
    error("model-versions/delete-without-version", req("DELETE", `/api/projects/${P}/model-versions/`, {})),

    // ---- a project's tasks --------------------------------------------------------------------------
    read("project-tasks", req("GET", `/api/projects/${P}/tasks/`, undefined, { page_size: "100" })),
    read("project-tasks/page", req("GET", `/api/projects/${P}/tasks/`, undefined, { page: "2", page_size: "3" })),
    error("project-tasks/create-without-data", req("POST", `/api/projects/${P}/tasks/`, {})),
    error("tasks-bulk/not-a-list", req("POST", `/api/projects/${P}/tasks/bulk/`, "x")),
    writes("project-tasks/writes", [
      step("create project", req("POST", "/api/projects/", { title: "dmq verify routes", label_config: fixtureLabelConfig }), {
        capture: { name: "project" },
      }),
      step("create task", req("POST", "/api/projects/{made:project}/tasks/", { data: { text: "one" } })),
      step(
        "bulk import",
        req("POST", "/api/projects/{made:project}/tasks/bulk/", [{ data: { text: "two" } }, { data: { text: "three" } }]),
      ),
      step("list", req("GET", "/api/projects/{made:project}/tasks/"), { compare: "shape" }),
      step("delete all", req("DELETE", "/api/projects/{made:project}/tasks/")),
      step("list after delete", req("GET", "/api/projects/{made:project}/tasks/"), { compare: "values" }),
      step(
        "replace project",
        req("PUT", "/api/projects/{made:project}/", { title: "dmq verify routes put", label_config: fixtureLabelConfig }),
      ),
      step("delete project", req("DELETE", "/api/projects/{made:project}/")),
      step("read deleted project", req("GET", "/api/projects/{made:project}/"), { compare: "error" }),
    ]),

    // ---- a prediction's model (an ML backend) and model run: PrimaryKeyRelatedField's errors -------------
    // No model run exists on a community server (no route makes one); the backends are the ml area's.
    error("predictions/model-run-unknown", req("POST", "/api/predictions/", { task: ref.task("t5"), result, model_run: 999999999 })),
    error("predictions/model-run-text", req("POST", "/api/predictions/", { task: ref.task("t5"), result, model_run: "abc" })),
    error("predictions/model-run-bool", req("POST", "/api/predictions/", { task: ref.task("t5"), result, model_run: true })),
    error("predictions/model-unknown", req("POST", "/api/predictions/", { task: ref.task("t5"), result, model: 999999999 })),
    error("predictions/model-list", req("POST", "/api/predictions/", { task: ref.task("t5"), result, model: [1] })),
    error("predictions/model-unknown-update", req("PATCH", "/api/predictions/{prediction:p1}/", { model: "999999999" })),

    // ---- predictions imported, and model versions removed --------------------------------------------
    error("import-predictions/not-a-list", req("POST", `/api/projects/${P}/import/predictions`, { task: ref.task("t5") })),
    // The message names the project by title and id, which differ between the two.
    error("import-predictions/foreign-task", req("POST", `/api/projects/${P}/import/predictions`, [{ task: 999999999, result }]), {
      mask: / ·dmq-[\w-]+ \(id=\d+\)/g,
    }),
    writes("import-predictions/writes", [
      step(
        "import predictions",
        req("POST", `/api/projects/${P}/import/predictions`, [{ task: ref.task("t5"), result, score: 0.75, model_version: "m3" }]),
        { compare: "values" },
      ),
      step("model versions", req("GET", `/api/projects/${P}/model-versions/`), { compare: "values", unordered: MODEL_VERSION_ITEMS }),
    ]),
    // ---- uploaded files: a multipart import keeps each file as a FileUpload (data_import/api.py, uploader.py) ------
    // Stored names carry the project id and 8 random hex digits (masked). The uploads are deleted at the end, so the
    // tasks compared in the state name none (their file_upload is SET_NULL).
    writes("file-uploads/import-and-routes", [
      step("import a CSV file", upload("POST", `/api/projects/${P}/import`, [["file", "t.csv", CSV]], { return_task_ids: "true" }), {
        capture: { name: "csv", field: "file_upload_ids" },
        unordered: DATA_COLUMNS,
      }),
      step(
        "import JSON and TSV files",
        upload("POST", `/api/projects/${P}/import`, [
          ["a", "t.json", '[{"text":"j1"},{"data":{"text":"j2"},"annotations":[{"result":[]}]}]'],
          ["b", "t.tsv", "text\tn\nt1\t1\nt2\t2\n"],
        ]),
      ),
      step("import a text file", upload("POST", `/api/projects/${P}/import`, [["file", "t.txt", "line1\nline2\n"]])),
      step("import an unsupported file", upload("POST", `/api/projects/${P}/import`, [["file", "t.xyz", "x"]]), { compare: "error" }),
      step("import a bad JSON file", upload("POST", `/api/projects/${P}/import`, [["file", "bad.json", '[{"text":']]), {
        compare: "error",
        mask: UPLOAD_NAME,
      }),
      step("import a CSV file without the config's key", upload("POST", `/api/projects/${P}/import`, [["file", "o.csv", "other\nx\n"]]), {
        compare: "error",
        mask: UPLOAD_NAME,
      }),
      step("list every upload", req("GET", `/api/projects/${P}/file-uploads`, undefined, { all: "true" }), {
        compare: "values",
        mask: UPLOAD_NAME,
      }),
      step("list none", req("GET", `/api/projects/${P}/file-uploads`), { compare: "values" }),
      step("list by ids", req("GET", `/api/projects/${P}/file-uploads`, undefined, { ids: "[{made:csv}]" }), {
        compare: "values",
        mask: UPLOAD_NAME,
      }),
      step("list with ids not JSON", req("GET", `/api/projects/${P}/file-uploads`, undefined, { ids: "1,3" }), { compare: "error" }),
      step("list with ids a number", req("GET", `/api/projects/${P}/file-uploads`, undefined, { ids: "1" }), { compare: "error" }),
      step("list with all not a boolean", req("GET", `/api/projects/${P}/file-uploads`, undefined, { all: "maybe" }), {
        compare: "error",
      }),
      step("read one", req("GET", "/api/import/file-upload/{made:csv}"), {
        compare: "values",
        mask: UPLOAD_NAME,
        capture: { name: "csv-file", field: "file" },
      }),
      // The file's bytes (`/data/upload/<path>`, not an /api/ route), as uploaded.
      step("download the file", req("GET", "/data/{made:csv-file}"), { compare: "values" }),
      step("download a file no upload has", req("GET", `/data/upload/${P}/nope.csv`), { compare: "error" }),
      step("read a task of the file", req("GET", `/api/projects/${P}/tasks/`, undefined, { page_size: "100" })),
      // The Data Manager's `file_upload` column filters on the stored name (a join); the list shows its basename.
      step(
        "filter the Data Manager list by the file",
        req("GET", "/api/tasks/", undefined, {
          project: P,
          query: JSON.stringify({
            filters: {
              conjunction: "and",
              items: [{ filter: "filter:tasks:file_upload", operator: "contains", type: "String", value: "t.tsv" }],
            },
          }),
        }),
        { compare: "values", mask: UPLOAD_NAME },
      ),
      step("patch nothing", req("PATCH", "/api/import/file-upload/{made:csv}", {}), { compare: "values", mask: UPLOAD_NAME }),
      step("patch the file with a text", req("PATCH", "/api/import/file-upload/{made:csv}", { file: "x.csv" }), { compare: "error" }),
      step("put without a file", req("PUT", "/api/import/file-upload/{made:csv}", {}), { compare: "error" }),
      step("replace the file", upload("PATCH", "/api/import/file-upload/{made:csv}", [["file", "new.csv", "text\nr1\n"]]), {
        compare: "values",
        mask: UPLOAD_NAME,
      }),
      step("put a file", upload("PUT", "/api/import/file-upload/{made:csv}", [["file", "put.csv", CSV]]), {
        compare: "values",
        mask: UPLOAD_NAME,
      }),
      step("stage an import", upload("POST", `/api/projects/${P}/import`, [["file", "s.csv", CSV]], { commit_to_project: "false" }), {
        capture: { name: "staged", field: "file_upload_ids" },
      }),
      step("reimport nothing", req("POST", `/api/projects/${P}/reimport`, {}), { compare: "values" }),
      step(
        "reimport the staged file as one task",
        req("POST", `/api/projects/${P}/reimport`, {
          file_upload_ids: ref.made("staged"),
          files_as_tasks_list: false,
        }),
        { unordered: DATA_COLUMNS },
      ),
      step("reimport the staged file", req("POST", `/api/projects/${P}/reimport`, { file_upload_ids: ref.made("staged") }), {
        unordered: DATA_COLUMNS,
      }),
      step("reimport it again", req("POST", `/api/projects/${P}/reimport`, { file_upload_ids: ref.made("staged") })),
      step(
        "reimport with files_as_tasks_list not a boolean",
        req("POST", `/api/projects/${P}/reimport`, { file_upload_ids: ref.made("staged"), files_as_tasks_list: "maybe" }),
        { compare: "error" },
      ),
      step("reimport a list body", req("POST", `/api/projects/${P}/reimport`, [1]), { compare: "error" }),
      step("reimport no upload of the project", req("POST", `/api/projects/${P}/reimport`, { file_upload_ids: [999999999] })),
      step("delete one upload", req("DELETE", "/api/import/file-upload/{made:csv}")),
      step("read the deleted upload", req("GET", "/api/import/file-upload/{made:csv}"), { compare: "error" }),
      step("delete with ids not a list", req("DELETE", `/api/projects/${P}/file-uploads`, { file_upload_ids: 1 }), { compare: "error" }),
      step("delete the staged upload", req("DELETE", `/api/projects/${P}/file-uploads`, { file_upload_ids: ref.made("staged") }), {
        compare: "values",
      }),
      step("delete every upload", req("DELETE", `/api/projects/${P}/file-uploads`, {}), { compare: "values" }),
      step("list after the deletes", req("GET", `/api/projects/${P}/file-uploads`, undefined, { all: "true" }), { compare: "values" }),
    ]),
    error("file-uploads/unknown", req("GET", "/api/import/file-upload/999999999")),
    error("file-uploads/unknown-project", req("GET", "/api/projects/999999999/file-uploads", undefined, { all: "true" })),
    error("reimport/unknown-project", req("POST", "/api/projects/999999999/reimport", { file_upload_ids: [1] })),
    // A community server imports synchronously and keeps no import records: any id is a 404, whatever the project.
    error("imports/unknown", req("GET", `/api/projects/${P}/imports/999999999/`)),
    error("imports/unknown-project", req("GET", "/api/projects/999999999/imports/1/")),
    error("reimports/unknown", req("GET", `/api/projects/${P}/reimports/999999999/`)),

    // On a project of its own. Project.delete_predictions deletes by queryset: a task that loses 2 of its 3 predictions
    // counts 2 (Prediction's pre_delete receiver, once per prediction before any goes; removePredictionsAtOnce). The
    // project's tasks deleted first clear the server's cache of receivers (see ml/prediction-counter).
    writes(
      "model-versions/delete",
      [
        step("create project", req("POST", "/api/projects/", { title: "dmq verify model versions", label_config: fixtureLabelConfig }), {
          capture: { name: "project" },
        }),
        step("delete the project's tasks", req("DELETE", "/api/projects/{made:project}/tasks/")),
        step(
          "import",
          req("POST", "/api/projects/{made:project}/import", [
            {
              data: { text: "one" },
              predictions: [
                { result, model_version: "m1" },
                { result, model_version: "m2" },
                { result, model_version: "m2" },
              ],
            },
          ]),
        ),
        step("delete model version", req("DELETE", "/api/projects/{made:project}/model-versions/", { model_version: "m2" }), {
          compare: "values",
        }),
        step("model versions after delete", req("GET", "/api/projects/{made:project}/model-versions/"), { compare: "values" }),
        step("tasks after delete", req("GET", "/api/projects/{made:project}/tasks/"), { compare: "values" }),
        step("delete project", req("DELETE", "/api/projects/{made:project}/")),
      ],
      "main",
    ),

    // ---- saved views: replace, order, reset -----------------------------------------------------------
    error("views-order/empty", req("POST", "/api/dm/views/order/", { project: ref.project(), ids: [] })),
    error("views-reset/no-project", req("DELETE", "/api/dm/views/reset/")),
    writes("views/writes", [
      step("create view", req("POST", "/api/dm/views/", { project: ref.project(), data: { title: "second" } }), {
        capture: { name: "view" },
      }),
      step("replace view", req("PUT", "/api/dm/views/{view:v1}/", { project: ref.project(), data: { title: "replaced" } })),
      step("order views", req("POST", "/api/dm/views/order/", { project: ref.project(), ids: [ref.made("view"), ref.view("v1")] })),
      step("list views", req("GET", "/api/dm/views/", undefined, { project: P })),
      step("reset views", req("DELETE", "/api/dm/views/reset/", { project: ref.project() })),
      step("list after reset", req("GET", "/api/dm/views/", undefined, { project: P }), { compare: "values" }),
    ]),

    // ---- a task's meta: null -------------------------------------------------------------------------
    // A create and an import run TaskValidator, which takes a dict or a list only (null too is refused); an update
    // (TaskSimpleSerializer) stores what it is given, null included, and every rendering shows it as stored. The
    // state after it holds each task's meta (snapshot), the list imported by the last step included.
    writes("task-meta/writes", [
      step("create with meta null", req("POST", "/api/tasks/", { project: ref.project(), data: { text: "m" }, meta: null }), {
        compare: "error",
      }),
      step("create in project with meta null", req("POST", `/api/projects/${P}/tasks/`, { data: { text: "m" }, meta: null }), {
        compare: "error",
      }),
      step(
        "import with meta null or text",
        req("POST", `/api/projects/${P}/import`, [
          { data: { text: "m" }, meta: null },
          { data: { text: "n" }, meta: "x" },
          { data: { text: "o" }, meta: { k: 1 } },
        ]),
        { compare: "error" },
      ),
      step("update meta to null", req("PATCH", "/api/tasks/{task:t1}/", { meta: null })),
      step("replace with meta null", req("PUT", "/api/tasks/{task:t2}/", { data: { text: "replaced" }, meta: null })),
      step("update meta to text", req("PATCH", "/api/tasks/{task:t3}/", { meta: "x" })),
      step("read task", req("GET", "/api/tasks/{task:t1}/")),
      step("read project tasks", req("GET", `/api/projects/${P}/tasks/`, undefined, { page_size: "100" })),
      step("import with meta a list", req("POST", `/api/projects/${P}/import`, [{ data: { text: "listed" }, meta: [1, "a"] }])),
    ]),

    // ---- an import's items: TaskValidator.validate, one entry per item ---------------------------------
    // Every item is checked in the validator's order (data a dict or a list, then the config's keys; annotations a
    // list, each object in it with a list `result`; predictions; meta), one answer entry per item, nothing stored. An
    // annotation that is not an object passes the validator (a warning) and then fails the import with a 500. A
    // create runs the same validator on data; it never sees annotations (not a Task field), so it stores the task.
    writes("task-import/item-checks", [
      step(
        "import items the validator refuses",
        req("POST", `/api/projects/${P}/import`, [
          { data: { text: "fine" } },
          { data: "x" },
          { data: null },
          { data: ["t"] },
          { data: { text: "a" }, annotations: "y" },
          { data: { text: "a" }, annotations: null },
          { data: { text: "a" }, annotations: [{ lead_time: 1 }] },
          { data: { text: "a" }, annotations: [{ result: null }] },
          { data: { text: "a" }, annotations: [{ result: {} }] },
          "abc",
          [1],
        ]),
        { compare: "error" },
      ),
      step("import an annotation that is a number", req("POST", `/api/projects/${P}/import`, [{ data: { text: "a" }, annotations: [1] }]), {
        compare: "error",
      }),
      step(
        "import an annotation that is a text after a good one",
        req("POST", `/api/projects/${P}/import`, [{ data: { text: "a" }, annotations: [{ result }, "s"] }]),
        { compare: "error" },
      ),
      step(
        "import an annotation without result",
        req("POST", `/api/projects/${P}/import`, { data: { text: "a" }, annotations: [{ x: 1 }] }),
        {
          compare: "error",
        },
      ),
      step("create with data a text", req("POST", "/api/tasks/", { project: ref.project(), data: "x" }), { compare: "error" }),
      step("create in project with data a text", req("POST", `/api/projects/${P}/tasks/`, { data: "x" }), { compare: "error" }),
      step("create in project with data null", req("POST", `/api/projects/${P}/tasks/`, { data: null }), { compare: "error" }),
      step(
        "create in project with annotations a text",
        req("POST", `/api/projects/${P}/tasks/`, { data: { text: "kept" }, annotations: "y" }),
      ),
      step(
        "import an annotation with an empty result",
        req("POST", `/api/projects/${P}/import`, [{ data: { text: "b" }, annotations: [{ result: [] }] }]),
      ),
    ]),

    // ---- whole-record replacements -------------------------------------------------------------------
    writes("replace/writes", [
      step("replace task", req("PUT", "/api/tasks/{task:t3}/", { data: { text: "replaced" } })),
      step("replace annotation", req("PUT", "/api/annotations/{annotation:a3}/", { result })),
      step(
        "replace prediction",
        req("PUT", "/api/predictions/{prediction:p3}/", { result, score: 0.1, model_version: "m1", task: ref.task("t2") }),
      ),
      step("read task", req("GET", "/api/tasks/{task:t3}/")),
    ]),

    // ---- drafts --------------------------------------------------------------------------------------
    read("drafts/task-empty", req("GET", "/api/tasks/{task:t1}/drafts"), "values"),
    read("drafts/annotation-empty", req("GET", "/api/tasks/{task:t1}/annotations/{annotation:a1}/drafts"), "values"),
    error("drafts/not-found", req("GET", "/api/drafts/999999999/")),
    writes("drafts/writes", [
      step("create task draft", req("POST", "/api/tasks/{task:t5}/drafts", { result, lead_time: 2 }), { capture: { name: "draft" } }),
      step("list task drafts", req("GET", "/api/tasks/{task:t5}/drafts")),
      step("create annotation draft", req("POST", "/api/tasks/{task:t1}/annotations/{annotation:a1}/drafts", { result }), {
        capture: { name: "annotation-draft" },
      }),
      step("list annotation drafts", req("GET", "/api/tasks/{task:t1}/annotations/{annotation:a1}/drafts")),
      step("read draft", req("GET", "/api/drafts/{made:draft}/")),
      step("update draft", req("PATCH", "/api/drafts/{made:draft}/", { lead_time: 3 })),
      step("replace draft", req("PUT", "/api/drafts/{made:draft}/", { result, lead_time: 4 })),
      step("delete draft", req("DELETE", "/api/drafts/{made:draft}/")),
      step("read deleted draft", req("GET", "/api/drafts/{made:draft}/"), { compare: "error" }),
      step("convert annotation (GET)", req("GET", "/api/annotations/{annotation:a3}/convert-to-draft")),
      step("convert annotation to draft", req("POST", "/api/annotations/{annotation:a3}/convert-to-draft")),
      step("task after convert", req("GET", "/api/tasks/{task:t3}/")),
    ]),

    // ---- exports -------------------------------------------------------------------------------------
    read("export-formats", req("GET", `/api/projects/${P}/export/formats`), "values"),
    read("exports/empty", req("GET", `/api/projects/${P}/exports/`), "values"),
    error("exports/not-found", req("GET", `/api/projects/${P}/exports/999999999`)),
    oneStepExport(read("export/one-step", req("GET", `/api/projects/${P}/export`, undefined, { exportType: "JSON" }))),
    oneStepExport(error("export/unknown-type", req("GET", `/api/projects/${P}/export`, undefined, { exportType: "NOPE" }))),
    writes("exports/writes", [
      step("create snapshot", req("POST", `/api/projects/${P}/exports/`, { title: "verify" }), { capture: { name: "export" } }),
      step("list snapshots", req("GET", `/api/projects/${P}/exports/`)),
      step("read snapshot", req("GET", `/api/projects/${P}/exports/{made:export}`)),
      step("download", req("GET", `/api/projects/${P}/exports/{made:export}/download`, undefined, { exportType: "JSON" }), {
        compare: "values",
      }),
      step("converted formats", req("GET", `/api/projects/${P}/exports/{made:export}/convert`)),
      step("convert", req("POST", `/api/projects/${P}/exports/{made:export}/convert`, { export_type: "CSV" })),
      step("convert unknown", req("POST", `/api/projects/${P}/exports/{made:export}/convert`, { export_type: "NOPE" }), {
        compare: "error",
      }),
      step("delete snapshot", req("DELETE", `/api/projects/${P}/exports/{made:export}`)),
      step("read deleted snapshot", req("GET", `/api/projects/${P}/exports/{made:export}`), { compare: "error" }),
    ]),

    ...taskDataScenarios(),

    // One at a time: each waits on the run's own model server, which the server's health check gives 1 s.
    ...mlScenarios().map((scenario) => ({
      ...scenario,
      id: scenario.id.replace(/^routes\/ml\//, "ml/"),
      area: "ml" as const,
      serial: "ml",
    })),
    // ---- users, tokens, hotkeys (the caller's own; nothing of the fixture) ---------------------------
    ...accountScenarios().map(account),
  ];
}

/** Every object tag `_DATA_TYPES` names, and two it does not (they take a text only). */
const DATA_TAGS = [...Object.keys(TAG_DATA_TYPES), "Audio", "Video"];
/** A value of each JSON type, by the name Python gives its type. */
const DATA_VALUES = { str: "s", int: 1, float: 1.5, bool: true, list: ["a"], dict: { k: "v" }, NoneType: null } as const;
/** A key read inside a Repeater (`$pages[{{idx}}]…`): a list, whatever the tag. */
const REPEATER = '<Repeater on="$pages" indexFlag="{{idx}}"><Image name="page_{{idx}}" value="$pages[{{idx}}].url"/></Repeater>';
/** A project that reads one key per tag (`k_<Tag>`), controls pointing at the Text, a dotted key (`$nested.key`) and a repeated one. */
const typesConfig = `<View>${DATA_TAGS.map((tag) => {
  const control = /Labels$|^Choices$|^Taxonomy$|^Ranker$/.test(tag) ? ' toName="n_Text"' : "";
  return `<${tag} name="n_${tag}" value="$k_${tag}"${control}/>`;
}).join("")}<Text name="n_dotted" value="$nested.key"/>${REPEATER}</View>`;
/** Task data every tag takes (a text under each key). */
const typedData = (key?: string, value?: unknown): Record<string, unknown> => ({
  ...Object.fromEntries(DATA_TAGS.map((tag) => [`k_${tag}`, "s"])),
  nested: { key: "s" },
  pages: [{ url: "s" }],
  ...(key === undefined ? {} : { [key]: value }),
});

/**
 * Task data against the config (`TaskValidator.check_data`, docs/reference/resources.md#task-data-types): per JSON
 * type, one import whose items give it to one tag each (one answer entry per item), then creates (the same
 * validator), an update (none), a dotted key read step by step and a repeated key (a list). Then list data where the config reads no key, and
 * updates to data that is no dict: the server writes the task and answers a 500 (`update_data_columns`); the mock keeps
 * nothing, so no state is compared after them and each project is deleted at the end.
 */
function taskDataScenarios(): Scenario[] {
  const made = "/api/projects/{made:project}";
  const createProject = (title: string, label_config: string) =>
    step("create project", req("POST", "/api/projects/", { title, label_config }), { capture: { name: "project" } });
  const deleteProject = step("delete project", req("DELETE", `${made}/`));
  return [
    writes(
      "task-data/types",
      [
        createProject("dmq verify data types", typesConfig),
        ...Object.entries(DATA_VALUES).map(([type, value]) =>
          step(
            `import a ${type} under each tag`,
            req(
              "POST",
              `${made}/import`,
              DATA_TAGS.map((tag) => ({ data: typedData(`k_${tag}`, value) })),
            ),
            type === "str" ? {} : { compare: "error" },
          ),
        ),
        step("create with a list under Text", req("POST", `${made}/tasks/`, { data: typedData("k_Text", ["a"]) })),
        step("create with a list under Table", req("POST", `${made}/tasks/`, { data: typedData("k_Table", ["a"]) })),
        step("create with null under Taxonomy", req("POST", `${made}/tasks/`, { data: typedData("k_Taxonomy", null) })),
        step("create with a dict under Chat", req("POST", `${made}/tasks/`, { data: typedData("k_Chat", { k: "v" }) }), {
          compare: "error",
        }),
        step(
          "create with a number under Audio",
          req("POST", "/api/tasks/", { project: ref.made("project"), data: typedData("k_Audio", 1) }),
          {
            compare: "error",
          },
        ),
        step("create", req("POST", `${made}/tasks/`, { data: typedData() }), { capture: { name: "task" } }),
        step("update to a dict under Header", req("PATCH", "/api/tasks/{made:task}/", { data: typedData("k_Header", { k: "v" }) })),
        step("create with the dotted key's parent a text", req("POST", `${made}/tasks/`, { data: typedData("nested", "s") }), {
          compare: "error",
        }),
        step("create with the dotted key missing", req("POST", `${made}/tasks/`, { data: typedData("nested", {}) }), {
          compare: "error",
        }),
        step("import with the dotted key's parent null", req("POST", `${made}/import`, [{ data: typedData("nested", null) }]), {
          compare: "error",
        }),
        step("create with the repeated key a text", req("POST", `${made}/tasks/`, { data: typedData("pages", "s") }), {
          compare: "error",
        }),
        deleteProject,
      ],
      "main",
    ),
    writes(
      "task-data/not-a-dict",
      [
        createProject("dmq verify list data", "<View></View>"),
        step("import list data", req("POST", `${made}/import`, [{ data: { x: "a" } }, { data: ["a", "b"] }]), { compare: "error" }),
        step("create with list data", req("POST", `${made}/tasks/`, { data: [1, 2] }), { compare: "error" }),
        step("create elsewhere with list data", req("POST", "/api/tasks/", { project: ref.made("project"), data: ["z"] }), {
          compare: "error",
        }),
        step("create a task", req("POST", `${made}/tasks/`, { data: { x: "a" } }), { capture: { name: "first" } }),
        step("create another", req("POST", `${made}/tasks/`, { data: { x: "b" } }), { capture: { name: "second" } }),
        step("update data to a list", req("PATCH", "/api/tasks/{made:first}/", { data: ["p"] }), { compare: "error" }),
        step("update data to a text", req("PATCH", "/api/tasks/{made:second}/", { data: "t" }), { compare: "error" }),
        deleteProject,
      ],
      "main",
    ),
  ];
}

function accountScenarios(): Scenario[] {
  return [
    error("users/create-bad-email", req("POST", "/api/users/", { email: "not-an-email" })),
    writes("users/writes", [
      step("create user", req("POST", "/api/users/", { email: "verify-{context:nonce}@example.com", username: "verify-{context:nonce}" }), {
        capture: { name: "user" },
      }),
      step("read user", req("GET", "/api/users/{made:user}/")),
      step("update user", req("PATCH", "/api/users/{made:user}/", { first_name: "Verified" })),
      step("delete user", req("DELETE", "/api/users/{made:user}/")),
      step("read deleted user", req("GET", "/api/users/{made:user}/"), { compare: "error" }),
    ]),
    read("token", req("GET", "/api/current-user/token")),
    read("hotkeys", req("GET", "/api/current-user/hotkeys/")),
    error("hotkeys/not-a-dict", req("PATCH", "/api/current-user/hotkeys/", { custom_hotkeys: "x" })),
    error("hotkeys/dangerous", req("PATCH", "/api/current-user/hotkeys/", { custom_hotkeys: { "editor:save": { key: "alt+f4" } } })),
    // The caller's own hotkeys are read first and put back last.
    writes("hotkeys/writes", [
      step("read", req("GET", "/api/current-user/hotkeys/"), { capture: { name: "hotkeys", field: "custom_hotkeys" } }),
      step(
        "set",
        req("PATCH", "/api/current-user/hotkeys/", { custom_hotkeys: { "annotation:submit": { key: "ctrl+s", active: true } } }),
        {
          compare: "values",
        },
      ),
      step("read after set", req("GET", "/api/current-user/hotkeys/"), { compare: "values" }),
      step("clear", req("PATCH", "/api/current-user/hotkeys/", { custom_hotkeys: {} }), { compare: "values" }),
      step("put back", req("PATCH", "/api/current-user/hotkeys/", { custom_hotkeys: ref.made("hotkeys") })),
    ]),
    ...organizationScenarios(),
    error("token-refresh/bad", req("POST", "/api/token/refresh/", { refresh: "not-a-token" })),
    error("token-blacklist/bad", req("POST", "/api/token/blacklist/", { refresh: "not-a-token" })),
    error("token-rotate/bad", req("POST", "/api/token/rotate/", { refresh: "not-a-token" })),
    writes("tokens/writes", [
      step("list", req("GET", "/api/token/"), { compare: "values" }),
      step("create", req("POST", "/api/token/"), { capture: { name: "refresh", field: "token" } }),
      step("create a second", req("POST", "/api/token/"), { compare: "error" }),
      step("refresh", req("POST", "/api/token/refresh/", { refresh: "{made:refresh}" })),
      step("rotate", req("POST", "/api/token/rotate/", { refresh: "{made:refresh}" }), { capture: { name: "rotated", field: "refresh" } }),
      step("blacklist", req("POST", "/api/token/blacklist/", { refresh: "{made:rotated}" })),
      step("list after", req("GET", "/api/token/"), { compare: "values" }),
    ]),
  ];
}

/**
 * The caller's organization (its id from the caller's record): read, written back as it was, its members and invite
 * link; a membership removed is a throw-away user's. Never sent: a valid `POST /api/organizations/` (an organization no
 * route deletes) and `POST /api/invite/reset-token` (coverage.ts says why). The members' projects
 * (`?contributed_to_projects=1`) are not compared: a shared server's members own projects the run did not make.
 */
function organizationScenarios(): Scenario[] {
  const org = "/api/organizations/{made:org}";
  // The caller's record, not whoami: whoami lists permissions on the newest servers only.
  const caller = step("the caller", req("GET", "/api/users/{user}/"), { capture: { name: "org", field: "active_organization" } });
  return [
    read("organizations", req("GET", "/api/organizations/")),
    error("organizations/create-without-title", req("POST", "/api/organizations/", { contact_info: "not-an-email" })),
    error("organization/not-found", req("GET", "/api/organizations/999999999")),
    error("memberships/organization-not-found", req("GET", "/api/organizations/999999999/memberships/{user}/")),
    read("invite", req("GET", "/api/invite")),
    writes("organization/writes", [
      caller,
      step("read", req("GET", org), { capture: { name: "title", field: "title" } }),
      step("read some fields", req("GET", org, undefined, { fields: "id,title", omit: "id" })),
      step("update to its own title", req("PATCH", org, { title: ref.made("title") })),
      step("replace with its own title", req("PUT", org, { title: ref.made("title") })),
      step("replace without title", req("PUT", org, {}), { compare: "error" }),
      step("update a bad contact", req("PATCH", org, { contact_info: "not-an-email", created_by: 999999999 }), { compare: "error" }),
      step("members", req("GET", `${org}/memberships`, undefined, { page_size: "-1" })),
      step("members, a bad flag", req("GET", `${org}/memberships`, undefined, { contributed_to_projects: "maybe" }), { compare: "error" }),
      step("members, past the last page", req("GET", `${org}/memberships`, undefined, { page: "999999" }), { compare: "error" }),
      step("the caller's membership", req("GET", `${org}/memberships/{user}/`)),
      step("an unknown user's membership", req("GET", `${org}/memberships/999999999/`), { compare: "error" }),
      step("remove the caller", req("DELETE", `${org}/memberships/{user}/`), { compare: "error" }),
    ]),
    writes("memberships/remove", [
      caller,
      step(
        "create user",
        req("POST", "/api/users/", { email: "verify-m-{context:nonce}@example.com", username: "verify-m-{context:nonce}" }),
        {
          capture: { name: "user" },
        },
      ),
      step("their membership", req("GET", `${org}/memberships/{made:user}/`)),
      step("remove them", req("DELETE", `${org}/memberships/{made:user}/`)),
      step("their membership after", req("GET", `${org}/memberships/{made:user}/`)),
      step("the user after", req("GET", "/api/users/{made:user}/")),
      step("remove them again", req("DELETE", `${org}/memberships/{made:user}/`), { compare: "error" }),
      step("delete user", req("DELETE", "/api/users/{made:user}/")),
    ]),
  ];
}

function mlScenarios(): Scenario[] {
  return [
    read("ml/empty", req("GET", "/api/ml/", undefined, { project: P }), "values"),
    error("ml/not-found", req("GET", "/api/ml/999999999")),
    error("ml/create-without-url", req("POST", "/api/ml/", { project: ref.project() })),
    writes("ml/writes", [
      step("create", req("POST", "/api/ml/", { project: ref.project(), url: ref.context("modelServer"), title: "tiny" }), {
        capture: { name: "ml" },
      }),
      step("list", req("GET", "/api/ml/", undefined, { project: P })),
      step("read", req("GET", "/api/ml/{made:ml}")),
      step("update", req("PATCH", "/api/ml/{made:ml}", { title: "tiny renamed" })),
      step("replace", req("PUT", "/api/ml/{made:ml}", { project: ref.project(), url: ref.context("modelServer"), title: "tiny again" })),
      step("predict test", req("POST", "/api/ml/{made:ml}/predict/test")),
      step("versions", req("GET", "/api/ml/{made:ml}/versions"), { compare: "values" }),
      step("train", req("POST", "/api/ml/{made:ml}/train")),
      step("interactive annotating", req("POST", "/api/ml/{made:ml}/interactive-annotating", { task: ref.task("t1") })),
      step("delete", req("DELETE", "/api/ml/{made:ml}")),
      step("read deleted", req("GET", "/api/ml/{made:ml}"), { compare: "error" }),
    ]),
    // A prediction names the backend that made it (`model`); deleting the backend deletes the prediction (CASCADE). On a
    // project of its own, no state compared: the server leaves the task's total_predictions as it was.
    writes(
      "ml/prediction-model",
      [
        step("create project", req("POST", "/api/projects/", { title: "dmq verify prediction model", label_config: fixtureLabelConfig }), {
          capture: { name: "project" },
        }),
        step("create task", req("POST", "/api/projects/{made:project}/tasks/", { data: { text: "one" } }), { capture: { name: "task" } }),
        step("create backend", req("POST", "/api/ml/", { project: ref.made("project"), url: ref.context("modelServer"), title: "tiny" }), {
          capture: { name: "ml" },
        }),
        step("create prediction by it", req("POST", "/api/predictions/", { task: ref.made("task"), result, model: ref.made("ml") }), {
          capture: { name: "prediction" },
        }),
        step(
          "create prediction by its id as text",
          req("POST", "/api/predictions/", { task: ref.made("task"), result, model: "{made:ml}" }),
        ),
        step("delete backend", req("DELETE", "/api/ml/{made:ml}")),
        step("read prediction", req("GET", "/api/predictions/{made:prediction}/"), { compare: "error" }),
        step("list predictions", req("GET", "/api/predictions/", undefined, { task: "{made:task}" }), { compare: "values" }),
        step(
          "create prediction by it, deleted",
          req("POST", "/api/predictions/", { task: ref.made("task"), result, model: ref.made("ml") }),
          // The message names the backend's id, which differs between the two.
          { compare: "error", mask: /"\d+"/g },
        ),
        step("delete project", req("DELETE", "/api/projects/{made:project}/")),
      ],
      "main",
    ),
    // A task's total_predictions after the backend's predictions go with it: Prediction's pre_delete receiver sets the
    // count before minus one, once per prediction and before any goes, so a task losing k of its n counts n − 1
    // (removePredictionsAtOnce, mock-server/store/prediction-counter.ts): 2 and 2 here, with 1 and 0 left. The Data
    // Manager filters on that counter; a new prediction (post_save) recounts. The server process may have lost that
    // receiver: Django caches each model's receivers at first use, and a project delete empties them while it runs, so
    // a model first used then caches none (the environment row emptied-model-signals). Deleting a project's tasks
    // disconnects and reconnects receivers of the delete signals (Task.delete_tasks_without_signals), which clears that
    // cache: done first here, the backend's delete looks Prediction's receivers up again.
    writes(
      "ml/prediction-counter",
      [
        step(
          "create project",
          req("POST", "/api/projects/", { title: "dmq verify prediction counter", label_config: fixtureLabelConfig }),
          {
            capture: { name: "project" },
          },
        ),
        step("delete the project's tasks", req("DELETE", "/api/projects/{made:project}/tasks/")),
        step("create task one", req("POST", "/api/projects/{made:project}/tasks/", { data: { text: "one" } }), {
          capture: { name: "one" },
        }),
        step("create task two", req("POST", "/api/projects/{made:project}/tasks/", { data: { text: "two" } }), {
          capture: { name: "two" },
        }),
        step("create backend", req("POST", "/api/ml/", { project: ref.made("project"), url: ref.context("modelServer"), title: "tiny" }), {
          capture: { name: "ml" },
        }),
        step("predict task one", req("POST", "/api/predictions/", { task: ref.made("one"), result })),
        ...[1, 2].map((n) =>
          step(`predict task one by it (${n})`, req("POST", "/api/predictions/", { task: ref.made("one"), result, model: ref.made("ml") })),
        ),
        ...[1, 2, 3].map((n) =>
          step(`predict task two by it (${n})`, req("POST", "/api/predictions/", { task: ref.made("two"), result, model: ref.made("ml") })),
        ),
        step("tasks before", req("GET", "/api/projects/{made:project}/tasks/"), { compare: "values" }),
        step("delete backend", req("DELETE", "/api/ml/{made:ml}")),
        step("tasks after delete", req("GET", "/api/projects/{made:project}/tasks/"), { compare: "values" }),
        step(
          "filter on the counter",
          req("GET", "/api/tasks/", undefined, {
            project: "{made:project}",
            query: JSON.stringify({
              filters: {
                conjunction: "and",
                items: [{ filter: "filter:tasks:total_predictions", operator: "equal", type: "Number", value: 2 }],
              },
            }),
          }),
        ),
        step("predict task two", req("POST", "/api/predictions/", { task: ref.made("two"), result })),
        step("tasks after a new prediction", req("GET", "/api/projects/{made:project}/tasks/"), { compare: "values" }),
        step("delete project", req("DELETE", "/api/projects/{made:project}/")),
      ],
      "main",
    ),
  ];
}
