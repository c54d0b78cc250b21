import { Option, type Command } from "@commander-js/extra-typings";
import { match } from "ts-pattern";
import { customAction } from "../../query/builder.js";
import { positiveInt } from "../params.js";
import { resume } from "../query/builder.js";
import { QueryFlags, refuseLookalikes } from "../query/flags.js";
import { CliUsageError } from "../errors.js";
import { didYouMean } from "../../vocabulary/nearest.js";
import { endpointKeys } from "../../wire/parse-keys.js";
import { columnsTable, operatorsTable } from "../tables.js";
import { examples, ParamFlags, projectOf, type CommandKit } from "./common.js";

/** Commands that need no server: the vocabulary tables and the body a set of query flags makes. */
export function offlineCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const columns = program.command("columns").description("every task column: kind, type, edition, operators (no server)");
  columns.action(() => kit.run(async (session) => session.table(columnsTable())));
  examples(columns, ["dmq columns"]);

  const operators = program.command("operators").description("every filter operator and how conditions spell it (no server)");
  operators.action(() => kit.run(async (session) => session.table(operatorsTable())));
  examples(operators, ["dmq operators"]);

  const body = program
    .command("body")
    .description("the documented body the query flags make (or the action request with --request); no server")
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt).default(1))
    .addOption(new Option("--request <action>", "print the POST /api/dm/actions/ request of this action instead"));
  const query = new QueryFlags(body);
  const fields = new ParamFlags(body, "an extra action field (with --request)");
  body.action((options) =>
    kit.run(async (session) => {
      const action = options.request;
      const params = query.takeParams(fields.values);
      const [extra] = Object.keys(params);
      if (action === undefined && extra !== undefined) {
        throw new CliUsageError(
          `--param ${extra}: not a key of the body${didYouMean(extra, endpointKeys.tasks)}; an action's own field goes with --request <action>`,
        );
      }
      if (action !== undefined) refuseLookalikes(params, action);
      const use = action === undefined ? ({ for: "tasks" } as const) : ({ for: "action", action } as const);
      const built = await query.build(projectOf(options.project, {}, "body"), use, session.io.readStdin);
      const selection = built.selection;
      const out =
        action === undefined ? selection.toJSON() : resume(selection).toRequest(customAction(action), { ...built.fields, ...params });
      // One JSON document, the body as sent: pretty by default, on one line with jsonl; no rows to make a table or CSV of.
      match(session.format)
        .with("json", "jsonl", () => session.print(out))
        .with("table", "csv", (format) => {
          throw new CliUsageError(
            `--format ${format}: body prints the request body, one JSON document, which has no ${format} form; use --format json (the default) or jsonl (one line)`,
          );
        })
        .exhaustive();
    }),
  );
  examples(body, [
    'dmq body -w "completed_at > 2024-01-01T00:00:00Z" --order -created_at --exclude 1,2',
    "dmq body --project 2 --view 7 --request predictions_to_annotations -p model_version=v1",
    'dmq body -w "data.score@Number between 0.5 and 1" | dmq explain --code',
  ]);
}
