import { execFile } from "node:child_process";

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion; a non-zero exit is a result, not an exception. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      { cwd, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : undefined;
        if (code === undefined) reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Node itself, for scripts and for the CLIs of installed packages. */
export const node = (args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv) => run(process.execPath, args, cwd, env);

/** npm as `npm test` ran it (npm_execpath), else the one on PATH. */
export function npm(args: readonly string[], cwd: string): Promise<Ran> {
  const cli = process.env["npm_execpath"];
  const common = ["--no-audit", "--no-fund", "--loglevel=error"];
  return cli?.endsWith(".js") ? node([cli, ...args, ...common], cwd) : run("npm", [...args, ...common], cwd);
}

/** Fails with the command's output when it did not exit 0. */
export function ok(ran: Ran, what: string): Ran {
  if (ran.code !== 0) throw new Error(`${what} exited ${ran.code}\n${ran.stdout}\n${ran.stderr}`);
  return ran;
}
