import { appendFileSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { redo } from "../../../mock-server/store/changes.js";
import { loadSeed } from "../../../src/contract/seed.js";
import type { StoreState } from "../../../src/contract/state.js";
import { Store, Transaction } from "../../../mock-server/store/store.js";
import { readPersisted, walFiles, WriteAheadLog } from "../../../mock-server/store/wal.js";

const NOW = "2024-01-01T00:00:00.000000Z";
const tempFile = () => join(mkdtempSync(join(tmpdir(), "dmq-wal-")), "db.json");

function seedState(tasks: number): StoreState {
  return loadSeed(
    {
      users: [{ id: 1, username: "ada" }],
      projects: [{ id: 1 }, { id: 2 }],
      tasks: Array.from({ length: tasks }, (_, i) => ({ id: i + 1, project: (i % 2) + 1, data: { text: `t${i + 1}` } })),
      annotations: Array.from({ length: Math.min(tasks, 5) }, (_, i) => ({ id: i + 1, task: i + 1, completed_by: 1 })),
    },
    NOW,
  );
}

/** One store write, as the routes do them. */
type Op =
  | { kind: "insert"; text: string }
  | { kind: "update"; pick: number; text: string }
  | { kind: "removeTasks"; pick: number }
  | { kind: "deleteProject"; project: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant("update" as const), pick: fc.nat(), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant("removeTasks" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("deleteProject" as const), project: fc.constantFrom(1, 2) }),
);

function apply(store: Store, op: Op): void {
  const tasks = store.list("tasks");
  const picked = tasks.length === 0 ? undefined : tasks[("pick" in op ? op.pick : 0) % tasks.length];
  if (op.kind === "insert")
    store.insert("tasks", { project: 1, data: { text: op.text }, meta: {}, created_at: NOW, updated_at: NOW } as never);
  else if (op.kind === "update" && picked) store.update("tasks", picked.id, { data: { text: op.text } });
  else if (op.kind === "removeTasks" && picked) store.deleteTasks(new Set([picked.id, picked.id + 1]));
  else if (op.kind === "deleteProject") store.deleteProject(op.project);
}

const text = (state: StoreState) => JSON.stringify(state);

describe("transactions", () => {
  test("a rolled-back transaction leaves the store byte for byte as it was", () => {
    const store = new Store(seedState(8));
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 12 }), fc.array(opArb, { maxLength: 12 }), (before, during) => {
        store.replaceState(seedState(8));
        for (const op of before) apply(store, op);
        const snapshot = text(store.snapshot());
        const transaction = store.begin();
        for (const op of during) apply(store, op);
        store.suspend();
        store.rollback(transaction);
        expect(text(store.snapshot())).toBe(snapshot);
        expect(store.find("tasks", store.list("tasks")[0]?.id ?? -1)).toBe(store.list("tasks")[0]);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  test("an undone insert keeps its id used, as a Postgres sequence does", () => {
    const store = new Store(seedState(2));
    const transaction = store.begin();
    const inserted = store.insert("projects", { title: "x" } as never);
    store.suspend();
    store.rollback(transaction);
    expect(store.find("projects", inserted.id)).toBeUndefined();
    expect(store.insert("projects", { title: "y" } as never).id).toBe(inserted.id + 1);
  });
});

describe("transactions across awaits (a request waiting for a model server while others run)", () => {
  test("within(): changes after an await belong to the transaction; another scope's changes do not", async () => {
    const store = new Store(seedState(4));
    const mine = new Transaction();
    const theirs = new Transaction();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const running = store.within(mine, async () => {
      store.update("tasks", 1, { data: { text: "before the await" } });
      await released;
      store.update("tasks", 2, { data: { text: "after the await" } });
    });
    store.within(theirs, () => store.update("tasks", 3, { data: { text: "theirs" } }));
    release();
    await running;
    expect(mine.changes.map((c) => (c.kind === "update" ? c.after.id : 0))).toEqual([1, 2]);
    expect(theirs.changes).toHaveLength(1);
    store.rollback(mine);
    expect(store.list("tasks").map((t) => t.data["text"])).toEqual(["t1", "t2", "theirs", "t4"]);
  });

  test("a rollback with another request's writes in between keeps those writes and restores the rest", () => {
    const store = new Store(seedState(4));
    const order = () => store.list("tasks").map((t) => t.id);
    const a = new Transaction();
    const b = new Transaction();
    let added = 0;
    store.within(a, () => {
      added = store.insert("tasks", { project: 1, data: { text: "new" }, meta: {}, created_at: NOW, updated_at: NOW } as never).id;
      store.update("tasks", 2, { data: { text: "a" } });
      store.deleteTasks(new Set([3]));
    });
    store.within(b, () => {
      store.update("tasks", 2, { data: { text: "b over a" } });
      store.update("tasks", 1, { data: { text: "b" } });
      store.deleteTasks(new Set([4]));
    });
    store.within(a, () => store.update("tasks", 1, { data: { text: "a over b" } }));
    store.commit(b);
    store.rollback(a);
    // B's later write to task 2 stays; A's write over B's (task 1) is undone to B's; task 3 is back in its place.
    expect(store.list("tasks").map((t) => [t.id, t.data["text"]])).toEqual([
      [1, "b"],
      [2, "b over a"],
      [3, "t3"],
    ]);
    expect(store.find("tasks", added)).toBeUndefined();
    expect(order()).toEqual([1, 2, 3]);
    expect(store.list("annotations").map((a) => a.task)).toEqual([1, 2, 3]);
  });

  test("the log recovers exactly the store, whatever the interleaving of requests and their outcomes", async () => {
    const store = new Store(seedState(6));
    const step = fc.record({ who: fc.nat(2), op: opArb });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 16 }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), async (steps, keep) => {
        const file = tempFile();
        store.persistTo(undefined);
        store.replaceState(seedState(6));
        const wal = new WriteAheadLog(file, store.db.getState());
        store.persistTo(wal);
        const transactions = [new Transaction(), new Transaction(), new Transaction()];
        for (const { who, op } of steps) store.within(transactions[who] as Transaction, () => apply(store, op));
        transactions.forEach((t, i) => (keep[i] ? store.commit(t) : store.rollback(t)));
        // Every request undone, in any order: the store is back to the start, record for record and in place.
        if (!keep.some(Boolean)) expect(text(store.snapshot())).toBe(text(seedState(6)));
        const persisted = readPersisted(file);
        const recovered = loadSeed(persisted?.snapshot, NOW);
        redo(recovered, persisted?.redo ?? []);
        expect(recovered).toEqual(store.snapshot());
        await wal.close();
      }),
      { numRuns: 100, seed: 13 },
    );
  });
});

