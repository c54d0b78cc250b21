import { describe, expect, test } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { quietIo } from "../../helpers/cli-io.js";

/* `dmq body` prints one JSON document: JSON or JSON lines as asked, and no pretend table or CSV. */
async function body(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["body", "-w", "id > 1", ...args], {
    ...quietIo,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

const expected = {
  filters: { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "greater", type: "Number", value: 1 }] },
};

describe("dmq body --format", () => {
  test("json (the default) is the body, pretty; jsonl is the same document on one line", async () => {
    const [plain, asJson, asLines] = await Promise.all([body([]), body(["--format", "json"]), body(["--format", "jsonl"])]);
    expect(JSON.parse(plain.stdout)).toMatchObject(expected);
    expect(asJson.stdout).toBe(plain.stdout);
    expect(asLines.stdout.trimEnd().split("\n")).toEqual([JSON.stringify(JSON.parse(plain.stdout))]);
  });

  test.each(["table", "csv"])("%s is refused (exit 2), naming the flag, the format and what it can print", async (format) => {
    const run = await body(["--format", format]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`--format ${format}: body prints the request body, one JSON document, which has no ${format} form`);
    expect(run.stderr).toContain("--format json (the default) or jsonl");
  });
});

test("a --format outside the choices names the nearest one, as every option with choices does", async () => {
  const run = await body(["--format", "JSON"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("argument 'JSON' is invalid. Allowed choices are json, table, csv, jsonl (did you mean json?).\n");
});
