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
  // The stored records and the server's serializers as data: the model each resource is, its seed loader.
  "src/contract": ["src/vocabulary"],
  "src/wire": ["src/vocabulary", "src/emulation", "src/query", "src/contract"],
  "src/semantics": ["src/vocabulary", "src/emulation", "src/query", "src/contract", "src/wire"],
  "src/client": ["src/vocabulary", "src/emulation", "src/query", "src/contract", "src/wire"],
  // The package's entry points: `selection()` and what `dmq` exports (the semantics engine is `dmq/semantics`).
  "src/selection.ts": ["src/vocabulary", "src/query", "src/wire"],
  "src/index.ts": ["src/vocabulary", "src/emulation", "src/query", "src/contract", "src/wire", "src/client", "src/selection.ts"],
  "mock-server": ["src/vocabulary", "src/emulation", "src/query", "src/contract", "src/wire", "src/semantics"],
  // Nothing in src/ but the CLI imports the mock server.
  "src/cli": [
    "src/vocabulary",
    "src/emulation",
    "src/query",
    "src/contract",
    "src/wire",
    "src/semantics",
    "src/client",
    "src/selection.ts",
    "mock-server",
    "testing",
  ],
  // The testing kit ("dmq/testing"): targets (an in-process mock or a real server) and seeding through the client.
  testing: [
    "src/vocabulary",
    "src/emulation",
    "src/query",
    "src/contract",
    "src/wire",
    "src/client",
    "src/selection.ts",
    "src/index.ts",
    "mock-server",
  ],
  // The browser page: the builder, the engine and the seed loader; never the mock server (it reaches it only
  // over HTTP), the client's HTTP or the CLI.
  playground: ["src/vocabulary", "src/emulation", "src/query", "src/contract", "src/wire", "src/semantics", "src/selection.ts"],
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
  // The layer map and the cycle check read the same modules: each is parsed once.
  const known = parsed.get(module);
  if (known) return known;
  const refs = parseImports(module);
  parsed.set(module, refs);
  return refs;
}

const parsed = new WeakMap<Module, ImportRef[]>();

function parseImports(module: Module): ImportRef[] {
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

/**
 * Every import cycle among `modules`, one line each: `a.ts:3 -> b.ts:7 -> a.ts` (the file and line of
 * each import). Type-only imports count: they tie the modules' types, and so their edits, together.
 * Modules of one strongly connected component show one cycle: the shortest one through the first of them.
 */
export function cycles(modules: readonly Module[]): string[] {
  const known = new Set(modules.map((m) => m.path));
  const edges = new Map<string, { to: string; line: number }[]>();
  for (const module of modules) {
    const out: { to: string; line: number }[] = [];
    for (const ref of importsOf(module)) {
      const to = resolveFrom(module.path, ref.specifier);
      if (to !== undefined && known.has(to) && !out.some((e) => e.to === to)) out.push({ to, line: ref.line });
    }
    edges.set(module.path, out);
  }
  const found: string[] = [];
  for (const component of stronglyConnected([...edges.keys()], (v) => edges.get(v)!.map((e) => e.to))) {
    const self = component.length === 1 && edges.get(component[0]!)!.some((e) => e.to === component[0]);
    if (component.length === 1 && !self) continue;
    const inside = new Set(component);
    const start = [...component].sort()[0]!;
    // Breadth first from `start` back to it, inside the component.
    const via = new Map<string, { from: string; line: number }>();
    const queue = [start];
    let back: { from: string; line: number } | undefined;
    for (let i = 0; i < queue.length && back === undefined; i++) {
      const from = queue[i]!;
      for (const { to, line } of edges.get(from)!) {
        if (to === start) {
          back = { from, line };
          break;
        }
        if (inside.has(to) && !via.has(to)) {
          via.set(to, { from, line });
          queue.push(to);
        }
      }
    }
    const steps = [`${back!.from}:${back!.line}`];
    for (let at = back!.from; at !== start; ) {
      const step = via.get(at)!;
      steps.unshift(`${step.from}:${step.line}`);
      at = step.from;
    }
    found.push(`${steps.join(" -> ")} -> ${start}${component.length > 2 ? ` (${component.length} modules in this knot)` : ""}`);
  }
  return found.sort();
}

/** Tarjan's strongly connected components, iteratively (no recursion limit on deep import chains). */
function stronglyConnected(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next(frame.node);
      if (frame.edge < targets.length) {
        const to = targets[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
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
