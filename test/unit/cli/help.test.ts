import { describe, expect, test } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { buildProgram } from "../../../src/cli/program.js";
import { quietIo as quiet } from "../../helpers/cli-io.js";

/* What `--help` says about the commands, held to what the commands are and do. */

async function run(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const code = await runCli(args, { ...quiet, stdout: (text) => void (stdout += text) });
  return { code, stdout };
}

describe("dmq --help", () => {
  const groups = buildProgram(quiet, { code: 0 }).commands.filter((c) => c.commands.length > 0);

  test.each(groups.map((g) => [g.name(), g] as const))("%s: the summary lists every method it has, in order", async (name, group) => {
    const summary = `${name} ${group.description()}`;
    expect(summary).toMatch(new RegExp(`: ${group.commands.map((c) => c.name()).join(", ")}$`));
    const help = (await run(["--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain(summary);
  });

  test("--child names the key one child is sent as", async () => {
    const body = JSON.parse((await run(["body", "-w", "id > 1", "--child", "inner_id < 5"])).stdout) as {
      filters: { items: Record<string, unknown>[] };
    };
    const key = Object.keys(body.filters.items[0] ?? {}).find((k) => k.startsWith("child"));
    expect(key).toBe("child_filter");
    const help = (await run(["body", "--help"])).stdout.replace(/\s+/g, " ");
    const child = /--child <condition> (.*?) --order/.exec(help)?.[1] ?? "";
    expect(child).toMatch(new RegExp(`\\b${key}\\b(?!s)`));
  });
});
