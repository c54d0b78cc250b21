import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { spellings } from "../../src/cli/query/condition.js";
import { operatorNames } from "../../src/vocabulary/operators.js";
import { builtCli, mockWithEnv } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";

// Each test spawns the built CLI, several at once: on a busy machine that takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// The built CLI runs as a process here: wait for dist/ before the first test, not inside one.
needsDist();

/*
 * docs/cli.md is a walkthrough: every command of its ```console blocks runs, in order, in one
 * scratch folder against one mock with the demo data (what `npm start` serves), with `npx dmq` as the
 * built CLI. The output must be the one printed under the command (stdout and stderr, as a terminal
 * shows them; the mock's URL reads as npm start's http://127.0.0.1:8080), and the exit code 0 or the
 * one a trailing `# exit N` names. The condition-syntax table must match the CLI's spelling table.
 */
const doc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "cli.md"), "utf8");

interface Step {
  readonly line: number;
  readonly command: string;
  readonly output: string;
  readonly exit: number;
}

function steps(): Step[] {
  const lines = doc.split("\n");
  const out: Step[] = [];
  let inBlock = false;
  let current: { line: number; command: string[]; output: string[]; heredoc?: string } | undefined;
  const flush = () => {
    if (!current) return;
    const command = current.command.join("\n");
    const exit = Number(/#\s*exit (\d+)\s*$/.exec(current.command[0] ?? "")?.[1] ?? 0);
    out.push({ line: current.line, command, output: current.output.join("\n"), exit });
    current = undefined;
  };
  lines.forEach((text, i) => {
    if (!inBlock) {
      inBlock = text === "```console";
      return;
    }
    if (text === "```") {
      flush();
      inBlock = false;
    } else if (current?.heredoc !== undefined) {
      current.command.push(text);
      if (text === current.heredoc) delete current.heredoc;
    } else if (text.startsWith("$ ")) {
      flush();
      const heredoc = /<<'?(\w+)'?/.exec(text)?.[1];
      current = { line: i + 1, command: [text.slice(2)], output: [], ...(heredoc ? { heredoc } : {}) };
    } else current?.output.push(text);
  });
  return out;
}

const run = promisify(execFile);
let mock: MockServer;
let env: Record<string, string>;
const cwd = mkdtempSync(join(tmpdir(), "dmq-docs-"));

beforeAll(async () => {
  ({ mock, env } = await mockWithEnv());
});
afterAll(() => mock.close());

describe("docs/cli.md", () => {
  const all = steps();
  test("is a walkthrough with commands to run", () => {
    expect(all.length).toBeGreaterThan(15);
  });

  test("every command prints what the page shows", async () => {
    const differences: unknown[] = [];
    const DMQ = await builtCli();
    for (const step of all) {
      const script = `set -o pipefail\n${step.command.replaceAll("npx dmq", `node ${JSON.stringify(DMQ)}`)}`;
      const result = await run("bash", ["-c", script], { cwd, env: { PATH: process.env["PATH"] ?? "", HOME: cwd, ...env } }).then(
        (r) => ({ code: 0, text: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, text: e.stdout + e.stderr }),
      );
      const shown = result.text.replaceAll(mock.url, "http://127.0.0.1:8080").replace(/\n$/, "");
      if (result.code !== step.exit || shown !== step.output) differences.push({ line: step.line, code: result.code, output: shown });
    }
    expect(differences).toEqual([]);
  }, 180_000);

  test("the condition-syntax table is the CLI's spelling table", () => {
    const rows = doc
      .split("\n")
      .filter((l) => /^\| [a-z_]+ \| `/.test(l))
      .map((l) => l.split("|").map((c) => c.trim()));
    expect(rows.map((r) => r[1])).toEqual(operatorNames);
    for (const row of rows) {
      const words = [...(row[2] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect(words).toEqual(spellings[row[1] as (typeof operatorNames)[number]].map((s) => s.word));
    }
  });
});
