import type { Command } from "@commander-js/extra-typings";
import type { UserWrite } from "../../client/types.js";
import { examples, ParamFlags, type CommandKit } from "./common.js";
import { recordCommands } from "./records.js";

const USER_COLUMNS = ["id", "username", "email", "first_name", "last_name", "last_activity"];

/** `users`: the caller, the organization's users, the caller's legacy key. */
export function userCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("users").description("users");
  examples(group, ["dmq users whoami", "dmq users list --format table"]);
  const whoami = group.command("whoami").description("the user the API key belongs to");
  whoami.action(() => kit.run(async (session) => session.print(await (await session.client()).users.whoami())));
  examples(whoami, ["dmq users whoami", "dmq users whoami --format table", "dmq users whoami --dry-run"]);

  const list = group.command("list").description("the organization's users");
  list.action(() => kit.run(async (session) => session.print(await (await session.client()).users.list(), USER_COLUMNS)));
  examples(list, ["dmq users list", "dmq users list --format table"]);

  const create = group.command("create").description("a new user of the organization (username required)");
  const fields = new ParamFlags(create, "a user field: username, email, first_name, last_name, phone…");
  create.action(() =>
    kit.run(async (session) => session.print(await (await session.client()).users.create(fields.values as UserWrite), USER_COLUMNS)),
  );
  examples(create, ["dmq users create -p username=dee -p email=dee@example.com"]);

  recordCommands(group, kit, {
    noun: "user",
    columns: USER_COLUMNS,
    pick: (client) => client.users,
    updateExample: "dmq users update 2 -p first_name=Bo",
  });

  const token = group.command("token").description("the API key's own legacy token (GET /api/current-user/token)");
  token.action(() => kit.run(async (session) => session.print(await (await session.client()).users.getToken())));
  examples(token, ["dmq users token"]);
  const reset = group.command("reset-token").description("a new legacy token for the caller; the old one stops working");
  reset.action(() => kit.run(async (session) => session.print(await (await session.client()).users.resetToken())));
  examples(reset, ["dmq users reset-token"]);
}
