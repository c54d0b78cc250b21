import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtFromCurrentSources } from "../helpers/build-dist.js";
import { distReady } from "../helpers/dist.js";
import { npm, ok } from "./run.js";

export const root = join(import.meta.dirname, "..", "..");
export const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;

export interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  readonly exports: Record<string, string | Record<string, string>>;
  readonly typesVersions: Record<string, Record<string, readonly string[]>>;
  readonly main: string;
  readonly types: string;
  readonly bin: Record<string, string>;
  readonly files: readonly string[];
  readonly dependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly peerDependenciesMeta: Record<string, { optional?: boolean }>;
  readonly devDependencies: Record<string, string>;
  readonly repository?: { url?: string };
  readonly homepage?: string;
  readonly bugs?: { url?: string };
}

export interface Packed {
  /** A scratch directory for everything the packaging test makes; removed by `cleanup`. */
  readonly scratch: string;
  readonly tarball: string;
  /** Paths inside the package, as `npm pack --json` lists them. */
  readonly files: readonly string[];
  cleanup(): void;
}

/**
 * Packs the package once, as `npm publish` would, from the dist/ that the vitest globalSetup built
 * (test/helpers/build-dist.ts); refuses when that build is not of the current sources.
 */
export async function packOnce(): Promise<Packed> {
  await distReady();
  const stale = builtFromCurrentSources();
  if (stale !== undefined) throw new Error(`dist/ is not the build of the current sources: ${stale}`);
  const scratch = mkdtempSync(join(tmpdir(), "dmq-pack-"));
  const packed = ok(await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", scratch], root), "npm pack");
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  return {
    scratch,
    tarball: join(scratch, info.filename),
    files: info.files.map((f) => f.path),
    cleanup: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
