import { AsyncLocalStorage } from "node:async_hooks";
import jsonServer from "json-server";
import type { AnnotationRecord, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord } from "../../src/contract/records.js";
import type { Dataset } from "../../src/semantics/records.js";
import { PreparedDataset } from "../../src/semantics/dataset.js";
import type { RecordChange } from "../../src/semantics/changes.js";
import { liveDatasets } from "./live.js";
import { match } from "ts-pattern";
import { redoOf, touchedBy, undo, undoInterleaved, type Change, type Redo, type Undone } from "./changes.js";
import { collectionNames, type CollectionName, type RecordOf, type StoreState } from "../../src/contract/state.js";
import type { WriteAheadLog } from "./wal.js";

type Draft<C extends CollectionName> = { -readonly [K in keyof RecordOf<C>]: RecordOf<C>[K] };
type NewRecord<C extends CollectionName> = Omit<Draft<C>, "id">;
type AnyRecord = { readonly id: number };

/** One project's records as the store keeps them: an engine `Dataset` whose child records carry every stored field. */
export type StoredDataset = Dataset<{
  readonly project: ProjectRecord;
  readonly task: TaskRecord;
  readonly annotation: AnnotationRecord;
  readonly prediction: PredictionRecord;
  readonly draft: DraftRecord;
}>;

/** The collections whose records hang off one task. */
type TaskChild = "annotations" | "predictions" | "drafts";

/** The changes one request made; see `Store.begin` and `Store.within`. */
export class Transaction {
  readonly changes: Change[] = [];
  /** The store's change count at this transaction's first change (0: none yet). */
  firstChange = 0;
}

/**
 * The data store: json-server's lowdb database (`router.db`) holding the state, which the mock's
 * routes read and write through here. Records are never changed in place (an update replaces the
 * record), so a shallow copy of a collection is a consistent view of it. Ids are allocated like the
 * server's sequences: one more than the highest id the collection has held; an undone insert does
 * not give its id back, as a rolled-back Postgres insert does not.
 *
 * Writes are grouped per request: `within(transaction, handler)` records every change the handler
 * makes, also after it awaited something (a model server: the asynchronous context follows it), and
 * `begin()` does the same for the synchronous code that follows it, until `suspend()`. `commit`
 * appends the changes to the write-ahead log (if the store persists), `rollback` undoes them. A write
 * outside any transaction commits at once.
 *
 * Requests run concurrently while one waits, so another request's changes may fall between a
 * transaction's: its rollback then undoes by id and keeps what the others wrote later (a record
 * they changed or removed stays as they left it), and its redo records are the current state of the
 * records it touched, so the log's replay never brings back an older version.
 */
export class Store {
  readonly router: jsonServer.JsonServerRouter<StoreState>;
  readonly #next = new Map<CollectionName, number>();
  readonly #index = new Map<CollectionName, Map<number, unknown>>();
  /** Task id -> its records (ascending by id), per child collection: built on first use, kept up to date by every write. */
  readonly #byTask = new Map<CollectionName, Map<number, AnyRecord[]>>();
  #version = 0;
  readonly #datasets = new Map<number, StoredDataset>();
  /** Per project, the engine's prepared dataset, kept across writes: each write patches it (`apply`). */
  readonly #live = new Map<number, PreparedDataset>();
  #open: Transaction | undefined;
  /** The transaction of the request whose code is running, across its awaits. */
  readonly #scope = new AsyncLocalStorage<Transaction>();
  /** Every change ever made (a transaction knows from it whether others wrote between its changes). */
  #changeCount = 0;
  /** What interleaved undos could not put back, for the undos after them (changes.ts `Undone`). */
  readonly #undone: Undone = { voided: new Set(), retracted: new WeakMap() };
  #wal: WriteAheadLog | undefined;

  constructor(initial: StoreState) {
    // The router adopts (and later mutates) the object it is given: `initial` must be fresh.
    this.router = jsonServer.router<StoreState>(initial);
    this.#resetCounters();
  }

