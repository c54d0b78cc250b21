import type { ConditionNode, QueryNode } from "../../../src/query/nodes.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import type { AnnotationRecord, Dataset, PredictionRecord, TaskRecord } from "../../../src/semantics/records.js";

/*
 * A small project whose every value is chosen by hand, so each test's expected ids can be worked
 * out on paper (never by the engine). Task 3 has no data keys (missing), task 4 has JSON nulls.
 *
 *  task  data.num  data.text      data.flag  data.unk  updated_by  file_upload             storage_filename
 *  1     10        "Hello World"  true       "abc"     7           upload/1/photo-one.jpg  s3/one.jpg
 *  2     "5"       "other"        false      5         null        upload/1/photo-two.jpg  null
 *  3     -         -              -          -         null        null                    null
 *  4     null      null           null       null      8           null                    null
 *
 *  annotations: 10 on task 1 by user 1 (result R1, lead 4), 11 on task 1 by user 2 (cancelled,
 *  result [], lead 2), 12 on task 2 by user 3 (result R2, no lead time).
 *  predictions: 20 on task 1 (v1, 0.75, P1), 21 on task 1 (v2, 0.25, []), 22 on task 2 (v2, 0.25, P2).
 *  drafts: on task 2.
 *
 *  derived: total_annotations 1,1,0,0; cancelled 1,0,0,0; total_predictions 2,1,0,0;
 *  completed_at 2024-05-02 (annotation 11, the newest, although cancelled), 2024-05-03, null, null;
 *  predictions_score 0.5, 0.25, null, null; avg_lead_time 3, null, null, null; annotators [1,2], [3].
 */
export const R1: JsonValue = [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Positive"] } }];
export const R2: JsonValue = [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Negative"] } }];
export const P1: JsonValue = [{ type: "labels", value: { labels: ["Cat"] } }];
export const P2: JsonValue = [{ type: "labels", value: { labels: ["Dog"] } }];

const task = (id: number, data: TaskRecord["data"], more: Partial<TaskRecord> = {}): TaskRecord => ({
  id,
  project: 1,
  inner_id: id,
  data,
  created_at: `2024-0${id}-10T00:00:00.000000Z`,
  updated_at: `2024-0${id}-11T00:00:00.000000Z`,
  updated_by: null,
  file_upload: null,
  storage_filename: null,
  ...more,
});

const annotation = (id: number, taskId: number, by: number, result: JsonValue, more: Partial<AnnotationRecord> = {}): AnnotationRecord => ({
  id,
  task: taskId,
  project: 1,
  result: result as AnnotationRecord["result"],
  completed_by: by,
  was_cancelled: false,
  ground_truth: false,
  lead_time: null,
  created_at: `2024-05-0${id - 9}T00:00:00.000000Z`,
  updated_at: `2024-05-0${id - 9}T00:00:00.000000Z`,
  ...more,
});

const prediction = (id: number, taskId: number, version: string, score: number, result: JsonValue): PredictionRecord => ({
  id,
  task: taskId,
  project: 1,
  result: result as PredictionRecord["result"],
  score,
  model_version: version,
  created_at: "2024-06-01T00:00:00.000000Z",
});

export const fixture: Dataset = {
  project: { id: 1, title: "Fixture", label_config: "<View></View>", model_version: null },
  tasks: [
    task(
      1,
      { num: 10, text: "Hello World", flag: true, unk: "abc" },
      {
        updated_by: 7,
        file_upload: "upload/1/photo-one.jpg",
        storage_filename: "s3/one.jpg",
        unresolved_comment_count: 2,
      },
    ),
    task(2, { num: "5", text: "other", flag: false, unk: 5 }, { file_upload: "upload/1/photo-two.jpg" }),
    task(3, {}),
    task(4, { num: null, text: null, flag: null, unk: null }, { updated_by: 8 }),
    // Another project's task: never part of any result.
    { ...task(5, { num: 10, text: "Hello World" }), project: 2 },
  ],
  annotations: [
    annotation(10, 1, 1, R1, { lead_time: 4 }),
    annotation(11, 1, 2, [], { was_cancelled: true, lead_time: 2 }),
    annotation(12, 2, 3, R2),
  ],
  predictions: [prediction(20, 1, "v1", 0.75, P1), prediction(21, 1, "v2", 0.25, []), prediction(22, 2, "v2", 0.25, P2)],
  drafts: [{ id: 30, task: 2, user: 1, created_at: "2024-06-01T00:00:00.000000Z" }],
};

export const ALL = [1, 2, 3, 4] as const;

export function cond(
  column: string,
  operator: string,
  type: string,
  value: JsonValue,
  children: readonly ConditionNode[] = [],
): ConditionNode {
  return { column, operator, type, value, children };
}

export function where(...items: ConditionNode[]): QueryNode {
  return { filters: { conjunction: "and", items } };
}

export function anyOf(...items: ConditionNode[]): QueryNode {
  return { filters: { conjunction: "or", items } };
}
