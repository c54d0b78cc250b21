import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import type { MLBackend } from "../helpers/ml-backend.js";
import { dmqIn, json, mockAndModelWithEnv } from "./dmq.js";

/*
 * The CLI's users, drafts, ml and projects validate commands against the mock (demo data: project 1,
 * users 1–3), run in this process.
 */
let mock: MockServer;
let env: Record<string, string>;
let model: MLBackend;
const dir = mkdtempSync(join(tmpdir(), "dmq-routes-"));

beforeAll(async () => {
  ({ mock, env, model } = await mockAndModelWithEnv());
});
afterAll(async () => {
  await mock.close();
  await model.close();
});

describe("dmq users", () => {
  test("list, create, update, delete", async () => {
    const list = await dmqIn(["users", "list"], { env });
    expect(json<{ username: string }[]>(list).map((u) => u.username)).toEqual(["admin", "bea", "carl"]);
    const created = json<{ id: number }>(await dmqIn(["users", "create", "-p", "username=dee", "-p", "email=dee@example.com"], { env }));
    const updated = json<{ first_name: string }>(await dmqIn(["users", "update", String(created.id), "-p", "first_name=Dee"], { env }));
    expect(updated.first_name).toBe("Dee");
    expect((await dmqIn(["users", "delete", String(created.id)], { env })).code).toBe(0);
    const refused = await dmqIn(["users", "create", "-p", "email=x@example.com"], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("username");
  });
});

describe("dmq projects validate", () => {
  test("a config on its own, and against a project", async () => {
    const good = join(dir, "good.xml");
    writeFileSync(good, '<View><Text name="text" value="$text"/></View>');
    expect(json(await dmqIn(["projects", "validate", "--label-config", `@${good}`], { env }))).toEqual({ valid: true });
    const bad = await dmqIn(["projects", "validate", "--label-config", "<View>"], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("no element found: line 1, column 6");
    const config = (await mock.data()).projects[0]!.label_config;
    expect(json(await dmqIn(["projects", "validate", "1", "--label-config", config], { env }))).toEqual({
      config_essential_data_has_changed: null,
    });
  });
});

describe("dmq drafts and dmq ml", () => {
  test("drafts create, list, from-annotation", async () => {
    const created = json<{ id: number; task: number }>(await dmqIn(["drafts", "create", "2", "-p", "result=[]"], { env }));
    expect(created.task).toBe(2);
    expect(json<{ id: number }[]>(await dmqIn(["drafts", "list", "2"], { env })).map((d) => d.id)).toContain(created.id);
  });

  test("ml create, list, versions, delete", async () => {
    const created = json<{ id: number; state: string }>(
      await dmqIn(["ml", "create", "-p", `url=${model.url}`, "-p", "project=1"], { env }),
    );
    expect(created.state).toBe("CO");
    expect(json<{ id: number }[]>(await dmqIn(["ml", "list", "1"], { env })).map((b) => b.id)).toEqual([created.id]);
    expect(json(await dmqIn(["ml", "versions", String(created.id)], { env }))).toEqual({ versions: ["tiny-v1"] });
    expect((await dmqIn(["ml", "delete", String(created.id)], { env })).code).toBe(0);
  });
});

describe("dmq projects import --upload, dmq files", () => {
  test("uploads a file as it is, then lists, reads, reimports and deletes the upload", async () => {
    const csv = join(dir, "reviews upload.csv");
    writeFileSync(csv, "text\nfrom an upload\nand another\n");
    const imported = json<{ task_count: number; file_upload_ids: number[]; found_formats: unknown }>(
      await dmqIn(["projects", "import", "1", csv, "--upload"], { env }),
    );
    expect(imported).toMatchObject({ task_count: 2, found_formats: { ".csv": 1 } });
    const [id] = imported.file_upload_ids;
    const listed = json<{ id: number; file: string }[]>(await dmqIn(["files", "list", "1"], { env }));
    expect(listed.map((f) => f.id)).toContain(id);
    // Django's storage name: spaces become underscores.
    expect(json<{ file: string }>(await dmqIn(["files", "get", String(id)], { env })).file).toMatch(
      /^upload\/1\/[0-9a-f]{8}-reviews_upload\.csv$/,
    );
    expect(json<{ id: number }[]>(await dmqIn(["files", "list", "1", "--ids", String(id)], { env })).map((f) => f.id)).toEqual([id]);
    const again = json<{ task_count: number }>(await dmqIn(["files", "reimport", "1", String(id)], { env }));
    expect(again.task_count).toBe(2);
    expect((await dmqIn(["files", "delete", String(id)], { env })).code).toBe(0);
    const gone = await dmqIn(["files", "get", String(id)], { env });
    expect(gone.code).toBe(1);
    const piped = await dmqIn(["projects", "import", "1", "-", "--upload"], { env, input: "x" });
    expect(piped).toMatchObject({ code: 2, stderr: expect.stringMatching(/--upload sends a named file/) });
  });
});