  /** Persist through `wal` from now on (it already holds the current state as its snapshot). */
  persistTo(wal: WriteAheadLog | undefined): void {
    this.#wal = wal;
  }

  get wal(): WriteAheadLog | undefined {
    return this.#wal;
  }

  /** Record the changes made from now until `suspend()` in a new transaction. */
  begin(): Transaction {
    const transaction = new Transaction();
    this.#open = transaction;
    return transaction;
  }

  /** Stop recording (the handler returned or is waiting); the transaction is decided later. */
  suspend(): void {
    this.#open = undefined;
  }

  /** Run `fn` with every change it makes, now or after any await, recorded in `transaction`. */
  within<T>(transaction: Transaction, fn: () => T): T {
    return this.#scope.run(transaction, fn);
  }

  /** Make the changes durable: appended to the log and fsynced, when the store persists. */
  commit(transaction: Transaction): void {
    if (transaction.changes.length === 0 || !this.#wal) return;
    try {
      this.#wal.append(this.#redoOf(transaction), this.db.getState());
    } catch (error) {
      this.rollback(transaction);
      throw error;
    }
  }

  /** Undo the changes, newest first; the store is then as it was before `begin()`, but for what other requests wrote since. */
  rollback(transaction: Transaction): void {
    if (transaction.changes.length === 0) return;
    const interleaved = this.#interleaved(transaction);
    if (interleaved) undoInterleaved(this.db.getState(), transaction.changes, this.#undone);
    else undo(this.db.getState(), transaction.changes);
    // An undo moves records too: a transaction open meanwhile must not undo by position any more.
    this.#changeCount += 1;
    this.#index.clear();
    this.#byTask.clear();
    // Rare (a failed request): the prepared datasets are built again rather than patched back.
    this.#live.clear();
    this.#touch();
    // Another request's commit may have logged records as this one had left them: log them as they are again.
    if (interleaved) this.#wal?.append(this.#currentOf(transaction.changes), this.db.getState());
    transaction.changes.length = 0;
  }

  /** Whether other changes fell between this transaction's first change and now. */
  #interleaved(transaction: Transaction): boolean {
    return this.#changeCount - transaction.firstChange + 1 !== transaction.changes.length;
  }

  /** The redo records: each change's own, or, when others wrote in between, the current state of what it touched. */
  #redoOf(transaction: Transaction): Redo[] {
    return this.#interleaved(transaction) ? this.#currentOf(transaction.changes) : transaction.changes.map(redoOf);
  }

