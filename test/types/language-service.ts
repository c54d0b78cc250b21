import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/*
 * A TypeScript language service over one virtual file next to the type tests, compiled with the
 * project's options: what an editor shows (completions, quick info, deprecation) and what the
 * compiler says (exact error texts) for a snippet.
 */

const root = join(import.meta.dirname, "..", "..");
const probe = join(root, "test", "types", "__probe__.ts");
const MARK = "/*|*/";

const PRELUDE = `import { condition, customAction, isOrderKey, selection } from "../../src/index.js";
import type { AndSelection, ProjectHandle } from "../../src/index.js";
declare const handle: ProjectHandle;
declare const flag: boolean;
`;

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
}

export function editor(): Editor {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  let text = PRELUDE;
  let version = 0;
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [probe],
    getScriptVersion: (f) => (f === probe ? String(version) : "0"),
    getScriptSnapshot: (f) => {
      const content = f === probe ? text : ts.sys.fileExists(f) ? readFileSync(f, "utf8") : undefined;
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => ({ ...options, noEmit: true, noUnusedLocals: false }),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => f === probe || ts.sys.fileExists(f),
    readFile: (f) => (f === probe ? text : ts.sys.readFile(f)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  /** Loads the snippet; the positions of its markers. */
  const loadAll = (snippet: string): number[] => {
    const parts = snippet.split(MARK);
    const at: number[] = [];
    let offset = PRELUDE.length;
    for (const part of parts.slice(0, -1)) at.push((offset += part.length));
    text = PRELUDE + parts.join("");
    version++;
    return at;
  };
  const load = (snippet: string): number => loadAll(snippet)[0] ?? -1;
  const tagText = (tags: readonly ts.JSDocTagInfo[] | undefined): Record<string, string> =>
    Object.fromEntries((tags ?? []).map((t) => [t.name, ts.displayPartsToString(t.text)]));
  return {
    completions(snippet) {
      const at = load(snippet);
      const list = service.getCompletionsAtPosition(probe, at, { includeCompletionsWithInsertText: true });
      return (list?.entries ?? []).map((e) => ({ name: e.name, deprecated: (e.kindModifiers ?? "").includes("deprecated"), sortText: e.sortText }));
    },
    deprecation(snippet, name) {
      const at = load(snippet);
      const details = service.getCompletionEntryDetails(probe, at, name, {}, undefined, {}, undefined);
      return tagText(details?.tags).deprecated;
    },
    quickInfo(snippet) {
      return loadAll(snippet).map((at) => {
        const info = service.getQuickInfoAtPosition(probe, at);
        return { documentation: ts.displayPartsToString(info?.documentation), tags: tagText(info?.tags) };
      });
    },
    errors(snippet) {
      load(snippet);
      return service.getSemanticDiagnostics(probe).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  };
}
