import { Option, type Command } from "@commander-js/extra-typings";
import type { Client } from "../../client/client.js";
import { customAction } from "../../query/builder.js";
import type { ActionRequest } from "../../query/nodes.js";
import { actions, isActionId } from "../../vocabulary/actions.js";
import { didYouMean } from "../../vocabulary/nearest.js";
import { CliUsageError } from "../errors.js";
import { positiveInt } from "../params.js";
import { resume, type DynamicSelection } from "../query/builder.js";
import { inCliWords, QueryFlags, refuseLookalikes } from "../query/flags.js";
import { QueryBuildError } from "../../query/rules.js";
import type { Session } from "../session.js";
import { actionsTable } from "../tables.js";
import { examples, ParamFlags, projectOf, without, type CommandKit } from "./common.js";

/** Actions the vocabulary marks destructive: the builder wants them scoped (or .all()); the CLI asks first on a terminal. */
const destructive = (id: string): boolean => isActionId(id) && "destructive" in actions[id];

/**
 * A known action id, or one the project lists (a plugin's action). An id that is neither fails
 * here, before the POST: the server would answer 500, which is no use retrying.
 */
async function checkActionId(session: Session, client: Client, id: string, project: number): Promise<void> {
  if (isActionId(id) || session.dryRun) return;
  const listed = (await client.actions.list(project)).map((a) => a.id);
  if (listed.includes(id)) return;
  throw new CliUsageError(
    `unknown action ${JSON.stringify(id)}${didYouMean(id, new Set([...listed, ...Object.keys(actions)]))}; project ${project} offers: ${listed.join(", ")}`,
  );
}

/** The action id: the argument, else the SDK's `-p id=…`; both must agree. */
function actionIdOf(argument: string | undefined, param: unknown): string {
  if (param !== undefined && typeof param !== "string")
    throw new CliUsageError(`--param id: expected an action id, found ${JSON.stringify(param)}`);
  if (argument !== undefined && param !== undefined && argument !== param) {
    throw new CliUsageError(`the action is ${argument} and --param id says ${param}: give it once`);
  }
  const id = argument ?? param;
  if (id === undefined)
    throw new CliUsageError('which action? give its id: dmq actions run <action>, or -p id=<action> (see "dmq actions catalog")');
  return id;
}

/** How many tasks a selection acts on, for the confirmation question (undefined when it cannot be told). */
async function countOf(client: Client, project: number, selection: DynamicSelection): Promise<number | undefined> {
  try {
    const page = await client.tasks.list({ project, query: selection, page_size: 1 }).page(1);
    return page.total;
  } catch {
    return undefined;
  }
}

export function actionCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("actions").description("Data Manager actions");
  examples(group, ["dmq actions list --project 1", "dmq actions run delete_tasks --project 1 --include 3,4"]);
  const projectOption = () => new Option("--project <id>", "project id").argParser(positiveInt);

  const list = group.command("list").description("the actions a project offers").addOption(projectOption());
  const listParams = new ParamFlags(list, "a list parameter: project");
  list.action((options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, listParams.values, "actions list");
      session.print(await (await session.client()).actions.list(project), ["id", "title", "order", "experimental"]);
    }),
  );
  examples(list, ["dmq actions list --project 1 --format table"]);

  const form = group
    .command("form")
    .description("the form of an action's extra fields")
    .argument("<action>", "action id")
    .addOption(projectOption());
  form.action((action, options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, {}, "actions form");
      session.print(await (await session.client()).actions.form(project, isActionId(action) ? action : customAction(action)));
    }),
  );
  examples(form, ["dmq actions form delete_tasks_annotations --project 1"]);

  const run = group
    .command("run")
    .alias("create")
    .description(
      "perform an action on the tasks the query flags select (also: actions create -p id=<action> -p project=<id>, the SDK's form)",
    )
    .argument("[action]", 'action id, e.g. delete_tasks (see "dmq actions catalog"); or -p id=<action>')
    .addOption(projectOption())
    .addOption(new Option("-y, --yes", "do not ask for confirmation on a terminal"));
  const query = new QueryFlags(run);
  const fields = new ParamFlags(run, "an extra field of the action, e.g. model_version=v2 (the SDK's id, project, view and selection too)");
  run.action((action, options) =>
    kit.run(async (session) => {
      // The official SDK's CLI: `actions create -p id=… -p project=… [-p view=…] [--body '{"selected_items": …}']`.
      const given = query.takeParams(fields.values);
      const id = actionIdOf(action, given["id"]);
      const project = projectOf(options.project, given, "actions run");
      const params = without(given, "id", "project");
      refuseLookalikes(params, id);
      const built = await query.build(project, { for: "action", action: id }, session.io.readStdin);
      const selection = built.selection;
      for (const key of Object.keys(built.fields)) {
        if (key in params) throw new CliUsageError(`${key}: given in --query and as --param ${key}: give it once`);
      }
      // The builder's checks (a destructive action needs a scope or --all, the action's fields) come before any request;
      // an id held in a string goes in as customAction(id), which still gets every check of a known id.
      let request: ActionRequest;
      try {
        request = resume(selection).toRequest(customAction(id), { ...built.fields, ...params });
      } catch (error) {
        if (error instanceof QueryBuildError) throw new CliUsageError(`${id}: ${inCliWords(error)}`);
        throw error;
      }
      const client = await session.client();
      await checkActionId(session, client, id, project);
      if (destructive(id) && session.io.stdinIsTTY && !options.yes && !session.dryRun) {
        const count = await countOf(client, project, selection);
        const what = count === undefined ? "the selected tasks" : `${count} task${count === 1 ? "" : "s"}`;
        await session.confirm(`${id} will act on ${what} of project ${project}. Continue?`, options.yes);
      }
      session.print(await client.actions.perform(request));
    }),
  );
  run.addHelpText(
    "after",
    "\nA destructive action (delete_tasks, delete_tasks_annotations, …) with no --where, --include or --view (nor a body\n" +
      "that filters or names tasks) would act on every task of the project: it is refused until you say --all. On a\n" +
      "terminal it asks before acting (--yes skips the question; a pipe is never asked). The action's own fields are\n" +
      "checked too (e.g. rename_labels needs three); a --query body may carry them. An action id the vocabulary does not\n" +
      "know is looked up in the project's list before anything is sent. The official SDK CLI's form works as well:\n" +
      'dmq actions create -p id=delete_tasks -p project=1 --body \'{"selected_items": {"all": false, "included": [1, 2]}}\'.',
  );
  examples(run, [
    "dmq actions run delete_tasks --project 1 --include 3,4",
    'dmq actions run delete_tasks --project 1 -w "total_annotations = 0" --all --yes',
    "dmq actions run predictions_to_annotations --project 1 --all -p model_version=v2 --dry-run",
    "dmq actions run delete_tasks_annotations --project 1 --view 2",
    "dmq actions run delete_tasks --project 1 --query @body.json --dry-run",
  ]);

  const catalog = group.command("catalog").description("every action the vocabulary knows, with its fields (no server)");
  catalog.action(() => kit.run(async (session) => session.table(actionsTable())));
  examples(catalog, ["dmq actions catalog"]);
}
