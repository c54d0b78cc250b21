import type { JsonValue } from "../vocabulary/json.js";
import { timestampMicros } from "../vocabulary/timestamps.js";
import { taskDefaults } from "../contract/task.js";
import { changedReads, type DatasetPatch, type Read, type RecordChange } from "./changes.js";
import type { AnnotationRecord, Dataset, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord } from "./records.js";
import { moveRows, moveTyped, type Patcher, type RowPatch } from "./rows.js";

type ChildKind = "annotations" | "predictions" | "drafts";
interface ChildOf {
  annotations: AnnotationRecord;
  predictions: PredictionRecord;
  drafts: DraftRecord;
}
type Child = { readonly id: number; readonly task: number };
const CHILD_KINDS: readonly ChildKind[] = ["annotations", "predictions", "drafts"];

/** A kept structure: its value, how it follows a write (none: dropped), the apply round it is up to date with. */
interface Kept {
  value: unknown;
  readonly patch: Patcher<unknown> | undefined;
  round: number;
}

/**
 * The project settings the engine reads (`skip_queue` for is_labeled, `model_version` for
 * predictions_score): a project update that changes one of them changes every row's computed columns.
 */
export const ENGINE_PROJECT_SETTINGS = ["skip_queue", "model_version"] as const;

/** Set while uncheckedDataset constructs. */
let trusting = false;

/**
 * A dataset over the records' task array taken as given (one project's tasks, ascending by id)
 * without the pass that checks it: for a one-off evaluation, whose scan of every task checks it on
 * the way (`settleCheck`), or `checkTasks` after. When the check fails, whatever was computed on it
 * is wrong: the caller starts again with `new PreparedDataset`. Never patched (`apply`).
 */
export function uncheckedDataset(dataset: Dataset): PreparedDataset {
  trusting = true;
  try {
    return new PreparedDataset(dataset);
  } finally {
    trusting = false;
  }
}

/** Is the dataset's check still to be made (an unchecked dataset no scan has checked yet)? */
export let checkPending: (ds: PreparedDataset) => boolean;
/** A scan that read every task in order tells what it found: are they the project's, ascending by id? */
export let settleCheck: (ds: PreparedDataset, ok: boolean) => void;
/** Check the tasks now unless a scan did (one pass): can what was computed on the dataset stand? */
export let checkTasks: (ds: PreparedDataset) => boolean;

/**
 * A dataset indexed for evaluation: the project's tasks in id order, annotations, predictions and
 * drafts grouped by task, and each computed column built once, on first use, as a flat array. Building
 * is lazy so a query pays only for the columns it filters or orders on.
 *
 * A dataset kept across writes (the mock keeps one per project) follows them: `apply` takes the
 * changed records and patches the rows they touched in every kept structure (columns, indexes, sort
 * orders, computed columns), so a write costs what it touched, not a new pass over the project.
 */
export class PreparedDataset {
  #project: ProjectRecord;
  /** The project's tasks, ascending by id (pipeline step 1: restrict to the project). */
  #tasks: TaskRecord[];
  /** The task array is the caller's (reused as given): copied before the first write changes it. */
  #borrowed: boolean;
  /** Ids are consecutive (the usual case): an id's index is `id - firstId`, no map needed. */
  #firstId = 0;
  #consecutive = true;
  /** Tasks without an inner_id: numbered by their place, so they renumber when rows move (-1: not counted yet). */
  #unnumbered = 0;
  /** An unchecked dataset's tasks (uncheckedDataset): checked to be one project's in id order, or not yet. */
  #check: "done" | "pending" | "failed" = "done";
  /** The records as given: read by one flat pass while no write has changed related records. */
  #source: Dataset | undefined;
  readonly #groups: { [K in ChildKind]?: ChildOf[K][][] } = {};
  readonly #memo = new Map<string, Kept>();
  readonly #asked = new Set<string>();
  #version = 0;
  /** Bumped by each `apply`: a kept structure with an older round is patched before it is read. */
  #round = 0;
  #patch: RowPatch | undefined;
  readonly #watchers = new Set<(patch: DatasetPatch) => void>();

