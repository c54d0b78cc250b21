import { describe, expect, test } from "vitest";
import { deriveColumns, evaluate, PreparedDataset } from "../../../src/semantics/index.js";
import type { Dataset } from "../../../src/semantics/records.js";
import { fixture } from "./fixture.js";

/*
 * The computed columns as the Data Manager list shows them (docs/reference/columns.md#task-columns,
 * docs/reference/resources.md#tasks).
 */

const byId = (data: Dataset = fixture) => deriveColumns(data);

describe("derived columns", () => {
  test("task 1: two annotations (one cancelled), two predictions (docs/reference/columns.md#task-columns)", () => {
    expect(byId().get(1)).toEqual({
      id: 1,
      inner_id: 1,
      // the newest annotation by id is the cancelled one: it still dates completion
      completed_at: "2024-05-02T00:00:00.000000Z",
      total_annotations: 1,
      cancelled_annotations: 1,
      total_predictions: 2,
      annotators: [1, 2],
      predictions_score: 0.5,
      avg_lead_time: 3,
      draft_exists: false,
      file_upload: "photo-one.jpg",
      storage_filename: "s3/one.jpg",
      annotations_ids: "10,11", // ujson is compact; only `,"` gets a space
      annotations_results: "[] [{type:choices, value:{choices:[Positive]}, to_name:text, from_name:sentiment}]",
      predictions_results: "[] [{type:labels, value:{labels:[Cat]}}]",
      predictions_model_versions: "v1, v2",
      is_labeled: true,
    });
  });

  test("a task without annotations or predictions", () => {
    expect(byId().get(3)).toMatchObject({
      completed_at: null,
      total_annotations: 0,
      annotators: [],
      predictions_score: null,
      avg_lead_time: null,
      annotations_ids: "",
      annotations_results: "",
      predictions_results: "",
      predictions_model_versions: "",
      is_labeled: false,
      file_upload: null,
    });
  });

  test("only the project's tasks, in id order", () => {
    expect([...byId().keys()]).toEqual([1, 2, 3, 4]);
    expect(byId().get(2)).toMatchObject({
      draft_exists: true,
      annotators: [3],
      predictions_score: 0.25,
      avg_lead_time: null,
      completed_at: "2024-05-03T00:00:00.000000Z",
    });
  });

  test("predictions_score averages only the project's model_version when it is set", () => {
    const data = { ...fixture, project: { ...fixture.project, model_version: "v1" } };
    expect(byId(data).get(1)?.predictions_score).toBe(0.75);
    expect(byId(data).get(2)?.predictions_score).toBeNull();
    expect(
      evaluate(data, {
        filters: {
          conjunction: "and",
          items: [{ column: "predictions_score", operator: "greater", type: "Number", value: 0.5, children: [] }],
        },
      }).ids,
    ).toEqual([1]);
  });

  test("is_labeled needs `overlap` finished annotations; completed_at follows it", () => {
    const data: Dataset = { ...fixture, tasks: fixture.tasks.map((t) => ({ ...t, overlap: 2 })) };
    expect(byId(data).get(1)).toMatchObject({ is_labeled: false, completed_at: null });
  });

  test("with skip_queue IGNORE_SKIPPED a skipped annotation completes the task too (tasks/models.py)", () => {
    const data: Dataset = {
      ...fixture,
      project: { ...fixture.project, skip_queue: "IGNORE_SKIPPED" },
      tasks: fixture.tasks.map((t) => ({ ...t, overlap: 2 })),
    };
    expect(byId(data).get(1)).toMatchObject({ is_labeled: true, completed_at: "2024-05-02T00:00:00.000000Z" });
  });

  test("an annotation without a result does not complete a task", () => {
    const data: Dataset = { ...fixture, annotations: fixture.annotations.map((a) => (a.id === 12 ? { ...a, result: null } : a)) };
    expect(byId(data).get(2)).toMatchObject({ is_labeled: false, completed_at: null, total_annotations: 1 });
  });

  test("the list's text columns: floats rounded to 2 places, '/' escaped by ujson, cut at 500 characters", () => {
    const data: Dataset = {
      ...fixture,
      annotations: [{ ...(fixture.annotations[0] as Dataset["annotations"][number]), result: [{ score: 0.12345, path: "a/b" }] }],
      predictions: [
        { ...(fixture.predictions[0] as Dataset["predictions"][number]), result: [{ text: "x".repeat(600) }], model_version: "org/model" },
      ],
    };
    const d = byId(data).get(1);
    expect(d?.annotations_results).toBe("[{path:a\\/b, score:0.12}]");
    expect(d?.predictions_model_versions).toBe("org\\/model");
    // `[{"text":"xxx…` cut at 500 characters, then its three quotes dropped
    expect(d?.predictions_results).toBe(`[{text:${"x".repeat(490)}`);
  });

  test("a PreparedDataset answers like the raw dataset and can be reused", () => {
    const prepared = new PreparedDataset(fixture);
    const query = { ordering: [{ column: "predictions_score", descending: true }] } as const;
    expect(evaluate(prepared, query).ids).toEqual(evaluate(fixture, query).ids);
    expect(evaluate(prepared, query).ids).toEqual([1, 2, 3, 4]);
    expect([...deriveColumns(prepared).values()]).toEqual([...deriveColumns(fixture).values()]);
  });

  test("Evaluation.derived and totals (the list endpoint's sums over the selected tasks)", () => {
    const result = evaluate(fixture, { selectedItems: { all: true, excluded: [2] } });
    expect(result.totals()).toEqual({ total: 3, total_annotations: 1, total_predictions: 2 });
    expect(result.derived(2).id).toBe(2);
    expect(() => result.derived(5)).toThrow(/not a task of project 1/);
  });
});
