import { describe, expect, test } from "vitest";
import { selection } from "../../../src/selection.js";
import { evaluate, evaluateBody, EvaluationError, invalidRegex, viewQuery } from "../../../src/semantics/index.js";
import { cond, fixture, where } from "./fixture.js";
import { thrown } from "../../helpers/thrown.js";

const caught = (run: () => unknown): EvaluationError => thrown(EvaluationError, run);

describe("EvaluationError", () => {
  test("a 400 carries the server's body: detail 'Validation error' and non_field_errors", () => {
    const e = caught(() => evaluate(fixture, where(cond("id", "equal", "Number", 1, [cond("created_at", "in_list", "Datetime", ["x"])]))));
    expect(e.status).toBe(400);
    expect(e.detail).toBe("Validation error");
    expect(e.validationErrors).toEqual({
      non_field_errors: ["`is any of` / `is none of` support Task ID, Inner ID, annotation/prediction counters, and task.data.* fields."],
    });
    expect(e.path).toBe("filters.items[0].child_filters[0].filter");
    expect(e.found).toBe("created_at");
  });

  test("a 500 names the path, what was expected and what was found", () => {
    const e = caught(() => evaluate(fixture, where(cond("id", "less", "Number", 1), cond("data.num", "greater", "Number", "ten"))));
    expect(e).toMatchObject({
      status: 500,
      detail: "could not convert string to float: 'ten'",
      path: "filters.items[1].value",
      found: 'string "ten"',
    });
    expect(e.message).toBe(
      `filters.items[1].value: expected ${e.expected}, found string "ten" (the server answers 500: could not convert string to float: 'ten')`,
    );
  });

  test("errors come in the server's order: a 400 met in the loop beats a lookup value Django cannot prepare", () => {
    // The first line's bad id only fails at .filter(), after the loop met the second line's 400.
    const e = caught(() => evaluate(fixture, where(cond("id", "equal", "String", "abc"), cond("annotators", "greater", "List", 1))));
    expect(e.status).toBe(400);
    const later = caught(() => evaluate(fixture, where(cond("id", "equal", "String", "abc"))));
    expect(later).toMatchObject({ status: 500, detail: "Field 'id' expected a number but got 'abc'." });
  });

  test("an exit (unparsable results JSON) beats an earlier lookup error: no SQL runs", () => {
    expect(evaluate(fixture, where(cond("id", "equal", "String", "abc"), cond("annotations_results", "equal", "String", "{"))).ids).toEqual(
      [],
    );
  });
});

describe("datasets", () => {
  test("ids need not be consecutive or sorted; other projects' records are ignored", () => {
    const base = fixture.tasks[0] as (typeof fixture.tasks)[number];
    const data = {
      ...fixture,
      tasks: [
        { ...base, id: 30 },
        { ...base, id: 7, data: { text: "x" } },
        { ...base, id: 12, project: 9 },
        { ...base, id: 10 },
      ],
      annotations: [
        { ...(fixture.annotations[0] as (typeof fixture.annotations)[number]), id: 2, task: 10 },
        { ...(fixture.annotations[0] as (typeof fixture.annotations)[number]), id: 1, task: 10, completed_by: 5 },
        { ...(fixture.annotations[0] as (typeof fixture.annotations)[number]), id: 3, task: 12 },
      ],
    };
    expect(evaluate(data, {}).ids).toEqual([7, 10, 30]);
    expect(evaluate(data, where(cond("annotators", "contains", "List", [5]))).ids).toEqual([10]);
    expect(evaluate(data, where(cond("total_annotations", "greater", "Number", 0))).ids).toEqual([10]);
    expect(evaluate(data, {}).derived(10)).toMatchObject({ annotations_ids: "1,2", annotators: [1, 5] });
    expect(() => evaluate(data, {}).derived(12)).toThrow(RangeError);
  });
});

describe("options", () => {
  test("ordering: false keeps id order and skips ordering errors (the actions endpoint drops ordering)", () => {
    const query = { ordering: [{ column: "nope", descending: true }] };
    expect(() => evaluate(fixture, query)).toThrow(EvaluationError);
    expect(evaluate(fixture, query, { ordering: false }).ids).toEqual([1, 2, 3, 4]);
  });
});

