import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatWithOptions } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startMockServer } from "../../mock-server/index.js";
import { docBlocks, OUTPUT_PAGES, promisedOutput, rewriteImports } from "./extract.js";

/*
 * Every ```ts block of README.md and docs/ is type-checked with the project's compiler options and
 * then run, against a fresh mock server (demo data) whose URL and legacy token are in
 * LABEL_STUDIO_URL / LABEL_STUDIO_API_KEY — the environment the docs tell users to set. What an
 * example prints is compared with its `//=>` lines (every example of docs/actions.md and
 * docs/recipes.md has them).
 */
const blocks = docBlocks();
const outDir = join(import.meta.dirname, ".generated");
const fileOf = (i: number) => join(outDir, `block-${String(i).padStart(3, "0")}.ts`);

let mock: Awaited<ReturnType<typeof startMockServer>>;

beforeAll(async () => {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [i, b] of blocks.entries()) writeFileSync(fileOf(i), `// ${b.where}\n${rewriteImports(b.code, outDir)}\nexport {};\n`);
  mock = await startMockServer();
});

afterAll(async () => {
  await mock?.close();
});

describe("documentation examples", () => {
  test("there are examples to check", () => {
    expect(blocks.length).toBeGreaterThan(3);
  });

  test("every example type-checks", () => {
    const config = ts.readConfigFile(join(import.meta.dirname, "..", "..", "tsconfig.json"), ts.sys.readFile).config;
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, join(import.meta.dirname, "..", ".."));
    const program = ts.createProgram(
      blocks.map((_, i) => fileOf(i)),
      { ...options, noEmit: true, noUnusedLocals: false },
    );
    // The examples' own diagnostics (what getPreEmitDiagnostics reports for them), without checking
    // every file of src/ they import: vitest --typecheck checks those, and doing it here cost 60% of the time.
    const problems = blocks
      .map((_, i) => program.getSourceFile(fileOf(i))!)
      .flatMap((file) => [
        ...program.getSyntacticDiagnostics(file),
        ...program.getSemanticDiagnostics(file),
        ...program.getDeclarationDiagnostics(file),
      ])
      .map((d) => {
        const i = Number(/block-(\d+)/.exec(d.file?.fileName ?? "")?.[1]);
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        const block = blocks[i]!;
        return `${block.file}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      });
    expect(problems).toEqual([]);
  }, 120_000);

  test("every example of the output pages promises its output", () => {
    const silent = blocks.filter((b) => OUTPUT_PAGES.includes(b.file) && promisedOutput(b.code).length === 0).map((b) => b.where);
    expect(blocks.filter((b) => OUTPUT_PAGES.includes(b.file)).length).toBeGreaterThan(10);
    expect(silent).toEqual([]);
  });

  test.each(blocks.map((b, i) => [b.where, i] as const))("%s runs", async (_where, i) => {
    await mock.reset();
    vi.stubEnv("LABEL_STUDIO_URL", mock.url);
    vi.stubEnv("LABEL_STUDIO_API_KEY", mock.legacyToken);
    const printed: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      // Node's own defaults (depth 2): what a reader running the example sees.
      printed.push(...formatWithOptions({ colors: false }, ...args).split("\n"));
    });
    try {
      await import(/* @vite-ignore */ `${fileOf(i)}?run=${Date.now()}`);
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
    const promised = promisedOutput(blocks[i]!.code);
    if (promised.length > 0) expect(printed.map((l) => l.trimEnd())).toEqual(promised);
  });
});
