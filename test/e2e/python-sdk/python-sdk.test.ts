import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../../mock-server/index.js";

/**
 * The official Python SDK against the mock, unchanged (check.py: its resources, its pager, and
 * `projects.exports` with the ext helpers). It needs a Python with the SDK and its dependencies:
 * a realls root (/work/shared/realls/setup.sh builds one, with Python 3.13, the SDK and pandas),
 * entered with chroot, which shares this machine's loopback. `DMQ_REALLS_ROOT` names the root;
 * without one the suite does not run (CI: see docs/reference/python-sdk.md#running-the-check).
 */
const ROOT = process.env["DMQ_REALLS_ROOT"] ?? "/var/cache/realls-shared/root";
const SDK = "/opt/ls/site";
const usable =
  process.getuid?.() === 0 && existsSync(join(ROOT, "usr/bin/python3")) && existsSync(join(ROOT, SDK.slice(1), "label_studio_sdk"));

describe.runIf(usable)("the Python SDK against the mock (in a realls root)", () => {
  let mock: MockServer;
  let dir: string;
  beforeAll(async () => {
    mock = await startMockServer();
    dir = mkdtempSync(join(ROOT, "tmp", "dmq-sdk-check-"));
    copyFileSync(join(import.meta.dirname, "check.py"), join(dir, "check.py"));
  });
  afterAll(async () => {
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("every call of check.py succeeds, the exports' too", async () => {
    const script = `/${relative(ROOT, join(dir, "check.py"))}`;
    const { stdout } = await promisify(execFile)(
      "chroot",
      [ROOT, "env", `SDK_SRC=${SDK}`, "SHIM=/nonexistent", "python3", script, mock.url, mock.legacyToken],
      { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const lines = stdout.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("OK");
    for (const label of ["legacy", "pat"]) {
      expect(lines).toContain(`${label} export formats ['JSON', 'JSON_MIN', 'CSV', 'TSV', 'YOLO_OBB', 'YOLO_OBB_WITH_IMAGES']`);
      expect(lines).toContain(`${label} download_sync CSV rows 2`);
      expect(lines).toContain(`${label} export create completed {'task_number': 1}`);
      expect(lines).toContain(`${label} export download 1 task, 1 TSV row`);
      expect(lines).toContain(`${label} as_json 3 tasks, as_pandas 2 rows`);
    }
  }, 300_000);
});
