import { Option, type Command } from "@commander-js/extra-typings";
import { linesWithChildFilters } from "../../client/server-release.js";
import { match } from "ts-pattern";
import { MOCK_CLI_PORT } from "../../../mock-server/flags.js";
import type { ParseIssue } from "../../wire/issues.js";
import { parseQueryBody, type ParseContext, type ParseOptions, type ParseResult } from "../../wire/parse.js";
import { playgroundUrl } from "../../wire/playground-link.js";
import { toBody } from "../../wire/serialize.js";
import { ApiError, NetworkError, RequestTimeoutError } from "../../client/errors.js";
import { CliUsageError } from "../errors.js";
import { chainOf } from "../explain/code.js";
import { issueWords, selectionWords } from "../explain/words.js";
import { positiveInt, readArgument, readTextFile } from "../params.js";
import type { Session } from "../session.js";
import { examples, type CommandKit } from "./common.js";
import { isPlainObject } from "../../vocabulary/json.js";

/** What is explained: the body as the server gets it, and what came with it. */
interface Input {
  readonly source: string;
  readonly body: unknown;
  readonly context: ParseContext;
  readonly project: number | undefined;
  /** Where the body goes: an action (`?id=` of a request, `--for <action>`; its fields are read too), or `tasks`, the list. */
  readonly action?: string;
  /** A view that takes over: `?view=` of an action request, or the body's own `view` key. */
  readonly view: { readonly id: number; readonly where: string } | undefined;
}

const BODY_VIEW = `the body's "view"`;
const positive = (v: unknown): number | undefined => (typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : undefined);

/**
 * The server reads `view` from the query string, else from the body, as an integer (int_from_request
 * in label_studio/data_manager/functions.py get_prepare_params); a positive one replaces the body.
 */
function viewKey(value: unknown): number | undefined {
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return positive(Number(value));
  return positive(value);
}

/** A body, an action request (`dmq body --request`, `toRequest()`), or a saved view (`dmq views get`). */
function inputOf(value: unknown, source: string): Input {
  if (isPlainObject(value) && isPlainObject(value["body"]) && isPlainObject(value["query"]) && typeof value["method"] === "string") {
    const query = value["query"];
    const id = viewKey(query["view"]) ?? viewKey(value["body"]["view"]);
    const where = viewKey(query["view"]) !== undefined ? `the request's ?view=${String(query["view"])}` : BODY_VIEW;
    return {
      source,
      body: value["body"],
      context: "inline",
      project: positive(query["project"]),
      ...(typeof query["id"] === "string" ? { action: query["id"] } : {}),
      view: id === undefined ? undefined : { id, where },
    };
  }
  if (isPlainObject(value) && isPlainObject(value["data"]) && positive(value["project"]) !== undefined && !("filters" in value)) {
    return { source, body: value["data"], context: "view", project: positive(value["project"]), view: undefined };
  }
  const id = isPlainObject(value) ? viewKey(value["view"]) : undefined;
  return {
    source,
    body: value,
    context: "inline",
    project: undefined,
    view: id === undefined ? undefined : { id, where: BODY_VIEW },
  };
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliUsageError(`${source}: not JSON (${(error as Error).message})`);
  }
}

async function readInput(session: Session, file: string | undefined, options: { query?: string; view?: number }): Promise<Input> {
  const given = [file !== undefined, options.query !== undefined, options.view !== undefined].filter(Boolean).length;
  if (given > 1) throw new CliUsageError("give one body: a file (or - for stdin), --query <json> or --view <id>");
  if (options.view !== undefined) {
    const view = await (await session.client()).views.get(options.view);
    return { source: `view ${options.view}`, body: view.data, context: "view", project: view.project, view: undefined };
  }
  if (options.query !== undefined) return inputOf(parseJson(readArgument(options.query, "--query"), "--query"), "--query");
  if (file === undefined && session.io.stdinIsTTY) {
    throw new CliUsageError("no body: give a file, - (stdin), --query <json> or --view <id>");
  }
  const text = file === undefined || file === "-" ? await session.io.readStdin() : readTextFile(file, "<file>");
  const source = file === undefined || file === "-" ? "stdin" : file;
  return inputOf(parseJson(text, source), source);
}

interface Explanation {
  readonly input: Input;
  readonly parsed: ParseResult;
  readonly selects: readonly string[];
  readonly notes: readonly string[];
}

/** The parse options of where the body goes: `--for tasks` (the list's query parameter), `--for <action>`, a request's `?id=`. */
function readBy(input: Input): ParseOptions {
  if (input.action === undefined) return {};
  return input.action === "tasks" ? { endpoint: "tasks" } : { action: input.action };
}

