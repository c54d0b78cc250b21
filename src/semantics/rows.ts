/**
 * How a write moves a prepared dataset's rows, for the structures it keeps (columns, indexes, sort
 * orders): which rows left, which came in, which changed. Each kept structure follows a RowPatch
 * instead of being built again, so a write costs what it touched, not a pass over the project.
 */
export interface RowPatch {
  /** Rows before the write. */
  readonly before: number;
  /** Rows after it. */
  readonly after: number;
  /**
   * Old row -> new row (-1: removed), when a row was removed or one came in anywhere but at the end.
   * Undefined when rows only came in at the end (the usual create): old rows keep their index.
   */
  readonly moved: Int32Array | undefined;
  /** New rows whose task or related records changed, ascending; rows that came in are included. */
  readonly changed: readonly number[];
  /** New rows that came in, ascending. */
  readonly inserted: readonly number[];
}

/** A kept structure follows a patch: the structure brought up to date, or undefined to drop it (it is built again on use). */
export type Patcher<T> = (value: T, patch: RowPatch) => T | undefined;

/** A JS array with one entry per row, moved in place: removed rows leave, new rows get `fill`. */
export function moveRows<T>(list: T[], patch: Pick<RowPatch, "before" | "after" | "moved">, fill: T): void {
  const { moved } = patch;
  if (moved === undefined) {
    for (let i = patch.before; i < patch.after; i++) list.push(fill);
    return;
  }
  const next = new Array<T>(patch.after).fill(fill);
  for (let i = 0; i < patch.before; i++) {
    const to = moved[i] as number;
    if (to >= 0) next[to] = list[i] as T;
  }
  list.length = patch.after;
  for (let i = 0; i < patch.after; i++) list[i] = next[i] as T;
}

type Typed = Int32Array | Uint8Array | Float64Array;

/** A typed array with one entry per row, moved into a new array when the row count or order changed; new rows get `fill`. */
export function moveTyped<A extends Typed>(array: A, patch: RowPatch, fill = 0): A {
  const { moved } = patch;
  if (moved === undefined && patch.after === patch.before) return array;
  const next = new (array.constructor as new (n: number) => A)(patch.after);
  if (fill !== 0) next.fill(fill);
  if (moved === undefined) {
    next.set(array.subarray(0, patch.before) as never);
    return next;
  }
  for (let i = 0; i < patch.before; i++) {
    const to = moved[i] as number;
    if (to >= 0) next[to] = array[i] as number;
  }
  return next;
}

/** Row numbers (of an index entry, a sort order) moved to their new rows, removed ones dropped; the order is kept. */
export function moveIndexes(rows: ArrayLike<number>, patch: RowPatch): number[] {
  const { moved } = patch;
  const out: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k] as number;
    const to = moved === undefined ? i : (moved[i] as number);
    if (to >= 0) out.push(to);
  }
  return out;
}
