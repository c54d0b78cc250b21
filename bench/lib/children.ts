/** Child processes for the HTTP and start-up figures: each server runs alone in its own process. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";

export const root = join(import.meta.dirname, "..", "..");
const children = join(root, "bench", "children");

/** Run a child script to completion; its last stdout line is JSON. */
export function runJson<T>(script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, join(children, script), ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "",
      err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const last = out.trim().split("\n").at(-1);
      if (code !== 0 || !last) return reject(new Error(`${script} ${args.join(" ")} exited ${code}: ${err.slice(-2000)}`));
      resolve(JSON.parse(last) as T);
    });
  });
}

export interface Served {
  readonly url: string;
  /** The serving process (for `processCpuMs`). */
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * CPU ms (user + system) another process has used so far, from /proc (Linux; 10 ms ticks): what a
 * server child spent on a request, or a whole start, without counting the time a loaded machine
 * kept it waiting.
 */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}
/** `getconf CLK_TCK` on Linux. */
const CLOCK_TICKS = 100;

/** Resident memory of another process in MB, from /proc. */
export function processRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) / 1024;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.stdin?.end();
      setTimeout(() => child.kill("SIGTERM"), 2000).unref();
    });
}

/** The dmq mock (from dist/) serving a seed file. */
export function serveMock(seedPath: string, token: string): Promise<Served> {
  const child = spawn(process.execPath, [join(children, "mock.mjs"), "serve", seedPath, token], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the mock child exited ${code} before serving`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (line) => {
      resolve({ url: (JSON.parse(line) as { url: string }).url, pid: child.pid as number, stop: stopper(child) });
    });
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Stock json-server 0.17 through its own CLI (lib/cli/bin.js), quiet, on a seed file. */
export async function serveJsonServer(seedPath: string): Promise<Served> {
  const port = await freePort();
  const bin = join(root, "node_modules", "json-server", "lib", "cli", "bin.js");
  const child = spawn(process.execPath, [bin, "--quiet", "--host", "127.0.0.1", "--port", String(port), seedPath], {
    cwd: root,
    stdio: ["pipe", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`json-server exited ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/projects`)).ok) break;
    } catch {
      if (tries > 600) throw new Error("json-server did not start within a minute");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid as number, stop: stopper(child) };
}
