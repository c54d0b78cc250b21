import { createWriteStream, statSync } from "node:fs";
import { join } from "node:path";
import { Option, type Command } from "@commander-js/extra-typings";
import type { Client } from "../../client/client.js";
import type { ExportCreate, ExportFile, ExportTaskFilterOptions } from "../../client/types.js";
import type { QueryBody } from "../../query/nodes.js";
import { selection } from "../../selection.js";
import { exportTypes, type ExportType } from "../../vocabulary/export-formats.js";
import { CliUsageError } from "../errors.js";
import { positiveInt, type Params } from "../params.js";
import { QueryFlags, refuseLookalikes } from "../query/flags.js";
import type { Session } from "../session.js";
import { examples, idArgument, ParamFlags, projectOf, type CommandKit } from "./common.js";

const COLUMNS = ["id", "title", "status", "counters", "created_at", "finished_at"];

const typeOption = () =>
  new Option("-t, --export-type <type>", `the file's format: ${exportTypes.join(", ")}`).choices(
    exportTypes as readonly string[] as ExportType[],
  );
const outputOption = () =>
  new Option("-o, --output <file>", "write the file here (a directory: under the server's file name; default: stdout)");

/** Where `--output` points: the file, a file named as the server names it inside a directory, or stdout. */
function target(output: string | undefined, filename: string): string | undefined {
  if (output === undefined || output === "-") return undefined;
  try {
    if (statSync(output).isDirectory()) return join(output, filename.slice(filename.lastIndexOf("/") + 1));
  } catch {
    // not there yet: a file to create
  }
  return output;
}

/**
 * Writes a downloaded file to `--output` (or stdout), its bytes as they arrive, with a progress bar
 * on a terminal; then a summary (file, name, type, bytes) on stdout when the file went elsewhere.
 */
export async function saveFile(session: Session, file: ExportFile, output: string | undefined): Promise<void> {
  const path = target(output, file.filename);
  const progress = session.progress("download");
  const sink = path === undefined ? undefined : createWriteStream(path);
  const failed = new Promise<never>((_, reject) => sink?.once("error", reject));
  failed.catch(() => undefined); // raced below; a failure nobody waits for is not an unhandled rejection
  let bytes = 0;
  try {
    for await (const chunk of file) {
      bytes += chunk.length;
      if (sink) {
        if (!sink.write(chunk)) await Promise.race([new Promise<void>((resolve) => sink.once("drain", () => resolve())), failed]);
      } else session.writeBytes(chunk);
      progress.update(bytes, file.size);
    }
  } finally {
    progress.end();
    if (sink) await Promise.race([new Promise<void>((resolve) => sink.end(() => resolve())), failed]);
  }
  if (path !== undefined) session.print({ output: path, filename: file.filename, content_type: file.contentType, bytes });
}

/** Only `--include` ids (or nothing): what the one-step export's `ids[]` can say. */
function onlyIds(body: QueryBody): number[] | undefined {
  const { filters, selectedItems } = body;
  if ((filters?.items.length ?? 0) > 0 || selectedItems === undefined || selectedItems.all) return undefined;
  return selectedItems.included;
}

/** `dmq projects export <id>`: the one-step export (`GET /api/projects/{id}/export`), or a selection's export. */
export function projectExportCommand(group: Command<[], {}, {}>, kit: CommandKit): void {
  const command = group
    .command("export")
    .description(
      "export a project's tasks in one request (the query flags narrow it: ids go as ids[], anything else through a snapshot of a view)",
    )
    .argument("<id>", "project id", idArgument)
    .addOption(typeOption().default("JSON" as ExportType))
    .addOption(new Option("--all-tasks", "every task, not only those with an annotation (download_all_tasks)"))
    .addOption(outputOption());
  const query = new QueryFlags(command);
  command.action((id, options) =>
    kit.run(async (session) => {
      const client = await session.client();
      // The flags and --query replay through the builder (its rules, the parser's findings) as for any selection.
      const built = query.empty ? undefined : (await query.build(id, { for: "export" }, session.io.readStdin)).selection;
      const body = built === undefined || built.view !== undefined ? undefined : built.toJSON();
      const ids = body === undefined ? undefined : onlyIds(body);
      let file: ExportFile;
      if (built !== undefined && ids === undefined) {
        // Filters, excluded ids or a view: the server's own way is a snapshot of a view.
        file = await selection.from(client.project(id), built).export(options.exportType);
      } else {
        file = await client.projects.exports.downloadSync(id, {
          export_type: options.exportType,
          ...(options.allTasks ? { download_all_tasks: true } : {}),
          ...(ids ? { ids } : {}),
        });
      }
      await saveFile(session, file, options.output);
    }),
  );
  examples(command, [
    "dmq projects export 1 -o tasks.json",
    "dmq projects export 1 -t CSV --all-tasks -o tasks.csv",
    "dmq projects export 1 --include 3,4 --all-tasks",
    "dmq projects export 1 --query @body.json -t CSV -o selected.csv",
    'dmq projects export 1 -t JSON_MIN -w "total_annotations > 1" -o .',
  ]);
}

