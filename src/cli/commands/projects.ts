import { readArgument } from "../params.js";
import { Option, type Command } from "@commander-js/extra-typings";
import type { ImportParams, ImportResult, ImportTask, ProjectCreate, ProjectListParams } from "../../client/types.js";
import type { JsonValue } from "../../vocabulary/json.js";
import { parseDelimited } from "../csv.js";
import { CliUsageError } from "../errors.js";
import { positiveInt, readBinaryFile, readTextFile, type Params } from "../params.js";
import { basename } from "node:path";
import type { Session } from "../session.js";
import { examples, idArgument, intParam, ParamFlags, type CommandKit } from "./common.js";
import { projectExportCommand } from "./exports.js";
import { recordCommands } from "./records.js";

const COLUMNS = ["id", "title", "task_number", "created_at"];

/** Prints every item of a paginated list (progress on a terminal), or one page when `page` is given. */
export async function printList<T>(
  session: Session,
  pages: { page(n: number): Promise<T>; pages(): AsyncIterable<T> },
  items: (page: T) => readonly unknown[],
  total: (page: T) => number | undefined,
  page: number | undefined,
  limit: number | undefined,
  columns: readonly string[],
  noun: string,
): Promise<void> {
  if (page !== undefined) return session.print(items(await pages.page(page)).slice(0, limit), columns);
  const all: unknown[] = [];
  const progress = session.progress(noun);
  try {
    for await (const body of pages.pages()) {
      all.push(...items(body));
      progress.update(Math.min(all.length, limit ?? Infinity), limit ?? total(body));
      if (limit !== undefined && all.length >= limit) break;
    }
  } finally {
    progress.end();
  }
  session.print(all.slice(0, limit), columns);
}

