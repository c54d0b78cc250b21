import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

/*
 * docs/testing.md shows a vitest file that passes on the mock and on a real server unchanged. It is
 * test/contract/example.test.ts, which npm test runs (on the mock) and npm run test:real runs (on a
 * server): the page must show that file as it is, with the package's import names.
 */
const root = join(import.meta.dirname, "..", "..");

test("docs/testing.md shows test/contract/example.test.ts as it is", () => {
  const page = readFileSync(join(root, "docs", "testing.md"), "utf8");
  const block = /^```ts title="unlabelled\.test\.ts"\n([\s\S]*?)^```$/m.exec(page)?.[1];
  expect(block, 'docs/testing.md has a ```ts title="unlabelled.test.ts" block').toBeDefined();
  const file = readFileSync(join(root, "test", "contract", "example.test.ts"), "utf8")
    .replace('"../../src/index.js"', '"dmq"')
    .replace('"../../testing/index.js"', '"dmq/testing"')
    .replace('"../../testing/vitest.js"', '"dmq/testing/vitest"');
  expect(block).toBe(file);
  expect(file).toContain("useTarget()");
});
