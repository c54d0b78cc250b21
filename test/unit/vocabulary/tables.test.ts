import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { actions, actionIds } from "../../../src/vocabulary/actions.js";
import { columnKinds, dataKindByType } from "../../../src/vocabulary/column-kinds.js";
import { columnNames, columns, inListColumns, kindOf } from "../../../src/vocabulary/columns.js";
import { toWireDatetime, wireDatetimeMicros, WIRE_DATETIME } from "../../../src/vocabulary/datetime.js";
import { operatorByMethod, operatorNames, operators } from "../../../src/vocabulary/operators.js";
import { valueShapes } from "../../../src/vocabulary/value-shapes.js";
import { valueTypeNames } from "../../../src/vocabulary/value-types.js";

// Expectations below are copied from the reference documents, not computed from the tables.
describe("the vocabulary covers the reference", () => {
  test("every column the SDK and docs/reference/columns.md#task-columns name", () => {
    const sdkColumns = [
      "agreement",
      "annotations_results",
      "annotators",
      "cancelled_annotations",
      "comments",
      "completed_at",
      "created_at",
      "file_upload",
      "ground_truth",
      "id",
      "inner_id",
      "predictions_model_versions",
      "predictions_results",
      "predictions_score",
      "reviewed",
      "reviewers",
      "reviews_accepted",
      "reviews_rejected",
      "total_annotations",
      "total_predictions",
      "unresolved_comment_count",
      "updated_at",
    ];
    const communityExtras = ["annotations_ids", "storage_filename", "updated_by", "avg_lead_time", "draft_exists"];
    for (const c of [...sdkColumns, ...communityExtras]) expect(columnNames).toContain(c);
    for (const c of communityExtras) expect(columns[c as keyof typeof columns].edition).toBe("community");
    for (const c of ["reviewed", "agreement", "reviewers", "reviews_rejected", "reviews_accepted"]) {
      expect(columns[c as keyof typeof columns].edition).toBe("enterprise");
    }
  });
  test("every operator of the SDK enums and the legacy helpers", () => {
    const all = [
      "contains",
      "ends_with",
      "equal",
      "exists",
      "greater",
      "greater_or_equal",
      "in",
      "in_list",
      "less",
      "less_or_equal",
      "not_contains",
      "not_equal",
      "not_exists",
      "not_in",
      "not_in_list",
      "starts_with",
      "empty",
      "regex",
    ];
    expect([...operatorNames].sort()).toEqual([...all].sort());
    expect(["starts_with", "ends_with", "exists", "not_exists"].every((o) => !operators[o as keyof typeof operators].implemented)).toBe(
      true,
    );
  });
  test("every value type", () => {
    for (const t of ["Number", "Datetime", "Boolean", "String", "List", "Unknown", "Image", "Audio", "AudioPlus", "Video"]) {
      expect(valueTypeNames).toContain(t);
    }
  });
  test("in_list is allowed exactly on id, inner_id, the counters and data.* (docs/reference/filters.md#in_list-and-not_in_list)", () => {
    expect([...inListColumns].sort()).toEqual(["cancelled_annotations", "id", "inner_id", "total_annotations", "total_predictions"]);
    expect("in_list" in columnKinds[kindOf("data.x", "Number")!].operators).toBe(true);
    expect("in_list" in columnKinds[kindOf("data.x", "String")!].operators).toBe(true);
  });
  test("user columns allow contains, not_contains and empty only (docs/reference/filters.md#user-columns)", () => {
    for (const c of ["annotators", "updated_by"] as const) {
      expect(Object.keys(columnKinds[columns[c].kind].operators).sort()).toEqual(["contains", "empty", "not_contains"]);
    }
  });
  test("the community action list of docs/reference/actions-endpoint.md#listing-actions, in order", () => {
    const listed = actionIds
      .filter((id) => actions[id].edition === "community" && actions[id].visibility === "listed")
      .sort((a, b) => actions[a].order - actions[b].order);
    expect(listed).toEqual([
      "retrieve_tasks_predictions",
      "predictions_to_annotations",
      "remove_duplicates",
      "delete_tasks",
      "delete_tasks_annotations",
      "delete_tasks_predictions",
    ]);
  });
});

