/**
 * Long conformance runs: `npm run test:conformance -- --runs 10000 [--seed 42] [--path "3:1:0"] [files…]`.
 * Sets FC_NUM_RUNS / FC_SEED / FC_PATH for the properties (test/conformance/settings.ts) and runs
 * vitest on the conformance files with vitest.conformance.config.ts. Without --seed a random seed
 * is used and printed, so a failure can be replayed.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const args = process.argv.slice(2);
const env: Record<string, string> = {};
const rest: string[] = [];
const flags: Record<string, string> = { "--runs": "FC_NUM_RUNS", "--seed": "FC_SEED", "--path": "FC_PATH" };
for (let i = 0; i < args.length; i++) {
  const arg = args[i] as string;
  const [name, inline] = arg.includes("=") ? (arg.split(/=(.*)/s, 2) as [string, string]) : [arg, undefined];
  const variable = flags[name];
  if (!variable) {
    rest.push(arg);
    continue;
  }
  const value = inline ?? args[++i];
  if (value === undefined || value === "") {
    console.error(`${name}: expected a value, found nothing`);
    process.exit(2);
  }
  if (variable !== "FC_PATH" && !/^\d+$/.test(value)) {
    console.error(`${name}: expected a non-negative integer, found ${JSON.stringify(value)}`);
    process.exit(2);
  }
  env[variable] = value;
}
env.FC_NUM_RUNS ??= process.env.FC_NUM_RUNS ?? "1000";
env.FC_SEED ??= process.env.FC_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`conformance: FC_NUM_RUNS=${env.FC_NUM_RUNS} FC_SEED=${env.FC_SEED}${env.FC_PATH ? ` FC_PATH=${env.FC_PATH}` : ""}`);

// The package's bin (not an export): found next to its package.json.
const vitest = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const child = spawn(process.execPath, [vitest, "run", "--config", "vitest.conformance.config.ts", ...rest], {
  stdio: "inherit",
  env: { ...process.env, ...env },
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
