/**
 * A prepared dataset kept across writes equals one prepared from scratch (issue #25). After any random
 * sequence of writes — tasks created (at the end, or back in the middle as an undo puts them), changed,
 * deleted with what hangs off them; annotations, predictions and drafts created, changed, moved to another
 * task, deleted; the project's settings changed — applied in batches to a dataset that has been queried
 * (so it holds columns, casts, text columns, equality indexes and sort orders, built before and between
 * the writes):
 * - every query answers alike (ids or error, totals, each selected task's computed columns);
 * - every task's computed columns are alike;
 * - every structure it keeps equals the one a dataset prepared from scratch builds for the same queries.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PreparedDataset } from "../../src/semantics/index.js";
import { deriveColumns } from "../../src/semantics/derived.js";
import type { RecordChange } from "../../src/semantics/changes.js";
import type { QueryNode } from "../../src/query/nodes.js";
import type { AnnotationRecord, Dataset, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { datasetArb, OTHER_PROJECT, PROJECT } from "./generators/datasets.js";
import * as pools from "./generators/pools.js";
import {
  createChildArb,
  deleteChildArb,
  deleteTasksArb,
  taskDataArb,
  updateChildArb,
  type ChildKind,
  type SharedWrite,
} from "./generators/writes.js";
import { buildQuery, querySpecArb } from "./generators/queries.js";
import { datasetSnippet } from "./format.js";
import { check, timeLimit } from "./settings.js";
import { answer, FIXED } from "./generators/kept-queries.js";

// ---------------------------------------------------------------------------------------------
// Writes

type Kind = ChildKind;
type Write =
  | {
      readonly op: "createTask";
      readonly project: number;
      readonly data: Record<string, JsonValue>;
      readonly gap: number;
      readonly noInner: boolean;
    }
  | { readonly op: "restoreTask"; readonly data: Record<string, JsonValue> }
  | SharedWrite
  | { readonly op: "updateTask"; readonly pick: number; readonly patch: Partial<TaskRecord> }
  | { readonly op: "project"; readonly model_version: string | null; readonly skip_queue: string | undefined; readonly title: string };

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

const taskPatchArb: fc.Arbitrary<Partial<TaskRecord>> = fc.record(
  {
    data: taskDataArb,
    updated_at: pick(pools.timestamps),
    created_at: pick(pools.timestamps),
    updated_by: fc.option(pick(pools.userIds), { nil: null }),
    overlap: fc.constantFrom(1, 2),
    file_upload: pick(pools.uploads),
    storage_filename: pick(pools.storages),
    unresolved_comment_count: fc.nat(2),
    inner_id: fc.integer({ min: 1, max: 40 }),
  },
  { requiredKeys: [] },
);

const writeArb: fc.Arbitrary<Write> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("createTask" as const),
      project: fc.constantFrom(PROJECT, PROJECT, PROJECT, OTHER_PROJECT),
      data: taskDataArb,
      gap: fc.nat(2),
      noInner: fc.constantFrom(false, false, false, false, false, true),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("restoreTask" as const), data: taskDataArb }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("updateTask" as const), pick: fc.nat(), patch: taskPatchArb }) },
  { weight: 1, arbitrary: deleteTasksArb },
  { weight: 4, arbitrary: createChildArb },
  { weight: 3, arbitrary: updateChildArb },
  { weight: 2, arbitrary: deleteChildArb },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("project" as const),
      model_version: pick(pools.modelVersions),
      skip_queue: fc.constantFrom(undefined, "REQUEUE_FOR_ME", "IGNORE_SKIPPED"),
      title: fc.constantFrom("a", "b"),
    }),
  },
);

/** The store's records, changed the way the mock's store changes them: records replaced, never edited. */
class Records {
  project: ProjectRecord;
  tasks: TaskRecord[];
  annotations: AnnotationRecord[];
  predictions: PredictionRecord[];
  drafts: DraftRecord[];
  /** Deleted tasks of the project, for an undo that puts one back in the middle. */
  readonly deleted: TaskRecord[] = [];

  constructor(d: Dataset) {
    this.project = d.project;
    this.tasks = [...d.tasks];
    this.annotations = [...d.annotations];
    this.predictions = [...d.predictions];
    this.drafts = [...(d.drafts ?? [])];
    for (const name of ["tasks", "annotations", "predictions", "drafts"] as const) this.#next(name, this[name], -1);
  }

