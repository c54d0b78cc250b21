import { Option, type Command } from "@commander-js/extra-typings";
import { examples, type CommandKit } from "./common.js";

/** `dmq mock`: the mock server, as `npm start` runs it (same options, same banner). */
export function mockCommand(program: Command<[], {}, {}>, kit: CommandKit): void {
  const mock = program
    .command("mock")
    .description("run the mock server (the same as npm start); Ctrl-C stops it")
    .addOption(new Option("--port <port>", "port to listen on (default $PORT, else 8080; 0 picks a free one)"))
    .addOption(new Option("--host <host>", "interface to bind (default 127.0.0.1)"))
    .addOption(new Option("--data <file>", "JSON seed file (docs/mock-server.md); default: the built-in demo data"))
    .addOption(new Option("--persist <file>", "JSON file that keeps the data across restarts"))
    .addOption(new Option("--strict", "answer 400 where the real server ignores input or answers 500"))
    .addOption(new Option("--quiet", "do not log requests"));
  mock.action((options) =>
    kit.run(async (session) => {
      const { runMockCli } = await import("../../../mock-server/main.js");
      const argv = Object.entries(options).flatMap(([name, value]) =>
        value === true ? [`--${name}`] : typeof value === "string" ? [`--${name}`, value] : [],
      );
      await runMockCli(argv, session.io.env, { out: (line) => session.say(line) });
    }),
  );
  examples(mock, ["dmq mock", "dmq mock --port 9000 --data seed.json", "dmq mock --strict --quiet"]);
}
