import { Option, type Command } from "@commander-js/extra-typings";
import type { TaskCreate, TaskListParams } from "../../client/types.js";
import type { QueryNode } from "../../query/nodes.js";
import { positiveInt } from "../params.js";
import { QueryFlags } from "../query/flags.js";
import { examples, intParam, ParamFlags, projectOf, without, type CommandKit } from "./common.js";
import { printList } from "./projects.js";
import { recordCommands } from "./records.js";

export const TASK_COLUMNS = ["id", "inner_id", "total_annotations", "total_predictions", "completed_at", "data"];

/** The columns a query filters on (children too) and orders by, in that order, each once. */
function columnsOfSelection(query: QueryNode): string[] {
  const items = query.filters?.items ?? [];
  const named = [
    ...items.flatMap((i) => [i.column, ...i.children.map((c) => c.column)]),
    ...(query.ordering ?? []).slice(0, 1).map((o) => o.column),
  ];
  return [...new Set(named)];
}

export function taskCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("tasks").description("tasks (list takes the query flags)");
  examples(group, ['dmq tasks list --project 1 -w "total_annotations = 0" --format table', "dmq tasks get 1"]);

  const list = group
    .command("list")
    .description("the tasks a selection lists, in its order (every page, or one with --param page=N)")
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt))
    .addOption(new Option("--limit <n>", "stop after n tasks (page_size only sets how many each request fetches)").argParser(positiveInt));
  const query = new QueryFlags(list);
  const listParams = new ParamFlags(
    list,
    "a list parameter: page (one page only), page_size (tasks per request, not a limit), fields, resolve_uri, include",
  );
  list.action((options) =>
    kit.run(async (session) => {
      // Selection keys given as parameters join the query: the list reads them only from its query parameter.
      const params = query.takeParams(listParams.values);
      const project = projectOf(options.project, params, "tasks list");
      const page = intParam(params["page"], "--param page");
      const built = query.empty ? undefined : await query.build(project, { for: "tasks" }, session.io.readStdin);
      const selection = built === undefined ? {} : { query: built.selection };
      const pages = (await session.client()).tasks.list({ ...without(params, "project", "page"), project, ...selection } as TaskListParams);
      // A table shows the columns the selection filters and orders on (the server evaluates them for the list) first.
      const shown = built === undefined ? [] : columnsOfSelection(built.selection.toQuery());
      const columns = ["id", ...shown.filter((c) => c !== "id"), ...TASK_COLUMNS.filter((c) => c !== "id" && !shown.includes(c))];
      await printList(
        session,
        pages,
        (p) => p.tasks,
        (p) => p.total,
        page,
        options.limit,
        columns,
        "tasks",
      );
    }),
  );
  list.addHelpText(
    "after",
    "\nPaging: --param page_size=N is how many tasks each request fetches (the server's page size, 100 by default); every\n" +
      "page is still fetched, unless --param page=N asks for that one page. --limit N stops after N tasks.",
  );
  examples(list, [
    "dmq tasks list --project 1 --format table",
    'dmq tasks list --project 1 -w "completed_at > 2024-01-01T00:00:00Z" --order -completed_at --limit 5',
    'dmq tasks list --project 1 -w "total_annotations = 0" --or "data.text contains urgent"',
    "dmq tasks list --project 1 --view 2 --dry-run",
    "dmq tasks list --project 1 --query @body.json --format table",
  ]);

  const create = group
    .command("create")
    .description("a new task")
    .addOption(new Option("--project <id>", "project id").argParser(positiveInt));
  const fields = new ParamFlags(create, "a task field: data, meta…");
  create.action((options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, fields.values, "tasks create");
      session.print(await (await session.client()).tasks.create({ ...fields.values, project } as TaskCreate), TASK_COLUMNS);
    }),
  );
  examples(create, [`dmq tasks create --project 1 -p data='{"text": "hello"}'`]);

  recordCommands(group, kit, {
    noun: "task",
    columns: TASK_COLUMNS,
    pick: (client) => client.tasks,
    updateExample: `dmq tasks update 1 -p meta='{"checked": true}'`,
  });
}
