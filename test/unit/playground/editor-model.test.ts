import { describe, expect, test } from "vitest";
import { build, chainText, literal } from "../../../playground/src/chain.js";
import { draftFromBody, linkHash, parseLink, playgroundUrl } from "../../../playground/src/link.js";
import {
  emptyDraft,
  emptyValue,
  inputOf,
  knownColumns,
  newCondition,
  operatorsFor,
  withColumn,
  withOperator,
  type ConditionDraft,
  type Draft,
  type ValueDraft,
} from "../../../playground/src/model.js";
import { selection } from "../../../src/selection.js";
import { dataKindByType } from "../../../src/vocabulary/column-kinds.js";
import type { ShapeName } from "../../../src/vocabulary/value-shapes.js";

/* The editor's model and chain: every choice the form offers builds, and what it shows is the builder's. */

/** A value the form could hold for each shape (typed by ShapeName: a new shape is a compile error here). */
const samples: { readonly [S in ShapeName]: ValueDraft } = {
  number: { ...emptyValue, text: "2.5" },
  integer: { ...emptyValue, text: "7" },
  numberRange: { ...emptyValue, min: "1", max: "5" },
  integerRange: { ...emptyValue, min: "2", max: "4" },
  datetime: { ...emptyValue, text: "2024-02-01T12:00" },
  datetimeRange: { ...emptyValue, min: "2024-01-01T00:00:00", max: "2024-12-31T23:59:59.500" },
  boolean: { ...emptyValue, flag: false },
  string: { ...emptyValue, text: "great" },
  scalar: { ...emptyValue, text: "5", kind: "number" },
  regex: { ...emptyValue, text: "^a(b|c)$" },
  numberList: { ...emptyValue, text: "1, 2.5" },
  integerList: { ...emptyValue, text: "3, 4" },
  scalarList: { ...emptyValue, text: "x, y", kind: "text" },
  idList: { ...emptyValue, text: "10, 12" },
  userIds: { ...emptyValue, text: "3" },
  stringList: { ...emptyValue, text: "v1, v2" },
  json: { ...emptyValue, text: '[{"type": "choices"}]' },
};

const oneLine = (c: ConditionDraft, more: Partial<Draft> = {}): Draft => ({
  ...emptyDraft(1),
  lines: [{ root: c, children: [] }],
  ...more,
});

/** Every (column, type, operator) the editor offers, with its sample value. */
function offered(): { name: string; condition: ConditionDraft }[] {
  const columns: [string, string | undefined][] = [
    ...[...knownColumns.community, ...knownColumns.enterprise].map((c) => [c, undefined] as [string, undefined]),
    ["data.score", undefined],
    ...Object.keys(dataKindByType).map((t) => ["data.score", t] as [string, string]),
  ];
  return columns.flatMap(([column, type]) =>
    operatorsFor({ column, type }).map(([op, shape]) => ({
      name: `${column}${type ? ` (${type})` : ""} ${op}`,
      condition: { ...withOperator(withColumn(newCondition(), column, type), op), value: samples[shape] },
    })),
  );
}

/** Run a chain's text with the real builder. */
const runChain = (chain: string) => new Function("selection", `return ${chain};`)(selection) as { toJSON(): unknown };

describe("every combination the editor offers", () => {
  const all = offered();

  test("covers every operator of every kind the columns use", () => {
    expect(all.length).toBeGreaterThan(150);
    expect(new Set(all.map((o) => o.condition.operator))).toEqual(
      new Set([
        "equal",
        "not_equal",
        "less",
        "greater",
        "less_or_equal",
        "greater_or_equal",
        "in",
        "not_in",
        "in_list",
        "not_in_list",
        "contains",
        "not_contains",
        "regex",
        "empty",
      ]),
    );
  });

  test.each(all.map((o) => [o.name, o.condition] as const))(
    "%s: the builder accepts it, and the chain text builds the same body",
    (_name, c) => {
      const draft = oneLine(c, { ordering: { column: "created_at", descending: true }, selection: { mode: "excluding", ids: "4, 2" } });
      const built = build(draft);
      expect(built.error).toBeUndefined();
      expect(built.body?.filters?.items[0]?.operator).toBe(c.operator);
      expect(runChain(built.chain).toJSON()).toEqual(built.body);
      // A link carries the body; the editor reads it back into a draft that builds the same body.
      const back = draftFromBody(1, built.body);
      expect(back.problems).toEqual([]);
      expect(build(back.draft).body).toEqual(built.body);
    },
  );
});

