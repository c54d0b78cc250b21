/**
 * Type-checking cost of the builder (issue #12 "types"), as a user's compiler sees the published
 * declarations (dist/): 300 generated builder chains, and the same 300 bodies written as typed
 * `QueryBody` literals. `types.check_ratio` is tsc's Check time of the chains ÷ that of the
 * literals (medians of 5 alternating runs after a warm-up); `types.instantiations_per_chain` is
 * (the chains' Instantiations − those of a file with one `selection(1)`) ÷ 300. Kysely's 5-where
 * chains are measured alongside for scale.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { selection } from "../../src/selection.js";
import { root } from "../lib/children.js";
import { rng } from "../lib/data.js";
import { figure, fmt, median, RUNS, type Figure } from "../lib/stats.js";

const CHAINS = 300;
const dir = join(root, "bench", ".tmp", "types");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

type Value = { readonly src: string; readonly value: unknown };
const int = (r: () => number): Value => {
  const n = 1 + Math.floor(r() * 1000);
  return { src: String(n), value: n };
};
const float = (r: () => number): Value => {
  const n = Math.round(r() * 1000) / 100;
  return { src: String(n), value: n };
};
const text = (r: () => number): Value => {
  const s = ["a", "lorem", "x.jpg", "2024", "urgent"][Math.floor(r() * 5)] as string;
  return { src: JSON.stringify(s), value: s };
};
const date = (r: () => number): Value => {
  const iso = new Date(Date.UTC(2024, Math.floor(r() * 12), 1 + Math.floor(r() * 28))).toISOString();
  return { src: `new Date(${JSON.stringify(iso)})`, value: new Date(iso) };
};
const ints = (r: () => number): Value => {
  const a = int(r),
    b = int(r);
  return { src: `[${a.src}, ${b.src}]`, value: [a.value, b.value] };
};
const range = (r: () => number, of: (r: () => number) => Value): Value => {
  const x = of(r),
    y = of(r);
  const [a, b] = Number(x.value) <= Number(y.value) ? [x, y] : [y, x]; // the builder wants min <= max
  return { src: `{ min: ${a.src}, max: ${b.src} }`, value: { min: a.value, max: b.value } };
};
const bool = (r: () => number): Value => {
  const b = r() < 0.5;
  return { src: String(b), value: b };
};

/** Conditions a user writes, over the column kinds (each valid for the builder's types). */
const conditions: readonly { column: string; method: string; value: (r: () => number) => Value }[] = [
  { column: "tasks:id", method: "greater", value: int },
  { column: "tasks:inner_id", method: "lessOrEqual", value: int },
  { column: "tasks:id", method: "inList", value: ints },
  { column: "tasks:total_annotations", method: "equal", value: int },
  { column: "tasks:cancelled_annotations", method: "greaterOrEqual", value: int },
  { column: "tasks:total_predictions", method: "between", value: (r) => range(r, int) },
  { column: "tasks:completed_at", method: "greater", value: date },
  { column: "tasks:created_at", method: "between", value: (r) => range(r, date) },
  { column: "tasks:updated_at", method: "less", value: date },
  { column: "tasks:file_upload", method: "contains", value: text },
  { column: "tasks:storage_filename", method: "notContains", value: text },
  { column: "tasks:annotators", method: "contains", value: ints },
  { column: "tasks:updated_by", method: "notContains", value: ints },
  { column: "tasks:predictions_score", method: "greater", value: float },
  { column: "tasks:avg_lead_time", method: "less", value: float },
  { column: "tasks:draft_exists", method: "equal", value: bool },
  { column: "tasks:data.text", method: "contains", value: text },
  { column: "tasks:data.label", method: "equal", value: text },
  { column: "tasks:data.text", method: "regex", value: () => ({ src: JSON.stringify("^a"), value: "^a" }) },
  { column: "tasks:annotations_results", method: "contains", value: text },
  { column: "tasks:data.k", method: "empty", value: bool },
];
const orderings = ["tasks:id", "-tasks:created_at", "tasks:total_annotations", "-tasks:data.text", "tasks:completed_at"];

/** One chain: its source text and, built at run time, the body it stands for. */
function chain(r: () => number): { src: string; body: unknown } {
  const n = 1 + Math.floor(r() * 5);
  const join = r() < 0.5 ? "and" : "or";
  const project = 1 + Math.floor(r() * 9);
  let src = `selection(${project})`;
  // The builder at run time, through the same calls (untyped here: the generated file is the typed one).
  let built = selection(project) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const call = (method: string, ...args: unknown[]) => (built = (built[method] as (...a: unknown[]) => typeof built)(...args));
  for (let k = 0; k < n; k++) {
    const c = conditions[Math.floor(r() * conditions.length)] as (typeof conditions)[number];
    const v = c.value(r);
    const step = k === 0 ? "where" : join;
    src += `.${step}(${JSON.stringify(c.column)}).${c.method}(${v.src})`;
    call(step, c.column);
    call(c.method, v.value);
  }
  if (r() < 0.6) {
    const o = orderings[Math.floor(r() * orderings.length)] as string;
    src += `.orderBy(${JSON.stringify(o)})`;
    call("orderBy", o);
  }
  const pick = r();
  if (pick < 0.3) {
    const ids = ints(r);
    src += `.excluding(${ids.src})`;
    call("excluding", ids.value);
  } else if (pick < 0.5) {
    const ids = ints(r);
    src += `.including(${ids.src})`;
    call("including", ids.value);
  }
  return { src, body: (built["toJSON"] as () => unknown)() };
}

