import { Option, type Command } from "@commander-js/extra-typings";
import type { ViewDataInput } from "../../client/types.js";
import type { JsonValue } from "../../vocabulary/json.js";
import { CliUsageError } from "../errors.js";
import { positiveInt, type Params } from "../params.js";
import { selectionParams } from "../query/body.js";
import { QueryFlags } from "../query/flags.js";
import { didYouMean } from "../../vocabulary/nearest.js";
import { endpointKeys } from "../../wire/parse-keys.js";
import { examples, idArgument, ParamFlags, projectOf, without, type CommandKit } from "./common.js";
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
  const group = program.command("views").description("saved Data Manager views");
  examples(group, ["dmq views list --project 1", 'dmq views create --project 1 --title Unlabeled -w "total_annotations = 0"']);

  const list = group
    .command("list")
    .description("the views of a project (or of every project)")
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt));
  list.action((options) => kit.run(async (session) => session.print(await (await session.client()).views.list(options.project), COLUMNS)));
  examples(list, ["dmq views list --project 1 --format table"]);

  const create = group
    .command("create")
    .description("a new view; the query flags (or --query <body>) give its filters, ordering and selection")
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt))
    .addOption(new Option("--title <text>", "the view's title (data.title)"));
  const query = new QueryFlags(create, { view: false });
  const fields = new ParamFlags(create, "a view field: data");
  create.action((options) =>
    kit.run(async (session) => {
      const { params, data } = viewInput(query, fields.values, options.title);
      const project = projectOf(options.project, params, "views create");
      const built = query.empty ? undefined : await query.build(project, { for: "view" }, session.io.readStdin);
      const view = await (
        await session.client()
      ).views.create({
        project,
        ...(data === undefined ? {} : { data }),
        ...(built === undefined ? {} : { query: built.selection }),
      });
      session.print(view, COLUMNS);
    }),
  );
  examples(create, [
    'dmq views create --project 1 --title "Unlabeled" -w "total_annotations = 0" --order -created_at',
    'dmq views create --project 1 --title "Checked" --include 1,2,3 --dry-run',
    'dmq views create --project 1 --title "From a body" --query @body.json',
  ]);

  recordCommands(group, kit, {
    noun: "view",
    columns: COLUMNS,
    pick: (client) => client.views,
    updateExample: `dmq views update 2 -p data='{"title": "Renamed"}'`,
    update: false,
  });

  const reset = group
    .command("reset")
    .alias("delete-all")
    .description("delete every saved view of a project (the SDK's views.delete_all)")
    .addOption(new Option("--project <id>", "the project").argParser(positiveInt).makeOptionMandatory())
    .addOption(new Option("-y, --yes", "do not ask for confirmation on a terminal"));
  reset.action((options) =>
    kit.run(async (session) => {
      await session.confirm(`Delete every saved view of project ${options.project}?`, options.yes);
      await (await session.client()).views.deleteAll(options.project);
      session.printEmpty();
    }),
  );
  examples(reset, ["dmq views reset --project 1 --yes", "dmq views reset --project 1 --dry-run"]);

  const update = group
    .command("update")
    .description("change a view (PATCH): its data, and the filters, ordering and selection the query flags or --query give")
    .argument("<id>", "view id", idArgument)
    .addOption(new Option("--project <id>", "the view's project (checked against a selection bound to another)").argParser(positiveInt))
    .addOption(new Option("--title <text>", "the view's title (data.title)"));
  const updateQuery = new QueryFlags(update, { view: false });
  const updateFields = new ParamFlags(update, "a view field: data");
  update.action((id, options) =>
    kit.run(async (session) => {
      const { data } = viewInput(updateQuery, updateFields.values, options.title);
      // The body a view stores names no project: any id builds it when none is given.
      const built = updateQuery.empty ? undefined : await updateQuery.build(options.project ?? 1, { for: "view" }, session.io.readStdin);
      const view = await (
        await session.client()
      ).views.update(id, { ...(data === undefined ? {} : { data }), ...(built === undefined ? {} : { query: built.selection }) });
      session.print(view, COLUMNS);
    }),
  );
  examples(update, [
    `dmq views update 2 -p data='{"title": "Renamed"}'`,
    'dmq views update 2 --title "Unlabeled, newest first" -w "total_annotations = 0" --order -created_at',
    "dmq views update 2 --query @body.json --dry-run",
  ]);
}

/**
 * The parameters and data of a view command, with every selection key taken into the query flags:
 * top-level (`-p filters=…`) and inside `data` (`-p data='{"filters": …}'`), where the server reads a view's.
 */
function viewInput(query: QueryFlags, values: Params, title: string | undefined): { params: Params; data: ViewDataInput | undefined } {
  const data = viewData(values, title);
  const inData = selectionParams((data ?? {}) as Params);
  if (inData.body !== undefined && selectionParams(values).body !== undefined) {
    throw new CliUsageError(`--param data holds a selection (${inData.flag}) and so do the other parameters: give it once`);
  }
  const params = query.takeParams({ ...without(values, "data"), ...inData.body });
  // Anything else would be dropped without a word (a misspelt -p filter=… left a view of every task).
  const extra = Object.keys(params).find((key) => key !== "project");
  if (extra !== undefined) {
    throw new CliUsageError(
      `--param ${extra}: a view takes project and data (its title with --title, its selection with the query flags or --query)` +
        didYouMean(extra, [...endpointKeys.tasks, "data", "project"]),
    );
  }
  return { params, data: Object.keys(inData.rest).length === 0 ? undefined : (inData.rest as ViewDataInput) };
}
