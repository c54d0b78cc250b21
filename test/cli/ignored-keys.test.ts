import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { parseQuery, QueryParseError, selection } from "../../src/index.js";
import { toBody } from "../../src/wire/serialize.js";
import { dmqIn } from "./dmq.js";
import { arbSelectionSpec, buildSelection } from "../property/arbitraries.js";

/**
 * Every top-level key the server ignores is reported, by `dmq explain` and by the parser. What the
 * server ignores is not listed here: it is what the mock does. A key is ignored when adding it, with
 * a value that would change the answer if the key were read as the key it resembles, leaves the
 * mock's task list (ids, order, totals, fields) exactly as it was without the key.
 */
let mock: MockServer;
/** The answer to an empty body: the property only reads the mock, so it is the same in every run. */
let empty: string;
beforeAll(async () => {
  mock = await startMockServer();
  empty = await answer({});
});
afterAll(() => mock.close());

/** The mock's whole answer to the task list with `body` as its `query` parameter (an error's body without its random id). */
async function answer(body: unknown): Promise<string> {
  const url = `${mock.url}/api/tasks/?project=1&page_size=1000&query=${encodeURIComponent(JSON.stringify(body))}`;
  const response = await fetch(url, { headers: { authorization: `Token ${mock.legacyToken}` } });
  const answer = (await response.json()) as Record<string, unknown>;
  // An error body's id is new on every answer.
  if (response.status !== 200) delete answer["id"];
  return `${response.status} ${JSON.stringify(answer)}`;
}

/** Values that change the demo's answer when read as filters, an ordering or a selection. */
const potent = {
  filters: { conjunction: "and", items: [{ filter: "filter:tasks:id", operator: "in_list", type: "Number", value: [3, 1, 2] }] },
  ordering: ["-tasks:id"],
  selectedItems: { all: false, included: [5, 6] },
};
const arbPotent = fc.constantFrom<unknown>(potent.filters, potent.ordering, potent.selectedItems, { ...potent }, JSON.stringify(potent));

/** Misspellings people make of a key: a letter lost, doubled or swapped, another case, snake_case. */
function arbMisspelling(key: string): fc.Arbitrary<string> {
  return fc.integer({ min: 0, max: key.length - 2 }).chain((i) =>
    fc.constantFrom(
      key.slice(0, i) + key.slice(i + 1),
      key.slice(0, i) + key[i] + key.slice(i),
      key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2),
      key.toLowerCase(),
      key[0]!.toUpperCase() + key.slice(1),
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      `${key}s`,
    ),
  );
}

const arbExtraKey = fc.oneof(
  fc.constantFrom("filters", "ordering", "selectedItems", "columnsDisplayType", "hiddenColumns", "view").chain(arbMisspelling),
  fc.constantFrom("query", "project", "id", "filter", "selected_items", "order", "sort", "where"),
  fc.stringMatching(/^[a-z][A-Za-z_]{0,11}$/),
);

/**
 * The documented body's own keys, as the serializer writes them: a body with these is a body, not
 * one with extra keys (and a read key whose effect a probe cannot show, the display types, would
 * look ignored).
 */
const documented = new Set(
  Object.keys(
    toBody({
      filters: { conjunction: "and", items: [] },
      ordering: [{ column: "id", descending: false }],
      selectedItems: { all: true, excluded: [] },
      columnsDisplayType: {},
    }),
  ),
);

const arbCase = fc.record({
  spec: arbSelectionSpec(),
  // Empty filters and ordering where the body has none: a body that could pass for a Query value.
  empties: fc.boolean(),
  extras: fc.uniqueArray(
    fc.tuple(
      arbExtraKey.filter((k) => !documented.has(k)),
      arbPotent,
    ),
    { minLength: 1, maxLength: 3, selector: ([k]) => k },
  ),
});

describe("unknown top-level keys: what the mock ignores, explain and the parser report", () => {
  test("every extra or misspelt key the mock ignores is reported; no key the mock reads is", { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ spec, empties, extras }) => {
        const built = JSON.parse(JSON.stringify(buildSelection({ ...spec, project: 1 }))) as Record<string, unknown>;
        const body = empties ? { filters: { conjunction: "and", items: [] }, ordering: [], ...built } : built;
        const keys = extras.map(([k]) => k).filter((k) => !(k in body));
        const full: Record<string, unknown> = { ...body, ...Object.fromEntries(extras.filter(([k]) => !(k in body))) };
        const base = await answer(body);
        const ignoredByMock: string[] = [];
        const readByMock: string[] = [];
        for (const key of keys) {
          // Ignored: changes nothing, next to the body or alone (where a potent value read as filters, ordering or ids would).
          const same = base === (await answer({ ...body, [key]: full[key] })) && empty === (await answer({ [key]: full[key] }));
          (same ? ignoredByMock : readByMock).push(key);
        }
        const run = await dmqIn(["explain", "--for", "tasks", "--query", JSON.stringify(full), "--format", "json"]);
        expect(run.code, run.stderr).toBe(0);
        const issues = (JSON.parse(run.stdout) as { issues: { path: string; effect: string }[] }).issues;
        const reported = new Set(issues.filter((i) => i.effect === "ignored").map((i) => i.path));
        for (const key of ignoredByMock) expect(reported, `explain names ${key}, which the mock ignores`).toContain(key);
        for (const key of readByMock) expect(reported, `explain leaves ${key} alone: the mock reads it`).not.toContain(key);
        // The library entry points refuse such a body, naming the key.
        if (ignoredByMock.length > 0) {
          const thrown = (() => {
            try {
              parseQuery(full, { endpoint: "tasks" });
            } catch (error) {
              return error;
            }
            return undefined;
          })();
          expect(thrown).toBeInstanceOf(QueryParseError);
          for (const key of ignoredByMock) expect((thrown as QueryParseError).issues.map((i) => i.path)).toContain(key);
          expect(() => selection.from(1, full, { endpoint: "tasks" })).toThrow(QueryParseError);
        }
      }),
      { numRuns: 120 },
    );
  });
});
