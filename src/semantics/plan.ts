import type { PreparedDataset } from "./dataset.js";
import type { Lookup, RowLookup } from "./pieces.js";
import type { AnnotationRecord } from "./records.js";
import { moveIndexes, moveRows, type Patcher } from "./rows.js";
import { readerOfKey } from "./targets.js";
import type { Fused } from "./fused.js";

/**
 * What the server's planner does with indexes, for the engine: a filter line that is an equality
 * (`equal`, `in_list`) is a Lookup; an OR of lookups on one target merges into one; a lookup on
 * `id` reads the primary key; any other lookup uses an equality index over its target once the
 * dataset has been asked for it twice (PreparedDataset.index). Candidates are task indexes in
 * ascending order; the filter's test still decides unless the candidates are exact.
 */

/** A filter line compiled: its test, its lookup when it is one equality, and a cost to order AND-ed lines by. */
export interface Line {
  readonly test: (i: number) => boolean;
  readonly lookup?: Lookup;
  readonly cost: number;
  /**
   * The line holds exactly for the tasks having a joined row the lookup finds and passing `rest`
   * (the line's other tests; none: the lookup is the whole line).
   */
  readonly within?: { readonly lookup: RowLookup; readonly rest: ((i: number) => boolean) | undefined };
  /** The test as a fused scan compiles it (fused.ts). */
  readonly fused: Fused;
}

export interface Candidates {
  /** Task indexes, ascending: every task the filter can select (maybe more). */
  readonly indexes: ArrayLike<number>;
  /** The candidates are exactly the selected tasks: no test needed. */
  readonly exact: boolean;
}

/** Merge lookups on one target (an OR of equalities, `in_list` lines) into one set lookup. */
export function mergeLookups(lookups: readonly Lookup[]): Lookup | undefined {
  const first = lookups[0];
  if (first === undefined || lookups.some((l) => l.target !== first.target)) return undefined;
  if (lookups.length === 1) return first;
  const keys = new Set<unknown>();
  for (const l of lookups) for (const k of l.keys) keys.add(k);
  return { target: first.target, get: first.get, keys, ...(first.read ? { read: first.read } : {}) };
}

/** A lookup as a fused scan tests it: inline when its target has an inline read. */
export function lookupFused(l: Lookup, test: (i: number) => boolean): Fused {
  return l.read === undefined ? { k: "call", test } : { k: "inline", inline: { read: l.read, test: { t: "in", keys: l.keys } } };
}

export function lookupTest(l: Lookup): (i: number) => boolean {
  return keyTest(l.get, l.keys);
}

/**
 * `keys.has(get(i))`; with one key a comparison instead of a hash probe (SameValueZero, as the
 * set's: NaN equals NaN).
 */
export function keyTest(get: (i: number) => unknown, keys: ReadonlySet<unknown>): (i: number) => boolean {
  if (keys.size !== 1) return (i) => keys.has(get(i));
  const [key] = keys;
  if (key !== key) return (i) => Number.isNaN(get(i));
  return (i) => get(i) === key;
}

/**
 * An equality index over a target: value -> the task indexes holding it, ascending (one index as a
 * number), and each row's value (what a write's patch takes the row out of).
 */
interface EqualityIndex {
  readonly map: Map<unknown, number | number[]>;
  readonly values: unknown[];
}

/** NULL, a missing key and JSON containers never equal a scalar key. */
const isKey = (v: unknown) => v !== null && v !== undefined && typeof v !== "object";

function buildIndex(ds: PreparedDataset, get: (i: number) => unknown): EqualityIndex {
  const map = new Map<unknown, number | number[]>();
  const values = new Array<unknown>(ds.size);
  for (let i = 0; i < ds.size; i++) {
    const v = get(i);
    values[i] = v;
    if (!isKey(v)) continue;
    const at = map.get(v);
    if (at === undefined) map.set(v, i);
    else if (typeof at === "number") map.set(v, [at, i]);
    else at.push(i);
  }
  return { map, values };
}

