import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { OTHER_TAG_DATA_TYPES, TAG_DATA_TYPES, type PyTypeName } from "../../src/contract/task-data-types.js";

/** docs/reference/resources.md#task-data-types shows the table the mock's validator reads, rendered from it. */
const cell = (types: readonly PyTypeName[]) => types.map((t) => `\`${t}\``).join(", ");

function dataTypesMarkdown(): string {
  const rows = Object.entries(TAG_DATA_TYPES).map(([tag, types]) => `| \`${tag}\` | ${cell(types)} |`);
  return [...rows, `| any other (\`Audio\`, \`Video\`…) | ${cell(OTHER_TAG_DATA_TYPES)} |`].join("\n") + "\n";
}

describe("docs/reference/resources.md#task-data-types", () => {
  test("lists every tag of the table with its types in the server's order", () => {
    const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "reference", "resources.md"), "utf8");
    expect(page).toContain("| tag | value types it takes |\n|---|---|\n" + dataTypesMarkdown());
  });
});
