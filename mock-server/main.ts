#!/usr/bin/env node
import { DEMO_TASKS } from "./demo.js";
import { isMain } from "./is-main.js";
import { MockCliUsageError, mockOptionsOf, mockUsage, type KeySource } from "./flags.js";
import { startMockServer, type MockServer, type MockServerOptions } from "./index.js";
import { watchParent } from "./parent-watch.js";
import { summaryOf } from "./summary.js";

/**
 * `npm start` / `dmq mock`: runs the mock on port 8080 (or `--port` / `$PORT`) with the demo data
 * or a seed file, prints how to reach it, and stops cleanly on Ctrl-C (SIGINT), SIGTERM or SIGHUP, or
 * when the process that started it goes away.
 * The flags come from one table (flags.ts), shared with `dmq mock`.
 */
export const MOCK_USAGE = mockUsage("Usage: npm start -- [options]");

export { MockCliUsageError };

export interface MockCliOptions {
  /** Where the banner and request log go (default: stdout). */
  readonly out?: (line: string) => void;
  /**
   * This process is the mock's (default true): stop on SIGINT, SIGTERM and SIGHUP, and when the
   * parent process goes away, then exit.
   */
  readonly signals?: boolean;
}

export interface MockCliRun {
  readonly server: MockServer;
  /** Close the server (what Ctrl-C does). */
  stop(): Promise<void>;
}

/** The signals that stop the mock: Ctrl-C, `kill`, a closed terminal. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** A quoted word for a POSIX shell (`export` lines are pasted into one). */
const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/** The lines that say how to reach the server. A key from the environment is named, never printed (CI logs keep stdout). */
function banner(server: MockServer, key: KeySource, head: string, data: string, project: number): string[] {
  const fromEnv = key.from === "env";
  const keyWord = fromEnv ? '"$LABEL_STUDIO_API_KEY"' : shellWord(server.legacyToken);
  return [
    head,
    `  data:                  ${data}`,
    `  legacy token:          ${fromEnv ? "$LABEL_STUDIO_API_KEY (from the environment)" : server.legacyToken}`,
    `  personal access token: ${server.personalAccessToken}`,
    `  playground:            ${server.url}/playground/${fromEnv ? " (the page asks for the key)" : `#token=${server.legacyToken}`}`,
    ...("envNotAKey" in key
      ? [`  (LABEL_STUDIO_API_KEY is not a legacy key: ${key.envNotAKey}; a new key was made. --token <key> pins one.)`]
      : []),
    "Use it from this shell (dmq, the SDK and curl read these):",
    `  export LABEL_STUDIO_URL=${server.url}${fromEnv ? "" : ` LABEL_STUDIO_API_KEY=${keyWord}`}`,
    "Try:",
    `  curl -H "Authorization: Token ${fromEnv ? "$LABEL_STUDIO_API_KEY" : server.legacyToken}" "${server.url}/api/dm/actions/?project=${project}"`,
    `  label-studio-sdk --base-url ${server.url} --api-key ${server.personalAccessToken} tasks list -p project=${project} -p page_size=5`,
    "Ctrl-C stops it.",
  ];
}

/** A listen error in the words of the command line: a port in use says how to get a free one. */
function startError(error: unknown, options: MockServerOptions): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE") {
    return new Error(
      `port ${options.port} on ${options.host} is in use (EADDRINUSE): another server (an earlier mock?) holds it. ` +
        "Pass --port 0 to pick a free port (the banner prints it), or --port <n> for another one.",
    );
  }
  if (code === "EACCES") return new Error(`port ${options.port} needs privileges (EACCES): use a port above 1023, or --port 0`);
  return error;
}

export async function runMockCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  options: MockCliOptions = {},
): Promise<MockCliRun> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { options: given, help, key } = mockOptionsOf(argv, env);
  if (help) throw new MockCliUsageError(MOCK_USAGE);
  const strict = given.strict === true;
  let server: MockServer;
  try {
    server = await startMockServer({ ...given, logger: given.logger === false ? false : out });
  } catch (error) {
    throw startError(error, given);
  }

  // Counts read from the store: a copy of the data (`server.data()`) would double the memory of a big seed.
  const summary = summaryOf(server);
  const dataFile = typeof given.data === "string" ? given.data : undefined;
  const persistFile = given.persist;
  const source = dataFile ?? `built-in demo (${summary.projects} project, ${DEMO_TASKS} tasks, ${summary.users} users)`;
  const project = summary.firstProject ?? 1;

  const own = options.signals !== false;
  let unwatch = () => {};
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= server.close().then(() => {
      unwatch();
      if (own) for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      out("dmq mock server stopped");
    });
    return stopping;
  };
  // Stop, then leave: nothing else of this process is left to wait for.
  const stopAndExit = () => {
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`dmq mock: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  const onSignal = () => stopAndExit();
  if (own) {
    for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
    unwatch = watchParent(() => {
      out("dmq mock server: the process that started it has gone");
      stopAndExit();
    });
  }
  // Only now that a signal stops it cleanly: whoever reads "listening on" may send one at once.
  const head = `dmq mock server (${strict ? "strict" : "faithful"}) listening on ${server.url}`;
  out(banner(server, key, head, persistFile && dataFile === undefined ? `${persistFile} or ${source}` : source, project).join("\n"));
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