describe("the per-task index (a task presented from its own records)", () => {
  /** A write to a task's annotations: add one, move one to another task, drop some; sometimes undone. */
  type AnnotationOp = { kind: "add" | "move" | "drop"; task: number; pick: number; undo: boolean };
  const annotationOp: fc.Arbitrary<AnnotationOp> = fc.record({
    kind: fc.constantFrom("add" as const, "move" as const, "drop" as const),
    task: fc.integer({ min: 1, max: 6 }),
    pick: fc.nat(),
    undo: fc.boolean(),
  });

  test("ofTask agrees with a pass over the collection after every write, rollback and reset", () => {
    const store = new Store(seedState(6));
    const tasks = [1, 2, 3, 4, 5, 6, 7];
    const byScan = (task: number) =>
      store
        .list("annotations")
        .filter((a) => a.task === task)
        .sort((a, b) => a.id - b.id);
    fc.assert(
      fc.property(fc.array(annotationOp, { maxLength: 20 }), (ops) => {
        store.replaceState(seedState(6));
        store.ofTask("annotations", 1); // built before the writes: kept up to date from here on
        for (const op of ops) {
          const transaction = store.begin();
          const all = store.list("annotations");
          const picked = all.length === 0 ? undefined : all[op.pick % all.length];
          if (op.kind === "add")
            store.insert("annotations", { task: op.task, project: 2 - (op.task % 2), result: [], completed_by: 1 } as never);
          else if (op.kind === "move" && picked) store.update("annotations", picked.id, { task: op.task } as never);
          else if (op.kind === "drop" && picked) store.removeWhere("annotations", (a) => a.id === picked.id || a.task === op.task);
          store.suspend();
          if (op.undo) store.rollback(transaction);
          for (const t of tasks) expect(store.ofTask("annotations", t)).toEqual(byScan(t));
        }
      }),
      { numRuns: 200, seed: 12 },
    );
  });
});

