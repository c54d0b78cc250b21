import { Option, type Command } from "@commander-js/extra-typings";
import type { Client } from "../../client/client.js";
import type { RecordMethods } from "../../client/resources/record.js";
import type { Params } from "../params.js";
import { examples, idArgument, ParamFlags, type CommandKit } from "./common.js";

/** A stored record type: its `get`, `update` (PATCH) and `delete` at `/api/<resource>/<id>/`. */
export interface RecordSpec {
  readonly noun: string;
  /** The table columns people want to see first. */
  readonly columns: readonly string[];
  /** The client's resource; update fields are passed as given: the server validates them and names the bad ones. */
  readonly pick: (client: Client) => RecordMethods<unknown, Params>;
  readonly updateExample: string;
  /** Ask before deleting on a terminal (a project takes its tasks with it). */
  readonly confirmDelete?: boolean;
  /** false: the resource defines its own `update` (views take a selection). */
  readonly update?: false;
}

type Group = Command<[], {}, {}>;

export function recordCommands(group: Group, kit: CommandKit, spec: RecordSpec): void {
  const name = group.name();
  const get = group.command("get").description(`one ${spec.noun} by id`).argument("<id>", `${spec.noun} id`, idArgument);
  get.action((id) => kit.run(async (session) => session.print(await spec.pick(await session.client()).get(id), spec.columns)));
  examples(get, [`dmq ${name} get 1`, `dmq ${name} get 1 --format table`]);

  if (spec.update !== false) {
    const update = group
      .command("update")
      .description(`change fields of a ${spec.noun} (PATCH: only the given fields change)`)
      .argument("<id>", `${spec.noun} id`, idArgument);
    const fields = new ParamFlags(update);
    update.action((id) =>
      kit.run(async (session) => session.print(await spec.pick(await session.client()).update(id, fields.values), spec.columns)),
    );
    examples(update, [spec.updateExample, `dmq ${name} update 1 --body @changes.json --dry-run`]);
  }

  const remove = group
    .command("delete")
    .description(`delete a ${spec.noun}`)
    .argument("<id>", `${spec.noun} id`, idArgument)
    .addOption(new Option("-y, --yes", "do not ask for confirmation on a terminal"));
  remove.action((id, options) =>
    kit.run(async (session) => {
      if (spec.confirmDelete) await session.confirm(`Delete ${spec.noun} ${id}?`, options.yes);
      await spec.pick(await session.client()).delete(id);
      session.printEmpty();
    }),
  );
  examples(remove, [`dmq ${name} delete 3`, `dmq ${name} delete 3 --dry-run`]);
}
