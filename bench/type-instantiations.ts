/**
 * Type-checking cost of builder chains, measured like `tsc --extendedDiagnostics` reports it
 * (Instantiations, Check time), against the published declarations (dist/) as a user's compiler
 * sees them, next to Kysely's equivalent chains measured in the same run.
 *   npm run bench:types
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const dir = join(root, "bench", ".tmp-types");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

const dmqHead = `import { selection } from "../../dist/src/selection.js";\nconst d = new Date("2024-01-01T00:00:00Z");\n`;
const dmqFive = (p: number) =>
  `export const s${p} = selection(${p}).where("tasks:id").greater(1).and("tasks:total_annotations").equal(2).and("tasks:completed_at").greater(d).and("tasks:file_upload").contains("x").and("tasks:annotators").contains([1]);\n`;
const dmqThirty = () => {
  let chain = `export const t = selection(1).where("tasks:id").greater(1)`;
  for (let i = 1; i < 30; i++) chain += i % 2 ? `.and("tasks:inner_id").greater(${i})` : `.and("tasks:data.k${i}").contains("v")`;
  return `${chain};\n`;
};
const kyHead = `import type { Kysely, Generated } from "kysely";
interface Person { id: Generated<number>; first_name: string; last_name: string | null; age: number; created_at: Date; gender: "a" | "b" }
declare const db: Kysely<{ person: Person }>;
const d = new Date("2024-01-01T00:00:00Z");
export const base = db.selectFrom("person").selectAll();\n`;
const kyFive = (p: number) =>
  `export const q${p} = db.selectFrom("person").selectAll().where("id", ">", ${p}).where("age", "=", 2).where("created_at", ">", d).where("first_name", "like", "%x%").where("gender", "=", "a");\n`;

const cases: Record<string, string> = {
  "dmq: selection(1)": `${dmqHead}export const s = selection(1);\n`,
  "dmq: one 5-condition chain": `${dmqHead}${dmqFive(1)}`,
  "dmq: two 5-condition chains": `${dmqHead}${dmqFive(1)}${dmqFive(2)}`,
  "dmq: one 30-condition chain": `${dmqHead}${dmqThirty()}`,
  "kysely: selectFrom().selectAll()": kyHead,
  "kysely: one 5-where chain": `${kyHead}${kyFive(1)}`,
  "kysely: two 5-where chains": `${kyHead}${kyFive(1)}${kyFive(2)}`,
};

function measure(code: string, name: string): { instantiations: number; checkMs: number } {
  const file = join(dir, `${name.replace(/[^a-z0-9]+/gi, "-")}.ts`);
  writeFileSync(file, code);
  const args = [tsc, "--ignoreConfig", "--noEmit", "--strict", "--exactOptionalPropertyTypes", "--skipLibCheck", "--target", "es2022",
    "--module", "nodenext", "--moduleResolution", "nodenext", "--types", "node", "--extendedDiagnostics", file];
  let out: string;
  try {
    out = execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  } catch (e) {
    throw new Error(`${name} did not compile:\n${(e as { stdout?: string }).stdout}`);
  }
  return {
    instantiations: Number(/Instantiations:\s+(\d+)/.exec(out)?.[1]),
    checkMs: Number(/Check time:\s+([\d.]+)s/.exec(out)?.[1]) * 1000,
  };
}

if (!process.argv.includes("--no-build")) execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const r = Object.fromEntries(Object.entries(cases).map(([name, code]) => [name, measure(code, name)]));
rmSync(dir, { recursive: true, force: true });

const row = (name: string) => `${name.padEnd(36)} ${String(r[name]!.instantiations).padStart(7)}  ${r[name]!.checkMs.toFixed(0).padStart(5)} ms`;
console.log(`${"case".padEnd(36)} ${"instant.".padStart(7)}  check`);
for (const name of Object.keys(cases)) console.log(row(name));
const delta = (a: string, b: string) => r[a]!.instantiations - r[b]!.instantiations;
const dmqFirst = delta("dmq: one 5-condition chain", "dmq: selection(1)");
const kyFirst = delta("kysely: one 5-where chain", "kysely: selectFrom().selectAll()");
const dmqNext = delta("dmq: two 5-condition chains", "dmq: one 5-condition chain");
const kyNext = delta("kysely: two 5-where chains", "kysely: one 5-where chain");
console.log(`\nfirst 5-condition chain:  dmq ${dmqFirst} vs kysely ${kyFirst} instantiations (ratio ${(dmqFirst / kyFirst).toFixed(2)})`);
console.log(`each further 5-chain:     dmq ${dmqNext} vs kysely ${kyNext} instantiations (ratio ${(dmqNext / kyNext).toFixed(2)})`);
console.log(`30-condition chain:       ${delta("dmq: one 30-condition chain", "dmq: selection(1)")} instantiations`);
