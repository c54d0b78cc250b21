import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";

/*
 * dmq/testing/vitest in a real vitest run: a child vitest runs test/testing/fixtures/lifecycle.fixture.ts
 * against a mock started here (as a "server" target), so what the kit left behind is read from this
 * side, after the child ended. One of its tests fails on purpose.
 */
const root = join(import.meta.dirname, "..", "..");
let mock: MockServer;
let run: { code: number; out: string };

beforeAll(async () => {
  mock = await startMockServer({ data: { users: [{ id: 1, username: "admin", email: "admin@example.com" }] } });
  const env = { ...process.env, DMQ_TARGET: "server", LABEL_STUDIO_URL: mock.url, LABEL_STUDIO_API_KEY: mock.legacyToken, NO_COLOR: "1" };
  const args = [
    join(root, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--config",
    join(import.meta.dirname, "fixtures", "vitest.config.ts"),
  ];
  run = await promisify(execFile)(process.execPath, args, { cwd: root, env }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}, 120_000);
afterAll(() => mock?.close());

test("each test's projects are deleted when it ends, a failing one's too; the file's when the file ends", () => {
  expect(run.out).toContain("✓ a test's project lives during the test");
  expect(run.out).toContain("✓ and is gone once the test ended; the file's project stays");
  expect(run.out).toMatch(/× a failing test's project is deleted too/);
  expect(run.code).toBe(1);
  const created = mock.requests.filter((r) => r.method === "POST" && r.path === "/api/projects/").length;
  expect(created).toBe(3);
  expect(mock.data().projects).toEqual([]);
});

test("the run says which target it used", () => {
  expect(run.out).toContain(`dmq/testing: server ${mock.url} (dmq mock of Label Studio`);
});