describe("the chain text", () => {
  test("one call per line: where, or, child, orderBy, including", () => {
    const annotators: ConditionDraft = { ...withColumn(newCondition(), "annotators", undefined), value: samples.userIds };
    const text: ConditionDraft = {
      ...withOperator(withColumn(newCondition(), "data.text", undefined), "contains"),
      value: { ...emptyValue, text: "am" },
    };
    const draft: Draft = {
      ...emptyDraft(3),
      conjunction: "or",
      lines: [
        { root: annotators, children: [text] },
        { root: { ...withOperator(newCondition("inner_id"), "in"), value: samples.numberRange }, children: [] },
      ],
      ordering: { column: "data.text", descending: false },
      selection: { mode: "including", ids: "5, 1" },
    };
    expect(chainText(draft)).toBe(
      [
        "selection(3)",
        '  .where("tasks:annotators").contains([3])',
        '  .child("tasks:data.text").contains("am")',
        '  .or("tasks:inner_id").in({ min: 1, max: 5 })',
        '  .orderBy("tasks:data.text")',
        "  .including([5, 1])",
      ].join("\n"),
    );
    expect(build(draft).body).toEqual(
      selection(3)
        .where("tasks:annotators")
        .contains([3])
        .child("tasks:data.text")
        .contains("am")
        .or("tasks:inner_id")
        .in({ min: 1, max: 5 })
        .orderBy("tasks:data.text")
        .including([5, 1])
        .toJSON(),
    );
  });

  test("literals read as TypeScript", () => {
    expect(literal({ min: 1, max: "b" })).toBe('{ min: 1, max: "b" }');
    expect(literal([{ "a-b": null, ok: [true] }])).toBe('[{ "a-b": null, ok: [true] }]');
    expect(literal(Number.NaN)).toBe("NaN");
    expect(literal({})).toBe("{}");
  });

  test("a datetime-local value is read as UTC, with seconds", () => {
    expect(inputOf("datetime", { ...emptyValue, text: "2024-02-01T12:00" })).toEqual({ ok: true, input: "2024-02-01T12:00:00Z" });
    expect(inputOf("datetime", { ...emptyValue, text: "2024-02-01T12:00:30" })).toEqual({ ok: true, input: "2024-02-01T12:00:30Z" });
  });
});

describe("refusals carry the builder's message and the body path", () => {
  test("an empty number field is not 0", () => {
    const built = build(oneLine(newCondition("id")));
    expect(built.body).toBeUndefined();
    expect(built.error).toEqual({
      path: "filters.items[0].value",
      message: "filters.items[0].value: equal on tasks:id expects an integer, as the server truncates a fraction, found number NaN",
    });
  });

  test(".including() of no ids: the server would act on every task", () => {
    const built = build({ ...emptyDraft(1), selection: { mode: "including", ids: " , " } });
    expect(built.error?.path).toBe("selectedItems.included");
    expect(built.error?.message).toMatch(/including\(\) needs at least one id/);
  });

  test("JSON values must parse before the builder sees them", () => {
    const c = withOperator(withColumn(newCondition(), "annotations_results", undefined), "equal");
    const built = build(oneLine({ ...c, value: { ...emptyValue, text: "{" } }));
    expect(built.error?.path).toBe("filters.items[0].value");
    expect(built.error?.message).toMatch(
      /^filters\.items\[0\]\.value: expected JSON \(it is sent as JSON text\), found text that does not parse/,
    );
  });

  test("an unknown data key is named", () => {
    const built = build(oneLine({ ...withColumn(newCondition(), "data.", undefined), value: samples.string }));
    expect(built.error?.path).toBe("filters.items[0].filter");
  });
});