  /** A copy of the records (a prepared dataset may keep the arrays it is given). */
  get dataset(): Dataset {
    return {
      project: this.project,
      tasks: [...this.tasks],
      annotations: [...this.annotations],
      predictions: [...this.predictions],
      drafts: [...this.drafts],
    };
  }

  /** Ids come from sequences, as the store's: never one a deleted record had. */
  readonly #sequences = new Map<string, number>();
  #next(name: string, records: readonly { id: number }[], gap = 0): number {
    const id = Math.max(this.#sequences.get(name) ?? 0, ...records.map((r) => r.id)) + 1 + gap;
    this.#sequences.set(name, id);
    return id;
  }

  #child(kind: Kind, task: TaskRecord, seed: number, id: number): AnnotationRecord | PredictionRecord | DraftRecord {
    const at = <T>(list: readonly T[], k: number) => list[(seed + k) % list.length] as T;
    if (kind === "annotations") {
      return {
        id,
        task: task.id,
        project: task.project,
        result: at(pools.results, 0),
        completed_by: seed % 5 === 0 ? null : at(pools.userIds, 1),
        was_cancelled: seed % 3 === 0,
        ground_truth: false,
        lead_time: at(pools.leadTimes, 2),
        created_at: at(pools.timestamps, 3),
        updated_at: at(pools.timestamps, 3),
      };
    }
    if (kind === "predictions") {
      return {
        id,
        task: task.id,
        project: task.project,
        result: at(pools.results, 0),
        score: at(pools.scores, 1),
        model_version: at(pools.modelVersions, 2),
        created_at: at(pools.timestamps, 3),
      };
    }
    return { id, task: task.id, user: at(pools.userIds, 0), result: [], created_at: at(pools.timestamps, 1) };
  }

  /** Make a write; the changes as the store would report them (in the order made). */
  write(w: Write): RecordChange[] {
    const changes: RecordChange[] = [];
    const mine = this.tasks.filter((t) => t.project === PROJECT);
    const taskAt = (n: number) => (mine.length === 0 ? undefined : mine[n % mine.length]);
    if (w.op === "createTask" || w.op === "restoreTask") {
      let task: TaskRecord;
      if (w.op === "restoreTask") {
        const back = this.deleted.pop();
        if (back === undefined) return [];
        task = { ...back, data: w.data };
      } else {
        const inner = this.tasks.filter((t) => t.project === w.project).reduce((m, t) => Math.max(m, t.inner_id ?? 0), 0) + 1;
        task = {
          id: this.#next("tasks", this.tasks, w.gap),
          project: w.project,
          data: w.data,
          meta: {},
          created_at: pools.timestamps[w.gap % pools.timestamps.length] as string,
          updated_at: pools.timestamps[0] as string,
          updated_by: null,
          file_upload: null,
          storage_filename: null,
          ...(w.noInner ? {} : { inner_id: inner }),
          overlap: 1,
          unresolved_comment_count: 0,
        };
      }
      this.tasks.push(task);
      changes.push({ kind: "tasks", before: undefined, after: task });
    } else if (w.op === "updateTask") {
      const before = taskAt(w.pick);
      if (before === undefined) return [];
      const after = { ...before, ...w.patch, id: before.id };
      this.tasks[this.tasks.indexOf(before)] = after;
      changes.push({ kind: "tasks", before, after });
    } else if (w.op === "deleteTasks") {
      const gone = new Set(w.picks.map(taskAt).filter((t): t is TaskRecord => t !== undefined));
      const ids = new Set([...gone].map((t) => t.id));
      this.deleted.push(...gone);
      this.tasks = this.tasks.filter((t) => !gone.has(t));
      for (const t of gone) changes.push({ kind: "tasks", before: t, after: undefined });
      for (const kind of ["annotations", "predictions", "drafts"] as const) {
        const list = this[kind] as { id: number; task: number }[];
        for (const r of list.filter((r) => ids.has(r.task))) changes.push({ kind, before: r, after: undefined } as RecordChange);
        (this as unknown as Record<Kind, unknown[]>)[kind] = list.filter((r) => !ids.has(r.task));
      }
    } else if (w.op === "createChild") {
      const task = taskAt(w.task);
      if (task === undefined) return [];
      const list = this[w.kind] as { id: number }[];
      const record = this.#child(w.kind, task, w.seed, this.#next(w.kind, list));
      list.push(record);
      changes.push({ kind: w.kind, before: undefined, after: record } as RecordChange);
    } else if (w.op === "updateChild") {
      const list = this[w.kind] as (AnnotationRecord | PredictionRecord | DraftRecord)[];
      if (list.length === 0) return [];
      const before = list[w.pick % list.length] as AnnotationRecord | PredictionRecord | DraftRecord;
      const to = w.moveTo === undefined ? this.tasks.find((t) => t.id === before.task) : taskAt(w.moveTo);
      if (to === undefined) return [];
      const after = this.#child(w.kind, to, w.seed, before.id);
      list[list.indexOf(before)] = after;
      changes.push({ kind: w.kind, before, after } as RecordChange);
    } else if (w.op === "deleteChild") {
      const list = this[w.kind] as { id: number }[];
      if (list.length === 0) return [];
      const before = list[w.pick % list.length] as { id: number };
      list.splice(list.indexOf(before), 1);
      changes.push({ kind: w.kind, before, after: undefined } as RecordChange);
    } else {
      const { skip_queue: _, ...rest } = this.project;
      this.project = {
        ...rest,
        model_version: w.model_version,
        title: w.title,
        ...(w.skip_queue ? { skip_queue: w.skip_queue as NonNullable<ProjectRecord["skip_queue"]> } : {}),
      };
      changes.push({ kind: "projects", after: this.project });
    }
    return changes;
  }
}