/** Rows moved, then each changed row out of its old value's entry and into its new one's, in order. */
function followIndex(ds: PreparedDataset, target: string): Patcher<EqualityIndex> {
  return (index, p) => {
    const { map, values } = index;
    if (p.moved !== undefined) {
      for (const [v, at] of map) {
        const rows = typeof at === "number" ? moveIndexes([at], p) : moveIndexes(at, p);
        if (rows.length === 0) map.delete(v);
        else map.set(v, rows.length === 1 ? (rows[0] as number) : rows);
      }
    }
    moveRows(values, p, undefined);
    const inserted = new Set(p.inserted);
    const read = readerOfKey(ds, target);
    for (const i of p.changed) {
      const old = values[i];
      if (!inserted.has(i) && isKey(old)) {
        const at = map.get(old) as number | number[];
        if (typeof at === "number") map.delete(old);
        else {
          const rest = at.filter((r) => r !== i);
          map.set(old, rest.length === 1 ? (rest[0] as number) : rest);
        }
      }
      const v = read(i);
      values[i] = v;
      if (!isKey(v)) continue;
      const at = map.get(v);
      if (at === undefined) map.set(v, i);
      else map.set(v, sortedWith(typeof at === "number" ? [at] : at, i));
    }
    return index;
  };
}

/** A new ascending list with `i` in its place (usually the end: new rows come last). */
function sortedWith(rows: readonly number[], i: number): number[] {
  let k = rows.length;
  while (k > 0 && (rows[k - 1] as number) > i) k--;
  return [...rows.slice(0, k), i, ...rows.slice(k)];
}

/** The tasks a lookup selects, ascending, or undefined when only a scan can tell (no index yet). */
export function lookupIndexes(ds: PreparedDataset, l: Lookup): number[] | undefined {
  const out: number[] = [];
  if (l.target === "column:id") {
    // The primary key: every task's index is known without building anything.
    for (const key of l.keys) {
      const i = typeof key === "number" ? ds.indexOf(key) : undefined;
      if (i !== undefined) out.push(i);
    }
  } else {
    const index = ds.index(`eq:${l.target}`, () => buildIndex(ds, l.get), followIndex(ds, l.target));
    if (index === undefined) return undefined;
    for (const key of l.keys) {
      const at = index.map.get(key);
      if (at === undefined) continue;
      if (typeof at === "number") out.push(at);
      else for (const i of at) out.push(i);
    }
  }
  // Distinct keys of one target hold distinct tasks: sorting is all a union needs.
  if (l.keys.size > 1) out.sort((a, b) => a - b);
  return out;
}

/** Without an index: one read and one hash probe per task (a hot loop: no test closure in between). */
function scan(ds: PreparedDataset, l: Lookup): number[] {
  const { keys, get } = l;
  const out: number[] = [];
  const n = ds.size;
  for (let i = 0; i < n; i++) if (keys.has(get(i))) out.push(i);
  return out;
}

/** Sorted union of sorted index lists, without duplicates. */
function union(lists: readonly (readonly number[])[]): number[] {
  const all = lists.flat().sort((a, b) => a - b);
  const out: number[] = [];
  for (const i of all) if (out.length === 0 || out[out.length - 1] !== i) out.push(i);
  return out;
}

/**
 * An index of the tasks by their annotations' values: value -> the task indexes having an
 * annotation with it, ascending, once each; and each row's values (what a write's patch takes the
 * row out of).
 */
interface RowIndex {
  readonly map: Map<unknown, number[]>;
  readonly values: (readonly unknown[])[];
}

const NO_VALUES: readonly unknown[] = Object.freeze([]);

function rowValues(rows: readonly AnnotationRecord[], of: (a: AnnotationRecord) => unknown): readonly unknown[] {
  if (rows.length === 0) return NO_VALUES;
  const out: unknown[] = [];
  for (const a of rows) {
    const v = of(a);
    if (isKey(v) && !out.includes(v)) out.push(v);
  }
  return out;
}

