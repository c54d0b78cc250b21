import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface DocBlock {
  /** `README.md:42` — where the block starts. */
  readonly where: string;
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

const root = join(import.meta.dirname, "..", "..");

/** Every ```ts block of README.md and docs/**\/*.md, in order. */
export function docBlocks(): DocBlock[] {
  const files = [join(root, "README.md"), ...markdownUnder(join(root, "docs"))];
  const blocks: DocBlock[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    let start = -1;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (start < 0 && /^```(ts|typescript)\s*$/.test(line)) start = i;
      else if (start >= 0 && /^```\s*$/.test(line)) {
        const rel = relative(root, file);
        blocks.push({ where: `${rel}:${start + 1}`, file: rel, line: start + 1, code: lines.slice(start + 1, i).join("\n") });
        start = -1;
      }
    }
  }
  return blocks;
}

function markdownUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.endsWith(".md"))
    .sort()
    .map((e) => join(dir, e));
}

/**
 * The output an example promises: its `//=> ` comment lines, in order (a `//=>` at the end of a
 * `console.log(…)` line, or on the lines after it). An example with any of them must print exactly
 * those lines; one without them is only run.
 */
export function promisedOutput(code: string): string[] {
  return [...code.matchAll(/\/\/=> ?(.*)$/gm)].map((m) => (m[1] as string).trimEnd());
}

/** The pages whose every example promises its output. */
export const OUTPUT_PAGES = ["docs/actions.md", "docs/recipes.md"];

/** Package imports resolve to the sources, as they would to the built package. */
export function rewriteImports(code: string, fromDir: string): string {
  const target = (spec: string) => {
    const map: Record<string, string> = {
      dmq: "src/index.ts",
      "dmq/mock-server": "mock-server/index.ts",
      "dmq/semantics": "src/semantics/index.ts",
      "dmq/testing": "testing/index.ts",
      "dmq/testing/vitest": "testing/vitest.ts",
    };
    const path = map[spec];
    if (path === undefined) return spec;
    const rel = relative(fromDir, join(root, path)).replace(/\.ts$/, ".js");
    return rel.startsWith(".") ? rel : `./${rel}`;
  };
  return code.replace(/(from\s+|import\s*\(\s*)(["'])(dmq(?:\/[a-z-]+)*)\2/g, (_m, pre, q, spec) => `${pre}${q}${target(spec)}${q}`);
}