  /** The records the changes touched as they are now: a put for each one there, a delete for the rest. */
  #currentOf(changes: readonly Change[]): Redo[] {
    return touchedBy(changes).map(([collection, id]): Redo => {
      const record = this.find(collection, id);
      return record ? ["put", collection, record] : ["delete", collection, [id]];
    });
  }

  get db(): jsonServer.JsonServerRouter<StoreState>["db"] {
    return this.router.db;
  }

  /** Bumped by every write; caches keyed by it never serve stale data. */
  get version(): number {
    return this.#version;
  }

  readonly #collectionVersions = new Map<CollectionName, number>();

  /** Bumped by every write to the collection (caches that read one collection key on it). */
  versionOf(collection: CollectionName): number {
    return this.#collectionVersions.get(collection) ?? 0;
  }

  list<C extends CollectionName>(collection: C): readonly RecordOf<C>[] {
    return this.db.getState()[collection] as readonly RecordOf<C>[];
  }

  /** By id, through an index built on first use and kept up to date by every write. */
  find<C extends CollectionName>(collection: C, id: number): RecordOf<C> | undefined {
    let index = this.#index.get(collection);
    if (!index) {
      index = new Map(this.list(collection).map((r) => [r.id, r] as const));
      this.#index.set(collection, index);
    }
    return index.get(id) as RecordOf<C> | undefined;
  }

  /**
   * A task's annotations, predictions or drafts, ascending by id, without a pass over the collection
   * (a task created or patched is presented from its own records, not from its project's).
   */
  ofTask<C extends TaskChild>(collection: C, task: number): readonly RecordOf<C>[] {
    let index = this.#byTask.get(collection);
    if (!index) {
      index = new Map();
      for (const r of this.list(collection)) addByTask(index, r);
      this.#byTask.set(collection, index);
    }
    return (index.get(task) ?? []) as readonly AnyRecord[] as readonly RecordOf<C>[];
  }

  insert<C extends CollectionName>(collection: C, record: NewRecord<C>): RecordOf<C> {
    const id = this.#next.get(collection) ?? 1;
    this.#next.set(collection, id + 1);
    const full = { id, ...record } as unknown as RecordOf<C>;
    this.#rows(collection).push(full);
    this.#changed({ kind: "insert", collection, record: full });
    return full;
  }

  /** Replace a record by a patched copy (records are never mutated in place). */
  update<C extends CollectionName>(collection: C, id: number, patch: Partial<NewRecord<C>>): RecordOf<C> {
    const rows = this.#rows(collection);
    const at = rows.findIndex((r) => r.id === id);
    if (at < 0) throw new Error(`store: ${collection} ${id} does not exist`);
    const before = rows[at] as RecordOf<C>;
    const next = { ...before, ...patch, id } as RecordOf<C>;
    rows[at] = next;
    this.#changed({ kind: "update", collection, at, before, after: next });
    return next;
  }

  /** Remove every record matching `predicate`; returns the removed ones. */
  removeWhere<C extends CollectionName>(collection: C, predicate: (record: RecordOf<C>) => boolean): RecordOf<C>[] {
    const rows = this.#rows(collection);
    const removed: (readonly [number, RecordOf<C>])[] = [];
    let kept = 0;
    rows.forEach((record, at) => {
      if (predicate(record)) removed.push([at, record]);
      else rows[kept++] = record;
    });
    if (removed.length === 0) return [];
    rows.length = kept;
    this.#changed({ kind: "remove", collection, removed });
    return removed.map(([, record]) => record);
  }

  /** Delete tasks with everything hanging off them (annotations, predictions, drafts). */
  deleteTasks(ids: ReadonlySet<number>): number {
    if (ids.size === 0) return 0;
    const removed = this.removeWhere("tasks", (t) => ids.has(t.id)).length;
    this.removeWhere("annotations", (a) => ids.has(a.task));
    this.removeWhere("predictions", (p) => ids.has(p.task));
    this.removeWhere("drafts", (d) => ids.has(d.task));
    return removed;
  }

  deleteProject(id: number): void {
    const taskIds = new Set(
      this.list("tasks")
        .filter((t) => t.project === id)
        .map((t) => t.id),
    );
    this.deleteTasks(taskIds);
    this.removeWhere("views", (v) => v.project === id);
    this.removeWhere("ml_backends", (m) => m.project === id);
    this.removeWhere("file_uploads", (u) => u.project === id);
    const snapshots = new Set(this.removeWhere("exports", (e) => e.project === id).map((e) => e.id));
    this.removeWhere("converted_formats", (c) => snapshots.has(c.export));
    this.removeWhere("projects", (p) => p.id === id);
  }

  /**
   * The records of one project as the engine takes them; a new object after each write to the project.
   * Its record lists are gathered on first read: the engine's helpers read the project's live prepared
   * dataset (`prepared`) instead, so a list page after a write costs no pass over the store.
   */
  dataset(project: ProjectRecord): StoredDataset {
    const cached = this.#datasets.get(project.id);
    if (cached && cached.project === project) return cached;
    let records: StoredDataset | undefined;
    const all = () => (records ??= this.#records(project));
    const dataset: StoredDataset = Object.freeze({
      project,
      get tasks() {
        return all().tasks;
      },
      get annotations() {
        return all().annotations;
      },
      get predictions() {
        return all().predictions;
      },
      get drafts() {
        return all().drafts ?? [];
      },
    });
    this.#datasets.set(project.id, dataset);
    liveDatasets.set(dataset, this.prepared(project));
    return dataset;
  }

  /** The project's prepared dataset (the engine's indexes and columns), kept and patched by every write. */
  prepared(project: ProjectRecord): PreparedDataset {
    let live = this.#live.get(project.id);
    if (live && live.project !== project) {
      // A project record replaced outside the store's writes (a reset): start afresh.
      live = undefined;
    }
    if (!live) {
      live = new PreparedDataset(this.#records(project));
      this.#live.set(project.id, live);
    }
    return live;
  }

  #records(project: ProjectRecord): StoredDataset {
    const of = <T extends { project: number }>(rows: readonly T[]) => rows.filter((r) => r.project === project.id);
    const tasks = of(this.list("tasks"));
    const taskIds = new Set(tasks.map((t) => t.id));
    return {
      project,
      tasks,
      annotations: of(this.list("annotations")),
      predictions: of(this.list("predictions")),
      drafts: this.list("drafts").filter((d) => taskIds.has(d.task)),
    };
  }

  /** Next per-project inner id (the server numbers a project's tasks from 1 up). */
  nextInnerId(project: number): number {
    let max = 0;
    // A stored task always has its inner id (taskOwn: numbered at creation, a seed's after the load).
    for (const task of this.list("tasks")) if (task.project === project && task.inner_id > max) max = task.inner_id;
    return max + 1;
  }

  /** Start over from `state` (a reset); a persisting store writes it as its new snapshot. */
  replaceState(state: StoreState): void {
    this.db.setState(state);
    this.#resetCounters();
    this.#index.clear();
    this.#byTask.clear();
    this.#live.clear();
    this.#touch();
    this.#wal?.reset(state);
  }

  /** A deep copy in the seed format (what `data()` returns and the persist file holds). */
  snapshot(): StoreState {
    return structuredClone(this.db.getState());
  }

  #rows<C extends CollectionName>(collection: C): RecordOf<C>[] {
    return this.db.getState()[collection] as RecordOf<C>[];
  }

  #changed(change: Change): void {
    const records = match(change)
      .returnType<readonly AnyRecord[]>()
      .with({ kind: "insert" }, (c) => [c.record])
      .with({ kind: "update" }, (c) => [c.before, c.after])
      .with({ kind: "remove" }, (c) => c.removed.map(([, record]) => record))
      .exhaustive();
    const index = this.#index.get(change.collection);
    if (index) {
      if (change.kind === "remove") for (const r of records) index.delete(r.id);
      else {
        const current = records[records.length - 1] as AnyRecord;
        index.set(current.id, current);
      }
    }
    const byTask = this.#byTask.get(change.collection);
    if (byTask) {
      if (change.kind === "update") {
        dropByTask(byTask, change.before);
        addByTask(byTask, change.after);
      } else if (change.kind === "insert") addByTask(byTask, change.record);
      else for (const r of records) dropByTask(byTask, r);
    }
    this.#patchLive(change);
    this.#touch(change.collection, records);
    this.#changeCount += 1;
    const open = this.#scope.getStore() ?? this.#open;
    if (open) {
      if (open.changes.length === 0) open.firstChange = this.#changeCount;
      open.changes.push(change);
    } else this.#wal?.append([redoOf(change)], this.db.getState());
    if (change.collection === "annotations") for (const r of records) this.#recompute(taskOf(r), "is_labeled");
    if (change.collection === "predictions") for (const r of records) this.#recompute(taskOf(r), "total_predictions");
  }

  /**
   * The server recomputes these tasks' counters and `is_labeled` (`update_tasks_counters`,
   * `update_tasks_counters_and_is_labeled`): what a write stored gives way to what the engine computes.
   */
  recomputeCounters(tasks: Iterable<number>): void {
    for (const id of tasks) {
      this.#recompute(id, "is_labeled");
      this.#recompute(id, "total_predictions");
    }
  }

  /**
   * A change to a task's annotations (predictions): the server recomputes `is_labeled` (`total_predictions`)
   * in their signals, so a value a write stored (an import's flag; a counter a delete of several predictions
   * at once left off, prediction-counter.ts) gives way to the computed one.
   */
  #recompute(taskId: number, field: "is_labeled" | "total_predictions"): void {
    const task = this.find("tasks", taskId);
    if (task?.[field] === undefined) return;
    const rows = this.#rows("tasks");
    const at = rows.findIndex((r) => r.id === taskId);
    const { [field]: _, ...after } = task;
    rows[at] = after;
    this.#changed({ kind: "update", collection: "tasks", at, before: task, after });
  }

  /** Hand a change of what the engine reads to every live prepared dataset (each ignores other projects' records). */
  #patchLive(change: Change): void {
    if (this.#live.size === 0) return;
    const collection = change.collection;
    if (collection === "projects") {
      if (change.kind === "remove") for (const [, record] of change.removed) this.#live.delete(record.id);
      else {
        const after = (change.kind === "insert" ? change.record : change.after) as ProjectRecord;
        this.#live.get(after.id)?.apply([{ kind: "projects", after }]);
      }
      return;
    }
    if (collection !== "tasks" && collection !== "annotations" && collection !== "predictions" && collection !== "drafts") return;
    const changes = match(change)
      .returnType<RecordChange[]>()
      .with({ kind: "insert" }, (c) => [{ kind: collection, before: undefined, after: c.record } as RecordChange])
      .with({ kind: "update" }, (c) => [{ kind: collection, before: c.before, after: c.after } as RecordChange])
      .with({ kind: "remove" }, (c) =>
        c.removed.map(([, record]) => ({ kind: collection, before: record, after: undefined }) as RecordChange),
      )
      .exhaustive();
    for (const live of this.#live.values()) live.apply(changes);
  }

  /**
   * After a write: a new version, and the cached datasets of the projects whose records changed
   * are dropped (users and views are in no dataset). Without the records: every dataset.
   */
  #touch(collection?: CollectionName, records?: readonly AnyRecord[]): void {
    this.#version += 1;
    for (const c of collection === undefined ? collectionNames : [collection]) this.#collectionVersions.set(c, this.versionOf(c) + 1);
    if (collection === undefined || records === undefined) {
      this.#datasets.clear();
      return;
    }
    // Users, organizations, uploaded files, views and the export records are in no dataset.
    if (
      collection === "users" ||
      collection === "organizations" ||
      collection === "file_uploads" ||
      collection === "views" ||
      collection === "exports" ||
      collection === "converted_formats"
    )
      return;
    for (const record of records) {
      const r = record as AnyRecord & { project?: number; task?: number };
      // A draft names its task; a project record is its own project (also checked by identity).
      const project =
        collection === "projects" ? r.id : collection === "drafts" ? this.find("tasks", r.task as number)?.project : r.project;
      if (project === undefined) {
        this.#datasets.clear();
        return;
      }
      this.#datasets.delete(project);
    }
  }

  #resetCounters(): void {
    for (const collection of collectionNames) {
      const max = this.list(collection).reduce((m, r) => Math.max(m, r.id), 0);
      this.#next.set(collection, max + 1);
    }
  }
}

function taskOf(record: AnyRecord): number {
  return (record as AnyRecord & { task: number }).task;
}

/** Into its task's list, keeping the list ascending by id (an insert has the highest id: it goes last). */
function addByTask(index: Map<number, AnyRecord[]>, record: AnyRecord): void {
  const list = index.get(taskOf(record));
  if (!list) return void index.set(taskOf(record), [record]);
  let at = list.length;
  while (at > 0 && (list[at - 1] as AnyRecord).id > record.id) at--;
  list.splice(at, 0, record);
}

function dropByTask(index: Map<number, AnyRecord[]>, record: AnyRecord): void {
  const list = index.get(taskOf(record));
  const at = list?.findIndex((r) => r.id === record.id) ?? -1;
  if (!list || at < 0) return;
  list.splice(at, 1);
  if (list.length === 0) index.delete(taskOf(record));
}
