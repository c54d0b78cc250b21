import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseBody } from "../../../src/cli/params.js";

const dir = mkdtempSync(join(tmpdir(), "dmq-params-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("--body", () => {
  test("a JSON object, inline or from @file, is the parameters", () => {
    expect(parseBody('{"title": "x"}')).toEqual({ title: "x" });
    expect(parseBody(`@${file("body.json", '{"n": 1}')}`)).toEqual({ n: 1 });
  });

  test("anything else names where it came from and what it held, never its content", () => {
    const tasks = file("tasks.json", '[{"data": {"secret": "s3cr3t"}}, {"data": {}}]');
    const bad = (text: string) => {
      try {
        parseBody(text);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`parseBody(${text}) did not throw`);
    };
    expect(bad(`@${tasks}`)).toBe(
      `expected a JSON object (or @file holding one), found the file ${JSON.stringify(tasks)} holding an array of 2 items`,
    );
    expect(bad(`@${tasks}`)).not.toContain("s3cr3t");
    expect(bad("[1]")).toBe("expected a JSON object (or @file holding one), found the argument holding an array of 1 item");
    expect(bad("null")).toBe("expected a JSON object (or @file holding one), found the argument holding null");
    expect(bad('"t0ken"')).toBe("expected a JSON object (or @file holding one), found the argument holding a string");
    expect(bad("title=x")).toBe("expected a JSON object (or @file holding one), found the argument not JSON");
    expect(bad(`@${file("half.json", '{"a": ')}`)).toContain("not JSON");
    expect(bad(`@${join(dir, "missing.json")}`)).toMatch(/^--body: cannot read ".*missing\.json" \(ENOENT\)$/);
  });
});
