import { Option, type Command } from "@commander-js/extra-typings";
import { CliUsageError } from "../errors.js";
import { positiveInt } from "../params.js";
import type { Session } from "../session.js";
import { databases, type Database } from "../verify/environment.js";
import { formatReport } from "../verify/report.js";
import { verify, VerifyAborted } from "../verify/run.js";
import { httpTarget } from "../verify/target.js";
import { examples, type CommandKit } from "./common.js";

/** The mock's one user: its key is made up here and never leaves the process. */
const MOCK_KEY = "dmq-verify-mock-key-0000000000000000";

export interface VerifyFlags {
  readonly against?: string;
  readonly database: Database;
  readonly concurrency?: number;
  readonly only?: string;
}

/**
 * `dmq verify --against <url>`: builds the same state on the server and on an in-process mock
 * through the API, replays the generated catalogue on both and prints the differences by area
 * (docs/verify.md). Exit 1 when a difference is not explained by the environment.
 */
export function verifyCommand(program: Command<[], {}, {}>, kit: CommandKit): void {
  const command = program
    .command("verify")
    .description("does the mock fit this server? replay the scenario catalogue on both and compare (docs/verify.md)")
    .addOption(new Option("--against <url>", "the server to compare with (default: --base-url / $LABEL_STUDIO_URL)"))
    .addOption(
      new Option("--database <database>", "the database the server runs on (explains its differences)").choices(databases).default("postgres" as const),
    )
    .addOption(new Option("--concurrency <n>", "scenarios run at once (default 4)").argParser(positiveInt))
    .addOption(new Option("--only <regex>", "only the scenarios whose id matches (e.g. ^filters/data\\.)"))
    .action((flags) => kit.run((session) => runVerify(session, flags)));
  examples(command, [
    "dmq verify --against http://127.0.0.1:8080 --api-key $KEY",
    "dmq verify --against http://127.0.0.1:8080 --database sqlite --format json > verify.json",
    "dmq verify --against http://127.0.0.1:8080 --only '^ordering/'",
  ]);
}

export async function runVerify(session: Session, flags: VerifyFlags): Promise<void> {
  const url = flags.against ?? session.baseUrl;
  if (url === undefined) throw new CliUsageError("no server: pass --against <url> (or --base-url, or set LABEL_STUDIO_URL)");
  const apiKey = session.apiKey;
  if (apiKey === undefined) throw new CliUsageError("no API key: pass --api-key <key> or set LABEL_STUDIO_API_KEY");
  let only: RegExp | undefined;
  try {
    only = flags.only === undefined ? undefined : new RegExp(flags.only);
  } catch (error) {
    throw new CliUsageError(`--only: expected a regular expression, found ${JSON.stringify(flags.only)} (${(error as Error).message})`);
  }
  const timeoutMs = (session.options.timeout ?? 60) * 1000;
  const { startMockServer } = await import("../../../mock-server/index.js");
  const mock = await startMockServer({
    data: { users: [{ id: 1, username: "admin", email: "admin@example.com", token: MOCK_KEY }] },
    journalCapacity: 0,
  });
  const aborter = new AbortController();
  const removeHandler = session.io.onInterrupt?.(() => {
    session.io.stderr("\ndmq verify: interrupted; deleting the projects it made…\n");
    aborter.abort();
  });
  const progress = session.progress("comparing");
  try {
    const report = await verify({
      target: httpTarget("target", url, apiKey, { timeoutMs }),
      mock: httpTarget("mock", mock.url, MOCK_KEY, { timeoutMs }),
      database: flags.database,
      signal: aborter.signal,
      progress: (done, total) => progress.update(done, total),
      ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
      ...(only === undefined ? {} : { select: (s: { id: string }) => only.test(s.id) }),
    });
    progress.end();
    // Table unless --format json was asked for: the report is for people first.
    session.say(formatReport(report, session.options.formatGiven ? session.format : "table"));
    const differ = report.comparisons.filter((c) => c.verdict === "differ").length;
    if (differ > 0) throw new Error(`${differ} unexplained difference${differ === 1 ? "" : "s"} between the mock and ${url}`);
  } catch (error) {
    progress.end();
    if (error instanceof VerifyAborted) throw new Error("interrupted: every project it made was deleted");
    throw error;
  } finally {
    removeHandler?.();
    await mock.close();
  }
}