describe("changing a column or an operator keeps what still fits", () => {
  test("the operator stays when the new column offers it; the value stays when its shape does", () => {
    const c = { ...withOperator(newCondition("id"), "greater"), value: samples.number };
    expect(withColumn(c, "total_annotations", undefined)).toMatchObject({ operator: "greater", value: samples.number });
    expect(withColumn(c, "annotators", undefined)).toMatchObject({ operator: "contains", value: emptyValue });
    expect(withOperator(c, "in").value).toEqual(emptyValue);
    expect(withColumn(c, "completed_at", undefined)).toMatchObject({ operator: "greater", value: emptyValue });
  });

  test("only data columns keep a type", () => {
    expect(withColumn(newCondition(), "data.n", "Number").type).toBe("Number");
    expect(withColumn({ ...newCondition(), type: "Number" }, "id", "Number").type).toBeUndefined();
  });
});

describe("links", () => {
  test("the fragment round-trips project, body and inline data; a token is read but never written", () => {
    const body = selection(2).where("tasks:id").greater(3).toJSON();
    const data = { projects: [{ id: 2 }], tasks: [{ id: 1, project: 2, data: { t: "a&b=c#d" } }] };
    const hash = linkHash({ project: 2, body, data });
    expect(hash).toMatch(/^#project=2&q=%7B/);
    expect(parseLink(hash)).toEqual({ project: 2, body, data, problems: [] });
    expect(parseLink(`${hash}&token=abc`).token).toBe("abc");
    expect(playgroundUrl("http://127.0.0.1:8080/playground/", { body })).toBe(`http://127.0.0.1:8080/playground/${linkHash({ body })}`);
  });

  test("what cannot be read is said, field by field", () => {
    const { problems } = parseLink("#project=x&q=%7B");
    expect(problems[0]).toBe('project: expected a positive integer project id, found "x"');
    expect(problems[1]).toMatch(/^q: expected JSON, found text that does not parse \(/);
    expect(problems).toHaveLength(2);
  });

  test("a body the editor cannot hold is reported, not changed silently", () => {
    const { draft, problems } = draftFromBody(1, {
      filters: {
        conjunction: "or",
        items: [
          { filter: "filter:tasks:id", operator: "starts_with", type: "Number", value: 1 },
          { filter: "filter:tasks:id", operator: "equal", type: "String", value: 1 },
          { filter: "filter:tasks:data.d", operator: "equal", type: "Datetime", value: "2024-01-01T00:00:00.000Z" },
        ],
      },
    });
    expect(problems).toEqual([
      // The wire parser's reading of the body, as the server would treat it…
      "filters.items[0].operator: expected an operator the server implements; " +
        'it has no code for starts_with and treats it as equal, found string "starts_with"',
      'filters.items[1].type: expected "Number" (the type of tasks:id; ' +
        'the server casts the value by the filter\'s type), found string "String"',
      "filters.items[2].type: expected a type for a data column: Number, String, Unknown, Boolean, Image, Audio, AudioPlus, Video, " +
        'found string "Datetime"',
      // …then what the editor could not hold.
      "filters.items[0]: the editor leaves this condition out (starts_with is not offered for tasks:id as Number)",
      "filters.items[2]: the editor leaves this condition out (equal is not offered for tasks:data.d as Datetime)",
    ]);
    expect(draft.conjunction).toBe("or");
    expect(draft.lines.map((l) => l.root.column)).toEqual(["id"]);
  });
});
