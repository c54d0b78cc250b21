#!/usr/bin/env node
import { DEMO_TASKS } from "./demo.js";
import { isMain } from "./is-main.js";
import { MockCliUsageError, mockOptionsOf, mockUsage } from "./flags.js";
import { startMockServer, type MockServer } from "./index.js";
import { summaryOf } from "./summary.js";

/**
 * `npm start` / `dmq mock`: runs the mock on port 8080 (or `--port` / `$PORT`) with the demo data
 * or a seed file, prints how to reach it, and stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
 * The flags come from one table (flags.ts), shared with `dmq mock`.
 */
export const MOCK_USAGE = mockUsage("Usage: npm start -- [options]");

export { MockCliUsageError };

export interface MockCliOptions {
  /** Where the banner and request log go (default: stdout). */
  readonly out?: (line: string) => void;
  /** Install SIGINT/SIGTERM handlers (default true). */
  readonly signals?: boolean;
}

export interface MockCliRun {
  readonly server: MockServer;
  /** Close the server (what Ctrl-C does). */
  stop(): Promise<void>;
}

export async function runMockCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  options: MockCliOptions = {},
): Promise<MockCliRun> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { options: given, help } = mockOptionsOf(argv, env);
  if (help) throw new MockCliUsageError(MOCK_USAGE);
  const strict = given.strict === true;
  const server = await startMockServer({ ...given, logger: given.logger === false ? false : out });

  // Counts read from the store: a copy of the data (`server.data()`) would double the memory of a big seed.
  const summary = summaryOf(server);
  const dataFile = typeof given.data === "string" ? given.data : undefined;
  const persistFile = given.persist;
  const source = dataFile ?? `built-in demo (${summary.projects} project, ${DEMO_TASKS} tasks, ${summary.users} users)`;
  const project = summary.firstProject ?? 1;
  out(
    [
      `dmq mock server (${strict ? "strict" : "faithful"}) listening on ${server.url}`,
      `  data:                  ${persistFile && dataFile === undefined ? `${persistFile} or ${source}` : source}`,
      `  legacy token:          ${server.legacyToken}`,
      `  personal access token: ${server.personalAccessToken}`,
      `  playground:            ${server.url}/playground/#token=${server.legacyToken}`,
      "Try:",
      `  curl -H "Authorization: Token ${server.legacyToken}" "${server.url}/api/dm/actions/?project=${project}"`,
      `  label-studio-sdk --base-url ${server.url} --api-key ${server.personalAccessToken} tasks list -p project=${project} -p page_size=5`,
      "Ctrl-C stops it.",
    ].join("\n"),
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= server.close().then(() => {
      if (options.signals !== false) {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
      out("dmq mock server stopped");
    });
    return stopping;
  };
  const onSignal = () => {
    void stop();
  };
  if (options.signals !== false) {
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  }
  return { server, stop };
}

if (isMain(import.meta.url)) {
  runMockCli(process.argv.slice(2), process.env).catch((error: unknown) => {
    const message = (error as Error).message;
    const usage = String((error as { code?: string }).code).startsWith("ERR_PARSE_ARGS");
    process.stderr.write(message === MOCK_USAGE ? `${MOCK_USAGE}\n` : `dmq mock: ${message}\n${usage ? `${MOCK_USAGE}\n` : ""}`);
    process.exitCode = usage ? 2 : 1;
  });
}
