import { Option, type Command } from "@commander-js/extra-typings";
import type { ViewDataInput } from "../../client/types.js";
import type { JsonValue } from "../../vocabulary/json.js";
import { CliUsageError } from "../errors.js";
import { positiveInt, type Params } from "../params.js";
import { QueryFlags } from "../query/flags.js";
import { examples, ParamFlags, projectOf, type CommandKit } from "./common.js";
import { recordCommands } from "./records.js";

const COLUMNS = ["id", "project", "order", "data"];

/** `--param data=…` and `--title`: the view's data (title, hiddenColumns…). */
function viewData(params: Params, title: string | undefined): ViewDataInput | undefined {
  const data: JsonValue | undefined = params["data"];
  if (data !== undefined && (typeof data !== "object" || data === null || Array.isArray(data))) {
    throw new CliUsageError(`--param data: expected a JSON object (title, hiddenColumns…), found ${JSON.stringify(data)}`);
  }
  if (data === undefined && title === undefined) return undefined;
  return { ...(data as ViewDataInput | undefined), ...(title === undefined ? {} : { title }) };
}

export function viewCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("views").description("saved Data Manager views: list, get, create, update, delete");
  examples(group, ["dmq views list --project 1", 'dmq views create --project 1 --title Unlabeled -w "total_annotations = 0"']);

  const list = group
    .command("list")
    .description("the views of a project (or of every project)")
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt));
  list.action((options) => kit.run(async (session) => session.print(await (await session.client()).views.list(options.project), COLUMNS)));
  examples(list, ["dmq views list --project 1 --format table"]);

  const create = group
    .command("create")
    .description("a new view; the query flags give its filters, ordering and selection")
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt))
    .addOption(new Option("--title <text>", "the view's title (data.title)"));
  const query = new QueryFlags(create, { view: false });
  const fields = new ParamFlags(create, "a view field: data");
  create.action((options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, fields.values, "views create");
      const data = viewData(fields.values, options.title);
      const view = await (
        await session.client()
      ).views.create({
        project,
        ...(data === undefined ? {} : { data }),
        ...(query.empty ? {} : { query: query.build(project) }),
      });
      session.print(view, COLUMNS);
    }),
  );
  examples(create, [
    'dmq views create --project 1 --title "Unlabeled" -w "total_annotations = 0" --order -created_at',
    'dmq views create --project 1 --title "Checked" --include 1,2,3 --dry-run',
  ]);

  recordCommands(group, kit, {
    noun: "view",
    columns: COLUMNS,
    pick: (client) => client.views,
    updateExample: `dmq views update 2 -p data='{"title": "Renamed"}'`,
  });
}
