import { InvalidArgumentError, Option, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { match } from "ts-pattern";
import { QueryBuildError, rules, type RuleName } from "../../query/rules.js";
import { CliUsageError } from "../errors.js";
import { positiveInt } from "../params.js";
import { isOrderKey } from "../../query/condition.js";
import { resume, startSelection, type DynamicSelection } from "./builder.js";
import { operatorNames, operators } from "../../vocabulary/operators.js";
import { parseCondition, spell, unknownColumn, type Condition } from "./condition.js";

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

/** `--where`, `--or`, `--child`, `--order`, `--include`, `--exclude`, `--all` and `--view` on a command. */
export class QueryFlags {
  readonly #steps: Step[] = [];
  #view: number | undefined;

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
      .addOption(new Option("--child <condition>", "a condition AND-ed into the last line (child_filters)").argParser(condition("--child")))
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
      .addOption(new Option("--all", "every task the filters select"));
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

  get view(): number | undefined {
    return this.#view;
  }

  get empty(): boolean {
    return this.#view === undefined && this.#steps.length === 0;
  }

  /** The selection the flags describe, built by the builder (its rules, in the flags' words). */
  build(project: number): DynamicSelection {
    let s = startSelection(project);
    if (this.#view !== undefined) s = resume(s).fromView(this.#view);
    let lines = 0;
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
    return s;
  }
}
