import { Option, type Command } from "@commander-js/extra-typings";
import { RE2JS } from "re2js";
import { CliUsageError } from "../errors.js";
import { positiveInt } from "../params.js";
import type { Session } from "../session.js";
import { databases, type Database } from "../verify/environment.js";
import { formatReport } from "../verify/report.js";
import { verify, VerifyAborted } from "../verify/run.js";
import { examples, type CommandKit } from "./common.js";

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
      new Option("--database <database>", "the database the server runs on (explains its differences)")
        .choices(databases)
        .default("postgres" as const),
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
  // Its requests go through the testing kit's clients, not the session's: a dry run would still write.
  if (session.dryRun) {
    throw new CliUsageError(
      "--dry-run: verify has no dry run (it creates projects on the server, replays the catalogue and compares every answer " +
        "with the mock's); --only <regex> runs fewer scenarios",
    );
  }
  const url = flags.against ?? session.baseUrl;
  if (url === undefined) throw new CliUsageError("no server: pass --against <url> (or --base-url, or set LABEL_STUDIO_URL)");
  const apiKey = session.apiKey;
  if (apiKey === undefined) throw new CliUsageError("no API key: pass --api-key <key> or set LABEL_STUDIO_API_KEY");
  // The pattern is the user's: it runs on RE2 (linear time), as every pattern from outside does.
  let only: RE2JS | undefined;
  try {
    only = flags.only === undefined ? undefined : RE2JS.compile(flags.only);
  } catch (error) {
    throw new CliUsageError(`--only: expected a regular expression, found ${JSON.stringify(flags.only)} (${(error as Error).message})`);
  }
  const timeoutInSeconds = session.options.timeout ?? 60;
  const { resolveTarget, mockTarget } = await import("../../../testing/index.js");
  // The server first: a wrong URL or key fails here, before the mock starts.
  const target = await resolveTarget({ target: "server", baseUrl: url, apiKey, client: { timeoutInSeconds } });
  const mock = await mockTarget({ mock: { journalCapacity: 0 }, client: { timeoutInSeconds } });
  const aborter = new AbortController();
  const removeHandler = session.io.onInterrupt?.(() => {
    session.io.stderr("\ndmq verify: interrupted; deleting the projects it made…\n");
    aborter.abort();
  });
  const progress = session.progress("comparing");
  try {
    const report = await verify({
      target,
      mock,
      database: flags.database,
      signal: aborter.signal,
      timeoutMs: timeoutInSeconds * 1000,
      progress: (done, total) => progress.update(done, total),
      ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
      ...(only === undefined ? {} : { select: (s: { id: string }) => only.matcher(s.id).find() }),
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
    await Promise.allSettled([target.close(), mock.close()]);
  }
}
