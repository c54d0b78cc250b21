import type { Command } from "@commander-js/extra-typings";
import { examples, type CommandKit } from "./common.js";

export function userCommands(program: Command<[], {}, {}>, kit: CommandKit): void {
  const group = program.command("users").description("users: whoami");
  examples(group, ["dmq users whoami"]);
  const whoami = group.command("whoami").description("the user the API key belongs to");
  whoami.action(() => kit.run(async (session) => session.print(await (await session.client()).users.whoami())));
  examples(whoami, ["dmq users whoami", "dmq users whoami --format table", "dmq users whoami --dry-run"]);
}
