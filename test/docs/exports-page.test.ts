import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
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