/** A tasks file: a JSON list (or one object), JSON lines, CSV or TSV. Objects without `data` are the data. */
export function readTasks(text: string, name: string): ImportTask[] {
  const trimmed = text.trimStart();
  let records: unknown[];
  if (/\.(csv|tsv)$/i.test(name) || !/^[[{]/.test(trimmed)) {
    records = parseDelimited(text, /\.tsv$/i.test(name) ? "\t" : ",");
  } else {
    try {
      const parsed: unknown = JSON.parse(text);
      records = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      records = trimmed
        .split(/\r?\n/)
        .filter((l) => l.trim() !== "")
        .map((line) => JSON.parse(line) as unknown);
    }
  }
  return records.map((record, i) => {
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      throw new CliUsageError(`${name}: task ${i + 1} is not an object`);
    }
    const object = record as Record<string, JsonValue>;
    const data = object["data"];
    return typeof data === "object" && data !== null && !Array.isArray(data) ? (object as ImportTask) : { data: object };
  });
}

/** The counts of every batch's answer added up, the task ids joined. */
function addUp(total: ImportResult & { batches: number }, result: ImportResult): ImportResult & { batches: number } {
  const out: ImportResult & { batches: number } = { ...total, batches: total.batches + 1 };
  for (const key of ["task_count", "annotation_count", "prediction_count"] as const) {
    const n = result[key];
    if (typeof n === "number") out[key] = (total[key] ?? 0) + n;
  }
  if (result.task_ids) out.task_ids = [...(total.task_ids ?? []), ...result.task_ids];
  return out;
}

export function projectCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("projects").description("projects");
  examples(group, ["dmq projects list --format table", "dmq projects import 1 tasks.csv"]);

  const list = group
    .command("list")
    .description("every project (or one page with --param page=N)")
    .addOption(
      new Option("--limit <n>", "stop after n projects (page_size only sets how many each request fetches)").argParser(positiveInt),
    );
  const listParams = new ParamFlags(
    list,
    "a list parameter: page (one page only), page_size (projects per request, not a limit), title, search, ordering",
  );
  list.action((options) =>
    kit.run(async (session) => {
      const params = listParams.values;
      const page = intParam(params["page"], "--param page");
      const pages = (await session.client()).projects.list(params as ProjectListParams);
      await printList(
        session,
        pages,
        (p) => p.results,
        (p) => p.count,
        page,
        options.limit,
        COLUMNS,
        "projects",
      );
    }),
  );
  examples(list, ["dmq projects list", "dmq projects list --format table", "dmq projects list -p title=Demo -p page_size=10"]);

  const create = group.command("create").description("a new project");
  const fields = new ParamFlags(create, "a project field: title, label_config, description…");
  create.action(() =>
    kit.run(async (session) => session.print(await (await session.client()).projects.create(fields.values as ProjectCreate), COLUMNS)),
  );
  examples(create, [
    'dmq projects create -p title="Reviews" -p label_config=@config.xml',
    `dmq projects create --body '{"title": "Reviews", "description": "Q3"}' --dry-run`,
  ]);

  const validate = group
    .command("validate")
    .description("check a labeling config: on its own, or against a project and the labels its annotations use")
    .argument("[project]", "project id (strict: the labels its annotations and drafts use must stay)", idArgument)
    .requiredOption("--label-config <config>", "the labeling config, or @file to read it from a file");
  validate.action((project, options) =>
    kit.run(async (session) => {
      const label_config = readArgument(options.labelConfig, "--label-config");
      const client = await session.client();
      if (project === undefined) {
        await client.projects.validateConfig({ label_config });
        session.print({ valid: true });
      } else session.print(await client.projects.validateLabelConfig(project, { label_config }));
    }),
  );
  examples(validate, ["dmq projects validate --label-config @config.xml", "dmq projects validate 1 --label-config @config.xml"]);

  recordCommands(group, kit, {
    noun: "project",
    columns: COLUMNS,
    pick: (client) => client.projects,
    updateExample: 'dmq projects update 1 -p title="Reviews (done)"',
    confirmDelete: true,
  });

  const imports = group
    .command("import")
    .alias("import-tasks")
    .description("import tasks from a JSON, JSON-lines, CSV or TSV file (- reads stdin), in batches")
    .argument("<id>", "project id", idArgument)
    .argument("<file>", "tasks file, or - for stdin")
    .addOption(new Option("--batch-size <n>", "tasks per request").argParser(positiveInt).default(500))
    .addOption(
      new Option(
        "--upload",
        "send the file as it is (multipart, one request): the server reads it by its extension and keeps it (dmq files)",
      ).conflicts("batchSize"),
    );
  const importParams = new ParamFlags(imports, "an import parameter: commit_to_project, return_task_ids, preannotated_from_fields");
  imports.action((id, file, options) =>
    kit.run(async (session) => {
      if (options.upload) {
        if (file === "-") throw new CliUsageError("--upload sends a named file (the server reads it by its extension): give its path");
        const content = readBinaryFile(file, "<file>");
        const params = importParams.values as Params as ImportParams;
        session.print(await (await session.client()).projects.importFiles(id, [{ name: basename(file), content }], params));
        return;
      }
      const text = file === "-" ? await session.io.readStdin() : readTextFile(file, "<file>");
      const tasks = readTasks(text, file === "-" ? "stdin" : file);
      if (tasks.length === 0) throw new CliUsageError(`${file}: no tasks to import`);
      const progress = session.progress("import");
      let total: ImportResult & { batches: number } = { batches: 0 };
      try {
        for (let start = 0; start < tasks.length; start += options.batchSize) {
          const batch = tasks.slice(start, start + options.batchSize);
          const result = await (await session.client()).projects.importTasks(id, batch, importParams.values as Params as ImportParams);
          total = addUp(total, result);
          progress.update(start + batch.length, tasks.length);
        }
      } finally {
        progress.end();
      }
      session.print(total);
    }),
  );
  projectExportCommand(group, kit);

  examples(imports, [
    "dmq projects import 1 tasks.json",
    "dmq projects import 1 reviews.csv --batch-size 100",
    "cat tasks.json | dmq projects import 1 - -p return_task_ids=true",
    "dmq projects import 1 photos.csv --upload",
  ]);
}