const dmqHead = `import { selection } from "../../../dist/src/index.js";\n`;
const kyHead = `import type { Kysely, Generated } from "kysely";
interface Person { id: Generated<number>; first_name: string; last_name: string | null; age: number; created_at: Date; gender: "a" | "b" }
declare const db: Kysely<{ person: Person }>;
const d = new Date("2024-01-01T00:00:00Z");
export const base = db.selectFrom("person").selectAll();\n`;
const kyFive = (p: number) =>
  `export const q${p} = db.selectFrom("person").selectAll().where("id", ">", ${p}).where("age", "=", 2).where("created_at", ">", d).where("first_name", "like", "%x%").where("gender", "=", "a");\n`;

export function typeFiles() {
  const r = rng(7);
  const chains = Array.from({ length: CHAINS }, () => chain(r));
  return {
    base: `${dmqHead}export const s = selection(1);\n`,
    chains: dmqHead + chains.map((c, i) => `export const c${i} = ${c.src};\n`).join(""),
    literals:
      `import type { QueryBody } from "../../../dist/src/index.js";\n` +
      chains.map((c, i) => `export const b${i}: QueryBody = ${JSON.stringify(c.body)};\n`).join(""),
    kyselyBase: kyHead,
    kyselyOne: `${kyHead}${kyFive(1)}`,
    kyselyTwo: `${kyHead}${kyFive(1)}${kyFive(2)}`,
  };
}

interface Check {
  readonly instantiations: number;
  readonly checkMs: number;
}

/** A user's strict settings; no ambient types (the declarations need none), so only dist/ and the file are read. */
const compilerOptions = {
  noEmit: true,
  strict: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  lib: ["es2023", "dom"],
  types: [],
};

function check(file: string): Check {
  const project = `${file}.tsconfig.json`;
  writeFileSync(project, JSON.stringify({ compilerOptions, files: [file] }));
  let out: string;
  try {
    out = execFileSync(process.execPath, [tsc, "-p", project, "--extendedDiagnostics"], { cwd: root, encoding: "utf8" });
  } catch (e) {
    throw new Error(`${file} did not compile:\n${(e as { stdout?: string }).stdout}`);
  }
  return {
    instantiations: Number(/Instantiations:\s+(\d+)/.exec(out)?.[1]),
    checkMs: Number(/Check time:\s+([\d.]+)s/.exec(out)?.[1]) * 1000,
  };
}

/** Needs dist/ (the published declarations): run.ts builds it first. */
export function typeFigures(log: (line: string) => void, runs = RUNS): Figure[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = typeFiles();
  const path = (name: keyof typeof files): string => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, files[name]);
    return file;
  };
  const paths = {
    base: path("base"),
    chains: path("chains"),
    literals: path("literals"),
    kyselyBase: path("kyselyBase"),
    kyselyOne: path("kyselyOne"),
    kyselyTwo: path("kyselyTwo"),
  };
  const base = check(paths.base);
  const chains: Check[] = [],
    literals: Check[] = [];
  for (let round = 0; round <= runs; round++) {
    const c = check(paths.chains),
      l = check(paths.literals);
    if (round > 0) {
      chains.push(c);
      literals.push(l);
    }
  }
  const ky = [check(paths.kyselyBase), check(paths.kyselyOne), check(paths.kyselyTwo)] as const;
  const chainMs = median(chains.map((c) => c.checkMs)),
    literalMs = median(literals.map((c) => c.checkMs));
  const perChain = ((chains[0] as Check).instantiations - base.instantiations) / CHAINS;
  const kyNext = ky[2].instantiations - ky[1].instantiations;
  log(
    `  types: ${CHAINS} chains check ${fmt(chainMs)} ms vs literals ${fmt(literalMs)} ms; ${fmt(perChain)} instantiations per chain (kysely: ${kyNext} per further 5-where chain)`,
  );
  return [
    figure(
      "types.check_ratio",
      chainMs / literalMs,
      "×",
      1.6,
      "lower",
      `tsc check: ${CHAINS} chains ${fmt(chainMs)} ms, the same bodies as typed literals ${fmt(literalMs)} ms`,
    ),
    figure(
      "types.instantiations_per_chain",
      perChain,
      "",
      35,
      "lower",
      `${(chains[0] as Check).instantiations} − ${base.instantiations} (one selection(1)), over ${CHAINS} chains`,
    ),
    figure("types.kysely_instantiations_per_chain", kyNext, "", null, "lower", "Kysely, a further 5-where chain, for scale"),
  ];
}
