import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { dmqIn, mockWithEnv } from "../cli/dmq.js";
import { exportFormats } from "../../src/vocabulary/export-formats.js";

/*
 * docs/exports.md's format table against the vocabulary's format table: every listed format, in the
 * server's order, and what the mock writes for it as the table's `mock` says.
 */
const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "exports.md"), "utf8");
const rows = [...page.matchAll(/^\| `([A-Z0-9_]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map(
  (m) => [m[1] as string, (m[2] as string).trim()] as const,
);

const said = {
  exact: (text: string) => text === "the server's bytes",
  archive: (text: string) => text.startsWith("the server's files"),
  none: (text: string) => text === "nothing (see below)",
} as const;

describe("docs/exports.md", () => {
  test("the format table lists every listed format in the server's order", () => {
    expect(rows.map(([name]) => name)).toEqual(exportFormats.filter((f) => !("listed" in f)).map((f) => f.name));
  });
  test.each(rows)("%s: what the mock writes, as the vocabulary says", (name, text) => {
    const format = exportFormats.find((f) => f.name === name);
    expect(format && said[format.mock](text)).toBe(true);
  });
});

/*
 * The page's CLI lines, in order, as a reader would type them: each against one mock with the demo data
 * (what `npm start` serves), in a scratch folder, exits 0 and writes what it says (its --output file, or
 * the file on stdout). The snapshot ids in the lines are the ones those commands create.
 */
describe("docs/exports.md: the CLI lines", () => {
  const block = /```sh\n([\s\S]*?)```/.exec(page.slice(page.indexOf("## The CLI")))?.[1] ?? "";
  const lines = block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line.startsWith("dmq "));
  /** Shell words: spaces separate, double quotes group. */
  const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? (m[2] as string));
  let mock: MockServer;
  let env: Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), "dmq-exports-doc-"));
  beforeAll(async () => {
    ({ mock, env } = await mockWithEnv());
  });
  afterAll(() => mock?.close());

  test("there are lines, one per command", () => {
    expect(lines.length).toBeGreaterThanOrEqual(8);
  });
  test("each runs, in order, and writes its file", async () => {
    for (const line of lines) {
      const args = words(line).slice(1);
      const at = args.findIndex((a) => a === "-o" || a === "--output");
      const output = at < 0 ? undefined : join(dir, args[at + 1] as string);
      if (output !== undefined) args[at + 1] = output;
      const before = output === undefined ? [] : readdirSync(dir);
      const run = await dmqIn(args, { env });
      expect([line, run.code, run.stderr]).toEqual([line, 0, ""]);
      // A delete's answer has no body: it prints nothing (docs/cli.md); every other line prints what it got.
      if (output === undefined) expect([line, run.stdout.length > 0]).toEqual([line, args[1] !== "delete"]);
      else {
        const written = statSync(output).isDirectory() ? readdirSync(dir).filter((f) => !before.includes(f)) : [args[at + 1]];
        expect(written.length).toBe(1);
        expect(statSync(join(output, statSync(output).isDirectory() ? (written[0] as string) : "")).size).toBeGreaterThan(0);
      }
    }
  });
});
