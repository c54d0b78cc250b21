import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cycles, importsOf, LAYERED_ROOTS, layerOf, layers, modulesUnder, ORACLE, violations } from "./layers.js";

const root = join(import.meta.dirname, "..", "..");

describe("the layer map", () => {
  // Read once for both checks (each module's imports are parsed once, too).
  const layered = modulesUnder(root, [...LAYERED_ROOTS]);
  const modules = [...layered, ...modulesUnder(root, [ORACLE])];

  test('no import goes against the layering of README.md "Layout"', () => {
    expect(modules.length).toBeGreaterThan(150);
    expect(violations(modules)).toEqual([]);
  });

  test("no import cycle anywhere, inside a layer included (type-only imports count)", () => {
    expect(cycles(layered)).toEqual([]);
  });

  test('README.md "Layout" names every layer', () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const layout = readme.slice(readme.indexOf("## Layout"));
    const named = Object.keys(layers).map((l) => l.replace(/\.ts$/, "").replace(/^src\/(selection|index)$/, "src"));
    expect(named.filter((l) => !layout.includes(`\`${l}`))).toEqual([]);
  });
});

describe("the checker", () => {
  const mod = (path: string, text: string) => ({ path, text });

  test("reads static, re-exported, dynamic and type-only imports", () => {
    const refs = importsOf(
      mod(
        "src/a.ts",
        'import a from "./a.js";\nimport type { B } from "./b.js";\nexport * from "./c.js";\nexport type { D } from "./d.js";\n' +
          'const e = await import("./e.js");\ntype F = typeof import("./f.js");\nimport { type G } from "./g.js";\n',
      ),
    );
    expect(refs.map((r) => [r.specifier, r.line, r.typeOnly])).toEqual([
      ["./a.js", 1, false],
      ["./b.js", 2, true],
      ["./c.js", 3, false],
      ["./d.js", 4, true],
      ["./e.js", 5, false],
      ["./f.js", 6, true],
      ["./g.js", 7, false],
    ]);
  });

  test("places paths in the most specific layer", () => {
    expect(layerOf("src/vocabulary/columns.ts")).toBe("src/vocabulary");
    expect(layerOf("src/selection.ts")).toBe("src/selection.ts");
    expect(layerOf("mock-server/routes/tasks.ts")).toBe("mock-server");
    expect(layerOf("src/new.ts")).toBeUndefined();
    expect(layerOf("test/unit/x.ts")).toBeUndefined();
  });

  test("refuses upward imports, type-only ones included", () => {
    expect(violations([mod("src/vocabulary/columns.ts", 'import type { Q } from "../query/nodes.js";')])).toEqual([
      'src/vocabulary/columns.ts:1 imports "../query/nodes.js": src/vocabulary may not import src/query (README "Layout")',
    ]);
    expect(violations([mod("src/semantics/x.ts", 'import { createClient } from "../client/index.js";')])).toHaveLength(1);
    expect(violations([mod("src/wire/x.ts", 'import { evaluate } from "../semantics/index.js";')])).toHaveLength(1);
  });

  test("lets only the CLI and the testing kit reach the mock server; never the playground", () => {
    expect(violations([mod("src/client/x.ts", 'const m = await import("../../mock-server/index.js");')])).toEqual([
      'src/client/x.ts:1 imports "../../mock-server/index.js": src/client may not import mock-server (README "Layout")',
    ]);
    expect(violations([mod("src/cli/commands/mock.ts", 'const m = await import("../../../mock-server/main.js");')])).toEqual([]);
    expect(violations([mod("playground/src/data.ts", 'import type { MockSeed } from "../../mock-server/index.js";')])).toEqual([
      'playground/src/data.ts:1 imports "../../mock-server/index.js": playground may not import mock-server (README "Layout")',
    ]);
    expect(violations([mod("playground/src/data.ts", 'import { loadSeed } from "../../src/contract/seed.js";')])).toEqual([]);
  });

  test("finds cycles: two modules, a longer ring, a module importing itself; type-only imports count", () => {
    expect(
      cycles([mod("src/query/a.ts", 'import type { B } from "./b.js";'), mod("src/query/b.ts", 'import { a } from "./a.js";')]),
    ).toEqual(["src/query/a.ts:1 -> src/query/b.ts:1 -> src/query/a.ts"]);
    const ring = [
      mod("mock-server/a.ts", 'import { b } from "./b.js";'),
      mod("mock-server/b.ts", '\nimport { c } from "./sub/c.js";'),
      mod("mock-server/sub/c.ts", 'export type X = import("../a.js").A;'),
      // Outside the ring: imports into it, none back.
      mod("mock-server/d.ts", 'import { a } from "./a.js";'),
    ];
    expect(cycles(ring)).toEqual([
      "mock-server/a.ts:1 -> mock-server/b.ts:2 -> mock-server/sub/c.ts:1 -> mock-server/a.ts (3 modules in this knot)",
    ]);
    expect(cycles([mod("src/wire/self.ts", 'export * from "./self.js";')])).toEqual(["src/wire/self.ts:1 -> src/wire/self.ts"]);
  });

  test("an import chain without a way back is no cycle", () => {
    const chain = [
      mod("src/wire/a.ts", 'import { b } from "./b.js";\nimport { c } from "./c.js";'),
      mod("src/wire/b.ts", 'import { c } from "./c.js";'),
      mod("src/wire/c.ts", 'import { v } from "../vocabulary/v.js";'),
    ];
    expect(cycles(chain)).toEqual([]);
  });

  test("refuses imports of tests from the layers, and modules in no layer", () => {
    expect(violations([mod("mock-server/x.ts", 'import { f } from "../test/helpers/f.js";')])).toEqual([
      'mock-server/x.ts:1 imports "../test/helpers/f.js": mock-server may import only layered modules, not test/helpers/f.ts',
    ]);
    expect(violations([mod("src/stray.ts", "export {};")])).toEqual([
      'src/stray.ts: in no layer (add it to the map and to README "Layout")',
    ]);
  });

  test("lets the conformance oracle import types from src, never values", () => {
    const oracle = (text: string) => violations([mod(`${ORACLE}/x.ts`, text)]);
    expect(oracle('import type { QueryNode } from "../../../src/query/nodes.js";\nimport { step } from "./steps.js";')).toEqual([]);
    expect(oracle('import { evaluate } from "../../../src/semantics/index.js";')).toEqual([
      `${ORACLE}/x.ts:1 imports "../../../src/semantics/index.js": the conformance oracle imports only types from src (import type)`,
    ]);
    expect(oracle('import { type QueryNode } from "../../../src/query/nodes.js";')).toHaveLength(1);
    expect(oracle('import { bodies } from "../generators/bodies.js";')).toEqual([
      `${ORACLE}/x.ts:1 imports "../generators/bodies.js": the conformance oracle imports values only from itself`,
    ]);
  });
});
