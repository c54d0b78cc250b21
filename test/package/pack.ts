import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
 * Builds the current sources in a copy of the package (so a stale dist/ cannot be what gets
 * tested, and the work tree's dist/ is left alone) and packs it, once, as `npm publish` would.
 */
export async function packOnce(): Promise<Packed> {
  const scratch = mkdtempSync(join(tmpdir(), "dmq-pack-"));
  const pkg = join(scratch, "pkg");
  mkdirSync(pkg);
  for (const entry of [
    "package.json",
    "README.md",
    "LICENSE",
    "tsconfig.json",
    "tsconfig.build.json",
    "src",
    "mock-server",
    "playground",
  ]) {
    cpSync(join(root, entry), join(pkg, entry), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(pkg, "node_modules"), "dir");
  ok(await npm(["run", "build"], pkg), "npm run build");
  const packed = ok(await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", scratch], pkg), "npm pack");
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  return {
    scratch,
    tarball: join(scratch, info.filename),
    files: info.files.map((f) => f.path),
    cleanup: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
