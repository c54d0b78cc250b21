import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { describe, expect, test } from "vitest";

/*
 * Every relative link in README.md and docs/ — and every `docs/….md#anchor` cited from a comment in the
 * code or the tests — points at a file that exists and, with an anchor, at a heading of it (GitHub's
 * slugs: lower case, punctuation dropped, spaces as hyphens, repeats numbered).
 */
const root = join(import.meta.dirname, "..", "..");

function filesUnder(dir: string, ext: RegExp): string[] {
  return (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => ext.test(f) && !f.split(sep).some((p) => p === "node_modules" || p.startsWith(".") || p === "api"))
    .map((f) => join(dir, f).split(sep).join("/"));
}

export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of readFileSync(join(root, file), "utf8").split("\n")) {
    if (/^```/.test(line)) fence = !fence;
    const m = fence ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

function check(from: string, target: string, anchor: string | undefined): string | undefined {
  if (!existsSync(join(root, target))) return `${from}: ${target} does not exist`;
  if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(target).has(anchor))
    return `${from}: ${target} has no heading #${anchor}`;
  return undefined;
}

const markdown = ["README.md", ...filesUnder("docs", /\.md$/)];

describe("links", () => {
  test("relative links in README.md and docs/ reach a file and a heading", () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of markdown) {
      const text = readFileSync(join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = m[1]!;
        if (/^[a-z]+:/i.test(href)) continue;
        count++;
        const [path, anchor] = href.split("#") as [string, string | undefined];
        const target =
          path === ""
            ? file
            : relative(root, join(root, dirname(file), path))
                .split(sep)
                .join("/");
        const problem = check(file, target, anchor);
        if (problem) broken.push(problem);
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  test("docs/….md#anchor citations in code, tests and docs reach a heading", () => {
    const broken: string[] = [];
    const sources = [
      ...filesUnder("src", /\.ts$/),
      ...filesUnder("mock-server", /\.ts$/),
      ...filesUnder("test", /\.(ts|py|mjs)$/),
      ...markdown,
    ];
    for (const file of sources) {
      for (const m of readFileSync(join(root, file), "utf8").matchAll(/(?<![\w/.-])(docs\/[\w/-]+\.md)#([\w-]+)/g)) {
        const problem = check(file, m[1]!, m[2]!);
        if (problem) broken.push(problem);
      }
    }
    expect(broken).toEqual([]);
  });

  test("the slugs are GitHub's", () => {
    expect(slug("The pipeline (step 2.3)")).toBe("the-pipeline-step-23");
    expect(slug("`dmq explain`")).toBe("dmq-explain");
    expect(slug("in_list and not_in_list")).toBe("in_list-and-not_in_list");
    expect(slug("NULL, missing and JSON null")).toBe("null-missing-and-json-null");
  });
});
