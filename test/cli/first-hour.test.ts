import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { DMQ, dmqIn } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";

/** The first minutes of a new user: what fails there must say how to get past it. */
describe("the first hour", () => {
  // It runs dist/'s file: wait for the background build, which rewrites that file (and sets its mode last).
  needsDist();
  test("the build keeps the CLI executable: its file runs by itself, as npx and bin shims run it", async () => {
    const { stdout } = await promisify(execFile)(DMQ, ["--version"]);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("errors that say the fix", () => {
  test.each([
    [
      ["--base-url", "127.0.0.1:8080"],
      {},
      '--base-url: expected an http:// or https:// URL without a trailing slash (the published rule), found string "127.0.0.1:8080"; add the scheme: "http://127.0.0.1:8080"',
    ],
    [
      [],
      { LABEL_STUDIO_URL: "http://127.0.0.1:8080/api" },
      'LABEL_STUDIO_URL: expected an http:// or https:// URL without a trailing slash (the published rule), the server\'s root (the client adds /api/… itself), found "http://127.0.0.1:8080/api"; drop the /api at the end: "http://127.0.0.1:8080"',
    ],
    [
      ["--api-key", "Token 0123456789abcdef"],
      { LABEL_STUDIO_URL: "http://127.0.0.1:8080" },
      '--api-key: expected a legacy token or a personal access token (visible ASCII characters, no spaces), found a value that starts with "Token "; pass the key alone, without "Token " (the client adds the header\'s scheme itself)',
    ],
  ])("users whoami %j %j: a usage error with the fix", async (args, env, message) => {
    const run = await dmqIn(["users", "whoami", ...args], { env: { LABEL_STUDIO_API_KEY: "k", ...env } });
    expect(run.stderr).toBe(`dmq users whoami: ${message}\n`);
    expect(run.stderr).not.toContain("0123456789abcdef");
    expect(run.code).toBe(2);
  });

  test.each([
    [["-w", "complted_at > 2024-01-01"], 'unknown column "complted_at" (did you mean completed_at?)'],
    [["-w", "annotator contains 2"], 'unknown column "annotator" (did you mean annotators?)'],
    [
      ["-w", "annotations > 0"],
      'unknown column "annotations" (did you mean annotations_results, annotations_ids, total_annotations or cancelled_annotations?)',
    ],
    [["--order", "-inner"], 'unknown column "inner" (did you mean inner_id?)'],
    [["-w", "data.score@Numbr > 1"], "unknown data type @Numbr (did you mean Number?)"],
  ])("body %j: the column (or type) it is nearest to", async (args, message) => {
    const run = await dmqIn(["body", ...args]);
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(2);
  });

  test("a name near nothing gets no guess", async () => {
    const run = await dmqIn(["body", "-w", "zzzzzz = 1"]);
    expect(run.stderr).toContain('unknown column "zzzzzz": expected a column');
  });
});