function buildRowIndex(ds: PreparedDataset, of: (a: AnnotationRecord) => unknown): RowIndex {
  const map = new Map<unknown, number[]>();
  const groups = ds.annotations;
  const values = new Array<readonly unknown[]>(ds.size);
  for (let i = 0; i < ds.size; i++) {
    const vs = (values[i] = rowValues(groups[i] as readonly AnnotationRecord[], of));
    for (const v of vs) {
      const at = map.get(v);
      if (at === undefined) map.set(v, [i]);
      else at.push(i);
    }
  }
  return { map, values };
}

/** Rows moved, then each changed row out of its old values' entries and into its new ones', in order. */
function followRowIndex(ds: PreparedDataset, of: (a: AnnotationRecord) => unknown): Patcher<RowIndex> {
  return (index, p) => {
    const { map, values } = index;
    if (p.moved !== undefined) {
      for (const [v, rows] of map) {
        const moved = moveIndexes(rows, p);
        if (moved.length === 0) map.delete(v);
        else map.set(v, moved);
      }
    }
    moveRows(values, p, NO_VALUES);
    const inserted = new Set(p.inserted);
    const groups = ds.annotations;
    for (const i of p.changed) {
      if (!inserted.has(i)) {
        for (const old of values[i] as readonly unknown[]) {
          const rest = (map.get(old) as number[]).filter((r) => r !== i);
          if (rest.length === 0) map.delete(old);
          else map.set(old, rest);
        }
      }
      const vs = (values[i] = rowValues(groups[i] as readonly AnnotationRecord[], of));
      for (const v of vs) {
        const at = map.get(v);
        map.set(v, at === undefined ? [i] : sortedWith(at, i));
      }
    }
    return index;
  };
}

/** The tasks having a joined row the lookup finds, ascending, or undefined when only a scan can tell (no index yet). */
export function rowLookupIndexes(ds: PreparedDataset, l: RowLookup): number[] | undefined {
  const index = ds.index(`rows:${l.target}`, () => buildRowIndex(ds, l.of), followRowIndex(ds, l.of));
  if (index === undefined) return undefined;
  const lists: number[][] = [];
  for (const key of l.keys) {
    const at = index.map.get(key);
    if (at !== undefined) lists.push(at);
  }
  // One task may have rows with several of the keys: a union.
  return lists.length === 1 ? (lists[0] as number[]) : union(lists);
}

/** The tasks a line holds for, ascending, when an index tells (undefined: scan). */
function lineIndexes(ds: PreparedDataset, line: Line): number[] | undefined {
  if (line.lookup !== undefined) return lookupIndexes(ds, line.lookup);
  if (line.within === undefined) return undefined;
  const found = rowLookupIndexes(ds, line.within.lookup);
  const rest = line.within.rest;
  return found === undefined || rest === undefined ? found : found.filter((i) => rest(i));
}

/** Candidates for lines combined by `conjunction`, or undefined to scan every task. */
export function candidates(ds: PreparedDataset, lines: readonly Line[], conjunction: string): Candidates | undefined {
  if (lines.length === 1 || conjunction === "or") {
    // OR: every line must narrow, and each line's candidates are exact.
    if (!lines.every((l) => l.lookup !== undefined || l.within !== undefined)) return undefined;
    if (lines.length === 1) {
      const line = lines[0] as Line;
      const found = lineIndexes(ds, line);
      if (found !== undefined) return { indexes: found, exact: true };
      // A lookup a fused scan reads inline is scanned there (one pass that also checks the tasks).
      return line.lookup === undefined || line.lookup.read !== undefined ? undefined : { indexes: scan(ds, line.lookup), exact: true };
    }
    const lists: number[][] = [];
    for (const line of lines) {
      const found = lineIndexes(ds, line);
      if (found === undefined) return undefined;
      lists.push(found);
    }
    return { indexes: union(lists), exact: true };
  }
  // AND: the narrowest line an index answers; the other lines are tested on its tasks.
  let best: number[] | undefined;
  for (const line of lines) {
    const found = line.lookup !== undefined ? lookupIndexes(ds, line.lookup) : line.within && rowLookupIndexes(ds, line.within.lookup);
    if (found !== undefined && (best === undefined || found.length < best.length)) best = found;
  }
  return best === undefined ? undefined : { indexes: best, exact: false };
}
