import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { prelude } from "./error-texts.js";

/*
 * A TypeScript language service over virtual files next to the type tests (one module per snippet),
 * compiled with the project's options: what an editor shows (completions, quick info, deprecation)
 * and what the compiler says (exact error texts) for a snippet.
 */

const root = join(import.meta.dirname, "..", "..");
const MARK = "/*|*/";

const PRELUDE = prelude();

export interface Completion {
  readonly name: string;
  readonly deprecated: boolean;
  readonly sortText: string;
}

export interface QuickInfo {
  readonly documentation: string;
  readonly tags: Readonly<Record<string, string>>;
}

export interface Editor {
  /** The completions at `/*|*\/` in `snippet`. */
  completions(snippet: string): Completion[];
  /** The deprecation text of a completion entry, or undefined. */
  deprecation(snippet: string, name: string): string | undefined;
  /** Quick info at each `/*|*\/` (just before an identifier): documentation and tags as text. */
  quickInfo(snippet: string): QuickInfo[];
  /** Every compiler error of `snippet`, flattened. */
  errors(snippet: string): string[];
  /**
   * Adds the snippets the tests will ask about, all at once. Each new snippet makes a new program,
   * whose checker works out the builder's types again (half a second a snippet); snippets added
   * together share one. Answers are the same either way: every snippet is a module of its own.
   */
  prepare(snippets: readonly string[]): void;
}

export function editor(): Editor {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  /** The probe modules: file name to text, and snippet to file name and marker positions. */
  const probes = new Map<string, string>();
  const loaded = new Map<string, { readonly file: string; readonly at: readonly number[] }>();
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...probes.keys()],
    getScriptVersion: () => "0",
    getScriptSnapshot: (f) => {
      const content = probes.get(f) ?? (ts.sys.fileExists(f) ? readFileSync(f, "utf8") : undefined);
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => ({ ...options, noEmit: true, noUnusedLocals: false }),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => probes.has(f) || ts.sys.fileExists(f),
    readFile: (f) => probes.get(f) ?? ts.sys.readFile(f),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  /** The snippet's probe module (added if new) and the positions of its markers. */
  const loadAll = (snippet: string): { readonly file: string; readonly at: readonly number[] } => {
    const known = loaded.get(snippet);
    if (known) return known;
    const parts = snippet.split(MARK);
    const at: number[] = [];
    let offset = PRELUDE.length;
    for (const part of parts.slice(0, -1)) at.push((offset += part.length));
    const file = join(root, "test", "types", `__probe_${loaded.size}__.ts`);
    probes.set(file, PRELUDE + parts.join(""));
    loaded.set(snippet, { file, at });
    return { file, at };
  };
  const load = (snippet: string) => {
    const { file, at } = loadAll(snippet);
    return { file, at: at[0] ?? -1 };
  };
  const tagText = (tags: readonly ts.JSDocTagInfo[] | undefined): Record<string, string> =>
    Object.fromEntries((tags ?? []).map((t) => [t.name, ts.displayPartsToString(t.text)]));
  return {
    completions(snippet) {
      const { file, at } = load(snippet);
      const list = service.getCompletionsAtPosition(file, at, { includeCompletionsWithInsertText: true });
      return (list?.entries ?? []).map((e) => ({
        name: e.name,
        deprecated: (e.kindModifiers ?? "").includes("deprecated"),
        sortText: e.sortText,
      }));
    },
    deprecation(snippet, name) {
      const { file, at } = load(snippet);
      const details = service.getCompletionEntryDetails(file, at, name, {}, undefined, {}, undefined);
      return tagText(details?.tags).deprecated;
    },
    quickInfo(snippet) {
      const { file, at } = loadAll(snippet);
      return at.map((position) => {
        const info = service.getQuickInfoAtPosition(file, position);
        return { documentation: ts.displayPartsToString(info?.documentation), tags: tagText(info?.tags) };
      });
    },
    errors(snippet) {
      return service.getSemanticDiagnostics(load(snippet).file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
    prepare(snippets) {
      for (const snippet of snippets) loadAll(snippet);
    },
  };
}
