import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { dmq, dmqIn, json, mockWithEnv } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// The built CLI runs as a process here: wait for dist/ before the first test, not inside one.
needsDist();

/*
 * `dmq projects export` and `dmq exports …` against the mock (demo data: project 1, 200 tasks):
 * the file on stdout or in --output, the query flags choosing tasks, the snapshot commands, and the
 * progress bar only on a terminal.
 */
let mock: MockServer;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), "dmq-exports-"));

beforeAll(async () => {
  ({ mock, env } = await mockWithEnv());
});
afterAll(() => mock.close());

const csvIds = (text: string) =>
  text
    .split("\r\n")
    .slice(1, -1)
    .map((row) => Number(row.split(",").at(-7)));

describe("dmq projects export", () => {
  test("the one-step export to stdout; --include goes as ids[], --all-tasks as download_all_tasks", async () => {
    const run = await dmqIn(["projects", "export", "1", "-t", "CSV", "--include", "3,1", "--all-tasks"], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('"annotation_id","annotator","created_at","id",')).toBe(true);
    const request = mock.requests.findLast((r) => r.path === "/api/projects/1/export");
    expect(request?.query).toEqual({ exportType: "CSV", download_all_tasks: "true", "ids[]": ["3", "1"] });
    expect(run.stderr).toBe("");
  });

  test("filters go through a snapshot of a view made for them; -o DIR writes under the server's file name and says what it wrote", async () => {
    const run = await dmqIn(["projects", "export", "1", "-t", "JSON", "-w", "id <= 3", "-o", dir], { env });
    expect(run.code).toBe(0);
    const summary = json<{ output: string; filename: string; bytes: number; content_type: string }>(run);
    expect(summary.output).toBe(join(dir, summary.filename));
    const tasks = JSON.parse(readFileSync(summary.output, "utf8")) as { id: number }[];
    expect(tasks.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(summary.bytes).toBe(readFileSync(summary.output).length);
    expect(mock.data().exports).toEqual([]);
  });

  test("a progress bar on a terminal (stderr), none when piped", async () => {
    const tty = await dmqIn(["projects", "export", "1", "--all-tasks", "-o", join(dir, "all.json")], { env, stderrIsTTY: true });
    // Redrawn as the bytes arrive; the last drawing is the whole file.
    expect(tty.stderr).toMatch(/^\rdownload \[[#.]{24}\] .*\rdownload \[#{24}\] (\d+)\/\1\n$|^\rdownload \[#{24}\] (\d+)\/\2\n$/s);
    const piped = await dmqIn(["projects", "export", "1", "--all-tasks", "-o", join(dir, "all.json")], { env });
    expect(piped.stderr).toBe("");
  });

  // The server's export types are case-sensitive (1.22: exportType=csv is a 500, the converter's `Format[s]` KeyError).
  test("a format the converter does not know is a usage error naming the choices and the nearest", async () => {
    const before = mock.requests.length;
    const run = await dmqIn(["projects", "export", "1", "-t", "csv"], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/option '-t, --export-type <type>' argument 'csv' is invalid\. Allowed choices are JSON, JSON_MIN, CSV/);
    expect(run.stderr).toMatch(/, CSV_OLD \(did you mean CSV\?\)\.\n/);
    const far = await dmqIn(["projects", "export", "1", "-t", "parquet"], { env });
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/, CSV_OLD\.\n/);
    expect(mock.requests.length).toBe(before);
  });
});

describe("dmq exports", () => {
  test("create with the query flags (ids through a view, then removed), list, get, convert, download, delete", async () => {
    const views = mock.data().views.length;
    const created = json<{ id: number; status: string; counters: { task_number: number } }>(
      await dmqIn(["exports", "create", "--project", "1", "--include", "5,6,7", "--expand", "predictions"], { env }),
    );
    expect(created).toMatchObject({ status: "completed", counters: { task_number: 3 } });
    expect(mock.data().views.length).toBe(views);
    const body = mock.requests.findLast((r) => r.path === "/api/projects/1/exports/")?.body;
    const view = (body as { task_filter_options: { view: number } }).task_filter_options.view;
    expect(mock.data().views.some((v) => v.id === view)).toBe(false);
    expect(body).toMatchObject({
      serialization_options: { drafts: { only_id: true }, predictions: { only_id: false }, annotations__completed_by: { only_id: true } },
    });
    const listed = json<{ id: number }[]>(await dmqIn(["exports", "list", "--project", "1"], { env }));
    expect(listed.map((s) => s.id)).toContain(created.id);
    expect(json<{ id: number }>(await dmqIn(["exports", "get", String(created.id), "--project", "1"], { env })).id).toBe(created.id);
    expect(json(await dmqIn(["exports", "convert", String(created.id), "--project", "1", "-t", "CSV"], { env }))).toMatchObject({
      export_type: "CSV",
    });
    const csv = await dmqIn(["exports", "download", String(created.id), "--project", "1", "-t", "CSV"], { env });
    expect(csvIds(csv.stdout).sort((a, b) => a - b)[0]).toBe(5);
    expect(new Set(csvIds(csv.stdout))).toEqual(new Set([5, 6, 7]));
    const removed = await dmqIn(["exports", "delete", String(created.id), "--project", "1", "--yes"], { env });
    expect(removed.code).toBe(0);
    const gone = await dmqIn(["exports", "get", String(created.id), "--project", "1"], { env });
    expect([gone.code, gone.stderr]).toEqual([
      1,
      `dmq exports get: GET /api/projects/1/exports/${created.id} → 404: an HTML page titled "404 | Label Studio"\n`,
    ]);
  });

  test("--view, the task filters and --annotations go to the snapshot's options; --dry-run sends nothing", async () => {
    const run = await dmqIn(
      ["exports", "create", "--project", "1", "--view", "1", "--annotated", "only", "--annotations", "usual,skipped", "--dry-run"],
      { env },
    );
    expect(run.code).toBe(0);
    const [request] = JSON.parse(run.stdout) as { method: string; url: string; body: unknown }[];
    expect(request).toMatchObject({
      method: "POST",
      url: `${mock.url}/api/projects/1/exports/`,
      body: {
        task_filter_options: { annotated: "only", view: 1 },
        annotation_filter_options: { usual: true, ground_truth: false, skipped: true },
      },
    });
    const bad = await dmqIn(["exports", "create", "--project", "1", "--annotations", "usual,maybe"], { env });
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'dmq exports create: --annotations: expected some of usual, ground_truth, skipped, found "maybe"\n',
    ]);
  });

  test("a ZIP archive to a file byte for byte, through the process's stdout too", async () => {
    const created = json<{ id: number }>(await dmqIn(["exports", "create", "--project", "1"], { env }));
    const path = join(dir, "yolo.zip");
    const saved = await dmqIn(["exports", "download", String(created.id), "--project", "1", "-t", "YOLO_OBB", "-o", path], { env });
    expect(saved.code).toBe(0);
    const zip = readFileSync(path);
    expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const piped = await dmq(["exports", "download", String(created.id), "--project", "1", "-t", "JSON"], { env });
    expect(piped.code).toBe(0);
    expect((JSON.parse(piped.stdout) as unknown[]).length).toBe(200);
  });
});
