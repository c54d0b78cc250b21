/**
 * The mock's store keeps one prepared dataset per project and patches it on every write (issue #25). After
 * any random sequence of the store's own writes — tasks created in either project, changed, deleted with what
 * hangs off them; annotations, predictions and drafts created, changed, moved, deleted; the project's settings
 * changed; a request's writes rolled back — interleaved with reads through the mock's engine helpers (which keep
 * evaluations and list items between requests):
 * - every query answers as on a dataset prepared from scratch from the store's records (ids or error, totals,
 *   each selected task's computed columns), through the kept evaluations;
 * - every task's computed columns, and every kept list item, are those of the fresh dataset;
 * - every structure the live dataset keeps equals the one the fresh dataset builds for the same queries.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { itemText, select } from "../../mock-server/engine.js";
import type { MockContext } from "../../mock-server/http.js";
import { Store } from "../../mock-server/store/store.js";
import { emptyState, type StoreState } from "../../src/contract/state.js";
import type { QueryNode } from "../../src/query/nodes.js";
import { deriveColumns } from "../../src/semantics/derived.js";
import { EvaluationError, PreparedDataset } from "../../src/semantics/index.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import type { Dataset, TaskRecord } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { datasetSnippet } from "./format.js";
import { datasetArb, OTHER_PROJECT, PROJECT } from "./generators/datasets.js";
import { answer, FIXED, type Answer } from "./generators/kept-queries.js";
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
import { check, timeLimit } from "./settings.js";

type Kind = ChildKind;
type Op =
  | { readonly op: "createTask"; readonly project: number; readonly data: Record<string, JsonValue> }
  | SharedWrite
  | { readonly op: "updateTask"; readonly pick: number; readonly patch: Partial<TaskRecord> }
  | { readonly op: "project"; readonly model_version: string | null; readonly skip_queue: string | undefined };
/** A request's writes: committed, or rolled back (a failed request). */
type Batch = { readonly ops: readonly Op[]; readonly rollback: boolean };

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("createTask" as const),
      project: fc.constantFrom(PROJECT, PROJECT, OTHER_PROJECT),
      data: taskDataArb,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("updateTask" as const),
      pick: fc.nat(),
      patch: fc.record(
        {
          data: taskDataArb,
          updated_at: pick(pools.timestamps),
          file_upload: pick(pools.uploads),
          inner_id: fc.integer({ min: 1, max: 40 }),
        },
        { requiredKeys: [] },
      ),
    }),
  },
  { weight: 1, arbitrary: deleteTasksArb },
  { weight: 4, arbitrary: createChildArb },
  { weight: 2, arbitrary: updateChildArb },
  { weight: 2, arbitrary: deleteChildArb },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("project" as const),
      model_version: pick(pools.modelVersions),
      skip_queue: fc.constantFrom(undefined, "REQUEUE_FOR_ME", "IGNORE_SKIPPED"),
    }),
  },
);
const batchArb: fc.Arbitrary<Batch> = fc.record({
  ops: fc.array(opArb, { minLength: 1, maxLength: 4 }),
  rollback: fc.constantFrom(false, false, false, true),
});

function stateOf(d: Dataset): StoreState {
  const state = emptyState();
  state.users.push(...pools.userIds.map((id) => ({ id, username: `u${id}`, email: "", first_name: "", last_name: "" }) as never));
  state.projects.push(d.project as never, { ...d.project, id: OTHER_PROJECT } as never);
  state.tasks.push(...(d.tasks as never[]));
  state.annotations.push(...(d.annotations as never[]));
  state.predictions.push(...(d.predictions as never[]));
  state.drafts.push(...((d.drafts ?? []) as never[]));
  return state;
}

/** Make one write through the store's own methods, as the routes do. */
function write(store: Store, o: Op): void {
  const tasks = store.list("tasks").filter((t) => t.project === PROJECT);
  const taskAt = (n: number) => (tasks.length === 0 ? undefined : tasks[n % tasks.length]);
  const at = <T>(list: readonly T[], k: number, seed: number) => list[(seed + k) % list.length] as T;
  const child = (kind: Kind, task: TaskRecord, seed: number) =>
    kind === "annotations"
      ? {
          task: task.id,
          project: task.project,
          result: at(pools.results, 0, seed),
          completed_by: seed % 5 === 0 ? null : at(pools.userIds, 1, seed),
          was_cancelled: seed % 3 === 0,
          ground_truth: false,
          lead_time: at(pools.leadTimes, 2, seed),
          created_at: at(pools.timestamps, 3, seed),
          updated_at: at(pools.timestamps, 3, seed),
        }
      : kind === "predictions"
        ? {
            task: task.id,
            project: task.project,
            result: at(pools.results, 0, seed),
            score: at(pools.scores, 1, seed),
            model_version: at(pools.modelVersions, 2, seed),
            created_at: at(pools.timestamps, 3, seed),
          }
        : { task: task.id, user: at(pools.userIds, 0, seed), result: [], created_at: at(pools.timestamps, 1, seed) };
  switch (o.op) {
    case "createTask":
      store.insert("tasks", {
        project: o.project,
        data: o.data,
        meta: {},
        created_at: pools.timestamps[0] as string,
        updated_at: pools.timestamps[0] as string,
        updated_by: null,
        file_upload: null,
        storage_filename: null,
        inner_id: store.nextInnerId(o.project),
        overlap: 1,
        unresolved_comment_count: 0,
      } as never);
      return;
    case "updateTask": {
      const task = taskAt(o.pick);
      if (task) store.update("tasks", task.id, o.patch as never);
      return;
    }
    case "deleteTasks":
      store.deleteTasks(new Set(o.picks.flatMap((n) => taskAt(n)?.id ?? [])));
      return;
    case "createChild": {
      const task = taskAt(o.task);
      if (task) store.insert(o.kind, child(o.kind, task, o.seed) as never);
      return;
    }
    case "updateChild": {
      const list = store.list(o.kind);
      if (list.length === 0) return;
      const before = list[o.pick % list.length] as { id: number; task: number };
      const to = o.moveTo === undefined ? store.find("tasks", before.task) : taskAt(o.moveTo);
      if (to) store.update(o.kind, before.id, child(o.kind, to, o.seed) as never);
      return;
    }
    case "deleteChild": {
      const list = store.list(o.kind);
      if (list.length === 0) return;
      const gone = (list[o.pick % list.length] as { id: number }).id;
      store.removeWhere(o.kind, (r: { id: number }) => r.id === gone);
      return;
    }
    case "project": {
      const project = store.find("projects", PROJECT) as ProjectRecord;
      const { skip_queue: _, ...rest } = project;
      store.update("projects", PROJECT, {
        ...rest,
        model_version: o.model_version,
        ...(o.skip_queue ? { skip_queue: o.skip_queue } : {}),
      } as never);
      return;
    }
  }
}

