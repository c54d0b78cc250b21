import { Option, type Command } from "@commander-js/extra-typings";
import type { DraftWrite } from "../../client/types.js";
import { positiveInt } from "../params.js";
import { examples, idArgument, ParamFlags, type CommandKit } from "./common.js";
import { recordCommands } from "./records.js";

const DRAFT_COLUMNS = ["id", "task", "annotation", "user", "lead_time", "was_postponed", "updated_at"];

/** `drafts`: annotation drafts of a task. */
export function draftCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("drafts").description("annotation drafts");
  examples(group, ["dmq drafts list 1", "dmq drafts create 1 -p result=@result.json"]);

  const list = group.command("list").description("a task's drafts (every user's)").argument("<task>", "task id", idArgument);
  list.action((task) => kit.run(async (session) => session.print(await (await session.client()).drafts.list(task), DRAFT_COLUMNS)));
  examples(list, ["dmq drafts list 1 --format table"]);

  const create = group
    .command("create")
    .description("a new draft of a task for the caller (result required)")
    .argument("<task>", "task id", idArgument)
    .addOption(new Option("--annotation <id>", "the annotation the draft revises").argParser(positiveInt));
  const fields = new ParamFlags(create, "a draft field: result, lead_time, was_postponed…");
  create.action((task, options) =>
    kit.run(async (session) =>
      session.print(
        await (
          await session.client()
        ).drafts.create(task, fields.values as DraftWrite, options.annotation === undefined ? {} : { annotation: options.annotation }),
        DRAFT_COLUMNS,
      ),
    ),
  );
  examples(create, ["dmq drafts create 1 -p result=@result.json", "dmq drafts create 1 --annotation 4 -p result=[]"]);

  recordCommands(group, kit, {
    noun: "draft",
    columns: DRAFT_COLUMNS,
    pick: (client) => client.drafts,
    updateExample: "dmq drafts update 2 -p was_postponed=true",
  });

  const convert = group
    .command("from-annotation")
    .description("turn an annotation into the caller's draft (the annotation is deleted)")
    .argument("<annotation>", "annotation id", idArgument);
  convert.action((annotation) =>
    kit.run(async (session) => session.print(await (await session.client()).drafts.fromAnnotation(annotation), DRAFT_COLUMNS)),
  );
  examples(convert, ["dmq drafts from-annotation 4"]);
}
