import { match } from "ts-pattern";
import type { CollectionName, StoreState } from "../../src/contract/state.js";

type AnyRecord = { readonly id: number };

/**
 * One change to the store, with what undoing it needs. A request's changes are kept until it is
 * answered: a request that fails or runs out of time is undone change by change (O(change), never a
 * copy of the store), and a successful one goes to the write-ahead log as its redo records.
 */
export type Change =
  | { readonly kind: "insert"; readonly collection: CollectionName; readonly record: AnyRecord }
  | {
      readonly kind: "update";
      readonly collection: CollectionName;
      readonly at: number;
      readonly before: AnyRecord;
      readonly after: AnyRecord;
    }
  /** `removed` in ascending position order, positions as they were before the removal. */
  | {
      readonly kind: "remove";
      readonly collection: CollectionName;
      readonly removed: readonly (readonly [at: number, record: AnyRecord])[];
    };

/**
 * A redo record in the log: the whole record for an insert or update, the ids for a removal. Each
 * one sets records to a value that does not depend on what was there, so replaying a log over a
 * state that already holds some of it gives the same state (what compaction relies on).
 */
export type Redo = readonly ["put", CollectionName, AnyRecord] | readonly ["delete", CollectionName, readonly number[]];

export function redoOf(change: Change): Redo {
  return match(change)
    .returnType<Redo>()
    .with({ kind: "insert" }, (c) => ["put", c.collection, c.record])
    .with({ kind: "update" }, (c) => ["put", c.collection, c.after])
    .with({ kind: "remove" }, (c) => ["delete", c.collection, c.removed.map(([, record]) => record.id)])
    .exhaustive();
}

type Rows = AnyRecord[];
const rowsOf = (state: StoreState, collection: CollectionName): Rows => state[collection] as unknown as Rows;

/** Undo changes, newest first, so each one finds the array exactly as it left it. */
export function undo(state: StoreState, changes: readonly Change[]): void {
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i] as Change;
    const rows = rowsOf(state, change.collection);
    match(change)
      .with({ kind: "insert" }, (c) => void rows.splice(rows.lastIndexOf(c.record), 1))
      .with({ kind: "update" }, (c) => void (rows[c.at] = c.before))
      .with({ kind: "remove" }, (c) => replaceRows(rows, mergeBack(rows, c.removed)))
      .exhaustive();
  }
}

/**
 * What earlier interleaved undos could not put back, for the undos that follow: `voided` holds the
 * records whose insert was undone (`collection:id`; none of them comes back), `retracted` maps a
 * version a rolled-back request wrote, and another request had already written over, to the version
 * before it (an undo that would bring that version back brings the one before instead).
 */
export interface Undone {
  readonly voided: Set<string>;
  readonly retracted: WeakMap<AnyRecord, AnyRecord>;
}

/**
 * Undo changes, newest first, when other requests wrote between them: by id, not by position. An
 * insert goes if its record is still there; an update is undone only where the record is still the
 * one it wrote (a later write by another request stays); removed records come back in id order.
 */
export function undoInterleaved(state: StoreState, changes: readonly Change[], undone: Undone): void {
  const resolve = (record: AnyRecord): AnyRecord => {
    let version = record;
    for (let next = undone.retracted.get(version); next; next = undone.retracted.get(version)) version = next;
    return version;
  };
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i] as Change;
    const rows = rowsOf(state, change.collection);
    match(change)
      .with({ kind: "insert" }, (c) => {
        undone.voided.add(recordKey(c.collection, c.record.id));
        const at = positionOf(rows, c.record.id);
        if (at >= 0) rows.splice(at, 1);
      })
      .with({ kind: "update" }, (c) => {
        const at = rows[c.at]?.id === c.after.id ? c.at : positionOf(rows, c.after.id);
        if (at >= 0 && rows[at] === c.after) rows[at] = resolve(c.before);
        else undone.retracted.set(c.after, resolve(c.before));
      })
      .with({ kind: "remove" }, (c) => {
        for (const [, removed] of c.removed) {
          if (undone.voided.has(recordKey(c.collection, removed.id)) || positionOf(rows, removed.id) >= 0) continue;
          const after = rows.findIndex((r) => r.id > removed.id);
          rows.splice(after < 0 ? rows.length : after, 0, resolve(removed));
        }
      })
      .exhaustive();
  }
}

const positionOf = (rows: Rows, id: number): number => rows.findIndex((r) => r.id === id);
const recordKey = (collection: CollectionName, id: number) => `${collection}:${id}`;

/** Each record the changes touched, once, in the order first touched. */
export function touchedBy(changes: readonly Change[]): (readonly [CollectionName, number])[] {
  const seen = new Set<string>();
  const out: (readonly [CollectionName, number])[] = [];
  const add = (collection: CollectionName, id: number) => {
    const key = recordKey(collection, id);
    if (seen.has(key)) return;
    seen.add(key);
    out.push([collection, id]);
  };
  for (const change of changes) {
    match(change)
      .with({ kind: "insert" }, (c) => add(c.collection, c.record.id))
      .with({ kind: "update" }, (c) => add(c.collection, c.after.id))
      .with({ kind: "remove" }, (c) => c.removed.forEach(([, record]) => add(c.collection, record.id)))
      .exhaustive();
  }
  return out;
}

/** The removed records back at their old positions, in one pass. */
function mergeBack(rows: Rows, removed: readonly (readonly [number, AnyRecord])[]): Rows {
  const merged: Rows = [];
  let next = 0;
  for (const [at, record] of removed) {
    while (merged.length < at && next < rows.length) merged.push(rows[next++] as AnyRecord);
    merged.push(record);
  }
  while (next < rows.length) merged.push(rows[next++] as AnyRecord);
  return merged;
}

/** Same array object (json-server's database holds it), new content. */
function replaceRows(rows: Rows, content: Rows): void {
  rows.length = 0;
  for (const record of content) rows.push(record);
}

/**
 * Apply redo records (recovery). Puts keep an existing record's position; new ones go before the first
 * record with a larger id (last, for the newest id: where the store put them, also when two requests'
 * inserts were logged in the other order).
 */
export function redo(state: StoreState, records: readonly Redo[]): void {
  // Positions by id, per collection, built on first use and dropped when a delete shifts them.
  const positions = new Map<CollectionName, Map<number, number>>();
  const positionsOf = (collection: CollectionName, rows: Rows) => {
    let map = positions.get(collection);
    if (!map) {
      map = new Map(rows.map((r, at) => [r.id, at]));
      positions.set(collection, map);
    }
    return map;
  };
  for (const record of records) {
    const rows = rowsOf(state, record[1]);
    if (record[0] === "put") {
      const [, collection, value] = record;
      const at = positionsOf(collection, rows).get(value.id);
      if (at !== undefined) rows[at] = value;
      else if (!(((rows[rows.length - 1] as AnyRecord | undefined)?.id ?? -Infinity) > value.id))
        positionsOf(collection, rows).set(value.id, rows.push(value) - 1);
      else {
        rows.splice(
          rows.findIndex((r) => r.id > value.id),
          0,
          value,
        );
        positions.delete(collection);
      }
    } else {
      const ids = new Set(record[2]);
      const kept = rows.filter((r) => !ids.has(r.id));
      replaceRows(rows, kept);
      positions.delete(record[1]);
    }
  }
}
