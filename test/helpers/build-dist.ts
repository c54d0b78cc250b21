import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

/**
 * vitest globalSetup of the `integration` project: builds dist/ as `npm run build` does (library and
 * playground) when the sources changed since the last build. The build runs in the background: the
 * tests that need dist/ (the CLI as a process, the playground served from dist/, the packaging test)
 * wait for it with `distReady()` (test/helpers/dist.ts), the others start at once. The packaging test
 * also checks with `builtFromCurrentSources` that the stamp written here still matches both the
 * sources and dist/.
 */
const root = join(import.meta.dirname, "..", "..");
const dist = join(root, "dist");
/** What the build reads. */
const INPUTS = ["src", "mock-server", "testing", "playground", "package.json", "tsconfig.json", "tsconfig.build.json"];
const stampFile = join(root, "node_modules", ".cache", "dmq", "build-stamp.json");

interface Stamp {
  /** Digest of INPUTS when dist/ was built. */
  readonly inputs: string;
  /** Digest of dist/ right after the build. */
  readonly outputs: string;
  /** What tsc reported, if anything: dist/ was still written, but it is not what `npm run build` ships. */
  readonly errors: string | null;
}

/** The files under `paths` (files or directories), relative to the root, sorted. */
function filesOf(paths: readonly string[]): string[] {
  return paths
    .flatMap((p) => {
      const full = join(root, p);
      if (!existsSync(full)) return [];
      if (!statSync(full).isDirectory()) return [p];
      return (readdirSync(full, { recursive: true, withFileTypes: true }) as { isFile(): boolean; name: string; parentPath: string }[])
        .filter((e) => e.isFile())
        .map((e) => relative(root, join(e.parentPath, e.name)));
    })
    .sort();
}

/** A digest of the names and contents of the files under `paths`. */
function digest(paths: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of filesOf(paths))
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

function readStamp(): Stamp | undefined {
  try {
    return JSON.parse(readFileSync(stampFile, "utf8")) as Stamp;
  } catch {
    return undefined;
  }
}

function writeStamp(errors: string | null): void {
  mkdirSync(join(stampFile, ".."), { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ inputs: digest(INPUTS), outputs: digest(["dist"]), errors } satisfies Stamp));
}

/**
 * A dist/ that `npm run build` (or `npm pack`, its prepack) built and no test run has stamped yet: every output is newer than
 * every input, and every compiled module still has its source. Adopted once, then digests decide.
 */
function unstampedButFresh(): boolean {
  const outputs = filesOf(["dist/src", "dist/mock-server"]).filter((f) => f.endsWith(".js"));
  if (outputs.length === 0 || !existsSync(join(dist, "playground", "index.html"))) return false;
  const oldestOutput = Math.min(...filesOf(["dist"]).map((f) => statSync(join(root, f)).mtimeMs));
  const newestInput = Math.max(...filesOf(INPUTS).map((f) => statSync(join(root, f)).mtimeMs));
  const orphans = outputs.filter((f) => !existsSync(join(root, f.slice("dist/".length).replace(/\.js$/, ".ts"))));
  return newestInput <= oldestOutput && orphans.length === 0;
}

/** Why dist/ is not the build of the current sources, or undefined when it is. */
export function builtFromCurrentSources(): string | undefined {
  const stamp = readStamp();
  if (stamp === undefined) return `no build stamp at ${relative(root, stampFile)}: the vitest globalSetup did not build dist/`;
  if (stamp.inputs !== digest(INPUTS)) return `the sources changed after dist/ was built (${INPUTS.join(", ")}): run the tests again`;
  if (stamp.outputs !== digest(["dist"])) return "dist/ changed after it was built: run the tests again";
  if (stamp.errors !== null) return `tsc -p tsconfig.build.json reported errors, so npm run build would fail:\n${stamp.errors}`;
  return undefined;
}

const run = promisify(execFile);

/** `npm run <script>` with the npm that runs the tests; its output when it fails. */
async function npmRun(script: string): Promise<string | null> {
  const cli = process.env["npm_execpath"];
  const [command, args] = cli?.endsWith(".js") ? [process.execPath, [cli, "run", script]] : ["npm", ["run", script]];
  try {
    await run(command, [...args, "--silent"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return null;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ""}${stderr ?? ""}`.trim().split("\n").slice(0, 10).join("\n");
  }
}

/** Builds dist/ unless the stamp says it is the build of these sources. */
async function buildIfStale(): Promise<void> {
  const stamp = readStamp();
  // Built from these sources already (with or without tsc errors: building again would not change them).
  if (stamp !== undefined && stamp.inputs === digest(INPUTS) && stamp.outputs === digest(["dist"])) return;
  if (stamp === undefined && unstampedButFresh()) return writeStamp(null);
  // The steps of `npm run build`, run one by one: tsc still writes the files of a program with type
  // errors, so the CLI tests run on them (and say so), and a half-edited tree does not stop every
  // other test from running. tsc --noEmit (and vitest --typecheck) report the errors.
  rmSync(dist, { recursive: true, force: true });
  const [errors, playground] = await Promise.all([npmRun("build:lib"), npmRun("build:playground")]);
  if (playground !== null) throw new Error(`npm run build:playground failed:\n${playground}`);
  if (errors !== null) process.stderr.write(`build-dist: tsc -p tsconfig.build.json reported errors; dist/ is what it wrote:\n${errors}\n`);
  writeStamp(errors);
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The file build-dist writes when dist/ is ready: `{ "error": null }`, or why the build failed. */
    distReady: string;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const marker = join(stampFile, "..", `dist-ready-${process.pid}-${Date.now()}.json`);
  mkdirSync(join(marker, ".."), { recursive: true });
  project.provide("distReady", marker);
  // Written whole, then renamed: a waiting test never reads half of it.
  const done = (error: string | null) => {
    writeFileSync(`${marker}.tmp`, JSON.stringify({ error }));
    renameSync(`${marker}.tmp`, marker);
  };
  const build = buildIfStale().then(
    () => done(null),
    (error: unknown) => done(error instanceof Error ? error.message : String(error)),
  );
  // The run ends after the build even when no test waited for it: no build left running, no stale marker.
  return async () => {
    await build;
    rmSync(marker, { force: true });
  };
}
