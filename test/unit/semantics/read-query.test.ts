import { describe, expect, test } from "vitest";
import { evaluateBody, EvaluationError, viewQuery } from "../../../src/semantics/index.js";
import { readQuery } from "../../../src/semantics/read-query.js";
import { parseQueryBody } from "../../../src/wire/parse.js";
import { fixture } from "./fixture.js";
import { thrown } from "../../helpers/thrown.js";

const item = (filter: string, operator: string, type: string, value: unknown) => ({ filter, operator, type, value });
const and = (...items: unknown[]) => ({ filters: { conjunction: "and", items } });
/** Ignored by the server (no `filter:` prefix): no answer, one issue. */
const unprefixed = and(item("tasks:id", "equal", "Number", 1));
/** Refused by the server: `__` traversal in a column is a DRF ValidationError (400). */
const traversal = and(item("filter:tasks:updated_by__email", "equal", "String", "x"));
const badRegex = and(item("filter:tasks:data.text", "regex", "String", "a("));

describe("readQuery: the one path from a body to the query", () => {
  test("a body the server evaluates: the parser's query, no problem", () => {
    const body = and(item("filter:tasks:id", "greater", "Number", 1));
    expect(readQuery(body)).toEqual({ query: parseQueryBody(body).query });
  });

  test("a body the server refuses: its answer, every issue, the refusing issue as the cause", () => {
    const parsed = parseQueryBody(traversal);
    const { problem } = readQuery(traversal);
    expect(problem).toEqual({
      kind: "refused",
      answer: parsed.answer,
      issues: parsed.issues,
      cause: { path: "filters.items[0].filter", expected: parsed.issues[0]?.expected, found: parsed.issues[0]?.found },
    });
    expect(problem?.answer.status).toBe(400);
  });

  test("faithful: what the server ignores or evaluates is no problem; strict: a 400 keyed by path, under `at`", () => {
    expect(readQuery(unprefixed).problem).toBeUndefined();
    const { problem } = readQuery(unprefixed, { strict: true, at: "query" });
    expect(problem?.kind).toBe("strict");
    expect(problem?.answer).toEqual({
      status: 400,
      detail: "Validation error",
      validationErrors: { "query.filters.items[0].filter": [expect.stringMatching(/^expected .+, found /)] },
    });
    expect(problem?.cause.path).toBe("query.filters.items[0].filter");
  });

  test("strict: keys the request reads itself (`allow`) are no issue", () => {
    const body = { ...and(item("filter:tasks:id", "equal", "Number", 1)), project: 1 };
    expect(readQuery(body, { endpoint: "tasks", strict: true }).problem?.issues.map((i) => i.path)).toEqual(["project"]);
    expect(readQuery(body, { endpoint: "tasks", strict: true, allow: ["project"] }).problem).toBeUndefined();
  });

  test("strict names a regex Python would not compile (faithful: the engine selects nothing)", () => {
    expect(readQuery(badRegex).query).toBeDefined();
    const { problem } = readQuery(badRegex, { strict: true, at: "view 3: data", context: "view" });
    expect(problem?.kind).toBe("invalid-regex");
    expect(Object.keys(problem?.answer.validationErrors ?? {})).toEqual(["view 3: data.filters.items[0].value"]);
    expect(problem?.cause).toMatchObject({ path: "view 3: data.filters.items[0].value", found: expect.stringContaining('"a("') });
  });

  test("the engine's evaluateBody and viewQuery throw the problem's answer and cause", () => {
    const body = thrown(EvaluationError, () => evaluateBody(fixture, traversal));
    const { problem } = readQuery(traversal);
    expect([body.status, body.error, body.path]).toEqual([400, problem?.answer, problem?.cause.path]);
    const view = thrown(EvaluationError, () => viewQuery({ ordering: ["tasks:updated_by__email"] }));
    const read = readQuery({ ordering: ["tasks:updated_by__email"] }, { context: "view", at: "data" });
    expect([view.error, view.path, view.expected, view.found]).toEqual([
      read.problem?.answer,
      read.problem?.cause.path,
      read.problem?.cause.expected,
      read.problem?.cause.found,
    ]);
  });
});
