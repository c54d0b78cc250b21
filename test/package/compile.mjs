/*
 * `node compile.mjs <typescript package dir> <tsconfig>...`: what `tsc -p <tsconfig> --pretty false` reports for
 * each config, with the given TypeScript, in one process. Printed as JSON: `{ "<tsconfig>": { "code", "stdout" } }`,
 * code 0 when there is nothing to report, else 2 (what tsc exits with for errors under noEmit).
 *
 * The configs are compiled one after the other; like `tsc -b` (its getSourceFile cache), the programs share the
 * declaration files they read (lib, @types, the package's .d.ts), parsed once per module format, instead of each
 * compiler process parsing and binding them again. Each program still checks everything its own options make it check.
 */
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const [typescriptDir, ...configs] = process.argv.slice(2);
const ts = createRequire(join(resolve(typescriptDir), "package.json"))("./lib/typescript.js");

/** Declaration files by name, language version and module format (what decides how they parse). */
const declarations = new Map();

function hostFor(options) {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (!fileName.endsWith(".d.ts") || shouldCreateNewSourceFile)
      return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    const setting =
      typeof languageVersionOrOptions === "object"
        ? `${languageVersionOrOptions.languageVersion}:${languageVersionOrOptions.impliedNodeFormat}`
        : String(languageVersionOrOptions);
    const key = `${fileName}\0${setting}`;
    let file = declarations.get(key);
    if (file === undefined) {
      file = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
      if (file !== undefined) declarations.set(key, file);
    }
    return file;
  };
  return host;
}

const results = {};
for (const config of configs) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(config),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (parsed === undefined) {
    results[config] = { code: 1, stdout: `cannot read ${config}` };
    continue;
  }
  const host = hostFor(parsed.options);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    configFileParsingDiagnostics: parsed.errors,
  });
  const diagnostics = [...program.getConfigFileParsingDiagnostics(), ...ts.getPreEmitDiagnostics(program)];
  const stdout = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => "\n",
  });
  results[config] = { code: diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error) ? 2 : 0, stdout };
}
process.stdout.write(JSON.stringify(results));