describe("write-ahead log", () => {
  test("recovery = snapshot + every acknowledged change, whatever the sequence", async () => {
    const store = new Store(seedState(6));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb, { maxLength: 4 }), { maxLength: 10 }), fc.nat(200), async (requests, compactAfter) => {
        const file = tempFile();
        store.persistTo(undefined);
        store.replaceState(seedState(6));
        const wal = new WriteAheadLog(file, store.db.getState(), { compactAfterBytes: compactAfter });
        store.persistTo(wal);
        for (const ops of requests) {
          const transaction = store.begin();
          for (const op of ops) apply(store, op);
          store.suspend();
          store.commit(transaction);
        }
        // Compactions may still be running: what is on disk at any moment must recover the state.
        const persisted = readPersisted(file);
        const recovered = loadSeed(persisted?.snapshot, NOW);
        redo(recovered, persisted?.redo ?? []);
        // Equal records (a reload puts a record's keys in the seed's order).
        expect(recovered).toEqual(store.snapshot());
        await wal.close();
      }),
      { numRuns: 30, seed: 12 },
    );
  });

  test("a torn last line (a crash during an append, before its answer) is dropped", async () => {
    const file = tempFile();
    const store = new Store(seedState(3));
    const wal = new WriteAheadLog(file, store.db.getState());
    store.persistTo(wal);
    store.update("tasks", 1, { data: { text: "kept" } });
    const [segment] = walFiles(file);
    appendFileSync(segment as string, '[["put","tasks",{"id":2,"pro');
    const persisted = readPersisted(file);
    expect(persisted?.redo).toHaveLength(1);
    await wal.close();
  });

  test("a damaged line in the middle is refused, naming the file and the line", async () => {
    const file = tempFile();
    const store = new Store(seedState(3));
    const wal = new WriteAheadLog(file, store.db.getState());
    store.persistTo(wal);
    store.update("tasks", 1, { data: { text: "a" } });
    store.update("tasks", 1, { data: { text: "b" } });
    const [segment] = walFiles(file) as [string];
    writeFileSync(segment, readFileSync(segment, "utf8").replace("[[", "{["));
    expect(() => readPersisted(file)).toThrow(/persist log .*db\.json\.wal\.1, line 1: expected a JSON redo entry/);
    await wal.close();
  });

  test("replaying a segment the snapshot already holds changes nothing (a crash after a compaction's rename)", async () => {
    const file = tempFile();
    const store = new Store(seedState(4));
    const wal = new WriteAheadLog(file, store.db.getState(), { compactAfterBytes: 1 });
    store.persistTo(wal);
    store.update("tasks", 2, { data: { text: "x" } });
    const [first] = walFiles(file) as [string];
    const kept = `${first}.copy`;
    copyFileSync(first, kept);
    store.deleteTasks(new Set([1]));
    store.insert("tasks", { project: 2, data: {}, meta: {}, created_at: NOW, updated_at: NOW } as never);
    await wal.settled();
    // Put the covered segment back, as if the process died between the rename and the delete.
    copyFileSync(kept, first);
    const persisted = readPersisted(file);
    const recovered = loadSeed(persisted?.snapshot, NOW);
    redo(recovered, persisted?.redo ?? []);
    expect(recovered).toEqual(store.snapshot());
    await wal.close();
  });

  test("a write costs its own size: the same bytes at 10 and at 3000 tasks, and no snapshot rewrite", async () => {
    const bytesForOneCreate = async (tasks: number) => {
      const file = tempFile();
      const store = new Store(seedState(tasks));
      const wal = new WriteAheadLog(file, store.db.getState());
      store.persistTo(wal);
      const snapshot = statSync(file);
      // Same id width for both sizes, so the records are the same length.
      store.insert("projects", { title: "p" } as never);
      const segment = walFiles(file)[0] as string;
      const after = statSync(file);
      await wal.close();
      expect([after.ino, after.size, after.mtimeMs]).toEqual([snapshot.ino, snapshot.size, snapshot.mtimeMs]);
      return statSync(segment).size;
    };
    const small = await bytesForOneCreate(10);
    const large = await bytesForOneCreate(3000);
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
  });

  test("a compaction replaces the snapshot and deletes the segments it covers; a reset starts over", async () => {
    const file = tempFile();
    const store = new Store(seedState(4));
    const wal = new WriteAheadLog(file, store.db.getState(), { compactAfterBytes: 1 });
    store.persistTo(wal);
    store.update("tasks", 3, { data: { text: "compacted" } });
    await wal.settled();
    expect(JSON.parse(readFileSync(file, "utf8")).tasks[2].data).toEqual({ text: "compacted" });
    expect(walFiles(file).map((f) => f.slice(file.length))).toEqual([".wal.2"]);
    store.replaceState(seedState(1));
    expect(JSON.parse(readFileSync(file, "utf8")).tasks).toHaveLength(1);
    expect(walFiles(file).map((f) => f.slice(file.length))).toEqual([".wal.3"]);
    await wal.close();
  });

  test("an append that fails leaves no half line behind, and the request's changes are undone", async () => {
    const file = tempFile();
    const store = new Store(seedState(3));
    const wal = new WriteAheadLog(file, store.db.getState());
    store.persistTo(wal);
    const before = text(store.snapshot());
    await wal.close(); // the descriptor is gone: the next append fails
    const transaction = store.begin();
    store.update("tasks", 1, { data: { text: "lost" } });
    store.suspend();
    expect(() => store.commit(transaction)).toThrow();
    expect(text(store.snapshot())).toBe(before);
    truncateSync(walFiles(file)[0] as string, 0);
  });
});
