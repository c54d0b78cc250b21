import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The heaviest files start first, so that the two workers finish together instead of one of them
 * starting the packaging test last. vitest orders by the durations of the previous run when it has
 * them (node_modules/.vite); a fresh clone (CI) has none and would go by file size, so these lead.
 */
const HEAVIEST = [
  // tsc over the whole project, a child process: started first, it overlaps everything else (and leaves
  // vitest's own typecheck, which runs after every runtime test, nothing to check).
  "test/unit/typecheck.test.ts",
  "test/package/package.test.ts",
  "test/cli/resources.test.ts",
  "test/cli/safety.test.ts",
  "test/cli/explain.test.ts",
  "test/types/editor.test.ts",
  "test/docs/docs.test.ts",
];

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const known = sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${this.path(f)}`) !== undefined);
    if (known) return sorted;
    const rank = (f: TestSpecification) => {
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