/** A kept structure as compared: lazily filled parts (parsed completed_at, derived rows not built yet) left out. */
function comparable(key: string, value: unknown, other: unknown): unknown {
  if (key === "computed:annotations") {
    const { parsed: _p, completedAt: _c, ...rest } = value as Record<string, unknown>;
    return normal(rest);
  }
  if (key === "derived") {
    const mine = value as readonly unknown[],
      theirs = other as readonly unknown[];
    return mine.map((row, i) => (row === undefined || theirs[i] === undefined ? null : row));
  }
  return normal(value);
}

const normal = (v: unknown): unknown => {
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, normal(x)]));
  if (Array.isArray(v)) return v.map(normal);
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normal(x)]));
  return v;
};

describe("a prepared dataset follows writes", () => {
  test(
    "after any sequence of writes it equals a dataset prepared from scratch: answers, computed columns and every kept structure",
    async () => {
      await check(
        fc.property(
          datasetArb({ minTasks: 1, maxTasks: 8 }),
          fc.array(querySpecArb({ maxLines: 2 }), { maxLength: 6 }),
          fc.array(fc.array(writeArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
          fc.array(fc.nat(), { maxLength: 6 }),
          (dataset, specs, batches, between) => {
            const queries = [
              ...FIXED,
              ...specs.flatMap((s) => {
                try {
                  return [buildQuery(s)];
                } catch {
                  return [];
                }
              }),
            ];
            const records = new Records(dataset);
            const live = new PreparedDataset(records.dataset);
            // Queried twice: the second evaluation builds the indexes.
            for (const q of queries) {
              answer(live, q);
              answer(live, q);
            }
            deriveColumns(live);
            batches.forEach((batch, b) => {
              live.apply(batch.flatMap((w) => records.write(w)));
              // Structures built between writes follow the later ones.
              const q = queries[(between[b] ?? 0) % queries.length] as QueryNode;
              answer(live, q);
              answer(live, q);
            });
            const fresh = new PreparedDataset(records.dataset);
            for (const q of queries) {
              const want = answer(fresh, q);
              expect(answer(fresh, q), "fresh: cold and indexed agree").toEqual(want);
              expect(answer(live, q), `patched: ${JSON.stringify(q)}`).toEqual(want);
            }
            expect([...deriveColumns(live)], "computed columns").toEqual([...deriveColumns(fresh)]);
            const kept = live.kept(),
              built = fresh.kept();
            for (const [key, value] of kept) {
              if (key === "computed" || !built.has(key)) continue;
              expect(comparable(key, value, built.get(key)), `kept structure ${key}`).toEqual(comparable(key, built.get(key), value));
            }
          },
        ),
        { runs: 150 },
        (dataset, _specs, batches, _between) => `dataset: ${datasetSnippet(dataset)}\nwrites: ${JSON.stringify(batches)}`,
      );
    },
    timeLimit(120_000),
  );
});
