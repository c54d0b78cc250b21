import { describe, expect, it } from "vitest";
import {
  compareError,
  compareList,
  KeyMap,
  normaliseRecord,
  shapeDifferences,
  tieGroups,
  valueDifferences,
} from "../../../../src/cli/verify/compare.js";
import { explain, versionBefore, type EnvironmentRow } from "../../../../src/cli/verify/environment.js";
import { resolveDeep, shiftDatetime, type Seeded } from "../../../../src/cli/verify/refs.js";
import type { Answer } from "../../../../src/cli/verify/target.js";

/** Two targets that numbered the same fixture differently. */
function seeded(base: number, user: number): Seeded {
  return {
    project: base,
    user,
    ids: {
      task: new Map([
        ["t1", base + 1],
        ["t2", base + 2],
        ["t3", base + 3],
      ]),
      annotation: new Map([
        ["a1", base + 10],
        ["a2", base + 11],
      ]),
      prediction: new Map([["p1", base + 20]]),
      view: new Map([["v1", base + 30]]),
    },
    times: new Map([["t1", { created_at: "2024-01-01T00:00:00.999999Z", updated_at: null, completed_at: null }]]),
    innerIds: new Map([["t1", 1]]),
  };
}
const A = seeded(100, 1),
  B = seeded(500, 7);
const keysA = new KeyMap(A),
  keysB = new KeyMap(B);
const answer = (status: number, json: unknown): Answer => ({ status, contentType: "application/json", text: JSON.stringify(json), json });
const list = (s: Seeded, keys: string[], extra: (k: string) => Record<string, unknown> = () => ({})) =>
  answer(200, { total: keys.length, tasks: keys.map((k) => ({ id: s.ids.task.get(k), ...extra(k) })) });

describe("the comparison engine", () => {
  it("maps each side's ids to the fixture's keys before comparing", () => {
    expect(compareList({ target: list(A, ["t1", "t3"]), mock: list(B, ["t1", "t3"]), targetKeys: keysA, mockKeys: keysB })).toEqual([]);
    const diffs = compareList({ target: list(A, ["t1", "t3"]), mock: list(B, ["t3", "t1"]), targetKeys: keysA, mockKeys: keysB });
    expect(diffs).toEqual([{ path: "tasks", target: "t1 t3", mock: "t3 t1" }]);
    expect(new KeyMap(A).key("task", 999)).toBe("task?");
  });

  it("compares an ordered list by tie groups: order within a tie is the database's", () => {
    const score = (k: string) => ({ total_annotations: k === "t2" ? 2 : 1 });
    const t = list(A, ["t1", "t3", "t2"], score),
      m = list(B, ["t3", "t1", "t2"], score);
    expect(tieGroups(t.json, keysA, "total_annotations")).toEqual(["{t1,t3}", "t2"]);
    expect(compareList({ target: t, mock: m, targetKeys: keysA, mockKeys: keysB }, "total_annotations")).toEqual([]);
    const wrong = list(B, ["t2", "t1", "t3"], score);
    expect(compareList({ target: t, mock: wrong, targetKeys: keysA, mockKeys: keysB }, "total_annotations")).toHaveLength(1);
    // Data keys are read from the data.
    const d = answer(200, {
      tasks: [
        { id: 101, data: { n: 1 } },
        { id: 102, data: { n: 1 } },
        { id: 103, data: {} },
      ],
    });
    expect(tieGroups(d.json, keysA, "data.n")).toEqual(["{t1,t2}", "t3"]);
  });

  it("reports a status difference alone, and compares two errors by body keys, types, detail and validation errors", () => {
    const ok = list(A, ["t1"]);
    const e500 = answer(500, { id: "x", status_code: 500, detail: "boom", exc_info: "Traceback" });
    expect(compareList({ target: ok, mock: e500, targetKeys: keysA, mockKeys: keysB }).map((d) => d.path)).toEqual(["status"]);
    expect(compareError(e500, answer(500, { id: "y", status_code: 500, detail: "boom", exc_info: "other" }))).toEqual([]);
    expect(compareError(e500, answer(500, { id: "y", status_code: 500, detail: "bang", exc_info: null }))).toEqual([
      { path: "body.exc_info", target: "string", mock: "null" },
      { path: "body.detail", target: "boom", mock: "bang" },
    ]);
    const html = { status: 404, contentType: "text/html; charset=utf-8", text: "<html>", json: undefined };
    expect(compareError(html, answer(404, { detail: "Not found." }))).toEqual([{ path: "body", target: "text/html", mock: "JSON" }]);
  });

  it("finds a key that only one side has, and a type that differs, at any depth", () => {
    const diffs = shapeDifferences({ a: 1, b: { c: [1, { d: "x" }] } }, { a: "1", b: { c: [1, { e: null }] }, f: true });
    expect(diffs).toEqual([
      { path: "body.a", target: "number", mock: "string" },
      { path: "body.b.c[1].d", target: "string", mock: "absent" },
      { path: "body.b.c[1].e", target: "absent", mock: "null" },
      { path: "body.f", target: "absent", mock: "boolean" },
    ]);
  });

  it("normalises a task: ids to keys, timestamps to presence, unordered aggregates sorted", () => {
    const row = {
      id: 101,
      project: 100,
      created_at: "2024-01-01T00:00:00Z",
      completed_at: null,
      annotations: [
        { id: 111, task: 101, completed_by: 1, created_at: "x" },
        { id: 110, task: 101, completed_by: 1, created_at: "y" },
      ],
      annotations_ids: "111,110",
      predictions_model_versions: "m2, m1",
    };
    expect(normaliseRecord("task", row, keysA)).toEqual({
      id: "t1",
      project: "P",
      created_at: "<string>",
      completed_at: null,
      annotations: [
        { id: "a1", task: "t1", completed_by: "U", created_at: "<string>" },
        { id: "a2", task: "t1", completed_by: "U", created_at: "<string>" },
      ],
      annotations_ids: "a1,a2",
      predictions_model_versions: "m1, m2",
    });
    expect(valueDifferences({ a: [1, 2] }, { a: [1, 3] }, "x")).toEqual([{ path: "x.a[1]", target: 2, mock: 3 }]);
  });

  it("resolves references on each side to that side's ids and timestamps", () => {
    const body = { included: [{ $ref: "task", key: "t2" }], at: { $ref: "time", key: "t1", field: "created_at", shiftMicros: 1 } };
    expect(resolveDeep(body, A)).toEqual({ included: [102], at: "2024-01-01T00:00:01.000000Z" });
    expect(resolveDeep(body, B)).toEqual({ included: [502], at: "2024-01-01T00:00:01.000000Z" });
    expect(shiftDatetime("2024-01-01T00:00:00Z", -1)).toBe("2023-12-31T23:59:59.999999Z");
  });
});