  constructor(dataset: Dataset) {
    this.#source = dataset;
    this.#project = dataset.project;
    const projectId = dataset.project.id;
    const all = dataset.tasks;
    if (trusting) {
      // uncheckedDataset: the array as given; a scan checks it on the way (settleCheck), or checkTasks after.
      this.#tasks = all as TaskRecord[];
      this.#borrowed = true;
      this.#check = "pending";
      this.#unnumbered = -1;
      this.#numbering();
      return;
    }
    // The usual input (the mock's, a seed's) is one project's tasks in id order: keep that array.
    const unnumbered = ownTasks(all, projectId);
    const reuse = unnumbered !== undefined;
    let tasks = all as TaskRecord[];
    if (!reuse) {
      tasks = [];
      for (const t of all) if (t.project === projectId) tasks.push(t);
      tasks.sort((a, b) => a.id - b.id);
    }
    this.#tasks = tasks;
    this.#borrowed = reuse;
    this.#numbering();
    if (reuse) this.#unnumbered = unnumbered;
    else for (const t of tasks) if (t.inner_id === undefined) this.#unnumbered++;
  }

  static {
    checkPending = (ds) => ds.#check === "pending";
    settleCheck = (ds, ok) => {
      if (ds.#check === "pending") ds.#check = ok ? "done" : "failed";
    };
    checkTasks = (ds) => {
      if (ds.#check === "pending") settleCheck(ds, ownTasks(ds.#tasks, ds.#project.id) !== undefined);
      return ds.#check === "done";
    };
  }

  get project(): ProjectRecord {
    return this.#project;
  }

  /** The project's tasks, ascending by id (the array follows `apply`). */
  get tasks(): readonly TaskRecord[] {
    return this.#tasks;
  }

  /** Bumped by every `apply` that changed something. */
  get version(): number {
    return this.#version;
  }

  #numbering(): void {
    const tasks = this.#tasks;
    this.#firstId = tasks[0]?.id ?? 0;
    this.#consecutive = tasks.length === 0 || (tasks[tasks.length - 1] as TaskRecord).id - this.#firstId === tasks.length - 1;
  }

  /** The index of the task with this id, or undefined when it is not a task of the project. */
  indexOf(id: number): number | undefined {
    if (this.#consecutive) {
      const i = id - this.#firstId;
      return i >= 0 && i < this.#tasks.length && Number.isInteger(i) ? i : undefined;
    }
    return this.#byId.get(id);
  }

  /** The id of the task at an index (consecutive ids: no need to read the record). */
  idAt(i: number): number {
    return this.#consecutive ? this.#firstId + i : (this.#tasks[i] as TaskRecord).id;
  }

  /** Task id -> index in `tasks` (a map built on first use; `indexOf` avoids it for consecutive ids). */
  get indexById(): ReadonlyMap<number, number> {
    return this.#byId;
  }

  get #byId(): Map<number, number> {
    return this.memo(
      "byId",
      () => new Map(this.#tasks.map((t, i) => [t.id, i] as const)),
      // #reshape keeps it (new rows at the end) or drops it (rows moved).
      (map) => map,
    );
  }

  get size(): number {
    return this.#tasks.length;
  }

  /**
   * Memoise a per-dataset structure under a key (columns, groupings, casts). `patch` says how it
   * follows a write (`apply`); without one a write drops it and the next use builds it again.
   */
  memo<T>(key: string, build: () => T, patch?: Patcher<T>): T {
    let kept = this.#memo.get(key);
    if (kept !== undefined && kept.round !== this.#round) kept = this.#follow(key, kept);
    if (kept !== undefined) return kept.value as T;
    const value = build();
    this.#memo.set(key, { value, patch: patch as Patcher<unknown> | undefined, round: this.#round });
    return value;
  }

  /** Is a structure kept under this key (built, maybe not yet brought up to date with the last write)? */
  keeps(key: string): boolean {
    return this.#memo.has(key);
  }

  /**
   * An index (a lookup table, a sort order) over this dataset, built the second time a query asks
   * for it: an index costs more than the scan it saves once, so a dataset evaluated once (a cold
   * `evaluate(records, query)`) never pays for one, while a reused dataset (the mock's) gets it.
   * Undefined: scan instead.
   */
  index<T>(key: string, build: () => T, patch?: Patcher<T>): T | undefined {
    if (!this.#memo.has(`index:${key}`) && this.firstAsk(key)) return undefined;
    return this.memo(`index:${key}`, build, patch);
  }

  /**
   * Is this the first time something is asked for under this key (it is noted)? What pays only on
   * reuse (an index, a column) is built the second time; a one-off evaluation reads the records.
   */
  firstAsk(key: string): boolean {
    if (this.#asked.has(key)) return false;
    this.#asked.add(key);
    return true;
  }

  /** Each task's annotations, ascending by id. */
  get annotations(): readonly (readonly AnnotationRecord[])[] {
    return this.#group("annotations");
  }

  /** Each task's predictions, ascending by id. */
  get predictions(): readonly (readonly PredictionRecord[])[] {
    return this.#group("predictions");
  }

  /** Each task's drafts, ascending by id. */
  get drafts(): readonly (readonly DraftRecord[])[] {
    return this.#group("drafts");
  }

  #group<K extends ChildKind>(kind: K): ChildOf[K][][] {
    const all = this.#groups as { [k in ChildKind]?: Child[][] };
    let groups = all[kind];
    if (groups === undefined) all[kind] = groups = group<Child>((this.#source as Dataset)[kind] ?? [], this, this.size);
    return groups as ChildOf[K][][];
  }

  /** Have the records of this kind been grouped by task yet (`annotations`, `predictions`, `drafts`)? */
  grouped(kind: ChildKind): boolean {
    return (this.#groups as { [k in ChildKind]?: unknown })[kind] !== undefined;
  }

  /**
   * The related records of a kind as given (one flat list, any order), while no write has changed
   * them: a column over every row is then one pass over this list, without grouping it by task.
   */
  flat<K extends ChildKind>(kind: K): readonly ChildOf[K][] | undefined {
    return this.#source === undefined ? undefined : ((this.#source[kind] ?? []) as readonly ChildOf[K][]);
  }

  /** Does the task have a draft? */
  get draftExists(): Uint8Array {
    return this.memo(
      "drafts",
      () => {
        const out = new Uint8Array(this.size);
        const flat = this.flat("drafts");
        if (flat !== undefined) {
          for (const d of flat) {
            const i = this.indexOf(d.task);
            if (i !== undefined) out[i] = 1;
          }
        } else this.drafts.forEach((list, i) => (out[i] = list.length > 0 ? 1 : 0));
        return out;
      },
      (out, p) => {
        const next = moveTyped(out, p);
        const drafts = this.drafts;
        for (const i of p.changed) next[i] = (drafts[i] as readonly DraftRecord[]).length > 0 ? 1 : 0;
        return next;
      },
    );
  }

  /**
   * The structures kept now, by key (columns, indexes, sort orders, each brought up to date): what a
   * test compares with a dataset prepared from scratch.
   */
  kept(): ReadonlyMap<string, unknown> {
    return new Map([...this.#memo].map(([key, kept]) => [key, kept.value]));
  }

  /** Be told of every write `apply` makes (kept answers decide from it what still holds); returns the unsubscribe. */
  watch(watcher: (patch: DatasetPatch) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /**
   * Follow writes: the records they changed (before and after), in the order they were made. Tasks
   * come in, leave or change, related records move between tasks, the project's settings change;
   * every kept structure is patched for the rows touched (or dropped, when it cannot follow), and
   * the watchers are told what changed. Records of other projects are ignored.
   */
  apply(changes: readonly RecordChange[]): void {
    const projectId = this.#project.id;
    // The net effect on each record: its first `before` and its last `after`.
    const tasks = new Map<number, TaskRecord | undefined>();
    const children: { [K in ChildKind]: Map<number, { before: ChildOf[K] | undefined; after: ChildOf[K] | undefined }> } = {
      annotations: new Map(),
      predictions: new Map(),
      drafts: new Map(),
    };
    let project: ProjectRecord | undefined;
    for (const c of changes) {
      if (c.kind === "projects") {
        if (c.after.id === projectId) project = c.after;
      } else if (c.kind === "tasks") {
        tasks.set((c.before ?? c.after)?.id as number, c.after);
      } else {
        const net = children[c.kind] as Map<number, { before: Child | undefined; after: Child | undefined }>;
        const id = (c.before ?? c.after)?.id as number;
        const seen = net.get(id);
        if (seen) seen.after = c.after;
        else net.set(id, { before: c.before, after: c.after });
      }
    }
    const reads = new Set<Read>();
    const touched = new Set<number>();
    let settings = false;
    if (project !== undefined && project !== this.#project) {
      for (const key of ENGINE_PROJECT_SETTINGS) if (project[key] !== this.#project[key]) settings = true;
      this.#project = project;
      if (settings) reads.add("project");
    }

    // Related records: the groups become the truth (built from the records as they were before this write).
    const relatedChanged = CHILD_KINDS.some((k) => children[k].size > 0);
    if (relatedChanged && this.#source !== undefined) {
      for (const k of CHILD_KINDS) this.#group(k);
      this.#source = undefined;
    }
    const leftRows: number[] = [];
    for (const kind of CHILD_KINDS) {
      const groups = this.#groups[kind] as Child[][] | undefined;
      if (groups === undefined) continue;
      for (const { before } of children[kind].values()) {
        const i = before === undefined ? undefined : this.indexOf(before.task);
        if (i === undefined || !without(groups, i, (before as Child).id)) continue;
        leftRows.push(i);
        touched.add((before as Child).task);
        reads.add(kind);
      }
    }

    // Tasks that leave, come in or change.
    const removed: number[] = [];
    const inserted: TaskRecord[] = [];
    const updated: [row: number, record: TaskRecord][] = [];
    for (const [id, after] of tasks) {
      const i = this.indexOf(id);
      const stays = after !== undefined && after.project === projectId ? after : undefined;
      if (i === undefined) {
        if (stays) inserted.push(stays);
      } else if (stays === undefined) removed.push(i);
      else if (stays !== this.#tasks[i]) {
        updated.push([i, stays]);
        changedReads(this.#tasks[i] as TaskRecord, stays, reads);
      }
      if (i !== undefined || stays) touched.add(id);
    }
    if (this.#unnumbered < 0) this.#unnumbered = this.#tasks.reduce((n, t) => n + (t.inner_id === undefined ? 1 : 0), 0);
    const unnumbered = this.#unnumbered;
    const count = (t: TaskRecord | undefined) => (t !== undefined && t.inner_id === undefined ? 1 : 0);
    for (const i of removed) this.#unnumbered -= count(this.#tasks[i]);
    for (const t of inserted) this.#unnumbered += count(t);
    for (const [i, t] of updated) this.#unnumbered += count(t) - count(this.#tasks[i]);
    const reshape = this.#reshape(removed, inserted);
    for (const kind of CHILD_KINDS) {
      const groups = this.#groups[kind];
      if (groups !== undefined) moveRows(groups as Child[][], reshape, NONE as Child[]);
    }
    const rows = new Set<number>(reshape.inserted);
    const moved = reshape.moved;
    for (const i of leftRows) {
      const to = moved === undefined ? i : (moved[i] as number);
      if (to >= 0) rows.add(to);
    }
    for (const [i, record] of updated) {
      const to = moved === undefined ? i : (moved[i] as number);
      this.#tasks[to] = record;
      rows.add(to);
    }
    for (const kind of CHILD_KINDS) {
      const groups = this.#groups[kind] as Child[][] | undefined;
      if (groups === undefined) continue;
      for (const { after } of children[kind].values()) {
        const i = after === undefined ? undefined : this.indexOf(after.task);
        if (i === undefined) continue;
        groups[i] = withRecord(groups[i] as Child[], after as Child);
        rows.add(i);
        touched.add((after as Child).task);
        reads.add(kind);
      }
    }
    const reshaped = reshape.before !== reshape.after || moved !== undefined;
    if (!reshaped && rows.size === 0 && !settings) return;

    // Rows numbered by their place renumber when rows move: every row may read differently.
    if (moved !== undefined && unnumbered + this.#unnumbered > 0) for (let i = 0; i < reshape.after; i++) rows.add(i);
    this.#version += 1;
    this.#round += 1;
    if (settings) {
      // Every row's computed columns read the settings: nothing kept can follow but the groups.
      this.#memo.clear();
    } else {
      this.#patch = { ...reshape, changed: [...rows].sort((a, b) => a - b) };
      try {
        // A structure rebuilt meanwhile (a dependency of one that followed) is current already.
        for (const [key, kept] of [...this.#memo]) if (kept.round !== this.#round && this.#memo.get(key) === kept) this.#follow(key, kept);
      } finally {
        this.#patch = undefined;
      }
    }
    const patch: DatasetPatch = { version: this.#version, tasks: touched, reshaped, reads };
    for (const watcher of this.#watchers) watcher(patch);
  }

  /** A kept structure brought up to this round's patch, or dropped (undefined). */
  #follow(key: string, kept: Kept): Kept | undefined {
    const patch = this.#patch;
    // Outside `apply` every kept structure is current; a structure left from an earlier round cannot follow.
    const next = patch !== undefined && kept.patch !== undefined ? kept.patch(kept.value, patch) : undefined;
    if (next === undefined) {
      this.#memo.delete(key);
      return undefined;
    }
    kept.value = next;
    kept.round = this.#round;
    return kept;
  }

  /** Remove rows and put new tasks in id order; the rows' moves, as every kept structure follows them. */
  #reshape(removed: number[], inserted: TaskRecord[]): Omit<RowPatch, "changed"> {
    const before = this.#tasks.length;
    if (removed.length === 0 && inserted.length === 0) return { before, after: before, moved: undefined, inserted: [] };
    if (this.#borrowed) {
      this.#tasks = [...this.#tasks];
      this.#borrowed = false;
    }
    inserted.sort((a, b) => a.id - b.id);
    const old = this.#tasks;
    const last = old[before - 1]?.id ?? -Infinity;
    const rows: number[] = [];
    if (removed.length === 0 && (inserted[0] as TaskRecord).id > last) {
      // The usual create: new ids are the highest, the rows come in at the end.
      for (const t of inserted) rows.push(old.push(t) - 1);
      this.#numbering();
      // Task lookups run again before the kept structures follow: the id map first.
      const byId = this.#memo.get("byId")?.value as Map<number, number> | undefined;
      for (const i of rows) byId?.set((old[i] as TaskRecord).id, i);
      return { before, after: old.length, moved: undefined, inserted: rows };
    }
    const gone = new Uint8Array(before);
    for (const i of removed) gone[i] = 1;
    const moved = new Int32Array(before).fill(-1);
    const next: TaskRecord[] = [];
    let k = 0;
    for (let i = 0; i < before; i++) {
      const t = old[i] as TaskRecord;
      while (k < inserted.length && (inserted[k] as TaskRecord).id < t.id) rows.push(next.push(inserted[k++] as TaskRecord) - 1);
      if (gone[i] === 0) moved[i] = next.push(t) - 1;
    }
    while (k < inserted.length) rows.push(next.push(inserted[k++] as TaskRecord) - 1);
    old.length = 0;
    for (const t of next) old.push(t);
    this.#numbering();
    // Task lookups run again before the kept structures follow: the id map first.
    this.#memo.delete("byId");
    return { before, after: next.length, moved, inserted: rows };
  }
}

const NONE: readonly unknown[] = Object.freeze([]);

/**
 * How many tasks of the array have no inner_id, when every task is the project's and ids ascend
 * (the array can be used as it is); undefined otherwise. One pass.
 */
function ownTasks(all: readonly TaskRecord[], projectId: number): number | undefined {
  let unnumbered = 0;
  for (let i = 0, last = -Infinity; i < all.length; i++) {
    const t = all[i] as TaskRecord;
    if (t.project !== projectId || last >= t.id) return undefined;
    last = t.id;
    if (t.inner_id === undefined) unnumbered++;
  }
  return unnumbered;
}

/** A row's list without the record of this id (lists are replaced, never edited: a reader may hold one). */
function without(groups: Child[][], i: number, id: number): boolean {
  const list = groups[i] as Child[];
  const at = list.findIndex((r) => r.id === id);
  if (at < 0) return false;
  groups[i] = list.length === 1 ? (NONE as Child[]) : [...list.slice(0, at), ...list.slice(at + 1)];
  return true;
}

/** A row's list with a record put in id order (a new list). */
function withRecord(list: readonly Child[], record: Child): Child[] {
  let at = list.length;
  while (at > 0 && (list[at - 1] as Child).id > record.id) at--;
  return [...list.slice(0, at), record, ...list.slice(at)];
}

function group<R extends Child>(records: readonly R[], index: { indexOf(id: number): number | undefined }, size: number): R[][] {
  // Tasks without rows share one empty list: most projects have many unannotated tasks.
  const none = NONE as unknown as R[];
  const out: R[][] = new Array<R[]>(size).fill(none);
  let sorted = true;
  for (const r of records) {
    const i = index.indexOf(r.task);
    if (i === undefined) continue;
    const list = out[i] as R[];
    if (list === none) {
      out[i] = [r];
      continue;
    }
    if ((list[list.length - 1] as R).id > r.id) sorted = false;
    list.push(r);
  }
  if (!sorted) for (const list of out) if (list !== none) list.sort((a, b) => a.id - b.id);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Computed columns (docs/reference/columns.md#task-columns; tasks/models.py, data_manager/managers.py)

export interface ComputedColumns {
  readonly totalAnnotations: Int32Array;
  readonly cancelledAnnotations: Int32Array;
  readonly totalPredictions: Int32Array;
  readonly isLabeled: Uint8Array;
  /** The newest annotation's created_at (by id), only for labeled tasks; NaN when NULL. */
  /** Microseconds, parsed on first use (NaN when NULL). */
  completedAt(i: number): number;
  readonly completedAtText: readonly (string | null)[];
  /** NaN when NULL. */
  readonly predictionsScore: Float64Array;
  readonly avgLeadTime: Float64Array;
  readonly innerId: Float64Array;
  readonly createdAt: Float64Array;
  readonly updatedAt: Float64Array;
}

/** The memo keys of the typed timestamp columns (what `keeps` asks about). */
export const TIMESTAMP_COLUMNS = { created_at: "computed:created", updated_at: "computed:updated" } as const;

/** The project's `skip_queue`: with IGNORE_SKIPPED, skipped annotations also complete a task. */
function countsSkipped(project: ProjectRecord): boolean {
  return project.skip_queue === "IGNORE_SKIPPED";
}

/**
 * The computed columns of a dataset, each group built on first use and patched, row by row, by the
 * writes the dataset follows.
 */
export function computed(ds: PreparedDataset): ComputedColumns {
  return ds.memo(
    "computed",
    () => {
      const counts = () => ds.memo("computed:counts", () => annotationCounts(ds), followCounts(ds));
      const annotations = () => ds.memo("computed:annotations", () => annotationStats(ds), followStats(ds));
      const predictions = () => ds.memo("computed:predictions", () => predictionStats(ds), followPredictions(ds));
      const timestamps = (key: string, at: (t: TaskRecord) => string) =>
        ds.memo(
          key,
          () => {
            const out = new Float64Array(ds.size);
            for (let i = 0; i < ds.size; i++) out[i] = timestampMicros(at(ds.tasks[i] as TaskRecord)) ?? NaN;
            return out;
          },
          (out, p) => {
            const next = moveTyped(out, p, NaN);
            for (const i of p.changed) next[i] = timestampMicros(at(ds.tasks[i] as TaskRecord)) ?? NaN;
            return next;
          },
        );
      return {
        get totalAnnotations() {
          return counts().total;
        },
        get cancelledAnnotations() {
          return counts().cancelled;
        },
        get isLabeled() {
          return annotations().labeled;
        },
        completedAt(i: number) {
          const a = annotations();
          if (a.parsed[i] === 0) {
            a.parsed[i] = 1;
            a.completedAt[i] = timestampMicros(a.completedAtText[i]) ?? NaN;
          }
          return a.completedAt[i] as number;
        },
        get completedAtText() {
          return annotations().completedAtText;
        },
        get avgLeadTime() {
          return annotations().lead;
        },
        get totalPredictions() {
          return predictions().count;
        },
        get predictionsScore() {
          return predictions().score;
        },
        get createdAt() {
          return timestamps(TIMESTAMP_COLUMNS.created_at, (t) => t.created_at);
        },
        get updatedAt() {
          return timestamps(TIMESTAMP_COLUMNS.updated_at, (t) => t.updated_at);
        },
        get innerId() {
          return ds.memo("computed:inner", () => innerIds(ds), followInnerIds(ds));
        },
      };
    },
    // The accessors read the kept columns at each use: nothing to patch here.
    (columns) => columns,
  );
}

/** Task `t`'s inner_id at row `i`: numbered by place when it has none. */
export const innerIdAt = (t: TaskRecord, i: number): number => t.inner_id ?? i + 1;

/** `inner_id`, numbered by place for a task that has none (`apply` marks every row changed when such rows move). */
function innerIds(ds: PreparedDataset): Float64Array {
  const values = new Float64Array(ds.size);
  for (let i = 0; i < ds.size; i++) values[i] = innerIdAt(ds.tasks[i] as TaskRecord, i);
  return values;
}

function followInnerIds(ds: PreparedDataset): Patcher<Float64Array> {
  return (kept, p) => {
    const values = moveTyped(kept, p);
    for (const i of p.changed) values[i] = innerIdAt(ds.tasks[i] as TaskRecord, i);
    return values;
  };
}

/** Whether the records are in ascending id order (then a flat pass visits each task's in id order). */
function idOrdered(records: readonly { readonly id: number }[]): boolean {
  for (let k = 1; k < records.length; k++) if ((records[k] as { id: number }).id < (records[k - 1] as { id: number }).id) return false;
  return true;
}

interface Counts {
  readonly total: Int32Array;
  readonly cancelled: Int32Array;
}

function countAnnotation({ total, cancelled }: Counts, i: number, a: AnnotationRecord): void {
  if (a.was_cancelled) cancelled[i] = (cancelled[i] as number) + 1;
  else total[i] = (total[i] as number) + 1;
}

/** total_annotations and cancelled_annotations in one pass over the flat annotation list. */
function annotationCounts(ds: PreparedDataset): Counts {
  const counts = { total: new Int32Array(ds.size), cancelled: new Int32Array(ds.size) };
  const flat = ds.flat("annotations");
  if (flat !== undefined) {
    for (const a of flat) {
      const i = ds.indexOf(a.task);
      if (i !== undefined) countAnnotation(counts, i, a);
    }
  } else ds.annotations.forEach((list, i) => list.forEach((a) => countAnnotation(counts, i, a)));
  return counts;
}

function followCounts(ds: PreparedDataset): Patcher<Counts> {
  return (counts, p) => {
    const next = { total: moveTyped(counts.total, p), cancelled: moveTyped(counts.cancelled, p) };
    const anns = ds.annotations;
    for (const i of p.changed) {
      next.total[i] = next.cancelled[i] = 0;
      for (const a of anns[i] as readonly AnnotationRecord[]) countAnnotation(next, i, a);
    }
    return next;
  };
}

/** Per-row accumulators (finished counts, lead-time sums, the newest annotation by id) and the columns finished from them. */
interface Stats {
  readonly labeled: Uint8Array;
  readonly finished: Int32Array;
  readonly completedAt: Float64Array;
  readonly parsed: Uint8Array;
  readonly completedAtText: (string | null)[];
  readonly lead: Float64Array;
  readonly leadSum: Float64Array;
  readonly leadCount: Int32Array;
  readonly newestId: Float64Array;
  readonly newestAt: (string | null)[];
}

function visitAnnotation(
  { finished, leadSum, leadCount, newestId, newestAt }: Stats,
  skipped: boolean,
  i: number,
  a: AnnotationRecord,
): void {
  // Task.completed_annotations: not cancelled and with a result (all of them with IGNORE_SKIPPED).
  if (skipped || (!a.was_cancelled && a.result !== null)) finished[i] = (finished[i] as number) + 1;
  if (typeof a.lead_time === "number") {
    leadSum[i] = (leadSum[i] as number) + a.lead_time;
    leadCount[i] = (leadCount[i] as number) + 1;
  }
  if (a.id > (newestId[i] as number)) {
    newestId[i] = a.id;
    newestAt[i] = a.created_at;
  }
}

function finishRow(s: Stats, task: TaskRecord, i: number): void {
  // _get_is_labeled_value: completed annotations >= overlap (tasks/mixins.py; overlap defaults to 1).
  // The community mixin counts annotations, not distinct annotators (a later flag-gated variant
  // counts distinct completed_by); cancelled ones count only with IGNORE_SKIPPED.
  // A task an import stored is_labeled on keeps it until its annotations change (the store then drops it).
  s.labeled[i] = (task.is_labeled ?? (s.finished[i] as number) >= (task.overlap ?? taskDefaults.overlap)) ? 1 : 0;
  // base_annotate_completed_at: the newest annotation by id (cancelled ones too), only when labeled.
  s.completedAtText[i] = s.labeled[i] ? (s.newestAt[i] as string | null) : null;
  s.parsed[i] = 0;
  s.lead[i] = (s.leadCount[i] as number) > 0 ? (s.leadSum[i] as number) / (s.leadCount[i] as number) : NaN;
}

/**
 * is_labeled, completed_at and avg_lead_time in one pass over the flat annotation list (no
 * per-task lists): finished counts, lead-time sums and the newest annotation by id. Sums run in id
 * order per task, as over the grouped lists; an input not in id order takes the grouped path.
 */
function annotationStats(ds: PreparedDataset): Stats {
  const n = ds.size;
  const s: Stats = {
    labeled: new Uint8Array(n),
    finished: new Int32Array(n),
    completedAt: new Float64Array(n),
    parsed: new Uint8Array(n),
    completedAtText: new Array<string | null>(n).fill(null),
    lead: new Float64Array(n),
    leadSum: new Float64Array(n),
    leadCount: new Int32Array(n),
    newestId: new Float64Array(n).fill(-Infinity),
    newestAt: new Array<string | null>(n).fill(null),
  };
  const skipped = countsSkipped(ds.project);
  const flat = ds.flat("annotations");
  if (flat !== undefined && idOrdered(flat)) {
    for (const a of flat) {
      const i = ds.indexOf(a.task);
      if (i !== undefined) visitAnnotation(s, skipped, i, a);
    }
  } else ds.annotations.forEach((list, i) => list.forEach((a) => visitAnnotation(s, skipped, i, a)));
  for (let i = 0; i < n; i++) finishRow(s, ds.tasks[i] as TaskRecord, i);
  return s;
}

function followStats(ds: PreparedDataset): Patcher<Stats> {
  return (s, p) => {
    moveRows(s.completedAtText, p, null);
    moveRows(s.newestAt, p, null);
    const next: Stats = {
      labeled: moveTyped(s.labeled, p),
      finished: moveTyped(s.finished, p),
      completedAt: moveTyped(s.completedAt, p),
      parsed: moveTyped(s.parsed, p),
      completedAtText: s.completedAtText,
      lead: moveTyped(s.lead, p),
      leadSum: moveTyped(s.leadSum, p),
      leadCount: moveTyped(s.leadCount, p),
      newestId: moveTyped(s.newestId, p),
      newestAt: s.newestAt,
    };
    const skipped = countsSkipped(ds.project);
    const anns = ds.annotations;
    for (const i of p.changed) {
      next.finished[i] = next.leadSum[i] = next.leadCount[i] = 0;
      next.newestId[i] = -Infinity;
      next.newestAt[i] = null;
      for (const a of anns[i] as readonly AnnotationRecord[]) visitAnnotation(next, skipped, i, a);
      finishRow(next, ds.tasks[i] as TaskRecord, i);
    }
    return next;
  };
}

interface PredictionColumns {
  readonly count: Int32Array;
  readonly score: Float64Array;
}

function predictionRow(
  { count, score }: PredictionColumns,
  list: readonly PredictionRecord[],
  task: TaskRecord,
  modelVersion: string | null,
  i: number,
): void {
  // A counter a delete of several predictions at once left off is stored on the task (the mock: removePredictionsAtOnce).
  count[i] = task.total_predictions ?? list.length;
  // annotate_predictions_score: Avg(score), only the project's model_version when it is set.
  let sum = 0,
    k = 0;
  for (const p of list) {
    if (modelVersion !== null && modelVersion !== undefined && p.model_version !== modelVersion) continue;
    if (typeof p.score === "number") {
      sum += p.score;
      k++;
    }
  }
  score[i] = k > 0 ? sum / k : NaN;
}

function predictionStats(ds: PreparedDataset): PredictionColumns {
  const n = ds.size;
  const out = { count: new Int32Array(n), score: new Float64Array(n) };
  const preds = ds.predictions;
  for (let i = 0; i < n; i++)
    predictionRow(out, preds[i] as readonly PredictionRecord[], ds.tasks[i] as TaskRecord, ds.project.model_version, i);
  return out;
}

function followPredictions(ds: PreparedDataset): Patcher<PredictionColumns> {
  return (columns, p) => {
    const next = { count: moveTyped(columns.count, p), score: moveTyped(columns.score, p, NaN) };
    const preds = ds.predictions;
    for (const i of p.changed)
      predictionRow(next, preds[i] as readonly PredictionRecord[], ds.tasks[i] as TaskRecord, ds.project.model_version, i);
    return next;
  };
}

/** A task's `data` value at a path of keys (an object key, or an index into a list). */
export function dataAt(data: { readonly [key: string]: JsonValue }, path: readonly PathStep[]): JsonValue | undefined {
  let cur: JsonValue | undefined = data as JsonValue;
  for (const step of path) {
    if (cur === undefined || cur === null || typeof cur !== "object") return undefined;
    if (Array.isArray(cur)) {
      if (step.index === undefined) return undefined;
      const at: number = step.index < 0 ? cur.length + step.index : step.index;
      cur = cur[at];
    } else {
      if (step.key === undefined) return undefined;
      cur = Object.hasOwn(cur, step.key) ? (cur as { readonly [k: string]: JsonValue })[step.key] : undefined;
    }
  }
  return cur;
}

/** One step of a jsonb path: `->'key'`, `->0`, or a `#>` text step that works on both. */
export interface PathStep {
  readonly key: string | undefined;
  readonly index: number | undefined;
}
