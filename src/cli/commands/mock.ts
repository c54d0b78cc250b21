import { Option, type Command } from "@commander-js/extra-typings";
import { flagSpelling, mockFlagList } from "../../../mock-server/flags.js";
import { CliUsageError } from "../errors.js";
import { examples, type CommandKit } from "./common.js";

/**
 * `dmq mock`: the mock server, as `npm start` runs it. Its flags come from the mock's flag table; they
 * are handed on as written, so `npm start` and `dmq mock` read and check them with one parser.
 */
export function mockCommand(program: Command<[], {}, {}>, kit: CommandKit): void {
  const mock = program.command("mock").description("run the mock server (the same as npm start); Ctrl-C stops it");
  const argv: string[] = [];
  for (const f of mockFlagList) {
    const option = new Option(flagSpelling(f), f.help);
    if (f.arg) {
      mock.addOption(
        option.argParser((text) => {
          argv.push(`--${f.flag}`, text);
          return text;
        }),
      );
    } else {
      mock.addOption(option);
      mock.on(`option:${f.flag}`, () => argv.push(`--${f.flag}`));
    }
  }
  mock.action(() =>
    kit.run(async (session) => {
      if (session.dryRun) throw new CliUsageError("--dry-run: the mock serves requests and sends none, so there is nothing to print");
      const { runMockCli } = await import("../../../mock-server/main.js");
      await runMockCli(argv, session.io.env, { out: (line) => session.say(line) });
    }),
  );
  examples(mock, [
    "dmq mock",
    "dmq mock --port 9000 --data seed.json",
    "dmq mock --strict --quiet",
    "dmq mock --persist db.json --journal-capacity 100 --request-time-limit 5",
    "dmq mock --strict --max-body-size 1048576   # a body over 1 MiB gets 413 (faithful mode: the server's 500)",
  ]);
}