/** The project's records as they are now, prepared from scratch. */
function fresh(store: Store): PreparedDataset {
  const project = store.find("projects", PROJECT) as ProjectRecord;
  const tasks = store.list("tasks").filter((t) => t.project === PROJECT);
  const ids = new Set(tasks.map((t) => t.id));
  return new PreparedDataset({
    project,
    tasks: [...tasks].sort((a, b) => a.id - b.id),
    annotations: store.list("annotations").filter((a) => ids.has(a.task)),
    predictions: store.list("predictions").filter((p) => ids.has(p.task)),
    drafts: store.list("drafts").filter((d) => ids.has(d.task)),
  });
}

/** An answer through the mock: the store's dataset, the kept evaluations. */
function served(ctx: MockContext, query: QueryNode): Answer {
  const project = ctx.store.find("projects", PROJECT) as ProjectRecord;
  try {
    const e = select(ctx, ctx.store.dataset(project), query);
    return { status: 200, ids: e.ids, totals: e.totals(), derived: e.ids.map((id) => e.derived(id)) } as Answer;
  } catch (error) {
    if (error instanceof EvaluationError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

/** Every task's list item through the kept texts (here: its computed columns as the fresh dataset has them). */
function items(store: Store, truth: PreparedDataset): { readonly kept: string[]; readonly want: string[] } {
  const project = store.find("projects", PROJECT) as ProjectRecord;
  const columns = deriveColumns(truth);
  const kept: string[] = [],
    want: string[] = [];
  for (const t of truth.tasks) {
    want.push(JSON.stringify(columns.get(t.id)));
    kept.push(itemText(store.dataset(project), "users", t.id, () => columns.get(t.id)));
  }
  return { kept, want };
}

describe("the store's live prepared dataset follows the store's writes", () => {
  test(
    "after any sequence of writes (some rolled back), served answers, computed columns, kept items and kept structures equal a fresh preparation",
    async () => {
      await check(
        fc.property(
          datasetArb({ minTasks: 1, maxTasks: 8 }),
          fc.array(batchArb, { minLength: 1, maxLength: 6 }),
          fc.array(fc.nat(), { maxLength: 6 }),
          (dataset, batches, between) => {
            const store = new Store(stateOf(dataset));
            const ctx = { store, strict: false } as unknown as MockContext;
            // Queried twice: the second evaluation builds the indexes; every item is kept as text.
            for (const q of FIXED) {
              served(ctx, q);
              served(ctx, q);
            }
            items(store, fresh(store));
            batches.forEach((batch, b) => {
              const transaction = store.begin();
              for (const o of batch.ops) write(store, o);
              store.suspend();
              if (batch.rollback) store.rollback(transaction);
              else store.commit(transaction);
              const q = FIXED[(between[b] ?? 0) % FIXED.length] as QueryNode;
              served(ctx, q);
              items(store, fresh(store));
            });
            const truth = fresh(store);
            for (const q of FIXED) expect(served(ctx, q), `served: ${JSON.stringify(q)}`).toEqual(answer(truth, q));
            const { kept, want } = items(store, truth);
            expect(kept, "kept list items").toEqual(want);
            const live = store.prepared(store.find("projects", PROJECT) as ProjectRecord);
            expect([...deriveColumns(live)], "computed columns").toEqual([...deriveColumns(truth)]);
            const built = truth.kept();
            for (const [key, value] of live.kept()) {
              if (key === "computed" || key.startsWith("mock:") || !built.has(key) || key === "computed:annotations" || key === "derived")
                continue;
              expect(normal(value), `kept structure ${key}`).toEqual(normal(built.get(key)));
            }
          },
        ),
        { runs: 100 },
        (dataset, batches, _between) => `dataset: ${datasetSnippet(dataset)}\nbatches: ${JSON.stringify(batches)}`,
      );
    },
    timeLimit(120_000),
  );
});

const normal = (v: unknown): unknown => {
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, normal(x)]));
  if (Array.isArray(v)) return v.map(normal);
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normal(x)]));
  return v;
};
