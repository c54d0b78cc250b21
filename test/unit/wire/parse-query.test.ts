import { describe, expect, test } from "vitest";
import { selection } from "../../../src/selection.js";
import { QueryParseError } from "../../../src/wire/errors.js";
import { parseQuery } from "../../../src/wire/parse.js";

describe("parseQuery: the strict entry", () => {
  test("returns the query of an issue-free body", () => {
    const sel = selection(1).where("tasks:total_annotations").greater(0).orderBy("-tasks:id").including([4]);
    expect(parseQuery(JSON.parse(JSON.stringify(sel)))).toEqual(sel.toQuery());
  });

  test("throws on issues the server would silently accept, listing each as <path>: expected …, found …", () => {
    const body = { ordering: ["tasks:id", "tasks:inner_id"], selectedItems: { all: false, included: [] } };
    let error: unknown;
    try {
      parseQuery(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QueryParseError);
    const e = error as QueryParseError;
    expect(e.name).toBe("QueryParseError");
    expect(e.issues.map((i) => i.path)).toEqual(["ordering[1]", "selectedItems.included"]);
    expect(e.message).toBe(
      [
        "invalid Data Manager query (2 issues):",
        '  ordering[1]: expected a single ordering key (the server orders by the first key only), found string "tasks:inner_id"',
        "  selectedItems.included: expected at least one task id (the server reads {all: false, included: []} as every task), found array []",
      ].join("\n"),
    );
  });

  test("throws on bodies the server refuses", () => {
    expect(() => parseQuery({ filters: {} })).toThrow(
      /^invalid Data Manager query \(2 issues\):\n {2}filters\.conjunction: expected "and" or "or", found nothing \(undefined\)\n/,
    );
    expect(() => parseQuery(42)).toThrow(QueryParseError);
  });

  test("views are parsed in view context on request", () => {
    expect(parseQuery({ title: "Tab", filters: {} }, { context: "view" })).toEqual({});
    expect(() => parseQuery({ filters: {} })).toThrow(QueryParseError);
  });

  test("found texts never echo long secrets or values in full", () => {
    const long = "x".repeat(200);
    try {
      parseQuery({ selectedItems: { all: long } });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain(long);
    }
  });
});
