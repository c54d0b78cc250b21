/**
 * TypeScript 7 (the native compiler, package.json's `typescript7`) on the type benchmark's generated files
 * (bench/.tmp/types, written by types.ts with the same compiler options): information beside TypeScript 6's
 * figures, no target. A check ratio is the Check time of the chains ÷ that of the literals, as tsc 7's
 * `--extendedDiagnostics` prints them (a fresh `tsc` per check, one checker thread). It prints whole ms of wall
 * time (a literals file checks in ~17), so a median of runs moves in steps of 3 to 6%, and a mean takes in
 * the runs a busy machine stretched: each side is the interquartile mean of `runs` alternated rounds after a
 * warm-up (the mean of the middle half: the rounding averages out, the stretched runs drop out; the medians
 * are in the detail). Instantiations per chain are defined as TypeScript 6's. `types.ts7.first_if_completion_ms`
 * is what an editor on TypeScript 7's language server waits for after a `$if` (bench/children/ts7-completion.mjs).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { root } from "../lib/children.js";
import { figure, fmt, median, type Figure } from "../lib/stats.js";
import { alternated, CHAINS, compilerOptions, dir, type Check } from "./types.js";

/** Alternated rounds after the warm-up: a check is a tenth of a second, and each is rounded to 1 ms. */
export const TS7_RUNS = 20;
const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript7/package.json")), "bin", "tsc");

/** One cold `tsc -p` of `name` (a file types.ts wrote into `dir`): its Check time and instantiations. */
function check(name: string): Check {
  const project = join(dir, `${name}.ts7.tsconfig.json`);
  writeFileSync(project, JSON.stringify({ compilerOptions, files: [join(dir, `${name}.ts`)] }));
  let out: string;
  try {
    out = execFileSync(process.execPath, [tsc, "-p", project, "--extendedDiagnostics", "--singleThreaded"], {
      cwd: root,
      encoding: "utf8",
    });
  } catch (e) {
    throw new Error(`${name}.ts did not compile with TypeScript 7:\n${(e as { stdout?: string }).stdout}`);
  }
  const field = (label: string, unit = "") => {
    const m = new RegExp(`^${label}:\\s+([\\d.]+)${unit}$`, "m").exec(out);
    if (!m) throw new Error(`tsc 7 --extendedDiagnostics printed no "${label}":\n${out}`);
    return Number(m[1]);
  };
  return { instantiations: field("Instantiations"), checkMs: field("Check time", "s") * 1000 };
}

/** The mean of the middle half of `xs` (sorted, a quarter dropped at each end). */
function interquartileMean(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const quarter = Math.floor(sorted.length / 4);
  const middle = sorted.slice(quarter, sorted.length - quarter);
  return middle.reduce((a, b) => a + b, 0) / middle.length;
}

/** Needs the files of `typeFigures` (run it first). */
export function typescript7Figures(log: (line: string) => void, runs = TS7_RUNS): Figure[] {
  const version = (createRequire(import.meta.url)("typescript7/package.json") as { version: string }).version;
  const measure = (base: string, chains: string, literals: string) => {
    const run = alternated(check, base, chains, literals, runs);
    const [chainMs, literalMs] = [interquartileMean(run.chainMs), interquartileMean(run.literalMs)];
    return {
      ratio: chainMs / literalMs,
      chainMs,
      literalMs,
      medians: [median(run.chainMs), median(run.literalMs)],
      perChain: run.perChain,
    };
  };
  const plain = measure("plainBase", "plainChains", "plainLiterals");
  const mixed = measure("base", "chains", "literals");
  const lspDir = join(dir, "..", "ts7-lsp");
  mkdirSync(lspDir, { recursive: true });
  const completionChild = join(root, "bench", "children", "ts7-completion.mjs");
  const completion = JSON.parse(
    execFileSync(process.execPath, [completionChild, tsc, lspDir, JSON.stringify(compilerOptions), String(runs)], {
      cwd: root,
      encoding: "utf8",
    }),
  ) as { openMs: number; ifMs: number; plainMs: number };
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
  const detail = (m: typeof plain, what: string) =>
    `TypeScript ${version} tsc, ${what}: chains ${fmt(m.chainMs)} ms, literals ${fmt(m.literalMs)} ms (interquartile means of ${runs} alternated runs; medians ${m.medians.join(" and ")} ms; load ${load})`;
  log(
    `  types (TypeScript ${version}): plain chains check ${fmt(plain.chainMs)} vs ${fmt(plain.literalMs)} ms (${fmt(plain.ratio)}×), mixed ${fmt(mixed.chainMs)} vs ${fmt(mixed.literalMs)} ms (${fmt(mixed.ratio)}×); ${fmt(plain.perChain)} and ${fmt(mixed.perChain)} instantiations per chain; completion after $if ${fmt(completion.ifMs)} ms (load ${load})`,
  );
  return [
    figure("types.ts7.check_ratio", plain.ratio, "×", null, "lower", detail(plain, `${CHAINS} plain chains`)),
    figure("types.ts7.mixed_check_ratio", mixed.ratio, "×", null, "lower", detail(mixed, `${CHAINS} mixed chains`)),
    figure(
      "types.ts7.first_if_completion_ms",
      completion.ifMs,
      "ms",
      null,
      "lower",
      `TypeScript ${version} language server (tsc --lsp), wall: the members after a $if chain, an edit after the last, median of ${runs}; ${fmt(completion.plainMs)} ms without the $if; ${fmt(completion.openMs)} ms for the first after opening the file (load ${load})`,
    ),
    figure(
      "types.ts7.instantiations_per_chain",
      plain.perChain,
      "",
      null,
      "lower",
      `TypeScript ${version}: as types.instantiations_per_chain`,
    ),
    figure(
      "types.ts7.mixed_instantiations_per_chain",
      mixed.perChain,
      "",
      null,
      "lower",
      `TypeScript ${version}: as types.mixed_instantiations_per_chain`,
    ),
  ];
}
