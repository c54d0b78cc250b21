import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import ts from "typescript";

/**
 * The layering of README.md "Layout", bottom to top: a module may import its own layer and the
 * layers listed for it, nothing else. Type-only imports count too: a type from an upper layer ties
 * a lower one to it all the same.
 */
export const layers = {
  "src/vocabulary": [],
  "src/emulation": ["src/vocabulary"],
  "src/query": ["src/vocabulary"],
  "src/wire": ["src/vocabulary", "src/emulation", "src/query"],
  "src/semantics": ["src/vocabulary", "src/emulation", "src/query", "src/wire"],
  "src/client": ["src/vocabulary", "src/emulation", "src/query", "src/wire"],
  // The package's entry points: `selection()` and what `dmq` exports (the semantics engine is `dmq/semantics`).
  "src/selection.ts": ["src/vocabulary", "src/query", "src/wire"],
  "src/index.ts": ["src/vocabulary", "src/emulation", "src/query", "src/wire", "src/client", "src/selection.ts"],
  "mock-server": ["src/vocabulary", "src/emulation", "src/query", "src/wire", "src/semantics"],
  // Nothing in src/ but the CLI imports the mock server.
  "src/cli": [
    "src/vocabulary",
    "src/emulation",
    "src/query",
    "src/wire",
    "src/semantics",
    "src/client",
    "src/selection.ts",
    "mock-server",
    "testing",
  ],
  // The testing kit ("dmq/testing"): targets (an in-process mock or a real server) and seeding through the client.
  testing: ["src/vocabulary", "src/emulation", "src/query", "src/wire", "src/client", "src/selection.ts", "src/index.ts", "mock-server"],
  // The browser page: the builder, the engine and the mock's seed format; never the client's HTTP or the CLI.
  playground: ["src/vocabulary", "src/emulation", "src/query", "src/wire", "src/semantics", "src/selection.ts", "mock-server"],
} as const satisfies Record<string, readonly string[]>;

export type Layer = keyof typeof layers;

/** The directories whose every module must belong to a layer. */
export const LAYERED_ROOTS = ["src", "mock-server", "playground", "testing"] as const;

/** The conformance tests' independent model of the server: it may take types from the code under test, never values. */
export const ORACLE = "test/conformance/oracle";

export interface ImportRef {
  readonly line: number;
  readonly specifier: string;
  /** `import type`, `export type … from`, `import("…")` in a type: erased, the module is never loaded. */
  readonly typeOnly: boolean;
}

export interface Module {
  /** Path from the repository root, with `/`. */
  readonly path: string;
  readonly text: string;
}

/**
 * Every import, re-export and dynamic `import()` of a module. `import { type A }` is not type-only:
 * under verbatimModuleSyntax it still loads the module.
 */
export function importsOf(module: Module): ImportRef[] {
  const source = ts.createSourceFile(module.path, module.text, ts.ScriptTarget.Latest, true);
  const refs: ImportRef[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined, typeOnly: boolean) => {
    if (specifier === undefined || !ts.isStringLiteralLike(specifier)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    refs.push({ line, specifier: specifier.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

/** The layer a path belongs to (the longest matching key), if any. */
export function layerOf(path: string): Layer | undefined {
  let best: Layer | undefined;
  for (const key of Object.keys(layers) as Layer[]) {
    const inside = key.endsWith(".ts") ? path === key : path.startsWith(`${key}/`);
    if (inside && (best === undefined || key.length > best.length)) best = key;
  }
  return best;
}

/** Where a relative specifier points, from the root, with the `.ts` of a `.js` specifier. */
function resolveFrom(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, ".ts");
}

/** Every import that goes against the layering, one line each: `file:line imports "spec": why`. */
export function violations(modules: readonly Module[]): string[] {
  const found: string[] = [];
  for (const module of modules) {
    const layer = layerOf(module.path);
    const oracle = module.path.startsWith(`${ORACLE}/`);
    if (layer === undefined) {
      if (LAYERED_ROOTS.some((r) => module.path.startsWith(`${r}/`)))
        found.push(`${module.path}: in no layer (add it to the map and to README "Layout")`);
      if (!oracle) continue;
    }
    for (const ref of importsOf(module)) {
      const to = resolveFrom(module.path, ref.specifier);
      if (to === undefined) continue;
      const where = `${module.path}:${ref.line} imports "${ref.specifier}"`;
      const toLayer = layerOf(to);
      if (oracle) {
        if (ref.typeOnly || to.startsWith(`${ORACLE}/`)) continue;
        found.push(
          toLayer !== undefined
            ? `${where}: the conformance oracle imports only types from src (import type)`
            : `${where}: the conformance oracle imports values only from itself`,
        );
      } else if (toLayer === undefined) {
        found.push(`${where}: ${layer} may import only layered modules, not ${to}`);
      } else if (toLayer !== layer && !(layers[layer!] as readonly string[]).includes(toLayer)) {
        found.push(`${where}: ${layer} may not import ${toLayer} (README "Layout")`);
      }
    }
  }
  return found;
}

/** The TypeScript modules under `dirs` of `root`. */
export function modulesUnder(root: string, dirs: readonly string[]): Module[] {
  return dirs.flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[])
      .filter((f) => /\.(ts|mts|cts)$/.test(f) && !f.endsWith(".d.ts"))
      .sort()
      .map((f) => {
        const path = relative(root, join(root, dir, f))
          .split(sep)
          .join("/");
        return { path, text: readFileSync(join(root, path), "utf8") };
      }),
  );
}
