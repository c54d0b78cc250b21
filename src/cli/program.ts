import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { actionCommands } from "./commands/actions.js";
import { resultCommands } from "./commands/annotations.js";
import type { CommandKit } from "./commands/common.js";
import { explainCommand } from "./commands/explain.js";
import { exportCommands } from "./commands/exports.js";
import { mockCommand } from "./commands/mock.js";
import { offlineCommands } from "./commands/offline.js";
import { projectCommands } from "./commands/projects.js";
import { taskCommands } from "./commands/tasks.js";
import { userCommands } from "./commands/users.js";
import { verifyCommand } from "./commands/verify.js";
import { draftCommands } from "./commands/drafts.js";
import { mlCommands } from "./commands/ml.js";
import { fileCommands } from "./commands/files.js";
import { viewCommands } from "./commands/views.js";
import { formatRequests } from "./dry-run.js";
import { describeFailure, EXIT, type ExitCode } from "./errors.js";
import type { CliIo } from "./io.js";
import { nonNegativeInt, positiveNumber } from "./params.js";
import { formats } from "./output.js";
import { Session } from "./session.js";
import { didYouMean } from "../vocabulary/nearest.js";

/** The package's folder and version, from the package.json above this file (in the sources or in dist/). */
function packageOf(): { readonly root: URL; readonly version: string } | undefined {
  for (let up = new URL("../../", import.meta.url); up.pathname !== "/"; up = new URL("../", up)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("package.json", up), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "dmq" && pkg.version) return { root: up, version: pkg.version };
    } catch {
      // not here: one folder up
    }
  }
  return undefined;
}

/** Where the CLI's walkthrough is on this machine: the package ships docs/ (a path a user can open, installed or cloned). */
function walkthrough(): string {
  const root = packageOf()?.root;
  return root === undefined ? "docs/cli.md in the dmq package" : fileURLToPath(new URL("docs/cli.md", root));
}

const DESCRIPTION = `dmq: Label Studio's Data Manager from the command line, shaped like the official SDK's CLI:
dmq <resource> <method> [--param key=value]… (JSON by default; --format table for people).`;

const FOOTER = `
The server and key come from --base-url / LABEL_STUDIO_URL and --api-key / LABEL_STUDIO_API_KEY
(a legacy token or a personal access token). Exit codes: 0 ok, 1 the server or the network failed,
2 the command line is wrong. Every command that talks to a server takes --dry-run: it prints the HTTP
requests, key masked, and sends nothing (verify and mock refuse it).
Walkthrough: ${walkthrough()}

Examples:
  $ dmq users whoami
  $ dmq tasks list --project 1 -w "total_annotations = 0" --order -created_at --format table
  $ dmq actions run delete_tasks --project 1 --include 3,4 --dry-run
  $ dmq explain body.json --code
  $ dmq mock --port 9000`;

/** Every command, with its output and errors going to `io`; `state.code` is the exit code. */
export function buildProgram(io: CliIo, state: { code: ExitCode }): Command<[], {}, {}> {
  const program = new Command("dmq")
    .description(DESCRIPTION)
    .version(packageOf()?.version ?? "unknown", "-V, --version", "print the version")
    .helpOption("-h, --help", "show help (every command has its own, with examples)")
    .addOption(new Option("--base-url <url>", "server URL, e.g. http://127.0.0.1:8080 (default: $LABEL_STUDIO_URL)"))
    .addOption(new Option("--api-key <key>", "legacy token or personal access token (default: $LABEL_STUDIO_API_KEY)"))
    .addOption(new Option("--timeout <seconds>", "time limit of each request attempt (default 5)").argParser(positiveNumber))
    .addOption(
      new Option("--max-retries <n>", "retries of a failure that may pass (5xx, 429, no answer; default 2)").argParser(nonNegativeInt),
    )
    .addOption(new Option("--format <format>", "output format").choices(formats).default("json" as const))
    .addOption(new Option("--dry-run", "print the HTTP request (key masked) instead of sending it"))
    .exitOverride()
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showSuggestionAfterError(true)
    .addHelpText("after", FOOTER);

  const kit: CommandKit = {
    run: async (action) => {
      const session = new Session(io, { ...program.opts(), formatGiven: program.getOptionValueSource("format") === "cli" });
      try {
        await action(session);
      } catch (error) {
        if (session.dryRun?.done) {
          const requests = session.dryRun.requests;
          io.stdout(`${formatRequests(requests, session.format)}\n`);
          return;
        }
        const { code, text } = describeFailure(error);
        state.code = code;
        io.stderr(`dmq ${commandPath(currentCommand)}: ${text}\n`);
      }
    },
  };
  let currentCommand: CommandUnknownOpts = program;
  program.hook("preAction", (_root, command) => {
    currentCommand = command;
  });

  userCommands(program, kit);
  projectCommands(program, kit);
  taskCommands(program, kit);
  resultCommands(program, kit);
  draftCommands(program, kit);
  mlCommands(program, kit);
  fileCommands(program, kit);
  viewCommands(program, kit);
  actionCommands(program, kit);
  exportCommands(program, kit);
  explainCommand(program, kit);
  offlineCommands(program, kit);
  mockCommand(program, kit);
  verifyCommand(program, kit);
  summarizeResources(program);
  suggestChoices(program);
  configureOutput(program, io);
  return program;
}

/**
 * A resource's line in `dmq --help` is its title and its methods as registered ("projects: list, create, …"),
 * so a method added later is listed without anyone restating it.
 */
function summarizeResources(program: CommandUnknownOpts): void {
  for (const group of program.commands) {
    if (group.commands.length > 0) group.description(`${group.description()}: ${group.commands.map((c) => c.name()).join(", ")}`);
  }
}

/**
 * A value outside an option's or argument's choices names the nearest choice too (`-t csv` → CSV: the server's
 * export types are case-sensitive, `exportType=csv` is its 500). Commander's own check stays; this adds to its message.
 */
function suggestChoices(command: CommandUnknownOpts): void {
  for (const slot of [...command.options, ...command.registeredArguments]) {
    const { argChoices: choices, parseArg: parse } = slot;
    if (choices === undefined || parse === undefined) continue;
    slot.parseArg = <T>(value: string, previous: T): T => {
      try {
        return parse(value, previous);
      } catch (error) {
        const near = didYouMean(value, choices);
        if (!(error instanceof InvalidArgumentError) || near === "") throw error;
        throw new InvalidArgumentError(`${error.message.replace(/\.$/, "")}${near}.`);
      }
    };
  }
  for (const sub of command.commands) suggestChoices(sub);
}

function commandPath(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** Commander's own errors (unknown flag, missing argument, bad choice) in the CLI's voice, on stderr. */
function configureOutput(command: CommandUnknownOpts, io: CliIo): void {
  const path = commandPath(command);
  command.configureOutput({
    writeOut: (text) => io.stdout(text),
    writeErr: (text) => io.stderr(text),
    outputError: (text, write) =>
      write(`dmq${path ? ` ${path}` : ""}: ${text.replace(/^error: /, "").trimEnd()}\n(see: dmq${path ? ` ${path}` : ""} --help)\n`),
  });
  for (const sub of command.commands) configureOutput(sub, io);
}

/** Runs the CLI with `argv` (without node and the script); resolves to the exit code. */
export async function runProgram(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const state: { code: ExitCode } = { code: EXIT.ok };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return state.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for (or given because a group was called without a method) and --version.
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT.ok;
      return EXIT.usage;
    }
    const { code, text } = describeFailure(error);
    io.stderr(`dmq: ${text}\n`);
    return code;
  }
}
