import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, test } from "vitest";
import { needsDist } from "../helpers/dist.js";

/**
 * The mock leaves nothing behind: started the ways people start it, a signal to the outermost
 * process (what `kill $!` sends after `npm start &`) stops the server, frees the port and leaves no
 * process of the group. Each launch runs detached, in a process group of its own, so "no process
 * left" is `kill(-group, 0)` failing. `npm start` and `npx` run the mock under `sh -c`, which dies of
 * the SIGTERM npm forwards without passing it on: the mock notices its new parent and stops.
 */
const root = join(import.meta.dirname, "..", "..");
const npm = process.env["npm_execpath"]?.endsWith(".js") ? [process.execPath, process.env["npm_execpath"]] : ["npm"];
const npx = process.env["npm_execpath"]?.endsWith(".js")
  ? [process.execPath, join(process.env["npm_execpath"], "..", "npx-cli.js")]
  : ["npx"];
const FLAGS = ["--port", "0", "--quiet"];

// Three of the launches run dist/ (the bin links to it): wait for the background build first.
needsDist();

const launches: Record<string, readonly string[]> = {
  "npm start": [...npm, "start", "--", ...FLAGS],
  // In a clone, npx links the package itself into its cache the first time; --ignore-scripts keeps any script of a
  // future manifest from rebuilding dist/ under the other tests' feet.
  "npx dmq mock": [...npx, "--no-install", "--ignore-scripts", "dmq", "mock", ...FLAGS],
  "node dist/mock-server/main.js": [process.execPath, "dist/mock-server/main.js", ...FLAGS],
  "node dist/src/cli/main.js mock": [process.execPath, "dist/src/cli/main.js", "mock", ...FLAGS],
};

interface Launched {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: string[];
  readonly exited: Promise<number | null>;
}

async function launch(argv: readonly string[]): Promise<Launched> {
  const [command = "", ...args] = argv;
  // No LABEL_STUDIO_API_KEY from the environment running the tests.
  const env = { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "/tmp", NO_COLOR: "1" };
  const child = spawn(command, args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => output.push(d));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      output.push(line);
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    void exited.then((code) => reject(new Error(`exited (${code}) before listening:\n${output.join("\n")}`)));
  });
  return { child, port, output, exited };
}

/** Whether any process of the group is left. */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Waits (polling, a real process's exit has no event here) until `done()` or the deadline; the answer is the last check. */
async function eventually(done: () => Promise<boolean> | boolean, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return done();
}

async function stoppedCleanly(launched: Launched): Promise<void> {
  const group = launched.child.pid as number;
  try {
    expect(await eventually(async () => !groupAlive(group) && !(await portOpen(launched.port)))).toBe(true);
  } finally {
    // Whatever the outcome, nothing of this test outlives it.
    if (groupAlive(group)) process.kill(-group, "SIGKILL");
  }
}

describe("the mock stops and frees its port", () => {
  test.each(Object.keys(launches))("%s: SIGTERM to the outermost process", { timeout: 60_000 }, async (name) => {
    const launched = await launch(launches[name] as readonly string[]);
    expect(await portOpen(launched.port)).toBe(true);
    launched.child.kill("SIGTERM");
    await stoppedCleanly(launched);
  });

  test.each(["SIGINT", "SIGHUP"] as const)("%s to node dist/mock-server/main.js", { timeout: 30_000 }, async (signal) => {
    const launched = await launch(launches["node dist/mock-server/main.js"] as readonly string[]);
    launched.child.kill(signal);
    expect(await launched.exited).toBe(0);
    expect(launched.output.join("\n")).toContain("dmq mock server stopped");
    await stoppedCleanly(launched);
  });

  test("its parent killed outright (SIGKILL, no signal passed on): the mock stops by itself", { timeout: 30_000 }, async () => {
    // `; true` keeps the shell as the mock's parent (a lone command may be exec'd in its place).
    const launched = await launch(["sh", "-c", `${process.execPath} dist/mock-server/main.js ${FLAGS.join(" ")}; true`]);
    launched.child.kill("SIGKILL");
    await stoppedCleanly(launched);
    expect(launched.output.join("\n")).toContain("the process that started it has gone");
  });
});