const ONLY_OR_EXCLUDE = ["only", "exclude"] as const;

/** `--annotations usual,ground_truth,skipped`: the kinds of annotation a snapshot keeps. */
function annotationKinds(text: string): NonNullable<ExportCreate["annotation_filter_options"]> {
  const kinds = text.split(",").map((k) => k.trim());
  const known = ["usual", "ground_truth", "skipped"];
  const bad = kinds.find((k) => !known.includes(k));
  if (bad !== undefined) throw new CliUsageError(`--annotations: expected some of ${known.join(", ")}, found ${JSON.stringify(bad)}`);
  return { usual: kinds.includes("usual"), ground_truth: kinds.includes("ground_truth"), skipped: kinds.includes("skipped") };
}

/** `--expand drafts,predictions,annotations__completed_by`: whole objects instead of ids. */
function expansions(text: string | undefined): ExportCreate["serialization_options"] {
  const known = ["drafts", "predictions", "annotations__completed_by"] as const;
  const kinds = text === undefined ? [] : text.split(",").map((k) => k.trim());
  const bad = kinds.find((k) => !(known as readonly string[]).includes(k));
  if (bad !== undefined) throw new CliUsageError(`--expand: expected some of ${known.join(", ")}, found ${JSON.stringify(bad)}`);
  if (kinds.length === 0) return undefined;
  return Object.fromEntries(known.map((k) => [k, { only_id: !kinds.includes(k) }]));
}

