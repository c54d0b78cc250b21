import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { check } from "recheck";
import ts from "typescript";
import { beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../mock-server/app.js";
import { Journal } from "../../mock-server/journal.js";
import { loadSeed } from "../../src/contract/seed.js";
import { Store } from "../../mock-server/store/store.js";
import { TokenService } from "../../mock-server/tokens.js";
import { PY_WHITESPACE } from "../../src/emulation/python-text.js";
import { systemClock } from "../../src/vocabulary/clock.js";

/**
 * Every regular expression the package runs is linear-time on any input. A pattern a client sends
 * (a `regex` filter) runs on re2js (RE2: linear by construction); every JavaScript RegExp in src/
 * and mock-server/ is checked here with recheck's automaton analysis (exact for patterns without
 * back-references), and so are the route patterns Express compiles. A RegExp built at run time is
 * allowed only from constants, listed below with the pattern it builds.
 */
const ROOT = join(import.meta.dirname, "..", "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

interface Found {
  readonly where: string;
  readonly source: string;
  readonly flags: string;
}

/** Regex literals, and `new RegExp(…)` / `RegExp(…)` calls (their argument text), of one file. */
function regexesOf(file: string): { literals: Found[]; built: string[] } {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const literals: Found[] = [];
  const built: string[] = [];
  const where = (node: ts.Node) => `${relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const raw = node.getText();
      const end = raw.lastIndexOf("/");
      literals.push({ where: where(node), source: raw.slice(1, end), flags: raw.slice(end + 1) });
    }
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText() === "RegExp") {
      built.push(`${relative(ROOT, file)}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { literals, built };
}

const files = [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "mock-server"))];
const scanned = files.map(regexesOf);

/** RegExps built at run time: from constants only, with the pattern each one builds. */
const builtFromConstants: Record<string, Found> = {
  "src/emulation/python-text.ts: new RegExp(`^[${PY_WHITESPACE}]$`)": {
    where: "src/emulation/python-text.ts",
    source: `^[${PY_WHITESPACE}]$`,
    flags: "",
  },
  "mock-server/routes/hotkeys.ts: new RegExp(`^[a-zA-Z0-9+\\\\-${PY_WHITESPACE}[\\\\]\\\\\\\\;'\".,/\\`~!@#$%^&*()_={}|:<>?]+$`)": {
    where: "mock-server/routes/hotkeys.ts",
    source: `^[a-zA-Z0-9+\\-${PY_WHITESPACE}[\\]\\\\;'".,/\`~!@#$%^&*()_={}|:<>?]+$`,
    flags: "",
  },
};

const verdicts = new Map<string, Promise<string>>();

/** "safe", or why not; each pattern is checked once, and checks run side by side on recheck's agent. */
function verdict(found: Found): Promise<string> {
  // The automaton analysis is exact and takes no time limit; flags it cannot use are dropped (none change the complexity).
  const flags = found.flags.replace(/[^gimsuy]/g, "");
  const key = `/${found.source}/${flags}`;
  let known = verdicts.get(key);
  if (known === undefined) {
    known = check(found.source, flags, { checker: "automaton", timeout: null }).then((result) => {
      const detail = result.status === "vulnerable" ? ` (${result.complexity.type}, attack ${JSON.stringify(result.attack.pattern)})` : "";
      return result.status === "safe" ? "safe" : `${result.status}${detail}`;
    });
    verdicts.set(key, known);
  }
  return known;
}

/** The route patterns Express compiles, from the mock's app as it is built. */
function routePatterns(): Found[] {
  const store = new Store(loadSeed({}, "2024-01-01T00:00:00Z"));
  const app = createApp(
    { store, tokens: new TokenService(), strict: false },
    { journal: new Journal(), log: undefined, clock: systemClock, timeLimitMs: 1000, maxBodySize: 1024 },
  );
  const layers = (app as unknown as { _router: { stack: { regexp: RegExp }[] } })._router.stack;
  return layers.map((l) => ({ where: "express", source: l.regexp.source, flags: l.regexp.flags }));
}

const literals = scanned.flatMap((s) => s.literals);
const routes = routePatterns();

// Every pattern's analysis (a few hundred distinct patterns), in a hook with a timeout of its own: the tests
// below only read the verdicts. One pattern first: recheck starts its native agent on the first check, and
// checks asked before that agent answers start one agent each (its `check` tests for an agent before awaiting
// the start, recheck 4.5). All at once, that was a process per pattern, some 400 of them.
beforeAll(async () => {
  const [first, ...rest] = [...literals, ...Object.values(builtFromConstants), ...routes];
  await verdict(first!);
  await Promise.all(rest.map(verdict));
}, 180_000);

describe("regular expressions are linear-time", () => {
  test("there are patterns to check (the scan works)", () => {
    expect(literals.length).toBeGreaterThan(20);
  });

  test("every regex literal in src/ and mock-server/", async () => {
    const lines = await Promise.all(literals.map(async (f) => `${f.where} /${f.source}/${f.flags}: ${await verdict(f)}`));
    expect(lines.filter((line) => !line.endsWith(": safe"))).toEqual([]);
  });

  test("RegExps built at run time are built from constants, and are linear too", async () => {
    expect(scanned.flatMap((s) => s.built).sort()).toEqual(Object.keys(builtFromConstants).sort());
    for (const found of Object.values(builtFromConstants)) expect(`${found.where}: ${await verdict(found)}`).toBe(`${found.where}: safe`);
  });

  test("the route patterns Express compiles", async () => {
    const unsafe = (await Promise.all(routes.map(verdict))).filter((v) => v !== "safe");
    expect(routes.length).toBeGreaterThan(20);
    expect(unsafe).toEqual([]);
  });

  test("the checker tells a quadratic trim and an exponential pattern from linear ones", async () => {
    expect(await verdict({ where: "", source: "^\\s+|\\s+$", flags: "g" })).toMatch(/^vulnerable \(polynomial/);
    expect(await verdict({ where: "", source: "^(a+)+$", flags: "" })).toMatch(/^vulnerable \(exponential/);
    expect(await verdict({ where: "", source: "^\\s*[+-]?\\d+\\s*$", flags: "" })).toBe("safe");
  });
});
