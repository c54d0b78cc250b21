import { describe, expect, test } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { quietIo } from "../../helpers/cli-io.js";
import { actionIds } from "../../../src/vocabulary/actions.js";
import { columnNames } from "../../../src/vocabulary/columns.js";
import { operatorNames } from "../../../src/vocabulary/operators.js";

/* `dmq columns`, `dmq operators`, `dmq actions catalog`: text for people, records when a format is asked for. */
async function stdoutOf(args: readonly string[]): Promise<string> {
  let stdout = "";
  expect(await runCli(args, { ...quietIo, stdout: (text) => void (stdout += text) })).toBe(0);
  return stdout;
}

const commands = [
  { args: ["columns"], key: "column", first: `tasks:${columnNames[0]}`, count: columnNames.length },
  { args: ["operators"], key: "operator", first: operatorNames[0], count: operatorNames.length },
  { args: ["actions", "catalog"], key: "action", first: undefined, count: actionIds.length },
] as const;

describe.each(commands)("dmq $args", ({ args, key, first, count }) => {
  test("--format json is an array of records, one per row, keyed by the header", async () => {
    const records = JSON.parse(await stdoutOf([...args, "--format", "json"])) as Record<string, string>[];
    expect(records.length).toBeGreaterThanOrEqual(count);
    expect(Object.keys(records[0] ?? {})[0]).toBe(key);
    if (first !== undefined) expect(records[0]?.[key]).toBe(first);
  });

  test("--format jsonl has one record a line, csv a header row; without --format it is the aligned text", async () => {
    const [jsonl, csv, text] = await Promise.all([
      stdoutOf([...args, "--format", "jsonl"]),
      stdoutOf([...args, "--format", "csv"]),
      stdoutOf(args),
    ]);
    const lines = jsonl.trimEnd().split("\n");
    expect(lines.map((l) => Object.keys(JSON.parse(l) as object)[0])).toEqual(lines.map(() => key));
    expect(csv.split("\n")[0]).toMatch(new RegExp(`^${key},`));
    expect(text).toMatch(new RegExp(`^${key}\\s{2,}`));
    expect(await stdoutOf([...args, "--format", "table"])).toBe(text);
  });
});
