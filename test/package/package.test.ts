import { cpSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { builtFromCurrentSources } from "../helpers/build-dist.js";
import { needsDist } from "../helpers/dist.js";
import { manifest, packOnce, root, type Packed } from "./pack.js";
import { node, npm, ok, run, type Ran } from "./run.js";
import { errorTexts, prelude, typescript7Texts } from "../types/error-texts.js";
import { errorsByFile } from "../types/tsc-report.js";

/*
 * The package as a user gets it: the current sources' build, packed once, linted by publint and
 * attw, installed into a fresh project without optional peers, loaded from ESM and CommonJS,
 * compiled against by the minimum supported TypeScript and by TypeScript 7, and its mock started once json-server is
 * added. Needs the npm registry (or a warm npm cache) for the installs, nothing else.
 */

/** The oldest TypeScript the README promises; 5.0 and 5.1 reject the declarations (mixed named tuple members). */
const MIN_TYPESCRIPT = "5.2.2";
/**
 * What `npm i dmq` installs without optional peers: the client's ofetch (and its three) and jose, the
 * engine's re2js, the CLI's commander, and ts-pattern.
 */
const LEAN_INSTALL = [
  "@commander-js/extra-typings",
  "commander",
  "destr",
  "dmq",
  "jose",
  "node-fetch-native",
  "ofetch",
  "re2js",
  "ts-pattern",
  "ufo",
];

/** The minimum TypeScript, installed beside dmq under an alias (one `npm install` for both). */
const MIN_TS_ALIAS = "typescript-min";
/**
 * TypeScript 7, the native compiler (npm's `latest`), installed in the same `npm install` under the alias and at the
 * version the project's package.json names (`npm:typescript@7.x.y`). Its tsc is a platform binary, which it brings as
 * an optional dependency (`@typescript/typescript-<platform>-<arch>`), and it has no compiler API: it is run as tsc.
 */
const TS7_ALIAS = "typescript7";
const TS7_SPEC = manifest.devDependencies[TS7_ALIAS]!;
const TS7_VERSION = /^npm:typescript@(\d+\.\d+\.\d+)$/.exec(TS7_SPEC)?.[1];
/** What the compilers' aliases add to the install (left out of what it measures for dmq): their folders, bin links and binaries. */
const broughtByCompilers = (path: string) =>
  [MIN_TS_ALIAS, TS7_ALIAS].some((p) => path === p || path.startsWith(`${p}/`)) ||
  /^@typescript\/typescript-[\w-]+(\/|$)/.test(path) ||
  /^\.bin\/(tsc|tsserver)$/.test(path);

let packed: Packed;
let app: string;
/** What the fresh install brought for dmq (the minimum TypeScript left out), measured before the tests add anything. */
let installed: { readonly names: readonly string[]; readonly bytes: number };
/** The independent child steps, started together in beforeAll and awaited by the tests that judge them. */
let publint: Promise<Ran>;
let attw: Promise<Ran>;
/** The minimum TypeScript's package folder. */
let minimumTypeScript: string;
/** TypeScript 7's tsc. */
let typescript7: string;

// Packs dist/: wait for the background build apart, so the install below has its 240 s to itself.
needsDist();

const cli = (pkg: string, bin: string) => join(root, "node_modules", pkg, bin);

beforeAll(async () => {
  packed = await packOnce();
  publint = node([cli("publint", "src/cli.js"), packed.tarball, "--strict"], packed.scratch);
  attw = node(
    [cli("@arethetypeswrong/cli", "dist/index.js"), packed.tarball, "--format", "ascii", "--ignore-rules", "cjs-resolves-to-esm"],
    packed.scratch,
  );
  // Judged by their tests; a step that cannot even start fails there, not as an unhandled rejection here.
  for (const step of [publint, attw]) step.catch(() => undefined);
  app = join(packed.scratch, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module" }));
  // One install: the tarball, the minimum TypeScript and TypeScript 7 under aliases (what the aliases add, their
  // folders, TypeScript 7's platform binary and the bin links, is left out of the measures below).
  const minimum = `${MIN_TS_ALIAS}@npm:typescript@${MIN_TYPESCRIPT}`;
  const seven = `${TS7_ALIAS}@${TS7_SPEC}`;
  ok(
    await npm(["install", "--omit=peer", "--prefer-offline", packed.tarball, minimum, seven], app),
    `npm install <tarball> ${minimum} ${seven}`,
  );
  const lock = JSON.parse(readFileSync(join(app, "node_modules", ".package-lock.json"), "utf8")) as { packages: object };
  const names = Object.keys(lock.packages).map((p) => p.slice("node_modules/".length));
  installed = { names: names.filter((n) => !broughtByCompilers(n)), bytes: sizeOf(join(app, "node_modules"), broughtByCompilers) };
  minimumTypeScript = join(app, "node_modules", MIN_TS_ALIAS);
  typescript7 = join(app, "node_modules", TS7_ALIAS, "bin", "tsc");
  cpSync(join(import.meta.dirname, "consumer"), app, { recursive: true });
}, 240_000);

afterAll(() => packed?.cleanup());

describe("the tarball", () => {
  test("is packed from the build of the current sources", () => {
    expect(builtFromCurrentSources()).toBeUndefined();
  });

  test("holds the build, the sources its maps point at, the README and the LICENSE, and nothing else", () => {
    const top = new Set(packed.files.map((f) => f.split("/")[0]));
    expect([...top].sort()).toEqual(["LICENSE", "README.md", "dist", "docs", "mock-server", "package.json", "src", "testing"]);
    // The guides the README and `dmq --help` point at, in Markdown; not the generated API reference (docs/api).
    expect(packed.files.filter((f) => f.startsWith("docs/") && !/^docs\/(reference\/)?[\w-]+\.md$/.test(f))).toEqual([]);
    expect(packed.files.filter((f) => /(^|\/)(test|bench)\//.test(f) || f.endsWith(".test.ts"))).toEqual([]);
    expect(packed.files.filter((f) => f.startsWith("dist/") && f.endsWith(".js")).length).toBeGreaterThan(100);
  });

  test("every source map points at files that are in the package", () => {
    const files = new Set(packed.files);
    const maps = packed.files.filter((f) => f.endsWith(".map"));
    const dangling = maps.flatMap((map) => {
      const { sources } = JSON.parse(readFileSync(join(root, map), "utf8")) as { sources: string[] };
      return sources
        .map((s) => normalize(join(dirname(map), s)))
        .filter((s) => !files.has(s))
        .map((s) => `${map} -> ${s}`);
    });
    expect(maps.length).toBeGreaterThan(200);
    expect(dangling).toEqual([]);
  });

  test("every entry point (exports, typesVersions, main, types, bin) is in the package", () => {
    const targets = [
      ...Object.values(manifest.exports).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e))),
      ...Object.values(manifest.typesVersions).flatMap((m) => Object.values(m).flat()),
      manifest.main,
      manifest.types,
      ...Object.values(manifest.bin),
    ].map((p) => normalize(p));
    expect(targets.filter((t) => !packed.files.includes(t))).toEqual([]);
    const bin = readFileSync(join(root, manifest.bin["dmq"]!), "utf8");
    expect(bin.startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  test("carries the executable bit on the CLI's entry and the mock's (what npx and a bin shim run)", async () => {
    const listing = ok(await run("tar", ["-tvzf", packed.tarball], packed.scratch), "tar -tvzf").stdout;
    for (const entry of [manifest.bin["dmq"]!, "./dist/mock-server/main.js"]) {
      const line = listing.split("\n").find((l) => l.endsWith(` package/${normalize(entry)}`));
      expect(line, entry).toMatch(/^-rwxr-xr-x /);
    }
  });

  test("the README says how to install it before it is published: build a clone, pack it, install the tarball", () => {
    const install = readme().slice(readme().indexOf("## Install"), readme().indexOf("## Work on it"));
    expect(install).toContain("dmq is not on the npm registry yet");
    expect(install).toMatch(/^npm pack\b/m);
    // The tarball name npm pack writes for this version, installed as this test installs it.
    expect(install).toContain(`npm install ../dmq/${packed.tarball.slice(packed.scratch.length + 1)}`);
  });

  test("names its license, repository, homepage and issue tracker", () => {
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs?.url).toMatch(/^https:\/\//);
  });

  test("publint --strict finds nothing", async () => {
    const lint = await publint;
    expect(lint.stdout + lint.stderr).toContain("All good!");
    expect(lint.code).toBe(0);
  }, 60_000);

  test("attw finds no problem in any resolution mode (node10 included); node16-from-CJS relies on require(esm)", async () => {
    const report = await attw;
    expect(report.stdout).toContain("No problems found");
    for (const entry of ["dmq", "dmq/semantics", "dmq/mock-server", "dmq/testing"]) {
      const rows = ["node10: 🟢 ", "node16 (from CJS): 🟢 (ESM)", "node16 (from ESM): 🟢 (ESM)", "bundler: 🟢 "];
      expect(report.stdout).toContain(`"${entry}"\n\n${rows.join("\n")}`);
    }
    expect(report.code).toBe(0);
  }, 60_000);
});

/**
 * The scripts npm runs when a package is installed (npm's lifecycle docs). npm 11 lists a package that has any of them
 * under "install scripts not yet covered by allowScripts" on every install of its tarball, even `prepare`, which it does
 * not run for a tarball; npm 12 blocks them. The build belongs in `prepack` (npm pack, npm publish, git installs).
 */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];

describe("installed without optional peers", () => {
  test("has no install script, so npm asks its user to approve nothing (the build runs at pack time)", () => {
    const installedManifest = JSON.parse(readFileSync(join(app, "node_modules", "dmq", "package.json"), "utf8")) as {
      scripts?: Record<string, string>;
    };
    const scripts = installedManifest.scripts ?? {};
    expect(Object.keys(scripts).filter((s) => INSTALL_SCRIPTS.includes(s))).toEqual([]);
    expect(scripts["prepack"]).toBe("npm run build");
  });

  test("brings only what the builder, the client and the engine need", () => {
    expect([...installed.names].sort()).toEqual(LEAN_INSTALL);
  });

  test("is as small as the README says", () => {
    const claim = /without the mock server's json-server, `npm i dmq` installs\s+\*\*(\d+) packages \(([\d.]+) MB\)\*\*/i.exec(readme());
    expect(claim, "README states the install size").not.toBeNull();
    expect(Number(claim![1])).toBe(installed.names.length);
    expect(Math.abs(installed.bytes / 1e6 - Number(claim![2])), `measured ${(installed.bytes / 1e6).toFixed(2)} MB`).toBeLessThan(0.3);
  });

  test("loads from ESM and from CommonJS (require(esm), Node >= 20.19), to the same module", async () => {
    const out = JSON.parse(ok(await node(["runtime.mjs"], app), "runtime.mjs").stdout) as Record<string, unknown>;
    const item = { filter: "filter:tasks:id", operator: "greater", type: "Number", value: 1 };
    const body = JSON.stringify({ filters: { conjunction: "and", items: [item] }, selectedItems: { all: true, excluded: [3] } });
    expect(out).toEqual({ esm: body, cjs: body, same: true, ids: [2, 4] });
  });

  test("dmq --help points at a walkthrough that is there: the package's own docs/cli.md", async () => {
    const help = ok(await node([join(app, "node_modules", "dmq", manifest.bin["dmq"]!), "--help"], app), "dmq --help").stdout;
    const path = /^Walkthrough: (\S+)$/m.exec(help)?.[1];
    expect(path).toBe(join(app, "node_modules", "dmq", "docs", "cli.md"));
    expect(readFileSync(path!, "utf8")).toMatch(/^# /);
  });

  test("the mock server names the package to install when json-server is missing", async () => {
    const out = JSON.parse(ok(await node(["mock.mjs"], app), "mock.mjs").stdout);
    expect(out).toEqual({
      started: false,
      error:
        'dmq/mock-server needs the optional peer dependency "json-server" (^0.17.4), which is not installed. ' +
        'Install it next to dmq: npm install --save-dev json-server@"^0.17.4"',
    });
    expect(manifest.peerDependencies["json-server"]).toBe("^0.17.4");
    expect(manifest.peerDependenciesMeta["json-server"]?.optional).toBe(true);
    const dmq = await node([join(app, "node_modules", "dmq", manifest.bin["dmq"]!), "mock", "--port", "0"], app);
    expect(dmq.stderr).toContain('npm install --save-dev json-server@"^0.17.4"');
    expect(dmq.code).toBe(1);
  });

  describe("type-checks a consumer", () => {
    const strictest = { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true };
    // With the minimum version, dmq's declarations (and its dependencies') are checked too (skipLibCheck
    // off), against a stub of the one Node.js type they use instead of all of @types/node (which costs
    // seconds). TypeScript's own lib files are not checked: that took 80% of each compile and says nothing about dmq.
    const minimum = { skipLibCheck: false, skipDefaultLibCheck: true, types: [] };
    const current = { skipLibCheck: true, types: ["node"] };
    const checks = [
      { ts: "min", name: "nodenext", files: ["esm.ts", "node-http.d.ts"], options: { ...minimum, module: "nodenext", ...strictest } },
      {
        ts: "min",
        name: "bundler",
        files: ["esm.ts", "node-http.d.ts"],
        options: { ...minimum, module: "esnext", moduleResolution: "bundler" },
      },
      // node10 finds the subpaths' types through typesVersions.
      {
        ts: "min",
        name: "node10",
        files: ["esm.ts", "node-http.d.ts"],
        options: { ...minimum, module: "esnext", moduleResolution: "node" },
      },
      { ts: "current", name: "nodenext", files: ["esm.ts"], options: { ...current, module: "nodenext", ...strictest } },
      { ts: "current", name: "bundler", files: ["esm.ts"], options: { ...current, module: "esnext", moduleResolution: "bundler" } },
      {
        ts: "current",
        name: "node10",
        files: ["esm.ts"],
        options: { ...current, module: "esnext", moduleResolution: "node", ignoreDeprecations: "6.0" },
      },
      // CommonJS: require() of the ES modules types under module nodenext (TypeScript >= 5.8).
      { ts: "current", name: "commonjs nodenext", files: ["cjs.cts"], options: { ...current, module: "nodenext" } },
      // TypeScript 7 has only node16, nodenext and bundler resolution (see below); bundler is its default for
      // module esnext, preserve and commonjs. dmq's declarations are checked, as with the minimum.
      { ts: "ts7", name: "nodenext", files: ["esm.ts", "node-http.d.ts"], options: { ...minimum, module: "nodenext", ...strictest } },
      { ts: "ts7", name: "node16", files: ["esm.ts", "node-http.d.ts"], options: { ...minimum, module: "node16" } },
      {
        ts: "ts7",
        name: "bundler",
        files: ["esm.ts", "node-http.d.ts"],
        options: { ...minimum, module: "esnext", moduleResolution: "bundler" },
      },
      { ts: "ts7", name: "preserve", files: ["esm.ts", "node-http.d.ts"], options: { ...minimum, module: "preserve" } },
      { ts: "ts7", name: "commonjs nodenext", files: ["cjs.cts", "node-http.d.ts"], options: { ...minimum, module: "nodenext" } },
      // module commonjs resolves with bundler under TypeScript 7, which lets require() of an ES module type too.
      { ts: "ts7", name: "commonjs", files: ["cjs.cts", "node-http.d.ts"], options: { ...minimum, module: "commonjs" } },
    ] as const;
    /**
     * A user's selection that does not fit its variable or parameter (error-texts.ts's mismatches, each a module of the
     * app): explained by its state in words first, as the package's declarations are read — by TypeScript 6 with the
     * usual skipLibCheck, and by TypeScript 7 even with the declarations checked (it compares a selection's members in
     * the order of their declaration files, whatever it checked first). TypeScript 6 with the declarations checked
     * compares them in the order it first met their names (lib.dom.d.ts's "all", nodes.d.ts's "and" | "or", all before
     * state.d.ts's `[selectionIs]`) and names a member first; with its `stableTypeOrdering` it compares them in
     * TypeScript 7's order and words them as TypeScript 7 does (docs/builder.md).
     */
    const mismatches = errorTexts
      .filter(([, , text]) => text.includes("The types of '[selectionIs]."))
      .map(([name, snippet, text], i) => ({ name, snippet, text, file: `mismatch-${i}.ts` }));
    const mismatchFiles = mismatches.map((m) => m.file);
    const mismatchChecks = [
      { ts: "current", name: "selection mismatches", files: mismatchFiles, options: { ...current, module: "nodenext" } },
      {
        ts: "current",
        name: "selection mismatches, declarations checked, stable type ordering",
        files: [...mismatchFiles, "node-http.d.ts"],
        options: { ...minimum, module: "nodenext", stableTypeOrdering: true },
      },
      {
        ts: "ts7",
        name: "selection mismatches",
        files: [...mismatchFiles, "node-http.d.ts"],
        options: { ...minimum, module: "nodenext" },
      },
    ] as const;
    /** The resolutions TypeScript 7 removed: a config that names one is an error (TS5108), whatever it imports. */
    const removedIn7 = ["node10", "classic"] as const;
    /** Every config compiled: the checks that must compile cleanly, then the mismatches. */
    const compiled = [...checks, ...mismatchChecks];
    /** What tsc -p reports for each check (`min nodenext`, …). */
    const results = new Map<string, Compiled>();

    beforeAll(async () => {
      mkdirSync(join(app, "node_modules", "@types"), { recursive: true });
      symlinkSync(join(root, "node_modules", "@types", "node"), join(app, "node_modules", "@types", "node"), "dir");
      const typescript = { min: minimumTypeScript, current: join(root, "node_modules", "typescript") };
      for (const m of mismatches) writeFileSync(join(app, m.file), prelude("dmq") + m.snippet);
      const configOf = (c: (typeof compiled)[number]) => tsconfig(`${c.ts}-${c.name.replace(/\W/g, "-")}`, c.files, c.options);
      // One compiler process per TypeScript version, 5.2 and 6 side by side (the machine has two cores); each
      // compiles its configs in turn, sharing the declaration files they read as tsc -b does (compile.mjs).
      // TypeScript 7's tsc (a native binary, a third of a second a config) runs its configs one by one beside them.
      await Promise.all([
        ...(["min", "current"] as const).map(async (version) => {
          const mine = compiled.filter((c) => c.ts === version);
          const reports = await compileAll(typescript[version], mine.map(configOf));
          mine.forEach((c, i) => results.set(`${c.ts} ${c.name}`, reports[i]!));
        }),
        (async () => {
          for (const c of compiled.filter((c) => c.ts === "ts7")) results.set(`ts7 ${c.name}`, await tsc7(configOf(c)));
          for (const resolution of removedIn7) {
            const config = tsconfig(`ts7-removed-${resolution}`, ["esm.ts", "node-http.d.ts"], {
              module: "esnext",
              moduleResolution: resolution,
            });
            results.set(`ts7 removed ${resolution}`, await tsc7(config));
          }
        })(),
      ]);
    }, 240_000);

    const label = { min: `${MIN_TYPESCRIPT} (the minimum)`, current: "of this project", ts7: `${TS7_VERSION} (the native compiler)` };
    test.each(checks.map((c) => ({ ...c, version: label[c.ts] })))("TypeScript $version, $name", (c) => {
      const tsc = results.get(`${c.ts} ${c.name}`)!;
      expect(tsc.stdout).toBe("");
      expect(tsc.code).toBe(0);
    });

    /** Whether a check compares members in TypeScript 7's order, and so words them as TypeScript 7 does. */
    const sevenOrder = (c: (typeof mismatchChecks)[number]) => c.ts === "ts7" || "stableTypeOrdering" in c.options;
    test.each(
      mismatchChecks.map((c) => ({
        ...c,
        version: c.ts !== "ts7" && sevenOrder(c) ? `${label[c.ts]}, stableTypeOrdering` : label[c.ts],
      })),
    )("TypeScript $version: a selection that does not fit is explained by its state in words", (c) => {
      const reported = errorsByFile(results.get(`${c.ts} ${c.name}`)!.stdout);
      for (const m of mismatches) expect(reported.get(m.file), m.name).toEqual([(sevenOrder(c) && typescript7Texts[m.name]) || m.text]);
      expect(reported.size).toBe(mismatches.length);
    });

    test.each(removedIn7)("TypeScript 7 has removed %s resolution, as the README says", (resolution) => {
      const tsc = results.get(`ts7 removed ${resolution}`)!;
      expect(tsc.stdout).toMatch(new RegExp(`error TS5108: Option 'moduleResolution=${resolution}' has been removed`, "i"));
      expect(tsc.code).not.toBe(0);
    });

    test("package.json's TypeScript 7 is the one installed here", () => {
      const installed = JSON.parse(readFileSync(join(app, "node_modules", TS7_ALIAS, "package.json"), "utf8")) as { version: string };
      expect(TS7_VERSION).toMatch(/^7\./);
      expect(installed.version).toBe(TS7_VERSION);
    });

    test("the README names the minimum TypeScript version, TypeScript 7's and the resolutions 7 removed", () => {
      expect(readme()).toContain(`TypeScript ${MIN_TYPESCRIPT.replace(/\.\d+$/, "")} or later`);
      const requirements = readme().slice(readme().indexOf("Requirements:"), readme().indexOf("## Work on it"));
      expect(requirements).toContain(`with ${TS7_VERSION?.replace(/\.\d+$/, "")}, the native compiler`);
      expect(requirements.replace(/\s+/g, " ")).toContain(
        `TypeScript 7 has removed ${removedIn7.map((r) => `\`${r}\``).join(" and ")} resolution`,
      );
    });
  });

  describe("with json-server added", () => {
    test("the packed mock server starts and answers the packed client", async () => {
      // The project's own json-server, linked into the app's node_modules: what `npm i json-server` would put
      // there (its dependencies resolve from the link's real path), without a second 115-package install.
      symlinkSync(join(root, "node_modules", "json-server"), join(app, "node_modules", "json-server"), "dir");
      const out = JSON.parse(ok(await node(["mock.mjs"], app), "mock.mjs").stdout);
      expect(out).toMatchObject({ started: true, playground: "<title>dmq semantics playground</title>" });
      expect(out.actions).toContain("delete_tasks");
    });
  });

  /** Writes a consumer tsconfig; its path. */
  function tsconfig(name: string, files: readonly string[], options: object): string {
    const config = join(app, `tsconfig.${name}.json`);
    writeFileSync(config, JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", ...options }, files }));
    return config;
  }

  /** What TypeScript 7's `tsc -p <config> --pretty false` reports (one checker thread: the other core runs 5.2 and 6). */
  async function tsc7(config: string): Promise<Compiled> {
    const ran = await node([typescript7, "-p", config, "--pretty", "false", "--singleThreaded"], app);
    return { code: ran.code, stdout: `${ran.stdout}${ran.stderr}` };
  }

  /** What `tsc -p <config> --pretty false` reports for each config, with the TypeScript in `typescript` (compile.mjs). */
  async function compileAll(typescript: string, configs: readonly string[]): Promise<Compiled[]> {
    const ran = await node([join(import.meta.dirname, "compile.mjs"), typescript, ...configs], app);
    try {
      const byConfig = JSON.parse(ran.stdout) as Record<string, Compiled>;
      return configs.map((c) => byConfig[c] ?? { code: 1, stdout: `compile.mjs reported nothing for ${c}` });
    } catch {
      // The compiler itself failed: every check says how.
      return configs.map(() => ({
        code: ran.code === 0 ? 1 : ran.code,
        stdout: `compile.mjs exited ${ran.code}\n${ran.stdout}\n${ran.stderr}`,
      }));
    }
  }
});

function readme(): string {
  return readFileSync(join(root, "README.md"), "utf8");
}

/** One compile's report: tsc's exit status and its output. */
interface Compiled {
  readonly code: number;
  readonly stdout: string;
}

/** Bytes of the regular files under `dir` (what `du -sb` counts, without directory entries), but those `skip` names. */
function sizeOf(dir: string, skip: (relativePath: string) => boolean): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    if (skip(entry.split(sep).join("/"))) continue;
    const path = join(dir, entry);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isFile()) total += stat.size;
  }
  return total;
}
