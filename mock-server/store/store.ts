import jsonServer from "json-server";
import type { Dataset, ProjectRecord } from "../../src/semantics/records.js";
import { writeAtomically } from "./persist.js";
import { collectionNames, type CollectionName, type RecordOf, type StoreState } from "./state.js";

type Draft<C extends CollectionName> = { -readonly [K in keyof RecordOf<C>]: RecordOf<C>[K] };
type NewRecord<C extends CollectionName> = Omit<Draft<C>, "id">;

/**
 * The data store: json-server's router and its lowdb database (`router.db`). The mock's own routes
 * read and write through here; json-server's generic routes see the same state. Ids are allocated
 * like the server's sequences: one more than the highest id the collection has held.
 */
export class Store {
  readonly router: jsonServer.JsonServerRouter<StoreState>;
  readonly #next = new Map<CollectionName, number>();
  readonly #index = new Map<CollectionName, Map<number, unknown>>();
  #version = 0;
  readonly #datasets = new Map<number, Dataset>();

  constructor(
    initial: StoreState,
    private readonly persistPath?: string,
  ) {
    // The router adopts (and later mutates) the object it is given: `initial` must be fresh.
    this.router = jsonServer.router<StoreState>(initial);
    this.#resetCounters();
  }

  get db(): jsonServer.JsonServerRouter<StoreState>["db"] {
    return this.router.db;
  }

  /** Bumped by every write; caches keyed by it never serve stale data. */
  get version(): number {
    return this.#version;
  }

  list<C extends CollectionName>(collection: C): readonly RecordOf<C>[] {
    return this.db.getState()[collection] as readonly RecordOf<C>[];
  }

  find<C extends CollectionName>(collection: C, id: number): RecordOf<C> | undefined {
    return this.#indexOf(collection).get(id) as RecordOf<C> | undefined;
  }

  /** Records by id, built on first use and kept up to date by every write. */
  #indexOf(collection: CollectionName): Map<number, unknown> {
    let index = this.#index.get(collection);
    if (!index) {
      index = new Map(this.list(collection).map((r) => [r.id, r] as const));
      this.#index.set(collection, index);
    }
    return index;
  }

  insert<C extends CollectionName>(collection: C, record: NewRecord<C>): RecordOf<C> {
    const id = this.#next.get(collection) ?? 1;
    this.#next.set(collection, id + 1);
    const full = { id, ...record } as unknown as RecordOf<C>;
    (this.db.get(collection) as unknown as { push(r: unknown): { write(): void } }).push(full).write();
    this.#index.get(collection)?.set(id, full);
    this.#touch(collection, [full]);
    return full;
  }

  /** Replace a record by a patched copy (records are never mutated in place). */
  update<C extends CollectionName>(collection: C, id: number, patch: Partial<NewRecord<C>>): RecordOf<C> {
    const rows = this.db.getState()[collection] as RecordOf<C>[];
    const at = rows.findIndex((r) => r.id === id);
    if (at < 0) throw new Error(`store: ${collection} ${id} does not exist`);
    const before = rows[at] as RecordOf<C>;
    const next = { ...before, ...patch, id } as RecordOf<C>;
    rows[at] = next;
    this.db.write();
    this.#index.get(collection)?.set(id, next);
    this.#touch(collection, [before, next]);
    return next;
  }

  /** Remove every record matching `predicate`; returns the removed ones. */
  removeWhere<C extends CollectionName>(collection: C, predicate: (record: RecordOf<C>) => boolean): RecordOf<C>[] {
    const removed = (this.db.get(collection) as unknown as { remove(p: (r: RecordOf<C>) => boolean): { write(): RecordOf<C>[] } })
      .remove(predicate)
      .write();
    if (removed.length > 0) {
      const index = this.#index.get(collection);
      if (index) for (const r of removed) index.delete(r.id);
      this.#touch(collection, removed);
    }
    return removed;
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
    const taskIds = new Set(this.list("tasks").filter((t) => t.project === id).map((t) => t.id));
    this.deleteTasks(taskIds);
    this.removeWhere("views", (v) => v.project === id);
    this.removeWhere("projects", (p) => p.id === id);
  }

  /** The records of one project as the engine takes them; cached until the next write. */
  dataset(project: ProjectRecord): Dataset {
    const cached = this.#datasets.get(project.id);
    if (cached && cached.project === project) return cached;
    const of = <T extends { project: number }>(rows: readonly T[]) => rows.filter((r) => r.project === project.id);
    const taskIds = new Set(of(this.list("tasks")).map((t) => t.id));
    const dataset: Dataset = {
      project,
      tasks: of(this.list("tasks")),
      annotations: of(this.list("annotations")),
      predictions: of(this.list("predictions")),
      drafts: this.list("drafts").filter((d) => taskIds.has(d.task)),
    };
    this.#datasets.set(project.id, dataset);
    return dataset;
  }

  /** Next per-project inner id (the server numbers a project's tasks from 1 up). */
  nextInnerId(project: number): number {
    let max = 0;
    for (const task of this.list("tasks")) if (task.project === project && (task.inner_id ?? 0) > max) max = task.inner_id ?? 0;
    return max + 1;
  }

  replaceState(state: StoreState): void {
    this.db.setState(state).write();
    this.#resetCounters();
    this.#index.clear();
    this.#touch();
  }

  /** A deep copy in the seed format (what `data()` returns and the persist file holds). */
  snapshot(): StoreState {
    return structuredClone(this.db.getState());
  }

  #committed = -1;

  /** Called once per mutating request: writes the persist file, if any and if anything changed. */
  commit(): void {
    if (!this.persistPath || this.#committed === this.#version) return;
    writeAtomically(this.persistPath, this.db.getState());
    this.#committed = this.#version;
  }

  /**
   * After a write: a new version, and the cached datasets of the projects whose records changed
   * are dropped (records of users and views are in no dataset). Without records, all of them.
   */
  #touch(collection?: CollectionName, records?: readonly unknown[]): void {
    this.#version += 1;
    if (collection === undefined || records === undefined) return this.#datasets.clear();
    if (collection === "users" || collection === "views") return;
    for (const record of records) {
      const r = record as { project?: number; task?: number; id: number };
      // A draft names its task; a project record is its own project (and checked by identity too).
      const project = collection === "projects" ? r.id : collection === "drafts" ? this.find("tasks", r.task as number)?.project : r.project;
      if (project === undefined) return this.#datasets.clear();
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