describe("the tables agree with each other", () => {
  test("every kind names real operators and shapes, and every column a real kind", () => {
    for (const kind of Object.values(columnKinds)) {
      for (const [op, shape] of Object.entries(kind.operators)) {
        expect(operatorNames).toContain(op);
        expect(Object.keys(valueShapes)).toContain(shape);
      }
      expect(valueTypeNames).toContain(kind.type);
    }
    for (const c of columnNames) expect(Object.keys(columnKinds)).toContain(columns[c].kind);
    for (const kind of Object.values(dataKindByType)) expect(Object.keys(columnKinds)).toContain(kind);
  });
  test("method names are unique and map back to their operators", () => {
    for (const op of operatorNames) expect(operatorByMethod[operators[op].method]).toBe(op);
    expect(new Set(operatorNames.map((o) => operators[o].method)).size).toBe(operatorNames.length);
  });
  test("negated operators are exactly the not_ ones (the server's startswith('not_') rule)", () => {
    for (const op of operatorNames) expect(operators[op].negated).toBe(op.startsWith("not_"));
  });
  test("every shape's encoder produces what its wire check accepts", () => {
    const samples: Record<string, unknown[]> = {
      number: [0, -1.5],
      integer: [3],
      numberRange: [{ min: 1, max: 2 }],
      integerRange: [{ min: -1, max: 2 }],
      datetime: ["2024-01-01", new Date(0)],
      datetimeRange: [{ min: "2024-01-01", max: "2024-01-02T00:00:00+01:00" }],
      boolean: [true],
      string: ["", "x"],
      scalar: ["a", 1, false],
      regex: ["^a"],
      numberList: [[1, 2]],
      integerList: [[3, 4]],
      scalarList: [["a", 1, true]],
      idList: [4, [4, 5]],
      userIds: [1, [1, 2]],
      stringList: ["v1", ["v1", "v2"]],
      json: [[{ a: 1 }], "x", 3, null],
    };
    expect(Object.keys(samples).sort()).toEqual(Object.keys(valueShapes).sort());
    for (const [shape, values] of Object.entries(samples)) {
      for (const v of values) {
        const encoded = valueShapes[shape as keyof typeof valueShapes].encode(v);
        expect(encoded.ok, `${shape} ${String(v)}`).toBe(true);
        if (encoded.ok) expect(valueShapes[shape as keyof typeof valueShapes].isWire(encoded.value), shape).toBe(true);
      }
    }
  });
});

describe("datetimes", () => {
  test("any valid Date round-trips to the same instant in the server's form", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }), (d) => {
        const r = toWireDatetime(d);
        expect(r.ok && WIRE_DATETIME.test(r.value)).toBe(true);
        if (r.ok) expect(wireDatetimeMicros(r.value)).toBe(d.getTime() * 1000);
      }),
      { seed: 42, numRuns: 300 },
    );
  });
  test("offset strings land on the same instant as Date.parse, plus their microseconds", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.integer({ min: 0, max: 999 }),
        (d, offset, micros) => {
          const local = new Date(d.getTime() + offset * 60_000).toISOString().slice(0, 23);
          const sign = offset < 0 ? "-" : "+";
          const abs = Math.abs(offset);
          const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
          const input = `${local}${String(micros).padStart(3, "0")}${zone}`;
          const r = toWireDatetime(input);
          expect(r.ok).toBe(true);
          if (r.ok) expect(wireDatetimeMicros(r.value)).toBe(d.getTime() * 1000 + micros);
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });
  test("the legacy SDK's 6-digit form is already the wire form", () => {
    expect(toWireDatetime("2021-11-01T00:00:00.000000Z")).toEqual({ ok: true, value: "2021-11-01T00:00:00.000000Z" });
  });
});