/**
 * The newest sources drop a line whose first filter lacks filter:tasks:; 1.22 fails on it (apply_filters
 * reduces the empty line). Measured on 1.22: a top-level item without the prefix answers 500, a child is skipped.
 */
const OLDER_SKIPPED_LINE = '; Label Studio 1.22 answers 500 ("reduce() of empty iterable") instead';
const skippedLine = (input: Input, issue: ParseIssue): boolean =>
  input.context === "inline" &&
  issue.effect === "ignored" &&
  /^filters\.items\[\d+\]\.filter$/.test(issue.path) &&
  issue.expected.includes("filter:tasks:");

const PLURAL_CHILDREN =
  "servers before 1.23 (1.22 included) do not read child_filters and drop its conditions without a word, so the line " +
  "selects more tasks there; one child sent as child_filter is read by every server";

/** The lines of a body (as sent, not a view's stored form) that give their children as `child_filters`. */
function pluralChildren(input: Input): string[] {
  if (input.context !== "inline" || !isPlainObject(input.body)) return [];
  return linesWithChildFilters(input.body["filters"]).map((line) => `filters.items[${line.index}].child_filters`);
}

async function explain(input: Input, project: number | undefined): Promise<Explanation> {
  // The regex check compiles patterns as Python would: loaded only here, so other commands start faster.
  const { invalidRegex } = await import("../../semantics/read-query.js");
  const parsed = parseQueryBody(input.body, { context: input.context, ...readBy(input) });
  const notes: string[] = [];
  if (input.view) {
    notes.push(
      `[overridden] view: ${input.view.where} makes the server use saved view ${input.view.id}'s filters, ordering and selection; ` +
        "it ignores those of this body",
    );
  }
  const bad = parsed.query ? invalidRegex(parsed.query) : undefined;
  if (bad) {
    notes.push(
      `[selects nothing] ${bad.path}: ${JSON.stringify(bad.pattern)} is no regex Python compiles (${bad.error}): the server returns no task at all`,
    );
  }
  notes.push(...pluralChildren(input).map((at) => `[dropped before 1.23] ${at}: ${PLURAL_CHILDREN}`));
  notes.push(...parsed.issues.map((issue) => issueWords(issue, input.body) + (skippedLine(input, issue) ? OLDER_SKIPPED_LINE : "")));
  const selects = parsed.query ? selectionWords(parsed.query, project) : [];
  return { input, parsed, selects, notes };
}

/**
 * The playground page of `server` (the mock serves it) with the body loaded: as given, or a saved
 * view's filters as the documented body the server reads from them.
 */
function playgroundLink(e: Explanation, project: number | undefined, server: string): string {
  const body = e.input.context === "view" && e.parsed.query ? toBody(e.parsed.query) : e.input.body;
  return playgroundUrl(server, { ...(project === undefined ? {} : { project }), body }, { server: true });
}

/** Opens the link for a person at a terminal; says why not only when someone is there to read it. */
async function openLink(session: Session, link: string): Promise<void> {
  const why = session.io.openUrl ? await session.io.openUrl(link) : "no browser opener";
  if (why !== undefined && session.io.stderrIsTTY) session.io.stderr(`(the browser was not opened: ${why})\n`);
}

function explanationText(e: Explanation, count: string | undefined): string {
  const out = [`${e.input.source}:`];
  if (e.parsed.query) out.push("The server selects:", ...e.selects.map((l) => `  ${l}`));
  out.push(
    e.notes.length === 0
      ? "Nothing hidden: the server reads this body as written."
      : `What the server does that the body does not say (${e.notes.length}):`,
    ...e.notes.map((n) => `  ${n}`),
  );
  const answer = e.parsed.answer;
  if (answer) out.push(`The server refuses this body: ${answer.status} ${answer.detail}`);
  if (count !== undefined) out.push(count);
  return out.join("\n");
}

