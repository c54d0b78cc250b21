import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const TYPECHECK = "test/unit/typecheck.test.ts";

/**
 * The heaviest files start first, so that the two workers finish together instead of one of them
 * starting a long file last. vitest orders by the durations of the previous run when it has them
 * (node_modules/.vite); a fresh clone (CI) has none and would go by file size, so these lead, in the
 * order of their durations on an idle two-core machine (a fresh clone's first run, session 4).
 */
const HEAVIEST = [
  // tsc over the whole project, a child process: started first, it overlaps everything else (and leaves
  // vitest's own typecheck, which runs after every runtime test, nothing to check).
  TYPECHECK,
  "test/e2e/mock-lifecycle.test.ts",
  "test/package/package.test.ts",
  "test/conformance/model.test.ts",
  "test/cli/docs.test.ts",
  "test/e2e/playground.test.ts",
  "test/docs/docs.test.ts",
  "test/cli/safety.test.ts",
  "test/e2e/verify.test.ts",
  "test/e2e/kill/kill.test.ts",
  "test/conformance/differential.test.ts",
  "test/conformance/laws.test.ts",
  "test/conformance/http-laws.test.ts",
  "test/cli/ignored-keys.test.ts",
  "test/e2e/fuzz/fuzz.test.ts",
  "test/cli/explain.test.ts",
  "test/cli/resources.test.ts",
  "test/types/editor.test.ts",
];

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const known = sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${this.path(f)}`) !== undefined);
    // With durations known, vitest's order stands, but the whole-project tsc still goes first: its last
    // duration says nothing of this run's (4 s with an unchanged build info, 22 s cold), and started
    // late it is the run's tail.
    const rank = known
      ? (f: TestSpecification) => (this.path(f) === TYPECHECK ? 0 : 1)
      : (f: TestSpecification) => {
          const i = HEAVIEST.indexOf(this.path(f));
          return i === -1 ? HEAVIEST.length : i;
        };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }

  private path(file: TestSpecification): string {
    return relative(this.ctx.config.root, file.moduleId).replaceAll("\\", "/");
  }
}
