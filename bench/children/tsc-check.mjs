// One cold type check, as `tsc -p <project>` does it, in this fresh process: the project's files checked by a new
// program, with TypeScript's own performance marks on. Prints { checkMs, instantiations, cpuMs } as JSON. The same measure
// as tsc's `--extendedDiagnostics` "Check time", without its rounding to 10 ms (a tenth of a literals file's check).
import { createRequire } from "node:module";

const ts = createRequire(import.meta.url)("typescript");
const [project] = process.argv.slice(2);
const config = ts.getParsedCommandLineOfConfigFile(project, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail(d) });
const fail = (d) => {
  process.stderr.write(ts.flattenDiagnosticMessageText(d.messageText, "\n") + "\n");
  process.exit(1);
};
ts.performance.enable();
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const problems = [...program.getSyntacticDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics()];
if (problems.length) fail(problems[0]);
// The process's own CPU (every thread: V8 compiles the checker on another core), to tell others' use of the machine apart.
const cpu = process.cpuUsage();
console.log(
  JSON.stringify({
    checkMs: ts.performance.getDuration("Check"),
    instantiations: program.getInstantiationCount(),
    cpuMs: (cpu.user + cpu.system) / 1000,
  }),
);