export function explainCommand(program: Command<[], {}, {}>, kit: CommandKit): void {
  const command = program
    .command("explain")
    .description("say in plain words what a body selects and what the server silently ignores or reads differently")
    .argument("[file]", "a JSON body, action request or view (- or a pipe: stdin)")
    .addOption(new Option("--query <json>", "the body itself (or @file)"))
    .addOption(new Option("--view <id>", "a saved view, fetched from the server").argParser(positiveInt))
    .addOption(
      new Option("--project <id>", "the project (for --code and --against; default: the request's or view's, else 1)").argParser(
        positiveInt,
      ),
    )
    .addOption(
      new Option(
        "--for <where>",
        "where the body goes, which decides the keys the server reads: tasks (the task list's query parameter) or an action id " +
          "(that action's body, its fields included); default: either",
      ),
    )
    .addOption(new Option("--code", "print the equivalent selection(…) TypeScript chain instead"))
    .addOption(
      new Option(
        "--open",
        `also print a link to the mock's playground with the body loaded (server: --against, --base-url, ` +
          `$LABEL_STUDIO_URL, else http://127.0.0.1:${MOCK_CLI_PORT}); opened in a browser when stdout is a terminal ` +
          "and BROWSER is not none",
      ),
    )
    .addOption(new Option("--against <url>", "also ask this server how many tasks the body selects (key: --api-key)"));
  command.action((file, options) =>
    kit.run(async (session) => {
      const read = await readInput(session, file, options);
      if (options.for !== undefined && read.action !== undefined && options.for !== read.action) {
        throw new CliUsageError(`--for ${options.for}: the request names action ${read.action} (?id=)`);
      }
      // The task list reads a view from its URL only: a body's "view" is one more ignored key there.
      const bodyView = read.view !== undefined && read.view.where === BODY_VIEW;
      const input: Input =
        options.for === undefined
          ? read
          : { ...read, action: options.for, view: options.for === "tasks" && bodyView ? undefined : read.view };
      const project = options.project ?? input.project;
      const e = await explain(input, project);
      const server = options.against ?? session.baseUrl ?? `http://127.0.0.1:${MOCK_CLI_PORT}`;
      const link = options.open ? playgroundLink(e, project, server) : undefined;
      if (options.code) {
        if (!e.parsed.query)
          throw new CliUsageError(`the server refuses this body (${e.parsed.answer?.status}): there is no chain to write`);
        const ignored = e.parsed.issues.filter((i) => i.effect === "ignored");
        session.say(chainOf(e.parsed.query, project ?? 1, input.view?.id, ignored).code.trimEnd());
        if (link) {
          session.say(`// the playground: ${link}`);
          await openLink(session, link);
        }
        return;
      }
      let count: number | undefined;
      let countText: string | undefined;
      // A server that fails to count (an older one answers 500 where the newest skip a line) does not
      // lose the explanation: it is printed, then the failure (stderr, exit 1).
      let countFailure: unknown;
      if (options.against !== undefined) {
        if (project === undefined) throw new CliUsageError("--against needs the project: pass --project <id>");
        if (e.parsed.answer) countText = `Not asked ${options.against}: it would refuse the body.`;
        else {
          const client = await session.clientFor(options.against);
          try {
            const page = await client.tasks
              .list({ project, query: e.input.body as object, page_size: 1, ...(input.view ? { view: input.view.id } : {}) })
              .page(1);
            count = page.total;
            countText = `The server at ${options.against} selects ${count} task${count === 1 ? "" : "s"} of project ${project}.`;
          } catch (error) {
            const failed = error instanceof ApiError || error instanceof NetworkError || error instanceof RequestTimeoutError;
            if (!failed || session.dryRun?.done) throw error;
            countFailure = error;
            countText = `The server at ${options.against} did not count the tasks: its error is on stderr.`;
          }
        }
      }
      const text = () => session.say(explanationText(e, countText) + (link === undefined ? "" : `\nThe playground: ${link}`));
      // Text for people unless --format json is asked for (the global default is json).
      const record = () => ({
        source: input.source,
        selects: e.selects,
        notes: e.notes,
        issues: e.parsed.issues,
        answer: e.parsed.answer ?? null,
        ...(count === undefined ? {} : { count }),
        ...(countFailure instanceof Error ? { countError: countFailure.message } : {}),
        ...(link === undefined ? {} : { playground: link }),
      });
      match(session.format)
        .with("json", () => (session.options.formatGiven ? session.print(record()) : text()))
        .with("table", text)
        .with("jsonl", () => session.print(record()))
        .with("csv", () => {
          throw new CliUsageError("explain has no CSV form: --format json or jsonl gives the record, table (the default) the text");
        })
        .exhaustive();
      if (link) await openLink(session, link);
      if (countFailure !== undefined) throw countFailure;
    }),
  );
  command.addHelpText(
    "after",
    "\nThe output is text by default (--format json for a record). It flags a missing filter:tasks: prefix, " +
      "{all: false, included: []}, a per-line conjunction, operators a column's type does not have, " +
      "regexes that select nothing, a view that replaces the body, and every other deviation the parser knows.",
  );
  examples(command, [
    "dmq explain body.json",
    `dmq explain --query '{"filters": {"conjunction": "and", "items": [{"filter": "tasks:id", "operator": "equal", "type": "Number", "value": 1}]}}'`,
    "dmq explain --view 2 --code",
    'dmq body -w "data.score@Number between 0.5 and 1" | dmq explain --open   # and try it in the playground',
    'dmq body -w "id > 3" --all | dmq explain --against http://127.0.0.1:8080 --project 1',
  ]);
}
