import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/*
 * .ci/realls.sh, CI's handling of the real server, against a stand-in for the realls build scripts whose
 * setup.sh, start.sh and stop.sh only record their calls (and fail on request): when it builds, when
 * it reuses the cache, what it says when a step fails, and that the token never shows.
 */
const root = join(import.meta.dirname, "..", "..");
let dir: string;
let source: string;
let calls: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "dmq-realls-"));
  source = join(dir, "realls");
  calls = join(dir, "calls.log");
  mkdirSync(source);
  writeFileSync(join(source, "versions.lock"), "label-studio 1.22.0.dev0\n");
  const script = (body: string) => `#!/bin/bash\necho "$(basename "$0") $*" >> "${calls}"\n${body}\n`;
  writeFileSync(
    join(source, "setup.sh"),
    script(
      'mkdir -p "$1"; echo "db=$REALLS_DB" > "$1/database"; [ -z "${FAIL_SETUP:-}" ] || { echo "E: debootstrap: no network"; exit 1; }',
    ),
  );
  writeFileSync(
    join(source, "start.sh"),
    script(
      'echo "token: $3  user: admin" >&2; [ -z "${FAIL_START:-}" ] || { echo "port $2 is in use ($3)" >&2; exit 1; }; echo 1 > "$1/server.pid"; echo "http://127.0.0.1:$2"',
    ),
  );
  writeFileSync(join(source, "stop.sh"), script('rm -f "$1/server.pid"'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `realls_start <db>` then `realls_stop` in a child bash; what it printed and the variables it set. */
async function start(db: string, env: Record<string, string> = {}) {
  writeFileSync(calls, "");
  const script = `source .ci/realls.sh; realls_start ${db}; rc=$?; echo "rc=$rc url=$REALLS_URL key=$REALLS_KEY"; realls_stop`;
  const { stdout } = await promisify(execFile)("bash", ["-c", script], {
    cwd: root,
    env: { ...process.env, DMQ_REALLS_SOURCE: source, DMQ_REALLS_CACHE: join(dir, "cache"), ...env },
  });
  const last = /rc=(\d+) url=(\S*) key=(\S*)$/m.exec(stdout)!;
  return { out: stdout, rc: Number(last[1]), url: last[2]!, key: last[3]!, calls: readFileSync(calls, "utf8").trim().split("\n") };
}

describe("realls_start", () => {
  test("builds once, starts with a fresh database and a throwaway token, and stops", async () => {
    const first = await start("postgres");
    expect(first.rc).toBe(0);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.key).toMatch(/^[0-9a-f]{40}$/);
    expect(first.calls.map((c) => c.split(" ")[0])).toEqual(["setup.sh", "start.sh", "stop.sh"]);
    expect(first.calls[1]).toContain(`${join(dir, "cache")}-postgres ${first.url.split(":")[2]} ${first.key} --fresh`);
    expect(first.out).toMatch(/real server \(postgres\): building from .* into .*cache-postgres/);
    expect(readFileSync(join(dir, "cache-postgres", "database"), "utf8")).toBe("db=postgres\n");
    expect(existsSync(join(dir, "cache-postgres", "server.pid"))).toBe(false);
  });

  test("reuses the build while versions.lock is unchanged, rebuilds from scratch when it changes", async () => {
    const again = await start("postgres");
    expect(again.calls.map((c) => c.split(" ")[0])).toEqual(["start.sh", "stop.sh"]);
    expect(again.out).toContain("(versions.lock unchanged)");
    writeFileSync(join(dir, "cache-postgres", "stale"), "");
    writeFileSync(join(source, "versions.lock"), "label-studio 1.23.0\n");
    const changed = await start("postgres");
    expect(changed.out).toContain("versions.lock changed (or the last build did not finish): rebuilding");
    expect(changed.calls.map((c) => c.split(" ")[0])).toEqual(["stop.sh", "setup.sh", "start.sh", "stop.sh"]);
    expect(existsSync(join(dir, "cache-postgres", "stale"))).toBe(false);
  });

  test("a failed build says why and fails; the next run builds again", async () => {
    const failed = await start("sqlite", { FAIL_SETUP: "1" });
    expect(failed.rc).toBe(1);
    expect(failed.url).toBe("");
    expect(failed.out).toContain("real server (sqlite): setup.sh failed; its last lines:");
    expect(failed.out).toContain("E: debootstrap: no network");
    const next = await start("sqlite");
    expect([next.rc, next.calls.filter((c) => c.startsWith("setup.sh")).length]).toEqual([0, 1]);
  });

  test("a failed start says why and never shows the token", async () => {
    const failed = await start("sqlite", { FAIL_START: "1" });
    expect(failed.rc).toBe(1);
    expect(failed.out).toMatch(/real server \(sqlite\): start\.sh failed on port \d+/);
    expect(failed.out).toContain("is in use (***)");
    const token = /sqlite \d+ ([0-9a-f]{40}) --fresh/.exec(failed.calls.find((c) => c.startsWith("start.sh"))!)![1]!;
    expect(failed.out).not.toContain(token);
  });

  test("without the server's sources it fails at once, naming where it looked", async () => {
    const missing = await start("postgres", { DMQ_REALLS_SOURCE: join(dir, "nowhere") });
    expect(missing.rc).toBe(1);
    expect(missing.out).toContain(`real server (postgres): cannot build it: no setup.sh and versions.lock in ${join(dir, "nowhere")}`);
    expect(missing.calls).toEqual([""]);
  });
});