/** `dmq exports …`: snapshots of a project's tasks (the SDK's `client.projects.exports`). */
export function exportCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("exports").description("export snapshots");
  examples(group, ["dmq exports create --project 1 --annotated only", "dmq exports download 3 --project 1 -t CSV -o reviews.csv"]);
  const projectOption = () => new Option("--project <id>", "project id").argParser(positiveInt);

  const create = group
    .command("create")
    .description("a snapshot of the project's tasks; the query flags choose them (--view, or filters and ids through a view made for it)")
    .addOption(projectOption())
    .addOption(new Option("--title <text>", "the snapshot's title (default: the server's, <project>-at-<time>)"))
    .addOption(new Option("--annotated <only|exclude>", "tasks with an annotation that was not skipped").choices(ONLY_OR_EXCLUDE))
    .addOption(new Option("--finished <only|exclude>", "tasks the server counts as labeled").choices(ONLY_OR_EXCLUDE))
    .addOption(new Option("--skipped <only|exclude>", "tasks with a skipped annotation").choices(ONLY_OR_EXCLUDE))
    .addOption(new Option("--only-with-annotations", "drop tasks left without an annotation once --annotations filtered them"))
    .addOption(new Option("--annotations <kinds>", "keep only these annotations: usual, ground_truth, skipped (comma-separated)"))
    .addOption(
      new Option("--expand <parts>", "whole objects instead of ids: drafts, predictions, annotations__completed_by (comma-separated)"),
    );
  const query = new QueryFlags(create);
  const fields = new ParamFlags(create, "a field of the snapshot's body (task_filter_options, serialization_options…)");
  create.action((options) =>
    kit.run(async (session) => {
      // Selection keys given as parameters join the query: a snapshot's body has no place for them.
      const given = query.takeParams(fields.values) as ExportCreate;
      refuseLookalikes(given as Params);
      const project = projectOf(options.project, given as Params, "exports create");
      const client = await session.client();
      const built = query.empty ? undefined : (await query.build(project, { for: "export" }, session.io.readStdin)).selection;
      const body = built === undefined || built.view !== undefined ? undefined : built.toJSON();
      const filter: ExportTaskFilterOptions = {
        ...(options.annotated ? { annotated: options.annotated } : {}),
        ...(options.finished ? { finished: options.finished } : {}),
        ...(options.skipped ? { skipped: options.skipped } : {}),
        ...(options.onlyWithAnnotations ? { only_with_annotations: true } : {}),
      };
      const made = body === undefined ? undefined : await madeView(client, project, body);
      try {
        const view = built?.view ?? made;
        const serialization = expansions(options.expand);
        const request: ExportCreate = {
          ...given,
          ...(options.title === undefined ? {} : { title: options.title }),
          ...(view === undefined && Object.keys(filter).length === 0
            ? {}
            : { task_filter_options: { ...filter, ...(view === undefined ? {} : { view }) } }),
          ...(options.annotations === undefined ? {} : { annotation_filter_options: annotationKinds(options.annotations) }),
          ...(serialization === undefined ? {} : { serialization_options: serialization }),
        };
        session.print(await client.projects.exports.create(project, request), COLUMNS);
      } finally {
        // The view only carried the selection to the snapshot, which is written by now.
        if (made !== undefined) await client.views.delete(made).catch(() => undefined);
      }
    }),
  );
  examples(create, [
    "dmq exports create --project 1",
    "dmq exports create --project 1 --view 2 --annotations usual,ground_truth",
    'dmq exports create --project 1 -w "completed_at > 2024-03-01T00:00:00Z" --expand predictions',
    "dmq exports create --project 1 --include 1,2,3 --dry-run",
    "dmq exports create --project 1 --query @body.json",
  ]);

  const list = group.command("list").description("the project's newest 100 snapshots").addOption(projectOption());
  list.action((options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, {}, "exports list");
      session.print(await (await session.client()).projects.exports.list(project), COLUMNS);
    }),
  );
  examples(list, ["dmq exports list --project 1 --format table"]);

  const get = group.command("get").description("one snapshot").argument("<id>", "snapshot id", idArgument).addOption(projectOption());
  get.action((id, options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, {}, "exports get");
      session.print(await (await session.client()).projects.exports.get(project, id), COLUMNS);
    }),
  );
  examples(get, ["dmq exports get 3 --project 1"]);

  const remove = group
    .command("delete")
    .description("delete a snapshot")
    .argument("<id>", "snapshot id", idArgument)
    .addOption(projectOption())
    .addOption(new Option("-y, --yes", "do not ask for confirmation on a terminal"));
  remove.action((id, options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, {}, "exports delete");
      await session.confirm(`Delete snapshot ${id} of project ${project}?`, options.yes);
      await (await session.client()).projects.exports.delete(project, id);
      session.printEmpty();
    }),
  );
  examples(remove, ["dmq exports delete 3 --project 1 --yes"]);

  const convert = group
    .command("convert")
    .description("convert a snapshot to another format (once per format)")
    .argument("<id>", "snapshot id", idArgument)
    .addOption(projectOption())
    .addOption(typeOption().makeOptionMandatory());
  convert.action((id, options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, {}, "exports convert");
      session.print(await (await session.client()).projects.exports.convert(project, id, { export_type: options.exportType }));
    }),
  );
  examples(convert, ["dmq exports convert 3 --project 1 -t CSV"]);

  const download = group
    .command("download")
    .description("a snapshot's file, converted to --export-type on the way when given")
    .argument("<id>", "snapshot id", idArgument)
    .addOption(projectOption())
    .addOption(typeOption())
    .addOption(outputOption());
  download.action((id, options) =>
    kit.run(async (session) => {
      const project = projectOf(options.project, {}, "exports download");
      const client = await session.client();
      const file = await client.projects.exports.download(
        project,
        id,
        options.exportType === undefined ? {} : { export_type: options.exportType },
      );
      await saveFile(session, file, options.output);
    }),
  );
  examples(download, ["dmq exports download 3 --project 1 -o snapshot.json", "dmq exports download 3 --project 1 -t YOLO -o ."]);
}

/** A view holding the selection, for `task_filter_options.view`. */
async function madeView(client: Client, project: number, body: QueryBody): Promise<number> {
  return (await client.views.create({ project, data: { title: "dmq export" }, query: body })).id;
}
