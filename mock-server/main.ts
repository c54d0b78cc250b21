#!/usr/bin/env node
import { parseArgs } from "node:util";
import { DEMO_TASKS } from "./demo.js";
import { isMain } from "./is-main.js";
import { startMockServer, type MockServer } from "./index.js";

/**
 * `npm start` / `dmq mock`: runs the mock on port 8080 (or `--port` / `$PORT`) with the demo data
 * or a seed file, prints how to reach it, and stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
 */
export const MOCK_USAGE = `Usage: npm start -- [--port 8080] [--host 127.0.0.1] [--data seed.json] [--persist db.json] [--strict] [--quiet]
                     [--max-body-size 262144000]
  --port      port to listen on (default $PORT, else 8080; 0 picks a free one)
  --host      interface to bind (default 127.0.0.1)
  --data      JSON seed file (format: docs/mock-server.md); default: the built-in demo data
  --persist   JSON file that keeps the data across restarts (loaded when it exists)
  --strict    answer 400 where the real server ignores input or answers 500
  --max-body-size  largest request body read, in bytes (default 262144000, the server's DATA_UPLOAD_MAX_MEMORY_SIZE)
  --quiet     do not log requests`;

export class MockCliUsageError extends Error {
  override readonly name = "MockCliUsageError";
  /** Same code family as node's parseArgs errors, so `dmq` reports both as usage errors (exit 2). */
  readonly code = "ERR_PARSE_ARGS_INVALID_OPTION_VALUE";
}

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

function portFrom(text: string, source: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new MockCliUsageError(`${source}: expected an integer port from 0 to 65535, found "${text}"`);
  }
  return Number(text);
}

function bytesFrom(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw new MockCliUsageError(`--max-body-size: expected a number of bytes, found "${text}"`);
  return Number(text);
}

export async function runMockCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  options: MockCliOptions = {},
): Promise<MockCliRun> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: "string" },
      host: { type: "string" },
      data: { type: "string" },
      persist: { type: "string" },
      strict: { type: "boolean" },
      quiet: { type: "boolean" },
      "max-body-size": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) throw new MockCliUsageError(MOCK_USAGE);
  const port =
    values.port !== undefined ? portFrom(values.port, "--port") : env["PORT"] ? portFrom(env["PORT"], "$PORT") : 8080;
  const server = await startMockServer({
    port,
    host: values.host ?? "127.0.0.1",
    ...(values.data !== undefined ? { data: values.data } : {}),
    ...(values.persist !== undefined ? { persist: values.persist } : {}),
    strict: values.strict ?? false,
    logger: values.quiet ? false : out,
    ...(values["max-body-size"] !== undefined ? { maxBodySize: bytesFrom(values["max-body-size"]) } : {}),
  });

  const data = server.data();
  const source = values.data ?? `built-in demo (${data.projects.length} project, ${DEMO_TASKS} tasks, ${data.users.length} users)`;
  const project = data.projects[0]?.id ?? 1;
  out(
    [
      `dmq mock server (${values.strict ? "strict" : "faithful"}) listening on ${server.url}`,
      `  data:                  ${values.persist && values.data === undefined ? `${values.persist} or ${source}` : source}`,
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
