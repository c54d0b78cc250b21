#!/usr/bin/env node
import { isMain } from "../../mock-server/is-main.js";
import { QueryBuildError } from "../query/rules.js";
import { isActionId } from "../vocabulary/actions.js";
import { customAction } from "../query/builder.js";
import { CliUsageError } from "./conditions.js";
import { selectionFromArgs } from "./selection-args.js";
import { actionsTable, columnsTable, operatorsTable } from "./tables.js";
import { createClient } from "../client/index.js";
import { positiveInt } from "./selection-args.js";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const USAGE = `dmq — Label Studio Data Manager queries

Usage:
  dmq body    [selection flags] [--request <action>]   print the documented body (or the action request)
  dmq run <action> -p <id> [selection flags]         perform an action; prints the server's result
  dmq list -p <id> [selection flags] [--limit N] [--json]
                                                     the tasks a selection lists, in order
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
Server: --base-url / LABEL_STUDIO_URL and --api-key / LABEL_STUDIO_API_KEY (legacy token or personal access token).
Values: numbers, ISO datetimes, true/false, lists as a,b,c or JSON, ranges as min..max.
Example:
  dmq body -p 1 -w "tasks:completed_at greater 2024-01-01T00:00:00Z" --order -tasks:created_at --exclude 1,2`;

const serverOptions = { "base-url": { type: "string" }, "api-key": { type: "string" } } as const;

/** The client from --base-url/--api-key or the environment, and the --project id. */
function connect(argv: readonly string[], io: CliIo) {
  const flag = (name: string) => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return undefined;
    const arg = argv[i] as string;
    return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[i + 1];
  };
  const projectFlag = flag("project") ?? (argv.includes("-p") ? argv[argv.indexOf("-p") + 1] : undefined);
  const baseUrl = flag("base-url") ?? io.env.LABEL_STUDIO_URL;
  const apiKey = flag("api-key") ?? io.env.LABEL_STUDIO_API_KEY;
  const client = createClient({ ...(baseUrl === undefined ? {} : { baseUrl }), ...(apiKey === undefined ? {} : { apiKey }) });
  return { client, project: positiveInt(projectFlag, "--project") };
}

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
      case "run": {
        const [action, ...flags] = rest;
        if (action === undefined || action.startsWith("-")) throw new CliUsageError("run: name the action, e.g. dmq run delete_tasks -p 1 --include 3");
        const { client, project } = connect(flags, io);
        const { selection, params } = selectionFromArgs(flags, client.project(project), serverOptions);
        const result = await selection.run(isActionId(action) ? action : customAction(action), params);
        io.stdout(JSON.stringify(result, null, 2));
        return 0;
      }
      case "list": {
        const extra = { ...serverOptions, limit: { type: "string" }, json: { type: "boolean" } } as const;
        const { client, project } = connect(rest, io);
        const { selection, values } = selectionFromArgs(rest, client.project(project), extra);
        const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : positiveInt(values.limit as string, "--limit");
        const tasks: unknown[] = [];
        for await (const task of client.tasks.list({ project, query: selection })) {
          if (tasks.length >= limit) break;
          tasks.push(task);
        }
        if (values.json) io.stdout(JSON.stringify(tasks, null, 2));
        else for (const t of tasks as { id: number; inner_id?: number; total_annotations?: number; completed_at?: string | null }[]) {
          io.stdout(`${t.id}\tinner_id=${t.inner_id ?? ""}\tannotations=${t.total_annotations ?? ""}\tcompleted_at=${t.completed_at ?? ""}`);
        }
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

if (isMain(import.meta.url)) {
  const code = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(`${t}\n`),
    stderr: (t) => process.stderr.write(`${t}\n`),
    env: process.env,
  });
  if (code !== 0) process.exitCode = code;
}
