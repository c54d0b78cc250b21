import { describe, expect, test } from "vitest";
import { parseCondition, spellings } from "../../../src/cli/query/condition.js";
import { readValue } from "../../../src/cli/query/values.js";
import { columnKinds, type ColumnKindName } from "../../../src/vocabulary/column-kinds.js";
import { columnNames, columns } from "../../../src/vocabulary/columns.js";
import { operatorNames, type OperatorName } from "../../../src/vocabulary/operators.js";
import type { ShapeName } from "../../../src/vocabulary/value-shapes.js";

/** A value text of each shape, and what the reader makes of it (keyed by shape: a new one must be added). */
const samples: { readonly [S in ShapeName]: readonly [string, unknown] } = {
  number: ["2.5", 2.5],
  integer: ["7", 7],
  numberRange: ["1 and 3", { min: 1, max: 3 }],
  integerRange: ["2 and 4", { min: 2, max: 4 }],
  datetime: ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"],
  datetimeRange: ["2024-01-01 and 2024-02-01", { min: "2024-01-01", max: "2024-02-01" }],
  boolean: ["true", true],
  string: ['"two words"', "two words"],
  scalar: ['"5"', "5"],
  regex: ["^a.*b$", "^a.*b$"],
  numberList: ["[1, 2]", [1, 2]],
  integerList: ["[3, 4]", [3, 4]],
  scalarList: ["a, 2, true", ["a", 2, true]],
  idList: ["3", 3],
  userIds: ["1,2", [1, 2]],
  stringList: ["v1", "v1"],
  json: ['{"a": 1}', { a: 1 }],
};

/** A column (as the condition names it) of each kind. */
const columnOfKind = (kind: ColumnKindName): string => {
  const known = columnNames.find((c) => columns[c].kind === kind);
  if (known) return known;
  const type = { dataNumber: "Number", dataText: "String", dataUnknown: "Unknown", dataBoolean: "Boolean" }[kind as string];
  return type === undefined ? "data.key" : `data.key@${type}`;
};

describe("the condition syntax, from the vocabulary tables", () => {
  const cases = operatorNames.flatMap((operator) =>
    (Object.keys(columnKinds) as ColumnKindName[])
      .filter((kind) => Object.hasOwn(columnKinds[kind].operators, operator))
      .slice(0, 1)
      .flatMap((kind) => spellings[operator].map((s) => ({ operator, kind, spelling: s }))),
  );

  test("every implemented operator is spelled, and some column kind takes it", () => {
    for (const op of operatorNames) expect(spellings[op].length, op).toBeGreaterThan(0);
    const parsed = new Set(cases.map((c) => c.operator));
    expect(operatorNames.filter((op) => !parsed.has(op))).toEqual(["starts_with", "ends_with", "exists", "not_exists"]);
  });

  test.each(cases.map((c) => [`${c.kind}: ${c.spelling.word}`, c] as const))("%s", (_name, { operator, kind, spelling }) => {
    const shape = (columnKinds[kind].operators as Partial<Record<OperatorName, ShapeName>>)[operator] as ShapeName;
    const [text, value] = samples[shape];
    const valueText = spelling.value !== undefined ? "" : ` ${text}`;
    const condition = parseCondition(`${columnOfKind(kind)} ${spelling.word}${valueText}`);
    expect(condition.operator).toBe(operator);
    expect(condition.value).toEqual(spelling.value ?? value);
  });

  test("prefixes, types and the longest spelling win", () => {
    expect(parseCondition("filter:tasks:id <= 3")).toEqual({ column: "tasks:id", type: undefined, operator: "less_or_equal", value: 3 });
    expect(parseCondition("tasks:data.x@Number !between 1..2")).toEqual({
      column: "tasks:data.x",
      type: "Number",
      operator: "not_in",
      value: { min: 1, max: 2 },
    });
    expect(parseCondition("annotators is not empty")).toMatchObject({ operator: "empty", value: false });
    expect(parseCondition("data.t not contains x")).toMatchObject({ operator: "not_contains", value: "x" });
    expect(() => parseCondition("data.t inside")).toThrow(/unknown operator in "inside"/);
  });

  test("value readers keep text that is not of their shape (the builder then names the problem)", () => {
    expect(readValue.number("abc")).toBe("abc");
    expect(readValue.numberRange("1 to 3")).toBe("1 to 3");
    expect(readValue.numberList("[1, x")).toBe("[1, x");
    expect(readValue.numberList("[1, x]")).toEqual([1, "x"]);
    expect(readValue.boolean("maybe")).toBe("maybe");
  });
});
