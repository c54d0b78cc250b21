#!/usr/bin/env node
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { QueryBuildError } from "../query/rules.js";
import { isActionId } from "../vocabulary/actions.js";
import { customAction } from "../query/builder.js";
import { CliUsageError } from "./conditions.js";
import { selectionFromArgs } from "./selection-args.js";
import { actionsTable, columnsTable, operatorsTable } from "./tables.js";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const USAGE = `dmq — Label Studio Data Manager queries

Usage:
  dmq body    [selection flags] [--request <action>]   print the documented body (or the action request)
  dmq columns | operators | actions                  print the vocabulary
  dmq mock    [--port 8080] [--host 127.0.0.1] [--data seed.json] [--persist db.json] [--strict]
                                                     run the mock server (same as npm start)
Selection flags (applied in order, with the builder's rules):
  -p, --project <id>
  -w, --where "<column>[@Type] <operator> [value]"   start the filter set
      --and / --or "<condition>"                     add a line (one conjunction per set)
      --child "<condition>"                          AND a condition into the current line
      --order [-]tasks:<column>                      order (one key)
      --include 1,2   --exclude 3,4   --all          selected items
      --view <id>                                    take everything from a saved view
      --param key=value                              extra action body field (JSON or text)
Values: numbers, ISO datetimes, true/false, lists as a,b,c or JSON, ranges as min..max.
Example:
  dmq body -p 1 -w "tasks:completed_at greater 2024-01-01T00:00:00Z" --order -tasks:created_at --exclude 1,2`;

/** Runs the CLI; returns the exit code (0 ok, 1 failure, 2 usage). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "body": {
        const { selection, params, values } = selectionFromArgs(rest, undefined, { request: { type: "string" } });
        const action = values.request as string | undefined;
        const out = action === undefined ? selection.toJSON() : selection.toRequest(isActionId(action) ? action : customAction(action), params);
        io.stdout(JSON.stringify(out, null, 2));
        return 0;
      }
      case "columns":
        io.stdout(columnsTable());
        return 0;
      case "operators":
        io.stdout(operatorsTable());
        return 0;
      case "actions":
        io.stdout(actionsTable());
        return 0;
      case "mock": {
        const { runMockCli } = await import("../../mock-server/main.js");
        await runMockCli([...rest], io.env);
        return 0;
      }
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.stderr(`dmq: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof CliUsageError || error instanceof QueryBuildError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`dmq ${command}: ${(error as Error).message}`);
      return 2;
    }
    io.stderr(`dmq ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function isMain(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const code = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(`${t}\n`),
    stderr: (t) => process.stderr.write(`${t}\n`),
    env: process.env,
  });
  if (code !== 0) process.exitCode = code;
}
