/**
 * Datasets of mixed shapes: a target project (id 1) with tasks, annotations (cancelled, without
 * author, null/empty results), predictions (several model versions, null scores) and drafts, plus
 * a second project whose records must never leak into answers.
 */
import fc from "fast-check";
import type {
  AnnotationRecord,
  Dataset,
  DraftRecord,
  PredictionRecord,
  ProjectRecord,
  TaskRecord,
} from "../../../src/semantics/records.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import * as pools from "./pools.js";

export const PROJECT = 1;
export const OTHER_PROJECT = 2;

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

/** One value of a mixed-shape data key. */
export const dataValueArb: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 3, arbitrary: pick(pools.words) },
  { weight: 3, arbitrary: pick(pools.numbers) },
  { weight: 2, arbitrary: pick(pools.numericStrings) },
  { weight: 1, arbitrary: pick(pools.nonNumericStrings) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>({ b: 1, a: "x" }, { a: { c: [1, 2] } }, {}) },
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>([1, "a"], [], [null]) },
);

/** Keys with a typical shape, so Number/String filters mostly hit well-typed values. */
const keyValue: Record<(typeof pools.dataKeys)[number], fc.Arbitrary<JsonValue>> = {
  text: fc.oneof({ weight: 5, arbitrary: pick(pools.words) }, { weight: 1, arbitrary: fc.constantFrom<JsonValue>("", null) }),
  num: fc.oneof(
    { weight: 4, arbitrary: pick(pools.numbers) },
    { weight: 2, arbitrary: pick(pools.numericStrings) },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  mixed: dataValueArb,
  flag: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant(null) }),
  nested: fc.constantFrom<JsonValue>({ b: 1, a: "x" }, { a: { c: [1, 2] } }, { inner: "Apple" }),
  list: fc.constantFrom<JsonValue>([1, "a"], [], [null], ["apple", "Banana"]),
  Score: fc.oneof(pick(pools.numbers), pick(pools.numericStrings)),
  ünï: pick(pools.words),
  "a.b": pick(pools.words),
  sparse: dataValueArb,
};

const dataArb: fc.Arbitrary<Record<string, JsonValue>> = fc.record(keyValue, { requiredKeys: [] }) as fc.Arbitrary<
  Record<string, JsonValue>
>;

interface TaskDraft {
  readonly data: Record<string, JsonValue>;
  readonly created_at: string;
  readonly updated_at: string;
  readonly updated_by: number | null;
  readonly file_upload: string | null;
  readonly storage_filename: string | null;
  readonly overlap: 1 | 2 | undefined;
  readonly unresolved_comment_count: number;
  readonly annotations: readonly {
    completed_by: number | null;
    was_cancelled: boolean;
    lead_time: number | null;
    result: readonly JsonValue[] | null;
    created_at: string;
  }[];
  readonly predictions: readonly { score: number | null; model_version: string | null; result: readonly JsonValue[] | null }[];
  readonly drafts: number;
}

const taskDraftArb: fc.Arbitrary<TaskDraft> = fc.record({
  data: dataArb,
  created_at: pick(pools.timestamps),
  updated_at: pick(pools.timestamps),
  updated_by: fc.option(pick(pools.userIds), { nil: null }),
  file_upload: pick(pools.uploads),
  storage_filename: pick(pools.storages),
  overlap: fc.constantFrom(1 as const, 2 as const, undefined),
  unresolved_comment_count: fc.nat(2),
  annotations: fc.array(
    fc.record({
      completed_by: fc.option(pick(pools.userIds), { nil: null, freq: 6 }),
      was_cancelled: fc.boolean(),
      lead_time: pick(pools.leadTimes),
      result: pick(pools.results),
      created_at: pick(pools.timestamps),
    }),
    { maxLength: 3 },
  ),
  predictions: fc.array(fc.record({ score: pick(pools.scores), model_version: pick(pools.modelVersions), result: pick(pools.results) }), {
    maxLength: 2,
  }),
  drafts: fc.nat(1),
});

export interface DatasetOptions {
  readonly maxTasks?: number;
  readonly minTasks?: number;
}

/** Build a dataset from drafts: ids with gaps (shuffled by `order`), inner ids per project. */
export function buildDataset(
  project: ProjectRecord,
  drafts: readonly TaskDraft[],
  otherDrafts: readonly TaskDraft[],
  idGaps: readonly number[],
): Dataset {
  const tasks: TaskRecord[] = [];
  const annotations: AnnotationRecord[] = [];
  const predictions: PredictionRecord[] = [];
  const draftRecords: DraftRecord[] = [];
  let nextTask = 1,
    nextAnnotation = 1,
    nextPrediction = 1,
    nextDraft = 1;
  const inner = new Map<number, number>();
  const all = [...drafts.map((d) => [PROJECT, d] as const), ...otherDrafts.map((d) => [OTHER_PROJECT, d] as const)];
  all.forEach(([projectId, d], i) => {
    const id = nextTask;
    nextTask += 1 + (idGaps[i % Math.max(1, idGaps.length)] ?? 0);
    const innerId = (inner.get(projectId) ?? 0) + 1;
    inner.set(projectId, innerId);
    tasks.push({
      id,
      project: projectId,
      data: d.data,
      meta: {},
      created_at: d.created_at,
      updated_at: d.updated_at,
      updated_by: d.updated_by,
      file_upload: d.file_upload,
      storage_filename: d.storage_filename,
      inner_id: innerId,
      ...(d.overlap === undefined ? {} : { overlap: d.overlap }),
      unresolved_comment_count: d.unresolved_comment_count,
    });
    for (const a of d.annotations) {
      annotations.push({
        id: nextAnnotation++,
        task: id,
        project: projectId,
        result: a.result,
        completed_by: a.completed_by,
        was_cancelled: a.was_cancelled,
        ground_truth: false,
        lead_time: a.lead_time,
        created_at: a.created_at,
        updated_at: a.created_at,
      });
    }
    for (const p of d.predictions) {
      predictions.push({
        id: nextPrediction++,
        task: id,
        project: projectId,
        result: p.result,
        score: p.score,
        model_version: p.model_version,
        created_at: d.created_at,
      });
    }
    for (let k = 0; k < d.drafts; k++) draftRecords.push({ id: nextDraft++, task: id, user: 1, created_at: d.created_at });
  });
  return { project, tasks, annotations, predictions, drafts: draftRecords };
}

export function datasetArb(options: DatasetOptions = {}): fc.Arbitrary<Dataset> {
  return fc
    .record({
      modelVersion: fc.constantFrom<string | null>(null, null, "v1"),
      drafts: fc.array(taskDraftArb, { minLength: options.minTasks ?? 0, maxLength: options.maxTasks ?? 10 }),
      otherDrafts: fc.array(taskDraftArb, { maxLength: 2 }),
      idGaps: fc.array(fc.nat(3), { minLength: 1, maxLength: 5 }),
    })
    .map(({ modelVersion, drafts, otherDrafts, idGaps }) =>
      buildDataset(
        { id: PROJECT, title: "Conformance", label_config: "<View></View>", model_version: modelVersion },
        drafts,
        otherDrafts,
        idGaps,
      ),
    );
}

/** Ids of the target project's tasks. */
export const projectTaskIds = (dataset: Dataset): number[] =>
  dataset.tasks.filter((t) => t.project === dataset.project.id).map((t) => t.id);
