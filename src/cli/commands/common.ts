import { InvalidArgumentError, Option, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { JsonValue } from "../../vocabulary/json.js";
import { CliUsageError } from "../errors.js";
import { collectParam, parseBody, type Params } from "../params.js";
import type { Session } from "../session.js";

/** What every command definition gets: how to run its action inside a session. */
export interface CommandKit {
  /** The action wrapper: a session for the run, dry-run output, errors to stderr, the exit code. */
  readonly run: (action: (session: Session) => Promise<void>) => Promise<void>;
}

/** `Examples:` after a command's help; each line is a command line without the `$ `. */
export function examples(command: CommandUnknownOpts, lines: readonly string[]): void {
  command.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}`);
}

/** `-p, --param key=value` (repeatable) and `--body <json|@file>`: the SDK method's keyword arguments. */
export class ParamFlags {
  #params: Params = {};
  #body: Params = {};

  constructor(command: CommandUnknownOpts, what = "a field of the request (value: JSON, text or @file)") {
    command
      .addOption(
        new Option("-p, --param <key=value>", `${what}; repeatable`).argParser((text) => {
          this.#params = collectParam(text, this.#params);
          return text;
        }),
      )
      .addOption(
        new Option("--body <json>", "a JSON object (or @file) of fields; --param wins over it").argParser((text) => {
          this.#body = parseBody(text);
          return text;
        }),
      );
  }

  get values(): Params {
    return { ...this.#body, ...this.#params };
  }
}

/** A field that must be a positive integer (project, task, page…), named as the flag that sets it. */
export function intParam(value: JsonValue | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new CliUsageError(`${flag}: expected a positive integer, found ${JSON.stringify(value)}`);
  }
  return value;
}

/** `--project <id>`, else `--param project=<id>`; required. */
export function projectOf(flag: number | undefined, params: Params, command: string): number {
  const project = flag ?? intParam(params["project"], "--param project");
  if (project === undefined) throw new CliUsageError(`${command} needs a project: pass --project <id>`);
  return project;
}

/** Positional ids: positive integers. */
export function idArgument(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`expected a positive integer id, found ${JSON.stringify(text)}`);
  }
  return n;
}

/** Keys taken out of the params (they became flags or path ids); the rest go to the server. */
export function without(params: Params, ...keys: string[]): Params {
  const out: Params = { ...params };
  for (const key of keys) delete out[key];
  return out;
}
