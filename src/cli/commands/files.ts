import { Option, type Command } from "@commander-js/extra-typings";
import { examples, idArgument, type CommandKit } from "./common.js";

const FILE_COLUMNS = ["id", "file", "size"];

/** `files`: the uploaded files a multipart import kept (`dmq projects import --upload`), in the official SDK's shape. */
export function fileCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("files").description("uploaded files (kept by dmq projects import --upload)");
  examples(group, ["dmq files list 1", "dmq files delete 12"]);

  const list = group
    .command("list")
    .description("your uploaded files of a project (all of them, or --ids)")
    .argument("<project>", "project id", idArgument)
    .addOption(
      new Option("--ids <ids...>", "only these upload ids").argParser((v: string, prev: number[] = []) => [...prev, idArgument(v)]),
    );
  list.action((project, options) =>
    kit.run(async (session) => {
      const client = await session.client();
      session.print(await client.files.list(project, options.ids ? { ids: options.ids } : { all: true }), FILE_COLUMNS);
    }),
  );
  examples(list, ["dmq files list 1 --format table", "dmq files list 1 --ids 4 5"]);

  const get = group.command("get").description("one uploaded file").argument("<id>", "upload id", idArgument);
  get.action((id) => kit.run(async (session) => session.print(await (await session.client()).files.get(id), FILE_COLUMNS)));
  examples(get, ["dmq files get 12"]);

  const remove = group
    .command("delete")
    .description("delete an uploaded file (its tasks stay, without a file)")
    .argument("<id>", "upload id", idArgument);
  remove.action((id) =>
    kit.run(async (session) => {
      await (await session.client()).files.delete(id);
      session.printEmpty();
    }),
  );
  examples(remove, ["dmq files delete 12"]);

  const reimport = group
    .command("reimport")
    .description("read uploaded files again into their project, replacing the tasks they made")
    .argument("<project>", "project id", idArgument)
    .argument("<ids...>", "upload ids")
    .option("--as-single-tasks", "every file is one task (a CSV, TSV or TXT file too)");
  reimport.action((project, ids, options) =>
    kit.run(async (session) => {
      const body = { file_upload_ids: ids.map((id) => idArgument(id)), ...(options.asSingleTasks ? { files_as_tasks_list: false } : {}) };
      session.print(await (await session.client()).projects.reimport(project, body));
    }),
  );
  examples(reimport, ["dmq files reimport 1 12 13"]);
}
