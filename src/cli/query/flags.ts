import { InvalidArgumentError, Option, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { match } from "ts-pattern";
import { QueryBuildError, rules, type RuleName } from "../../query/rules.js";
import { CliUsageError } from "../errors.js";
import { positiveInt } from "../params.js";
import { isOrderKey } from "../../query/condition.js";
import { resume, startSelection, type DynamicSelection } from "./builder.js";
import { operatorNames, operators } from "../../vocabulary/operators.js";
import { parseCondition, spell, unknownColumn, type Condition } from "./condition.js";
import { fromBody, readBodyText, selectionParams, viewOfBody } from "./body.js";
import { isParams, type Params } from "../params.js";
import type { JsonValue } from "../../vocabulary/json.js";
import { nearest } from "../../vocabulary/nearest.js";
import type { ParseOptions } from "../../wire/parse.js";
import { actionFields, endpointKeys } from "../../wire/parse-keys.js";

/** The condition syntax under a command's options, from the spelling table. */
const CONDITIONS = `
Conditions: "<column>[@Type] <operator> [value]", e.g. "completed_at > 2024-01-01T00:00:00Z",
"data.score@Number between 0.5 and 1", "id in [1, 2, 3]", 'data.text contains "two words"', "annotators is empty".
Operators: ${operatorNames
  .filter((op) => operators[op].implemented)
  .map(spell)
  .join("  ")}  (all spellings: dmq operators; columns: dmq columns)
Flags replay in order through the builder: --where starts (another --where is AND), --or adds an OR line,
--child ANDs into the last line; one conjunction per filter set.`;

/** The query flags, in command-line order: they replay through the builder one by one. */
type Step =
  | { readonly flag: "--where" | "--or" | "--child"; readonly text: string; readonly condition: Condition }
  | { readonly flag: "--order"; readonly text: string }
  | { readonly flag: "--include" | "--exclude"; readonly text: string; readonly ids: TaskIds }
  | { readonly flag: "--all"; readonly text: string };

/** A broken builder rule in the words of the flags (the builder's own text names methods). */
const inFlagWords: { readonly [R in RuleName]: string } = {
  whereTwice: "the filter set already started (a second --where adds an AND line)",
  conditionFirst: "--or and --child need a --where before them (the first condition of the filter set)",
  mixedAndAfterOr:
    "--where after --or: the server combines every line with one conjunction (filters.conjunction), so a filter set is " +
    "either --where … --where … (AND) or --where … --or … (OR); AND a condition into the last --or line with --child",
  mixedOrAfterAnd:
    "--or after a second --where: the server combines every line with one conjunction (filters.conjunction), so a filter " +
    "set is either --where … --where … (AND) or --where … --or … (OR); use --child to AND a condition into one line",
  includingAfterExcluding:
    "--include with --exclude or --all: the server reads only one list ({all: false, included} or {all: true, excluded})",
  excludingAfterIncluding:
    "--exclude or --all with --include: the server reads only one list ({all: false, included} or {all: true, excluded})",
  orderedTwice: "--order once: the server orders by the first key only and ignores the rest",
  viewIgnoresBody:
    "--view with --where/--or/--child/--order/--include/--exclude/--all: given a view, the server ignores the body and " +
    "uses the view's own filters, ordering and selection",
  fromViewFresh:
    "--view with --where/--or/--child/--order/--include/--exclude/--all: given a view, the server ignores the body and " +
    "uses the view's own filters, ordering and selection",
  notBound: "this command needs a server (--base-url)",
  exportNotBound: "this command needs a server (--base-url)",
  emptyIncluding: "--include needs at least one task id: the server reads {all: false, included: []} as every task",
  everyTask:
    "with no --where, --include or --view this acts on every task of the project (--exclude alone still does): " +
    "name the tasks, or pass --all to mean it",
  everyTaskExcluded:
    "--exclude alone, with no --where, --include or --view, leaves every other task of the project to act on: " +
    "name the tasks (--where, --include), or pass --all to mean every task but the excluded",
};

/** A builder error in the flags' words: the rule's words when it is a rule, else the builder's message (with its path). */
export function inCliWords(error: QueryBuildError): string {
  const rule = (Object.keys(rules) as RuleName[]).find((r) => error.message.endsWith(rules[r]));
  return rule ? inFlagWords[rule] : error.message;
}

/** `-completed_at` → `-tasks:completed_at`: the prefix is optional on the command line, as in conditions. */
function orderKey(text: string): string {
  const descending = text.startsWith("-");
  const name = descending ? text.slice(1) : text;
  return `${descending ? "-" : ""}${name.startsWith("tasks:") ? name : `tasks:${name}`}`;
}

type TaskIds = readonly [number, ...number[]];

function ids(text: string): TaskIds {
  const [first = "", ...rest] = text.split(",").map((part) => part.trim());
  if (first === "" || rest.some((part) => part === "")) {
    throw new InvalidArgumentError(`expected task ids separated by commas, found ${JSON.stringify(text)}`);
  }
  return [positiveInt(first), ...rest.map(positiveInt)];
}

/**
 * Where the selection goes, which decides the keys the server reads from a body: the task list, an
 * action, a view, or an export (through a view made for it, or the body's own `view`: an action's keys).
 */
export type SelectionUse =
  | { readonly for: "tasks" }
  | { readonly for: "action"; readonly action: string }
  | { readonly for: "view" }
  | { readonly for: "export" };

/** A built selection, and the action fields a `--query` body carried next to it. */
export interface Built {
  readonly selection: DynamicSelection;
  readonly fields: Params;
}

const QUERY_HELP =
  "a selection body (JSON, @file, or - for stdin): read as the server reads it, then replayed through the builder " +
  "(its rules, the guard of destructive actions); the other query flags continue from it";

/**
 * `--where`, `--or`, `--child`, `--order`, `--include`, `--exclude`, `--all`, `--view` and `--query`
 * on a command; selection keys passed as parameters (`-p filters=…`, `--body`) are taken in too
 * (`takeParams`), so every way of giving a selection goes through the same reading and rules.
 */
export class QueryFlags {
  readonly #steps: Step[] = [];
  #view: number | undefined;
  #viewFlag = "--view";
  #query: string | undefined;
  #params: { readonly body: Params; readonly flag: string } | undefined;

  /** Adds the flags to `command`; their values are kept here, in order. */
  constructor(command: CommandUnknownOpts, options: { view?: boolean } = {}) {
    const record =
      <T>(read: (text: string) => T, step: (text: string, value: T) => Step) =>
      (text: string) => {
        this.#steps.push(step(text, read(text)));
        return text;
      };
    const condition = (flag: "--where" | "--or" | "--child") => record(parseCondition, (text, c): Step => ({ flag, text, condition: c }));
    command
      .addOption(new Option("-w, --where <condition>", "a condition; another --where adds an AND line").argParser(condition("--where")))
      .addOption(new Option("--or <condition>", "a condition OR-ed with the lines before").argParser(condition("--or")))
      .addOption(
        new Option(
          "--child <condition>",
          "a condition AND-ed into the last line (sent as child_filter; several as child_filters, which servers before 1.23 drop)",
        ).argParser(condition("--child")),
      )
      .addOption(
        new Option("--order <[-]column>", "order by one column; a leading - sorts descending").argParser(
          record(String, (text) => ({ flag: "--order", text })),
        ),
      )
      .addOption(
        new Option("--include <ids>", "only these task ids, e.g. 1,2,3").argParser(
          record(ids, (text, v): Step => ({ flag: "--include", text, ids: v })),
        ),
      )
      .addOption(
        new Option("--exclude <ids>", "every selected task except these ids").argParser(
          record(ids, (text, v): Step => ({ flag: "--exclude", text, ids: v })),
        ),
      )
      .addOption(new Option("--all", "every task the filters select"))
      .addOption(
        new Option("--query <json>", QUERY_HELP).argParser((text) => {
          if (this.#query !== undefined) throw new InvalidArgumentError("give one --query (a body is one selection)");
          this.#query = text;
          return text;
        }),
      );
    command.on("option:all", () => this.#steps.push({ flag: "--all", text: "" }));
    command.addHelpText("after", CONDITIONS);
    if (options.view !== false) {
      command.addOption(
        new Option("--view <id>", "take filters, ordering and selection from a saved view").argParser((text) => {
          this.#view = positiveInt(text);
          return text;
        }),
      );
    }
  }

  get empty(): boolean {
    return this.#view === undefined && this.#steps.length === 0 && this.#query === undefined && this.#params === undefined;
  }

  /**
   * Takes the selection keys out of a command's parameters (`-p filters=…`, `--body`, the SDK's
   * `selected_items` and `query`, and `view`): they join the selection here, and the rest is returned.
   */
  takeParams(params: Params): Params {
    const { body, flag, rest } = selectionParams(params);
    if (body !== undefined) {
      if (this.#query !== undefined) throw new CliUsageError(`${flag} and --query: give the selection once`);
      this.#params = { body, flag };
    }
    const view = rest["view"];
    if (view !== undefined) {
      delete rest["view"];
      if (this.#view !== undefined && viewOfBody(view, "--param view") !== this.#view) {
        throw new CliUsageError(`--param view=${JSON.stringify(view)} and --view ${this.#view}: give the view once`);
      }
      this.#view = viewOfBody(view, "--param view");
      this.#viewFlag = "--param view";
    }
    return rest;
  }

  /**
   * The selection the flags describe, built by the builder (its rules, in the flags' words): a body
   * (`--query`, selection parameters) first, read for `use`, then the flags in command-line order.
   */
  async build(project: number, use: SelectionUse, readStdin: () => Promise<string> = async () => ""): Promise<Built> {
    let s = startSelection(project);
    const body = this.#query !== undefined ? await readBodyText(this.#query, readStdin) : this.#params?.body;
    const flag = this.#query !== undefined ? "--query" : (this.#params?.flag ?? "");
    let fields: Params = {};
    if (body !== undefined) {
      if (!isParams(body as JsonValue))
        throw new CliUsageError(`${flag}: expected a JSON object (a selection body), found ${JSON.stringify(body)}`);
      const split = splitBody(body as Params, use);
      fields = split.fields;
      const selectionKeys = Object.keys(split.selection).filter((k) => k !== "view");
      if (split.selection["view"] !== undefined) {
        if (use.for === "view")
          throw new CliUsageError(`${flag}: a view's query cannot name another view ("view": ${JSON.stringify(split.selection["view"])})`);
        if (this.#view !== undefined) throw new CliUsageError(`${flag} names a view and ${this.#viewFlag} another: give the view once`);
        if (selectionKeys.length > 0)
          throw new CliUsageError(`${flag}: the body's "view" with ${selectionKeys.join(", ")}: ${VIEW_TAKES_OVER}`);
        s = resume(s).fromView(viewOfBody(split.selection["view"], flag));
      } else {
        if (this.#view !== undefined) throw new CliUsageError(`${this.#viewFlag} with ${flag}: ${VIEW_TAKES_OVER}`);
        s = fromBody(project, split.selection, flag, parseOptionsOf(use));
      }
    } else if (this.#view !== undefined) s = resume(s).fromView(this.#view);
    let lines = s.toQuery().filters?.items.length ?? 0;
    for (const step of this.#steps) {
      const next = resume(s);
      try {
        s = match(step)
          .with({ flag: "--where" }, ({ condition }) => (lines++ === 0 ? next.where(condition) : next.and(condition)))
          .with({ flag: "--or" }, ({ condition }) => (lines++, next.or(condition)))
          .with({ flag: "--child" }, ({ condition }) => next.child(condition))
          .with({ flag: "--order" }, ({ text }) => {
            const key = orderKey(text);
            if (!isOrderKey(key)) throw new CliUsageError(`--order ${JSON.stringify(text)}: ${unknownColumn(text.replace(/^-/, ""))}`);
            return next.orderBy(key);
          })
          .with({ flag: "--include" }, ({ ids: list }) => next.including(list))
          .with({ flag: "--exclude" }, ({ ids: list }) => next.excluding(list))
          .with({ flag: "--all" }, () => next.all())
          .exhaustive();
      } catch (error) {
        if (!(error instanceof QueryBuildError)) throw error;
        const given = step.text === "" ? step.flag : `${step.flag} ${JSON.stringify(step.text)}`;
        throw new CliUsageError(`${given}: ${inCliWords(error)}`);
      }
    }
    return { selection: s, fields };
  }
}

const VIEW_TAKES_OVER = "given a view, the server ignores the body's filters, ordering and selection and uses the view's own";

/** The parse options of a use: the list's query parameter, an action's body (its fields read), a view's data. */
function parseOptionsOf(use: SelectionUse): ParseOptions {
  return match(use)
    .returnType<ParseOptions>()
    .with({ for: "tasks" }, () => ({ endpoint: "tasks" }))
    .with({ for: "action" }, ({ action }) => ({ action }))
    .with({ for: "view" }, () => ({}))
    .with({ for: "export" }, () => ({ endpoint: "actions" }))
    .exhaustive();
}

/**
 * A body's selection part and, for an action, its own fields (the action's known fields; for an
 * action the vocabulary does not know, every key that is not the selection's).
 */
function splitBody(body: Params, use: SelectionUse): { selection: Params; fields: Params } {
  if (use.for !== "action") return { selection: body, fields: {} };
  const own = actionFields(use.action);
  const selection: Params = {};
  const fields: Params = {};
  for (const [key, value] of Object.entries(body)) {
    const isField =
      own === "any" ? !(endpointKeys.actions as readonly string[]).includes(key) && nearestQueryKey(key) === undefined : own.includes(key);
    (isField ? fields : selection)[key] = value;
  }
  return { selection, fields };
}

/**
 * Parameters sent next to a selection (an action's fields, a snapshot's options) whose names are
 * free: none may look like the selection's keys (the parser's judgement for a body), which the
 * server would not read as the selection, acting on every task. `action`: only for an action the
 * vocabulary does not know (a known one checks its fields in the builder).
 */
export function refuseLookalikes(params: Params, action?: string): void {
  if (action !== undefined && actionFields(action) !== "any") return;
  for (const key of Object.keys(params)) {
    const near = nearestQueryKey(key);
    if (near !== undefined) {
      throw new CliUsageError(
        `--param ${key}: an unknown key "${key}" (did you mean ${near}?), which the server would not read as the selection: ` +
          `give it as --param ${near}=… or in --query`,
      );
    }
  }
}

/** A key that looks like one of the query's (a near miss): it stays with the selection, where the parser names it. */
const nearestQueryKey = (key: string): string | undefined => nearest(key, endpointKeys.actions);
