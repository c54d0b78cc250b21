import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { startMLBackend, type MLBackend } from "../helpers/ml-backend.js";
import { runCli } from "../../src/cli/main.js";
import { distReady } from "../helpers/dist.js";
import { quietIo } from "../helpers/cli-io.js";

const root = join(import.meta.dirname, "..", "..");
/** The built CLI, as npm's bin runs it: await `builtCli()` before running it. */
export const DMQ = join(root, "dist", "src", "cli", "main.js");

/** The path of the built CLI, once dist/ is the build of the current sources. */
export async function builtCli(): Promise<string> {
  await distReady();
  return DMQ;
}

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Written to stdin (a pipe); without it stdin is an empty pipe. */
  readonly input?: string;
  readonly cwd?: string;
}

/** Runs `node dist/src/cli/main.js …args` with a clean environment (no LABEL_STUDIO_* unless given). */
export async function dmq(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  await distReady();
  const env: Record<string, string> = { PATH: process.env["PATH"] ?? "", NO_COLOR: "1" };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DMQ, ...args], { env, cwd: options.cwd ?? root, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

export interface InProcessOptions extends RunOptions {
  readonly stdinIsTTY?: boolean;
  readonly stderrIsTTY?: boolean;
  /** The browser opener (`dmq explain --open`); absent: the CLI has none. */
  readonly openUrl?: (url: string) => Promise<string | undefined>;
}

/**
 * Runs the CLI's sources in this process: its `runCli` with an injected io, so the same program and
 * output without a build or a node start per run. For help, parsing, usage errors, dry runs,
 * explanations and requests against the mock, many at once; the child-process `dmq` stays for what
 * needs a real process and the build (the entry point, exit status, stdin, signals, terminals).
 */
export async function dmqIn(args: readonly string[], options: InProcessOptions = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    ...quietIo,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: { ...options.env },
    stdinIsTTY: options.stdinIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    readStdin: async () => options.input ?? "",
    ...(options.openUrl ? { openUrl: options.openUrl } : {}),
  });
  return { code, stdout, stderr };
}

/** Runs the CLI under a pseudo-terminal; `answer` goes to the first [y/N] question ("-" = end of input). */
export async function dmqTty(
  args: readonly string[],
  answer: string,
  env: Readonly<Record<string, string>>,
): Promise<{ output: string; code: number }> {
  await distReady();
  const { stdout } = await promisify(execFile)(
    "python3",
    [join(import.meta.dirname, "under-tty.py"), answer, process.execPath, DMQ, ...args],
    {
      env: { PATH: process.env["PATH"] ?? "", ...env },
    },
  );
  return JSON.parse(stdout) as { output: string; code: number };
}

/** A mock server and the environment that points the CLI at it. */
export async function mockWithEnv(): Promise<{ mock: MockServer; env: Record<string, string> }> {
  const mock = await startMockServer();
  return { mock, env: { LABEL_STUDIO_URL: mock.url, LABEL_STUDIO_API_KEY: mock.legacyToken } };
}

/** The mock with the env the CLI reads, and verify's tiny model server beside it (the ML backend commands): close both after. */
export async function mockAndModelWithEnv(): Promise<{ mock: MockServer; env: Record<string, string>; model: MLBackend }> {
  const [{ mock, env }, model] = await Promise.all([mockWithEnv(), startMLBackend()]);
  return { mock, env, model };
}

export const json = <T = unknown>(run: Run): T => JSON.parse(run.stdout) as T;