describe("viewQuery", () => {
  test("a stored view's data becomes the query the server evaluates", () => {
    const query = viewQuery({
      title: "Numbers",
      filters: {
        conjunction: "and",
        items: [{ filter: "filter:tasks:data.num", operator: "greater", type: "Number", value: 1, child_filters: [] }],
      },
      ordering: ["-tasks:data.num"],
      columnsDisplayType: { "tasks:data.num": "Number" },
    });
    expect(evaluate(fixture, query).ids).toEqual([1, 2]);
    expect(query.columnsDisplayType).toEqual({ "tasks:data.num": "Number" });
  });

  test("legacy user filters are read back as the server rewrites them (equal -> contains)", () => {
    const query = viewQuery({
      filters: { conjunction: "and", items: [{ filter: "filter:tasks:annotators", operator: "equal", type: "List", value: 3 }] },
    });
    expect(evaluate(fixture, query).ids).toEqual([2]);
  });

  test("a view the server refuses is an EvaluationError with its answer", () => {
    const e = caught(() => viewQuery({ ordering: ["tasks:updated_by__email"] }));
    expect(e.status).toBe(400);
    expect(e.path).toMatch(/^data\.ordering/);
  });

  test("builder and view give the same ids for the same selection", () => {
    const built = selection(1).where("tasks:data.text").contains("o").orderBy("-tasks:id").toQuery();
    const stored = viewQuery(selection(1).where("tasks:data.text").contains("o").orderBy("-tasks:id").toJSON());
    expect(evaluate(fixture, stored).ids).toEqual(evaluate(fixture, built).ids);
    expect(evaluate(fixture, built).ids).toEqual([2, 1]);
  });
});

describe("evaluateBody", () => {
  test("a raw body: parsed, then evaluated", () => {
    const body = {
      filters: { conjunction: "and", items: [{ filter: "filter:tasks:data.num", operator: "greater", type: "Number", value: 6 }] },
      selectedItems: '{"all": true, "excluded": []}',
    };
    expect(evaluateBody(fixture, body).ids).toEqual([1]);
  });

  test(
    "an ignored item (no filter:tasks: prefix) with a bad regex still empties the result" +
      " (docs/reference/filters.md#lines-and-the-conjunction)",
    () => {
      const body = {
        filters: {
          conjunction: "or",
          items: [
            {
              filter: "filter:id",
              operator: "equal",
              type: "Number",
              value: 0,
              child_filters: [{ filter: "filter:tasks:data.text", operator: "regex", type: "String", value: "(" }],
            },
            { filter: "filter:tasks:id", operator: "greater", type: "Number", value: 0 },
          ],
        },
      };
      expect(evaluateBody(fixture, body).ids).toEqual([]);
      expect(evaluate(fixture, { filters: { conjunction: "or", items: [cond("id", "greater", "Number", 0)] } }).ids).toEqual([1, 2, 3, 4]);
    },
  );

  test("the parsed query carries the skipped items' patterns, and evaluate applies the same rule", () => {
    const kept = [cond("id", "greater", "Number", 0)];
    expect(evaluate(fixture, { filters: { conjunction: "or", items: kept, skippedRegex: ["("] } }).ids).toEqual([]);
    expect(evaluate(fixture, { filters: { conjunction: "or", items: kept, skippedRegex: ["a+"] } }).ids).toEqual([1, 2, 3, 4]);
    expect(invalidRegex({ filters: { conjunction: "and", items: [], skippedRegex: ["ok", "[z-a]"] } })).toMatchObject({
      path: "filters.skippedRegex[1]",
      pattern: "[z-a]",
    });
    expect(
      invalidRegex({
        filters: {
          conjunction: "and",
          items: [{ ...cond("data.text", "regex", "String", "a"), children: [cond("data.text", "regex", "String", "(?P<")] }],
        },
      })?.path,
    ).toBe("filters.items[0].child_filters[0].value");
  });

  test("what the parser refuses is the server's answer", () => {
    const e = caught(() =>
      evaluateBody(fixture, {
        filters: {
          conjunction: "and",
          items: [{ filter: "filter:tasks:updated_by__email", operator: "equal", type: "String", value: "x" }],
        },
      }),
    );
    expect(e.status).toBe(400);
    expect(e.path).toBe("filters.items[0].filter");
  });
});
