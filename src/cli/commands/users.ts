import type { Command } from "@commander-js/extra-typings";
import { examples, type CommandKit } from "./common.js";

const COLUMNS = ["id", "username", "email", "first_name", "last_name", "last_activity"];

export function userCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("users").description("users: whoami, list");
  examples(group, ["dmq users whoami", "dmq users list --format table"]);
  const whoami = group.command("whoami").description("the user the API key belongs to");
  whoami.action(() => kit.run(async (session) => session.print(await (await session.client()).users.whoami())));
  examples(whoami, ["dmq users whoami", "dmq users whoami --format table", "dmq users whoami --dry-run"]);
  const list = group.command("list").description("every user the server lists (GET /api/users/)");
  list.action(() => kit.run(async (session) => session.print(await (await session.client()).users.list(), COLUMNS)));
  examples(list, ["dmq users list --format table", "dmq users list --format csv > users.csv"]);
}
