import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { quoting, readmeRefusals, refusalSnippet } from "../docs/readme-refusals.js";
import { accepted, errorTexts, prelude, typescript7Texts as underTypeScript7 } from "./error-texts.js";
import { errorsByFile } from "./tsc-report.js";

/*
 * TypeScript 7 (the native compiler, what `npm i -D typescript` installs since it became `latest`) on the
 * project: installed beside the project's TypeScript under the alias `typescript7` (package.json names its
 * version). Its tsc, one program: every file of tsconfig.json (so every `@ts-expect-error` must still fire
 * and every `expectTypeOf` hold) and, each a module of its own, the snippets whose exact error texts
 * editor.test.ts asks of the project's TypeScript (error-texts.ts) and the README's table of refusals quotes
 * (readme-compiler.test.ts). TypeScript 7 has no language service
 * API like TypeScript 6's, but its tsc prints the same flattened message chains.
 */

const root = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** The alias package.json installs TypeScript 7 under, and the version it names. */
const ALIAS = "typescript7";
const version = /^npm:typescript@(\d+\.\d+\.\d+)$/.exec(manifest.devDependencies[ALIAS] ?? "")?.[1];
const tsc = join(dirname(require.resolve(`${ALIAS}/package.json`)), "bin", "tsc");

/** Per file (relative to the project), the errors tsc reported, each flattened as the language service does. */
let reported: Map<string, string[]>;
let ran: { code: number; stdout: string; stderr: string; ms: number };
let scratch: string;
/** Every probe module: the error texts', the accepted forms', the README's rows'. */
const probeNames = () => [...errorTexts.map((_, i) => i), "accepted" as const, ...readmeRefusals.map((_, i) => `readme-${i}` as const)];
const probeName = (i: number | "accepted" | `readme-${number}`) => `probe-${i}.ts`;
/** A probe module's path relative to the project, as `reported` keys it. */
const probe = (i: Parameters<typeof probeName>[0]) => relative(root, join(scratch, probeName(i)));

beforeAll(async () => {
  const cache = join(root, "node_modules", ".cache", "dmq");
  mkdirSync(cache, { recursive: true });
  scratch = mkdtempSync(join(cache, "ts7-"));
  const index = relative(scratch, join(root, "src", "index.js"));
  errorTexts.forEach(([, snippet], i) => writeFileSync(join(scratch, probeName(i)), prelude(index) + snippet));
  writeFileSync(join(scratch, probeName("accepted")), prelude(index) + accepted);
  readmeRefusals.forEach(({ code }, i) => writeFileSync(join(scratch, probeName(`readme-${i}`)), prelude(index) + refusalSnippet(code)));
  // The project's own config, extended: its include and exclude restated from here, the probes added as files.
  const base = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")) as { include: string[]; exclude: string[] };
  const fromHere = (paths: string[]) => paths.map((p) => relative(scratch, join(root, p)));
  const config = {
    extends: relative(scratch, join(root, "tsconfig.json")),
    compilerOptions: { noUnusedLocals: false },
    include: fromHere(base.include),
    exclude: fromHere(base.exclude),
    files: probeNames().map(probeName),
  };
  writeFileSync(join(scratch, "tsconfig.json"), JSON.stringify(config));
  const started = performance.now();
  // One checker thread: beside the other test files on a two-core machine, more threads only cost CPU.
  const args = [tsc, "-p", join(scratch, "tsconfig.json"), "--pretty", "false", "--singleThreaded"];
  ran = await new Promise((resolve) =>
    execFile(process.execPath, args, { cwd: scratch, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr, ms: performance.now() - started }),
    ),
  );
  // tsc prints paths relative to its working directory (scratch).
  reported = new Map(
    [...errorsByFile(ran.stdout)].map(([file, errors]) => [file === "(unparsed)" ? file : relative(root, join(scratch, file)), errors]),
  );
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("package.json installs TypeScript 7 under its alias, and its native tsc runs", () => {
  expect(version, `devDependencies.${ALIAS} names an exact typescript version`).toMatch(/^7\./);
  expect((require(`${ALIAS}/package.json`) as { version: string }).version).toBe(version);
  expect(ran.stderr).toBe("");
  // Errors were reported (the probes'), so tsc ran its checker and printed them: not a binary that failed to start.
  expect(ran.code).not.toBe(0);
  expect(reported.size).toBeGreaterThan(0);
});

test("the project's scripts run TypeScript 6's tsc by its path: the alias's tsc contends for node_modules/.bin/tsc", () => {
  const bare = Object.entries(manifest.scripts).filter(([, command]) => /(^|[\s&;|(])tsc(\s|$)/.test(command));
  expect(bare).toEqual([]);
  const byPath = Object.values(manifest.scripts).filter((command) => command.includes("node_modules/typescript/bin/tsc "));
  expect(byPath.length).toBeGreaterThanOrEqual(2);
});

describe("TypeScript 7's tsc", () => {
  test("finds no error in the project: every @ts-expect-error still fires, every expectTypeOf holds", () => {
    const probes = new Set(probeNames().map(probe));
    const elsewhere = [...reported].filter(([file]) => !probes.has(file));
    expect(elsewhere).toEqual([]);
  });

  test.each(errorTexts.map(([name, snippet, message], i) => ({ name, snippet, message, i })))(
    "reports the exact text: $name",
    ({ name, message, i }) => {
      expect(reported.get(probe(i))).toEqual([underTypeScript7[name] ?? message]);
    },
  );

  test.each(readmeRefusals.map((row, i) => ({ ...row, i })))("says what the README quotes: $code", ({ says, i }) => {
    const errors = reported.get(probe(`readme-${i}`)) ?? [];
    expect(quoting(errors, says), `none of the errors quotes ${JSON.stringify(says)}:\n${errors.join("\n")}`).toBeDefined();
  });

  test("compiles the accepted forms", () => {
    expect(reported.get(probe("accepted"))).toBeUndefined();
  });

  test("each text it words differently is a snippet's, and does differ", () => {
    for (const [name, text] of Object.entries(underTypeScript7)) {
      const row = errorTexts.find(([n]) => n === name);
      expect(row, name).toBeDefined();
      expect(text).not.toBe(row![2]);
    }
  });
});
