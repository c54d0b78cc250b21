import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../../mock-server/index.js";
import { ApiError, ClientConfigError, createClient, QueryBuildError, selection, type Client } from "../../../src/index.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";
import { KEY, NOW, seed } from "./fixture.js";

/**
 * `client.projects.exports` and `selection(…).export()` against the mock: what each call sends (the
 * mock's journal), what it returns, and that the builder's export leaves nothing behind.
 */
let mock: MockServer;
let client: Client;
beforeAll(async () => {
  mock = await startMockServer({ data: seed, clock: new VirtualClock(NOW) });
  client = createClient({ baseUrl: mock.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const last = () => mock.requests.at(-1);

describe("client.projects.exports", () => {
  test("downloadSync sends exportType, the booleans and ids[] (the key the server reads), and streams the file", async () => {
    const file = await client.projects.exports.downloadSync(1, { export_type: "CSV", download_all_tasks: true, ids: [2, 5] });
    expect(last()).toMatchObject({
      method: "GET",
      path: "/api/projects/1/export",
      query: { exportType: "CSV", download_all_tasks: "true", "ids[]": ["2", "5"] },
    });
    expect(file.contentType).toBe("application/.csv");
    expect(file.filename).toMatch(/^project-1-at-2026-11-25-23-01-[0-9a-f]{8}\.csv$/);
    const chunks: Uint8Array[] = [];
    for await (const chunk of file) chunks.push(chunk);
    const text = new TextDecoder().decode(Buffer.concat(chunks));
    expect(
      text
        .split("\r\n")
        .slice(1, -1)
        .map((row) => row.split(",")[3]),
    ).toEqual(["2", "5"]);
    expect(file.size).toBe(Buffer.concat(chunks).length);
    await expect(file.text()).rejects.toThrow("already read");
  });

  test("create, list, get, convert, download, delete", async () => {
    const created = await client.projects.exports.create(1, { title: "mine", task_filter_options: { annotated: "only" } });
    expect(created).toMatchObject({ title: "mine", status: "completed", counters: { task_number: 2 }, task_filter_options: null });
    expect((await client.projects.exports.list(1)).map((s) => s.id)).toEqual([created.id]);
    expect(await client.projects.exports.get(1, created.id)).toMatchObject({ id: created.id, converted_formats: [] });
    expect(await client.projects.exports.convert(1, created.id, { export_type: "JSON_MIN" })).toEqual({
      export_type: "JSON_MIN",
      converted_format: 1,
    });
    const json = await client.projects.exports.download(1, created.id);
    expect(json.filename).toMatch(/^export\/1\/project-1-at-2026-11-25-23-01-[0-9a-f]{8}\.json$/);
    expect(((await json.json()) as { id: number }[]).map((t) => t.id)).toEqual([1, 3]);
    const min = await client.projects.exports.download(1, created.id, { export_type: "JSON_MIN" });
    expect(last()?.query).toEqual({ exportType: "JSON_MIN" });
    expect(((await min.json()) as { annotation_id: number }[]).map((r) => r.annotation_id)).toEqual([1, 3, 2]);
    await client.projects.exports.delete(1, created.id);
    expect(await client.projects.exports.list(1)).toEqual([]);
  });

  test("a format the converter does not know is refused before any request; a 404 page reads as its title", async () => {
    const before = mock.requests.length;
    // @ts-expect-error "csv" is not an export format (names are upper case)
    await expect(client.projects.exports.downloadSync(1, { export_type: "csv" })).rejects.toThrow(ClientConfigError);
    await expect(client.projects.exports.convert(1, 1, { export_type: "FOO" as "CSV" })).rejects.toThrow(/body\.export_type/);
    expect(mock.requests.length).toBe(before);
    const missing = client.projects.exports.download(1, 99);
    await expect(missing).rejects.toThrow(ApiError);
    await expect(missing).rejects.toThrow('GET /api/projects/1/exports/99/download → 404: an HTML page titled "404 | Label Studio"');
  });

  test("listFormats", async () => {
    const formats = await client.projects.exports.listFormats(1);
    expect(formats.filter((f) => !f.disabled).map((f) => f.name)).toEqual([
      "JSON",
      "JSON_MIN",
      "CSV",
      "TSV",
      "YOLO_OBB",
      "YOLO_OBB_WITH_IMAGES",
    ]);
  });
});

describe("selection(…).export()", () => {
  test("a filtered selection: a view made for it, a snapshot of that view, the file; both removed afterwards", async () => {
    const views = mock.data().views.length;
    const file = await selection(client.project(1)).where("tasks:total_annotations").greater(0).excluding([3]).export("CSV");
    const text = await file.text();
    expect(file.filename).toMatch(/\.csv$/);
    expect(
      text
        .split("\r\n")
        .slice(1, -1)
        .map((row) => row.split(",")[3]),
    ).toEqual(["1"]);
    const calls = mock.requests.map((r) => `${r.method} ${r.path}`);
    expect(calls.slice(-5)).toEqual([
      "POST /api/dm/views/",
      "POST /api/projects/1/exports/",
      "GET /api/projects/1/exports/1/download",
      "DELETE /api/projects/1/exports/1",
      `DELETE /api/dm/views/${views + 1}/`,
    ]);
    const created = mock.requests.find((r) => r.path === "/api/projects/1/exports/")?.body as Record<string, unknown>;
    expect(created).toEqual({
      task_filter_options: { view: views + 1 },
      serialization_options: { drafts: { only_id: false }, predictions: { only_id: false }, annotations__completed_by: { only_id: true } },
    });
    expect(mock.data().views.length).toBe(views);
    expect(mock.data().exports).toEqual([]);
  });

  test("a selection of every task needs no view; a saved view is used as it is; keep leaves the snapshot", async () => {
    const all = await selection(client.project(1)).export("JSON", { keep: true });
    expect(((await all.json()) as { id: number }[]).map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
    expect(mock.requests.some((r) => r.path === "/api/dm/views/")).toBe(false);
    expect(mock.data().exports.length).toBe(1);
    const view = await client.views.create({ project: 1, data: { title: "some" }, query: selection(1).including([2, 4]) });
    const viewed = await selection(client.project(1)).fromView(view.id).export();
    expect(((await viewed.json()) as { id: number }[]).map((t) => t.id)).toEqual([2, 4]);
    expect(mock.data().views.map((v) => v.id)).toContain(view.id);
  });

  test("a failing step still removes what was made; an unbound selection and an unknown format are refused without a request", async () => {
    const before = mock.data().views.length;
    const failing = selection(client.project(1)).where("tasks:id").greater(0).export("CONLL2003");
    await expect(failing).rejects.toThrow(ApiError);
    expect(mock.data().views.length).toBe(before);
    expect(mock.data().exports).toEqual([]);
    const requests = mock.requests.length;
    // @ts-expect-error export() needs a client-bound project
    await expect(selection(1).export("JSON")).rejects.toThrow(QueryBuildError);
    // @ts-expect-error not an export format
    await expect(selection(client.project(1)).export("XML")).rejects.toThrow(/format: expected an export format/);
    expect(mock.requests.length).toBe(requests);
  });
});
