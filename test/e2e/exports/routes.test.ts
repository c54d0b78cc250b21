import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../../mock-server/index.js";
import { NOT_FOUND_PAGE } from "../../../mock-server/guards.js";
import { unzip } from "../../../mock-server/exports/zip.js";
import { exportAnnotation, exportTask } from "../../../src/contract/index.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { KEY, NOW, seed, TEXT } from "./fixture.js";

/**
 * The export routes against the measured project of fixture.ts. Each expectation states a fact of
 * docs/reference/exports.md (the server's source, and what a real server answered for this
 * project); the expected bytes are worked out from those facts here, never taken from the code
 * under test.
 */
let mock: MockServer;
const clock = new VirtualClock(NOW);

beforeAll(async () => {
  mock = await startMockServer({ data: seed, clock });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

interface Got {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  readonly text: string;
}

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Got> {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: { Authorization: `Token ${KEY}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: new TextDecoder().decode(bytes) };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes, read field by field
const json = (got: Got): any => JSON.parse(got.text);
const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
/** ujson.dumps(text) with ensure_ascii: what the one-step export hashes for its file name. */
const ujsonAscii = (text: string) =>
  JSON.stringify(text)
    .replaceAll("/", "\\/")
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const MINUTE = "2026-11-25-23-01";

describe("formats", () => {
  test("every listed format with the converter's texts, enabled ones first, those the config cannot produce disabled", async () => {
    const got = await call("GET", "/api/projects/1/export/formats");
    expect(got.status).toBe(200);
    const formats = json(got) as unknown as { name: string; disabled?: boolean; title: string; tags?: string[] }[];
    // Measured for this config (Text + Choices + TextArea): YOLO OBB is only ruled out for multi-image or video timelines.
    expect(formats.map((f) => `${f.name}${f.disabled ? "(disabled)" : ""}`)).toEqual([
      "JSON",
      "JSON_MIN",
      "CSV",
      "TSV",
      "YOLO_OBB",
      "YOLO_OBB_WITH_IMAGES",
      "CONLL2003(disabled)",
      "COCO(disabled)",
      "COCO_WITH_IMAGES(disabled)",
      "VOC(disabled)",
      "YOLO(disabled)",
      "YOLO_WITH_IMAGES(disabled)",
      "BRUSH_TO_NUMPY(disabled)",
      "BRUSH_TO_PNG(disabled)",
      "ASR_MANIFEST(disabled)",
      "BRUSH_TO_COCO(disabled)",
    ]);
    // The info's keys, then name, then disabled (DataExport.get_export_formats).
    expect(Object.keys(formats.find((f) => f.name === "COCO") as object)).toEqual([
      "title",
      "description",
      "link",
      "tags",
      "name",
      "disabled",
    ]);
    expect(Object.keys(formats[0] as object)).toEqual(["title", "description", "link", "name"]);
  });

  test("an image config with rectangles and polygons enables COCO, VOC and YOLO", async () => {
    const config =
      '<View><Image name="image" value="$image"/><RectangleLabels name="label" toName="image"><Label value="Cat"/></RectangleLabels><PolygonLabels name="poly" toName="image"><Label value="Fish"/></PolygonLabels></View>';
    await call("PATCH", "/api/projects/2/", { label_config: config });
    const formats = json(await call("GET", "/api/projects/2/export/formats")) as unknown as { name: string; disabled?: boolean }[];
    expect(formats.filter((f) => !f.disabled).map((f) => f.name)).toEqual([
      "JSON",
      "JSON_MIN",
      "CSV",
      "TSV",
      "COCO",
      "COCO_WITH_IMAGES",
      "VOC",
      "YOLO",
      "YOLO_WITH_IMAGES",
      "YOLO_OBB",
      "YOLO_OBB_WITH_IMAGES",
    ]);
  });

  test("a project that does not exist: the 404 page (the pattern has no trailing slash)", async () => {
    const got = await call("GET", "/api/projects/99/export/formats");
    expect([got.status, got.headers.get("content-type"), got.text]).toEqual([404, "text/html; charset=utf-8", NOT_FOUND_PAGE]);
  });
});

describe("the one-step export", () => {
  test("JSON: the annotated tasks (skipped counts) by ujson — no spaces, / escaped, drafts expanded, predictions as ids", async () => {
    const got = await call("GET", "/api/projects/1/export");
    expect(got.status).toBe(200);
    const tasks = json(got) as unknown as { id: number; drafts: unknown[]; predictions: unknown[] }[];
    expect(tasks.map((t) => t.id)).toEqual([1, 3, 4]);
    expect(got.text).toContain(String.raw`"text":"Ünïcode \/ slash \"quoted\", comma\nnewline\ttab"`);
    expect(got.text.startsWith('[{"id":1,"annotations":[{"id":1,"completed_by":1,"result":[{"type":"choices",')).toBe(true);
    // Predictions are ids; drafts whole, their lead_time a float (2.0), created_ago with a no-break space.
    expect(tasks[0]?.predictions).toEqual([1]);
    expect(got.text).toContain(
      `"created_ago":"2\u00a0minutes","result":[{"type":"choices","value":{"choices":["neg"]},"to_name":"text","from_name":"sentiment"}],"lead_time":2.0,`,
    );
    // jsonb's key order: shorter keys first (n, text, meta_info), at every level.
    expect(got.text).toContain(String.raw`"data":{"n":2.5,"text":"Ünïcode`);
  });

  test("every field of the export serializer, in its order; file_upload only for an uploaded task", async () => {
    const tasks = json(await call("GET", "/api/projects/1/export?download_all_tasks=true")) as unknown as Record<string, unknown>[];
    const expected = Object.keys(exportTask.fields).filter((f) => f !== "file_upload");
    for (const task of tasks) expect(Object.keys(task)).toEqual(expected);
    const annotation = (tasks[0]?.["annotations"] as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(Object.keys(annotation)).toEqual(Object.keys(exportAnnotation.fields));
    expect(annotation).toMatchObject({
      unique_id: "3e39d2c5-c5aa-4a15-a840-47c2db721ffb",
      prediction: {},
      result_count: 0,
      lead_time: 1.5,
    });
    expect(tasks.map((t) => [t["total_annotations"], t["cancelled_annotations"], t["total_predictions"]])).toEqual([
      [1, 0, 1],
      [0, 0, 0],
      [2, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
  });

  test("headers: application/.<ext> (the extension keeps its dot), the file name in Content-Disposition and in its own header", async () => {
    const got = await call("GET", "/api/projects/1/export?download_all_tasks=true");
    // name = project-<id>-at-<minute>-<md5 of ujson.dumps(text)>[:8]
    const name = `project-1-at-${MINUTE}-${md5(ujsonAscii(got.text)).slice(0, 8)}.json`;
    expect(got.headers.get("content-type")).toBe("application/.json");
    expect(got.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    expect(got.headers.get("filename")).toBe(name);
    expect(got.headers.get("content-length")).toBe(String(got.bytes.length));
  });

  const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
  /** The rows of the project's CSV, field by field. */
  const allRows = () => [
    ["annotation_id", "annotator", "created_at", "id", "lead_time", "meta_info", "n", "note", "sentiment", "text", "updated_at"].map(q),
    // The annotator is str(id); a dict of the data is ujson text; numbers bare, floats as repr.
    [
      "1",
      q("1"),
      q("2026-11-25T22:59:09.137396Z"),
      "1",
      "1.5",
      q('{"k":[1,2]}'),
      "2.5",
      q("a note"),
      q("pos"),
      q(TEXT),
      q("2026-11-25T22:59:09.137405Z"),
    ],
    // A task without annotations: None and missing columns are both an empty quoted field.
    [q(""), q(""), q(""), "2", q(""), q(""), "3", q(""), q(""), q("no annotations"), q("")],
    // Two choices are a list: ujson text of {"choices": [...]}.
    [
      "3",
      q("1"),
      q("2026-11-25T22:59:09.137460Z"),
      "3",
      q(""),
      q(""),
      "-1",
      q(""),
      q('{"choices":["pos","neg"]}'),
      q("two annotations"),
      q("2026-11-25T22:59:09.137462Z"),
    ],
    [
      "2",
      q("1"),
      q("2026-11-25T22:59:09.137440Z"),
      "3",
      q(""),
      q(""),
      "-1",
      q(""),
      q("neg"),
      q("two annotations"),
      q("2026-11-25T22:59:09.137442Z"),
    ],
    [q(""), q(""), q(""), "5", q(""), q(""), "0.001", q(""), q(""), q("predictions only"), q("")],
  ];

  test("CSV: the converter's columns sorted, QUOTE_NONNUMERIC, \\r\\n; one row per annotation, newest first; skipped-only tasks give none", async () => {
    const got = await call("GET", "/api/projects/1/export?exportType=CSV&download_all_tasks=true");
    expect(got.text).toBe(
      allRows()
        .map((r) => `${r.join(",")}\r\n`)
        .join(""),
    );
    expect(got.headers.get("content-type")).toBe("application/.csv");
  });

  test("TSV: the same rows with tabs, in a file named .csv", async () => {
    const tsv = await call("GET", "/api/projects/1/export?exportType=TSV&download_all_tasks=true");
    expect(tsv.text).toBe(
      allRows()
        .map((r) => `${r.join("\t")}\r\n`)
        .join(""),
    );
    expect(tsv.headers.get("content-disposition")).toMatch(/\.csv"$/);
  });

  test("JSON_MIN: ujson with indent 2, one record per annotation: the data, the tag values, the annotation's fields", async () => {
    const got = await call("GET", "/api/projects/1/export?exportType=JSON_MIN&ids[]=3&ids[]=2&download_all_tasks=true");
    const record = (fields: string) => `{\n${fields}\n}`;
    const expected = `[\n${[
      record(
        '  "n": 3,\n  "text": "no annotations",\n  "id": 2,\n  "annotator": null,\n  "annotation_id": null,\n  "created_at": null,\n  "updated_at": null,\n  "lead_time": null',
      ),
      record(
        '  "n": -1,\n  "text": "two annotations",\n  "id": 3,\n  "sentiment": {\n    "choices": [\n      "pos",\n      "neg"\n    ]\n  },\n  "annotator": 1,\n  "annotation_id": 3,\n  "created_at": "2026-11-25T22:59:09.137460Z",\n  "updated_at": "2026-11-25T22:59:09.137462Z",\n  "lead_time": null',
      ),
      record(
        '  "n": -1,\n  "text": "two annotations",\n  "id": 3,\n  "sentiment": "neg",\n  "annotator": 1,\n  "annotation_id": 2,\n  "created_at": "2026-11-25T22:59:09.137440Z",\n  "updated_at": "2026-11-25T22:59:09.137442Z",\n  "lead_time": null',
      ),
    ].join(",\n")}\n]`;
    expect(got.text).toBe(expected);
  });

  test("ids[] narrows (other projects' ids drop out); the SDK's ids= is not read; download_all_tasks takes DRF's booleans", async () => {
    const ids = async (query: string) =>
      (json(await call("GET", `/api/projects/1/export?${query}`)) as unknown as { id: number }[]).map((t) => t.id);
    expect(await ids("ids[]=5&ids[]=2&ids[]=6&download_all_tasks=true")).toEqual([2, 5]);
    expect(await ids("ids[]=2")).toEqual([]);
    expect(await ids("ids=2&download_all_tasks=1")).toEqual([1, 2, 3, 4, 5]);
    expect(await ids("download_all_tasks=no")).toEqual([1, 3, 4]);
  });

  test("exportType wins over export_type; an empty one counts as absent", async () => {
    const type = async (query: string) => (await call("GET", `/api/projects/1/export?${query}`)).headers.get("content-type");
    expect(await type("export_type=CSV")).toBe("application/.csv");
    expect(await type("exportType=JSON_MIN&export_type=CSV")).toBe("application/.json");
    expect(await type("exportType=&export_type=CSV")).toBe("application/.csv");
  });

  test("a format the converter writes nothing for: an empty ZIP archive (its 22-byte end record)", async () => {
    const got = await call("GET", "/api/projects/1/export?exportType=BRUSH_TO_NUMPY");
    expect(got.headers.get("content-type")).toBe("application/zip");
    expect([...got.bytes]).toEqual([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
  });

  test("bad input: an unknown format is a 500 with an empty detail; a bad boolean or id the server's answer; nothing changes", async () => {
    const before = JSON.stringify(mock.data());
    const unknown = await call("GET", "/api/projects/1/export?exportType=csv");
    expect([unknown.status, json(unknown)["detail"]]).toEqual([500, ""]);
    expect(json(unknown)["exc_info"]).toContain("ValueError");
    const bool = await call("GET", "/api/projects/1/export?download_all_tasks=maybe");
    expect([bool.status, json(bool)["validation_errors"]]).toEqual([400, { download_all_tasks: ["Must be a valid boolean."] }]);
    const id = await call("GET", "/api/projects/1/export?ids[]=abc");
    expect([id.status, json(id)["detail"]]).toEqual([500, "Field 'id' expected a number but got 'abc'."]);
    const missing = await call("GET", "/api/projects/99/export");
    expect([missing.status, missing.text]).toEqual([404, NOT_FOUND_PAGE]);
    expect(JSON.stringify(mock.data())).toBe(before);
  });
});

describe("snapshots", () => {
  test("create: written in the request, completed, counters and md5 of the file, the default title; the answer renders the options null", async () => {
    const got = await call("POST", "/api/projects/1/exports/", {});
    expect(got.status).toBe(201);
    const created = json(got);
    expect(Object.keys(created)).toEqual([
      "title",
      "id",
      "created_by",
      "created_at",
      "finished_at",
      "status",
      "md5",
      "counters",
      "converted_formats",
      "task_filter_options",
      "annotation_filter_options",
      "serialization_options",
    ]);
    expect(created).toMatchObject({
      title: `exports-probe-text-at-${MINUTE}`,
      status: "completed",
      counters: { task_number: 5 },
      converted_formats: [],
      created_by: { id: 1, first_name: "", last_name: "", email: "admin@example.com", avatar: null },
      task_filter_options: null,
    });
    const file = await call("GET", `/api/projects/1/exports/${created["id"] as number}/download`);
    expect(created["md5"]).toBe(md5(file.text));
  });

  test("the snapshot's file: the standard library's JSON (', ' and ': ', / as it is), drafts and predictions as ids", async () => {
    const { id } = json(await call("POST", "/api/projects/1/exports/", {})) as { id: number };
    const got = await call("GET", `/api/projects/1/exports/${id}/download`);
    expect(got.text.startsWith('[{"id": 1, "annotations": [{"id": 1, "completed_by": 1, "result": [{"type": "choices", ')).toBe(true);
    expect(got.text).toContain(
      '"drafts": [1], "predictions": [1], "data": {"n": 2.5, "text": "Ünïcode / slash \\"quoted\\", comma\\nnewline\\ttab"',
    );
    // Its own file: the storage name with its folder, in Content-Disposition and in `filename`, application/json.
    const name = `export/1/project-1-at-${MINUTE}-${md5(got.text).slice(0, 8)}.json`;
    expect([got.headers.get("content-type"), got.headers.get("content-disposition"), got.headers.get("filename")]).toEqual([
      "application/json",
      `attachment; filename="${name}"`,
      name,
    ]);
  });

  test("serialization options expand drafts, predictions and authors; annotation options keep any of the chosen kinds", async () => {
    const { id } = json(
      await call("POST", "/api/projects/1/exports/", {
        task_filter_options: { annotated: "only" },
        annotation_filter_options: { usual: true, skipped: true },
        serialization_options: {
          drafts: { only_id: true },
          predictions: { only_id: false },
          annotations__completed_by: { only_id: false },
        },
      }),
    ) as { id: number };
    const tasks = json(await call("GET", `/api/projects/1/exports/${id}/download`)) as unknown as Record<string, unknown>[];
    expect(tasks.map((t) => t["id"])).toEqual([1, 3]);
    // Every annotation here is ground truth: "usual" (neither skipped nor ground truth) keeps none of them.
    expect(tasks.map((t) => t["annotations"])).toEqual([[], []]);
    expect(tasks[0]?.["drafts"]).toEqual([1]);
    expect(tasks[0]?.["predictions"]).toMatchObject([{ id: 1, created_ago: "2\u00a0minutes", score: 0.25, mislabeling: 0 }]);
    const text = (await call("GET", `/api/projects/1/exports/${id}/download`)).text;
    expect(text).toContain('"mislabeling": 0.0');
    const expanded = json(
      await call("POST", "/api/projects/1/exports/", {
        annotation_filter_options: { ground_truth: true },
        serialization_options: { annotations__completed_by: { only_id: false } },
      }),
    ) as { id: number };
    const withAuthors = json(await call("GET", `/api/projects/1/exports/${expanded.id}/download`)) as unknown as {
      annotations: unknown[];
    }[];
    expect(withAuthors[0]?.annotations[0]).toMatchObject({
      completed_by: { id: 1, email: "admin@example.com", first_name: "", last_name: "" },
    });
  });

  test("task filters: skipped, finished, annotated (only/exclude), a view's filters and ids, only_with_annotations", async () => {
    const ids = async (task_filter_options: unknown, annotation_filter_options?: unknown) => {
      const body = { task_filter_options, ...(annotation_filter_options ? { annotation_filter_options } : {}) };
      const { id, counters } = json(await call("POST", "/api/projects/1/exports/", body)) as {
        id: number;
        counters: { task_number: number };
      };
      const tasks = (json(await call("GET", `/api/projects/1/exports/${id}/download`)) as unknown as { id: number }[]).map((t) => t.id);
      expect(counters.task_number).toBe(tasks.length);
      return tasks;
    };
    expect(await ids({ skipped: "only" })).toEqual([4]);
    expect(await ids({ skipped: "exclude", annotated: "exclude" })).toEqual([2, 5]);
    expect(await ids({ finished: "only" })).toEqual([1, 3]);
    expect(await ids({ annotated: "only", skipped: "None" })).toEqual([1, 3]);
    const view = json(
      await call("POST", "/api/dm/views/", {
        project: 1,
        data: { filters: { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "greater", type: "Number", value: 1 }] } },
        selected_items: { all: true, excluded: [3] },
      }),
    ) as { id: number };
    expect(await ids({ view: view.id })).toEqual([2, 4, 5]);
    // A view that is not the project's (or none) does not filter.
    expect(await ids({ view: 9999 })).toEqual([1, 2, 3, 4, 5]);
    expect(await ids({ only_with_annotations: true }, { ground_truth: true })).toEqual([1, 3, 4]);
    expect(await ids({ only_with_annotations: true }, {})).toEqual([]);
  });

  test("list (newest first), get, delete; another project's snapshot is the 404 page", async () => {
    const first = json(await call("POST", "/api/projects/1/exports/", { title: "  first  " })) as { id: number; title: string };
    clock.advance(60_000);
    const second = json(await call("POST", "/api/projects/1/exports/", {})) as { id: number };
    expect(first.title).toBe("first");
    const list = json(await call("GET", "/api/projects/1/exports/")) as unknown as { id: number }[];
    expect(list.map((e) => e.id)).toEqual([second.id, first.id]);
    expect(json(await call("GET", "/api/projects/2/exports")) as unknown).toEqual([]);
    expect(json(await call("GET", `/api/projects/1/exports/${first.id}`))).toMatchObject({ id: first.id, title: "first" });
    const elsewhere = await call("GET", `/api/projects/2/exports/${first.id}`);
    expect([elsewhere.status, elsewhere.text]).toEqual([404, NOT_FOUND_PAGE]);
    expect((await call("DELETE", `/api/projects/2/exports/${first.id}`)).status).toBe(404);
    expect((await call("DELETE", `/api/projects/1/exports/${first.id}`)).status).toBe(204);
    expect((await call("GET", `/api/projects/1/exports/${first.id}`)).status).toBe(404);
    // The trailing slash is not routed for a pattern without one.
    expect((await call("GET", `/api/projects/1/exports/${second.id}/`)).text).toBe(NOT_FOUND_PAGE);
  });

  test("bad bodies: DRF's answers, nested by option set; writable nested fields are a 500; nothing is stored", async () => {
    const before = JSON.stringify(mock.data());
    const refused = async (body: unknown) => {
      const got = await call("POST", "/api/projects/1/exports/", body);
      return [got.status, json(got)["validation_errors"] ?? json(got)["detail"]];
    };
    expect(await refused({ task_filter_options: { skipped: "bad" } })).toEqual([
      400,
      { task_filter_options: { skipped: ['"bad" is not a valid choice.'] } },
    ]);
    expect(await refused({ task_filter_options: { view: "abc" } })).toEqual([
      400,
      { task_filter_options: { view: ["A valid integer is required."] } },
    ]);
    expect(await refused({ task_filter_options: null })).toEqual([400, { task_filter_options: ["This field may not be null."] }]);
    expect(await refused({ task_filter_options: "x" })).toEqual([
      400,
      { task_filter_options: { non_field_errors: ["Invalid data. Expected a dictionary, but got str."] } },
    ]);
    expect(await refused({ serialization_options: { drafts: { only_id: "x" } } })).toEqual([
      400,
      { serialization_options: { drafts: { only_id: ["Must be a valid boolean."] } } },
    ]);
    expect(await refused({ title: "x".repeat(2049) })).toEqual([400, { title: ["Ensure this field has no more than 2048 characters."] }]);
    expect(await refused({ status: "bogus" })).toEqual([400, { status: ['"bogus" is not a valid choice.'] }]);
    expect(await refused([])).toEqual([400, { non_field_errors: ["Invalid data. Expected a dictionary, but got list."] }]);
    const nested = await refused({ created_by: { id: 5 } });
    expect(nested[0]).toBe(500);
    expect(nested[1]).toMatch(/^The `\.create\(\)` method does not support writable nested fields by default\./);
    // The body is checked before the project.
    expect(await refused({ task_filter_options: "x" })).toEqual(await refusedFor(99, { task_filter_options: "x" }));
    const missing = await call("POST", "/api/projects/99/exports/", {});
    expect([missing.status, json(missing)["detail"]]).toEqual([404, "No Project matches the given query."]);
    expect(JSON.stringify(mock.data())).toBe(before);
  });
});

async function refusedFor(project: number, body: unknown) {
  const got = await call("POST", `/api/projects/${project}/exports/`, body);
  return [got.status, json(got)["validation_errors"]];
}

describe("conversion and download", () => {
  const snapshot = async (project = 1) => (json(await call("POST", `/api/projects/${project}/exports/`, {})) as { id: number }).id;

  test("download converts on the way: the file named after the snapshot's, application/<ext>", async () => {
    const id = await snapshot();
    const own = await call("GET", `/api/projects/1/exports/${id}/download`);
    const stem = (own.headers.get("filename") as string).replace(/^export\/1\//, "").replace(/\.json$/, "");
    const csv = await call("GET", `/api/projects/1/exports/${id}/download?exportType=CSV`);
    expect([csv.headers.get("content-type"), csv.headers.get("filename")]).toEqual(["application/csv", `${stem}.csv`]);
    // The same rows as the one-step export (the converter reads the same tasks).
    expect(csv.text).toBe((await call("GET", "/api/projects/1/export?exportType=CSV&download_all_tasks=true")).text);
    const copy = await call("GET", `/api/projects/1/exports/${id}/download?exportType=JSON`);
    expect([copy.text, copy.headers.get("filename")]).toEqual([own.text, `${stem}.json`]);
  });

  test("convert: once per format (a second is refused), a listed format only, any project's snapshot by its id", async () => {
    const id = await snapshot(2);
    const first = await call("POST", `/api/projects/1/exports/${id}/convert`, { export_type: "CSV" });
    expect([first.status, json(first)]).toEqual([200, { export_type: "CSV", converted_format: 1 }]);
    const again = await call("POST", `/api/projects/2/exports/${id}/convert`, { export_type: "CSV" });
    expect([again.status, json(again)["validation_errors"]]).toEqual([400, { non_field_errors: ["Conversion to CSV already started"] }]);
    const unknown = await call("POST", `/api/projects/2/exports/${id}/convert`, { export_type: "CSV_OLD" });
    expect(json(unknown)["validation_errors"]).toEqual({ export_type: ["CSV_OLD is not supported export format"] });
    const none = await call("POST", `/api/projects/2/exports/${id}/convert`, {});
    expect(json(none)["validation_errors"]).toEqual({ export_type: ["This field is required."] });
    expect(json(await call("GET", `/api/projects/2/exports/${id}`))["converted_formats"]).toEqual([
      { id: 1, status: "completed", export_type: "CSV", traceback: null },
    ]);
  });

  test("a format the config cannot produce (COCO, YOLO of a text project) is not refused: converted as the server converts it; only the conversion is recorded", async () => {
    // Measured on a real server with this config: the categories are the choices (sorted, from 0), one image entry
    // named after a task's text, no annotations; YOLO: a label file per task, all empty.
    const id = await snapshot();
    const { converted_formats: before, ...rest } = mock.data();
    const others = JSON.stringify(rest);
    for (const [n, type] of [
      [1, "COCO"],
      [2, "YOLO"],
    ] as const) {
      const got = await call("POST", `/api/projects/1/exports/${id}/convert`, { export_type: type });
      expect([got.status, json(got)]).toEqual([200, { export_type: type, converted_format: n }]);
    }
    const coco = await call("GET", `/api/projects/1/exports/${id}/download?exportType=COCO`);
    const members = new Map(unzip(coco.bytes).map((e) => [e.name, e.bytes && new TextDecoder().decode(e.bytes)]));
    expect([...members.keys()].sort()).toEqual(["images/", "result.json"]);
    const result = JSON.parse(members.get("result.json") as string) as Record<string, unknown[]>;
    expect([result["categories"], result["annotations"]]).toEqual([
      [
        { id: 0, name: "neg" },
        { id: 1, name: "pos" },
      ],
      [],
    ]);
    const yolo = unzip((await call("GET", `/api/projects/1/exports/${id}/download?exportType=YOLO`)).bytes);
    const labels = yolo.filter((e) => e.name.startsWith("labels/") && e.name !== "labels/");
    expect([labels.length > 0, labels.every((e) => e.bytes?.length === 0)]).toEqual([true, true]);
    expect(new TextDecoder().decode(yolo.find((e) => e.name === "classes.txt")?.bytes)).toBe("neg\npos\n");
    // The one-step export converts too.
    const oneStep = await call("GET", "/api/projects/1/export?exportType=COCO");
    expect([oneStep.status, oneStep.headers.get("content-type")]).toEqual([200, "application/zip"]);
    const { converted_formats: after, ...restAfter } = mock.data();
    expect(JSON.stringify(restAfter)).toBe(others);
    expect(after.slice(before.length).map((c) => [c.export_type, c.status])).toEqual([
      ["COCO", "completed"],
      ["YOLO", "completed"],
    ]);
  });

  test("a conversion that writes nothing: the failure handler's TypeError (a 500) and the entry left in_progress", async () => {
    const id = await snapshot();
    const got = await call("POST", `/api/projects/1/exports/${id}/convert`, { export_type: "BRUSH_TO_PNG" });
    expect([got.status, json(got)["detail"]]).toEqual([
      500,
      "set_convert_background_failure() missing 1 required positional argument: 'traceback_obj'",
    ]);
    expect(json(await call("GET", `/api/projects/1/exports/${id}`))["converted_formats"]).toEqual([
      { id: 1, status: "in_progress", export_type: "BRUSH_TO_PNG", traceback: null },
    ]);
    // Its download: "Can't get file" (404), which reaches the client as the 404 page.
    const download = await call("GET", `/api/projects/1/exports/${id}/download?exportType=BRUSH_TO_PNG`);
    expect([download.status, download.text]).toEqual([404, NOT_FOUND_PAGE]);
  });

  test("a Range is served as RangedFileResponse serves it", async () => {
    const id = await snapshot();
    const whole = await call("GET", `/api/projects/1/exports/${id}/download`);
    const part = await call("GET", `/api/projects/1/exports/${id}/download`, undefined, { Range: "bytes=0-9" });
    expect([part.status, part.text, part.headers.get("content-range"), part.headers.get("accept-ranges")]).toEqual([
      206,
      whole.text.slice(0, 10),
      `bytes 0-9/${whole.bytes.length}`,
      "bytes",
    ]);
    const tail = await call("GET", `/api/projects/1/exports/${id}/download`, undefined, { Range: "bytes=-5" });
    expect(tail.text).toBe(whole.text.slice(-5));
    const beyond = await call("GET", `/api/projects/1/exports/${id}/download`, undefined, { Range: `bytes=${whole.bytes.length}-` });
    expect(beyond.status).toBe(200);
    const unsatisfiable = await call("GET", `/api/projects/1/exports/${id}/download`, undefined, {
      Range: `bytes=${whole.bytes.length + 5}-${whole.bytes.length + 9}`,
    });
    expect([unsatisfiable.status, unsatisfiable.bytes.length]).toEqual([416, whole.bytes.length]);
  });

  test("an unknown format on download is the converter's 500; GET on the conversion route the view's assertion; nothing changes", async () => {
    const id = await snapshot();
    const before = JSON.stringify(mock.data());
    expect((await call("GET", `/api/projects/1/exports/${id}/download?exportType=FOO`)).status).toBe(500);
    expect((await call("POST", `/api/projects/1/exports/${id}/convert`, { export_type: "FOO" })).status).toBe(400);
    // The snapshot under a project it does not belong to (the download, unlike convert, looks it up in the project).
    const elsewhere = await call("GET", `/api/projects/2/exports/${id}/download`);
    expect([elsewhere.status, elsewhere.text]).toEqual([404, NOT_FOUND_PAGE]);
    expect((await call("DELETE", `/api/projects/2/exports/${id}`)).status).toBe(404);
    expect(JSON.stringify(mock.data())).toBe(before);
    const get = await call("GET", `/api/projects/1/exports/${id}/convert`);
    expect([get.status, json(get)["detail"]]).toEqual([
      500,
      "'ExportConvertAPI' should either include a `serializer_class` attribute, or override the `get_serializer_class()` method.",
    ]);
  });
});
