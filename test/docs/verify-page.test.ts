import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { catalogue } from "../../src/cli/verify/catalogue.js";
import { environmentRows } from "../../src/cli/verify/environment.js";
import { catalogueMarkdown, environmentMarkdown } from "../../src/cli/verify/report.js";

/** The tables docs/verify.md and docs/mock-server.md show are rendered from the catalogue and the environment table. */
const page = (name: string) => readFileSync(join(import.meta.dirname, "..", "..", "docs", name), "utf8");

describe("dmq verify's tables in the docs", () => {
  test("docs/verify.md lists the catalogue's scenarios per area", () => {
    expect(page("verify.md")).toContain(catalogueMarkdown(catalogue()));
  });

  test("docs/mock-server.md#fidelity lists every row of the environment table", () => {
    expect(page("mock-server.md")).toContain(environmentMarkdown(environmentRows));
  });

  test("every environment row names the server code that decides (a file or a function)", () => {
    for (const row of environmentRows) expect(row.server, row.id).toMatch(/\.py|\(|_/);
  });
});