describe("the environment table", () => {
  const scenario = { id: "errors/list/x", area: "errors" as const, traits: ["data-json-null" as const] };
  const rows: EnvironmentRow[] = [
    { id: "sqlite-null", cause: { database: "sqlite" }, traits: ["data-json-null"], reason: "r", server: "s" },
    { id: "old-field", cause: { before: "1.23" }, path: /^body\.state$/, reason: "r", server: "s" },
    { id: "lib-url", cause: { dependency: "pydantic" }, equalAfter: /errors\.pydantic\.dev\/[\d.]+\//g, reason: "r", server: "s" },
  ];
  const pg = { database: "postgres" as const, version: "1.22.0.dev0" };

  it("explains a difference only where the row's database, version, traits and path all hold", () => {
    const d = { path: "tasks", target: "t1", mock: "t2" };
    expect(explain({ ...pg, database: "sqlite" }, scenario, d, rows)?.id).toBe("sqlite-null");
    expect(explain(pg, scenario, d, rows)).toBeUndefined();
    expect(explain(pg, scenario, { path: "body.state", target: "absent", mock: "null" }, rows)?.id).toBe("old-field");
    expect(explain({ ...pg, version: "1.23.2" }, scenario, { path: "body.state", target: "absent", mock: "null" }, rows)).toBeUndefined();
  });

  it("explains two texts only when they are equal without the row's pattern", () => {
    const url = (v: string) => `Field required\n  For further information visit https://errors.pydantic.dev/${v}/v/missing`;
    expect(explain(pg, scenario, { path: "body.detail", target: url("2.10"), mock: url("2.9") }, rows)?.id).toBe("lib-url");
    expect(explain(pg, scenario, { path: "body.detail", target: url("2.10"), mock: `x${url("2.9")}` }, rows)).toBeUndefined();
  });

  it("emptied-model-signals: a counter left at the count before the delete, never a mock that recounted", () => {
    const counter = { id: "ml/prediction-counter", area: "ml" as const, traits: [] };
    const versions = { id: "routes/model-versions/delete", area: "routes" as const, traits: [] };
    const id = (s: typeof counter | typeof versions, path: string, target: number, mock: number) =>
      explain({ ...pg, database: "sqlite" }, s, { path, target, mock })?.id;
    // What a server without its receivers answers against the mock (measured on a long-running 1.22).
    expect(id(counter, "body[0].total_predictions", 3, 2)).toBe("emptied-model-signals");
    expect(id(counter, "body[1].total_predictions", 3, 2)).toBe("emptied-model-signals");
    expect(id(counter, "body.tasks.length", 0, 2)).toBe("emptied-model-signals");
    expect(id(versions, "body[0].total_predictions", 3, 2)).toBe("emptied-model-signals");
    // What a fresh server answers against a mock that recounts: a difference of the mock.
    expect(id(counter, "body[0].total_predictions", 2, 1)).toBeUndefined();
    expect(id(counter, "body[1].total_predictions", 2, 0)).toBeUndefined();
    expect(id(counter, "body.tasks.length", 2, 0)).toBeUndefined();
    expect(id(versions, "body[0].total_predictions", 2, 1)).toBeUndefined();
    expect(id({ ...counter, id: "ml/writes" }, "body[0].total_predictions", 3, 2)).toBeUndefined();
  });

  it("orders versions numerically, a pre-release before its release", () => {
    expect(versionBefore("1.22.0.dev0", "1.23")).toBe(true);
    expect(versionBefore("1.23.0.dev0", "1.23")).toBe(true);
    expect(versionBefore("1.23.0", "1.23")).toBe(false);
    expect(versionBefore("1.9.9", "1.23")).toBe(true);
    expect(versionBefore("1.24.1", "1.23")).toBe(false);
  });
});
