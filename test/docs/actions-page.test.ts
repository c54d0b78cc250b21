import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { actionIds, actions, type ActionId } from "../../src/vocabulary/actions.js";

/*
 * docs/actions.md against the vocabulary's action table: a section per action, whose first line is
 * the table's title, order, permission, visibility and edition, and whose params are the table's
 * fields, each marked required or optional as the table says.
 */
const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "actions.md"), "utf8");

function section(id: ActionId): string {
  const start = page.indexOf(`\n## \`${id}\`\n`);
  if (start < 0) return "";
  const end = page.indexOf("\n## ", start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

function headline(id: ActionId): string {
  const spec = actions[id];
  const permission = typeof spec.permission === "string" ? `\`${spec.permission}\`` : spec.permission.map((p) => `\`${p}\``).join(" and ");
  return `${spec.title} · order ${spec.order} · permission ${permission} · ${spec.visibility} · ${spec.edition}`;
}

function documentedParams(text: string): Record<string, boolean> {
  const paragraph = /\*\*Params:\*\*([\s\S]*?)\n\n/.exec(text)?.[1] ?? "";
  return Object.fromEntries([...paragraph.matchAll(/`(\w+)`\s+\((required|optional)/g)].map((m) => [m[1], m[2] === "required"]));
}

describe("docs/actions.md", () => {
  test.each(actionIds)("%s: headline and params as in the vocabulary table", (id) => {
    const text = section(id);
    expect(text, `a section "## \`${id}\`"`).not.toBe("");
    expect(text.split("\n")[3]).toBe(headline(id));
    const params = actions[id].params as Readonly<Record<string, { required: boolean }>>;
    expect(documentedParams(text)).toEqual(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v.required])));
    if (Object.keys(params).length === 0) expect(text).toContain("**Params:** none.");
    for (const part of ["**Effect:**", "**Result:**", "```ts"]) expect(text).toContain(part);
  });

  test("documents no action the table does not have, and links each from the summary", () => {
    const documented = [...page.matchAll(/^## `(\w+)`$/gm)].map((m) => m[1]);
    expect(documented).toEqual([...actionIds]);
    for (const id of actionIds) expect(page).toContain(`[\`${id}\`](#${id})`);
  });
});
