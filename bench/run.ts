/**
 * `npm run bench`: every performance figure of issue #12 in one run, each against its baseline
 * measured in the same run, then a table and bench/results.json (an array of
 * `{ name, value, unit, target, better }`; `target: null` is report-only). Exits 1 when a target
 * is missed. How each figure is measured: docs/performance.md.
 *
 *   npm run bench [-- --only engine,http,startup,types,exports] [-- --no-build]
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bigBodyFigures } from "./figures/big-body.js";
import { cliStartFigures } from "./figures/cli-start.js";
import { engineFigures, measureEngine } from "./figures/engine.js";
import { exportFigures } from "./figures/exports.js";
import { httpFigures } from "./figures/http.js";
import { startupFigures } from "./figures/startup.js";
import { typeFigures } from "./figures/types.js";
import { typescript7Figures } from "./figures/types-ts7.js";
import { writeFigures } from "./figures/writes.js";
import { root } from "./lib/children.js";
import { BENCH_TOKEN } from "./lib/data.js";
import { writeSeed } from "./lib/seeds.js";
import { meets, table, type Figure } from "./lib/stats.js";

const groups = ["types", "startup", "http", "engine", "exports"] as const;
const { values } = parseArgs({ options: { only: { type: "string" }, "no-build": { type: "boolean" } } });
const only = values.only?.split(",").map((s) => s.trim()) ?? [...groups];
for (const g of only)
  if (!(groups as readonly string[]).includes(g)) throw new Error(`--only: expected some of ${groups.join(", ")}, found "${g}"`);

const started = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
const figures: Figure[] = [];

// The child processes and the type figures use the built package, as users get it.
if (!values["no-build"] && only.some((g) => g !== "engine")) {
  log("building dist/ …");
  execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
}
if (only.includes("types")) {
  log("types: 300 chains vs typed literals (tsc)");
  figures.push(...typeFigures(log));
  log("types: the same files with TypeScript 7's tsc (information)");
  figures.push(...typescript7Figures(log));
}
if (only.includes("exports")) {
  log("exports: a snapshot of 10k and 100k tasks vs JSON.stringify of the same tasks");
  const seed10k = writeSeed("seed-export-10k", 10_000, { annotations: 2 });
  const seed100k = writeSeed("seed-100k", 100_000, { annotations: 2 });
  figures.push(...(await exportFigures({ seed10k, seed100k }, BENCH_TOKEN, log)));
}
if (only.includes("startup") || only.includes("http")) {
  const seed10k = writeSeed("seed-10k", 10_000, { annotations: "random" });
  if (only.includes("startup")) {
    log("start-up and memory: a fresh process per run");
    const seed100k = writeSeed("seed-100k", 100_000, { annotations: 2 });
    const seed100kZ = writeSeed("seed-100k-z", 100_000, { annotations: 2, timestamps: "z" });
    figures.push(...(await startupFigures({ seed10k, seed100k, seed100kZ }, BENCH_TOKEN, log)));
    figures.push(...(await cliStartFigures(seed100k, BENCH_TOKEN, log)));
    figures.push(...(await writeFigures(seed100k, BENCH_TOKEN, log)));
  }
  if (only.includes("http")) {
    log("HTTP: the list route vs stock json-server, whoami via the client vs fetch");
    figures.push(...(await httpFigures(seed10k, BENCH_TOKEN, log)));
    figures.push(...(await bigBodyFigures(seed10k, BENCH_TOKEN, log)));
  }
}
if (only.includes("engine")) {
  log("engine: seven queries vs hand loops at 10k, 100k and 1M tasks");
  figures.push(...engineFigures(measureEngine([10_000, 100_000, 1_000_000], log)));
}

const seconds = (performance.now() - started) / 1000;
console.log(table(figures));
console.log(`\n${figures.length} figures in ${seconds.toFixed(0)} s`);
// A partial run (--only) replaces its own figures and keeps the others.
const resultsPath = join(root, "bench", "results.json");
const fresh = new Set(figures.map((f) => f.name));
const kept =
  only.length < groups.length && existsSync(resultsPath)
    ? (JSON.parse(readFileSync(resultsPath, "utf8")) as Figure[]).filter((f) => !fresh.has(f.name))
    : [];
writeFileSync(resultsPath, `${JSON.stringify([...kept, ...figures], null, 2)}\n`);
const missed = figures.filter((f) => meets(f) === false);
if (missed.length > 0) {
  console.log(`missed: ${missed.map((f) => f.name).join(", ")}`);
  process.exitCode = 1;
}
