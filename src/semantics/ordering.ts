import { match, P } from "ts-pattern";
import type { OrderingNode } from "../query/nodes.js";
import { isAgreementRelated, engineColumn } from "./columns.js";
import type { PreparedDataset } from "./dataset.js";
import type { EvaluationError } from "./errors.js";
import { unhandled } from "./errors.js";
import { cannotResolve } from "./field-error.js";
import { jsonbCompare, jsonbFieldText } from "../emulation/jsonb.js";
import { collate, compareArrays, compareFloat8 } from "../emulation/postgres.js";
import type { JsonValue } from "../vocabulary/json.js";
import { moveIndexes, type Patcher } from "./rows.js";
import { castAt, castData, dataReader, djangoFieldName, literalJsonField, singleStep } from "./targets.js";

/**
 * `apply_ordering` (docs/reference/ordering.md#ordering): only the first key counts; NULLs sort
 * last in both directions; `data.*` sorts as text unless `columnsDisplayType` marks it Number (then
 * as float, falling back to text when a selected task's value does not cast); ties by id,
 * ascending.
 */
export type Order =
  | { readonly k: "ok"; readonly sort: (indexes: number[]) => number[] }
  | { readonly k: "error"; readonly error: EvaluationError };

const BY_ID: Order = { k: "ok", sort: (ix) => ix };

type Key<T> = {
  readonly get: (i: number) => T | null;
  readonly cmp: (a: T, b: T) => number;
  /** Text under the collation: the code-point fast path applies. */
  readonly text?: boolean;
};

/** NULLs last in both directions, else the key's order (`cmp` over positions, reversed when descending); 0 on a tie. */
function ordered<T>(a: T | null, b: T | null, sign: number, cmp: (x: number, y: number) => number, x: number, y: number): number {
  if (a === null || b === null) {
    if (a !== b) return a === null ? 1 : -1;
    return 0;
  }
  return sign * cmp(x, y);
}

/**
 * Order task indexes by a key: NULLs last in both directions, ties by id (= index) ascending.
 * With a reused dataset the whole project's order is kept as an index (`id` names the key), and a
 * large selection is ordered by walking it instead of sorting. `keyOf` makes the key's reader over
 * the dataset as it is (again when a write patches the kept order).
 */
function sorter<T>(ds: PreparedDataset, id: string, keyOf: () => Key<T>, descending: boolean): Order & { k: "ok" } {
  const key = keyOf();
  const sign = descending ? -1 : 1;
  const sortIndexes = (indexes: readonly number[]): number[] => {
    const n = indexes.length;
    const values: (T | null)[] = new Array<T | null>(n);
    for (let j = 0; j < n; j++) values[j] = key.get(indexes[j] as number);
    const order: number[] = new Array<number>(n);
    for (let j = 0; j < n; j++) order[j] = j;
    const cmp = key.text ? textCompare(values as (string | null)[]) : (x: number, y: number) => key.cmp(values[x] as T, values[y] as T);
    order.sort(
      (x, y) => ordered(values[x] as T | null, values[y] as T | null, sign, cmp, x, y) || (indexes[x] as number) - (indexes[y] as number),
    );
    for (let j = 0; j < n; j++) order[j] = indexes[order[j] as number] as number;
    return order;
  };
  return {
    k: "ok",
    sort(indexes) {
      // Walking the project's order costs one cheap pass over it; sorting costs k·log k
      // comparisons of a few dozen ns each: below about n/256 tasks, sorting is cheaper.
      if (indexes.length * 256 < ds.size) return sortIndexes(indexes);
      const all = ds.index(
        `order:${id}:${descending ? "desc" : "asc"}`,
        () => Int32Array.from(sortIndexes(everyIndex(ds.size))),
        followOrder(keyOf, sign),
      );
      if (all === undefined) return sortIndexes(indexes);
      const member = new Uint8Array(ds.size);
      for (let k = 0; k < indexes.length; k++) member[indexes[k] as number] = 1;
      // Sized once (the indexes are distinct): no copy as it grows.
      const out: number[] = new Array<number>(indexes.length);
      let n = 0;
      for (let k = 0; k < all.length; k++) {
        const i = all[k] as number;
        if (member[i] === 1) out[n++] = i;
      }
      out.length = n;
      return out;
    },
  };
}

/**
 * A kept order follows a write: rows moved, changed rows out, then each put back where a binary
 * search places it. Past an eighth of the rows, sorting them all again costs less: dropped.
 */
function followOrder<T>(keyOf: () => Key<T>, sign: number): Patcher<Int32Array> {
  return (order, p) => {
    if (p.changed.length * 8 > p.after) return undefined;
    const { get, cmp } = keyOf();
    const byRow = (x: number, y: number) => cmp(get(x) as T, get(y) as T);
    const compare = (x: number, y: number) => ordered(get(x), get(y), sign, byRow, x, y) || x - y;
    const changed = new Uint8Array(p.after);
    for (const i of p.changed) changed[i] = 1;
    const kept = moveIndexes(order, p).filter((i) => changed[i] === 0);
    const placed = p.changed.map((i) => {
      let lo = 0,
        hi = kept.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compare(kept[mid] as number, i) < 0) lo = mid + 1;
        else hi = mid;
      }
      return { i, at: lo };
    });
    placed.sort((a, b) => a.at - b.at || compare(a.i, b.i));
    const out = new Int32Array(p.after);
    let n = 0,
      j = 0;
    for (let k = 0; k <= kept.length; k++) {
      while (j < placed.length && (placed[j] as { at: number }).at === k) out[n++] = (placed[j++] as { i: number }).i;
      if (k < kept.length) out[n++] = kept[k] as number;
    }
    return out;
  };
}

function everyIndex(n: number): number[] {
  const out: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/**
 * `collate` over positions of `values`, with a fast path: two strings of only lowercase ASCII
 * letters, digits and spaces compare as code points, which is what the en-US collation does for
 * them (space < digits < letters, no case or accent levels involved).
 */
function textCompare(values: readonly (string | null)[]): (x: number, y: number) => number {
  const simple = new Uint8Array(values.length);
  for (let j = 0; j < values.length; j++) {
    const v = values[j];
    if (typeof v === "string" && SIMPLE_TEXT.test(v)) simple[j] = 1;
  }
  return (x, y) => {
    const a = values[x] as string,
      b = values[y] as string;
    if (a === b) return 0;
    if (simple[x] === 1 && simple[y] === 1) return a < b ? -1 : 1;
    return collate(a, b);
  };
}

// Letters and digits only: among such strings code-point order is the collation's (white space is ignored by it).
const SIMPLE_TEXT = /^[0-9a-z]*$/;

const numeric = (a: number, b: number) => compareFloat8(a, b);

export function compileOrdering(
  ds: PreparedDataset,
  ordering: readonly OrderingNode[] | undefined,
  columnsDisplayType: Readonly<Record<string, string>> | undefined,
  annotated: readonly string[] = [],
): Order {
  const first = ordering?.[0];
  if (first === undefined) return BY_ID;
  const { column, descending } = first;
  const field = djangoFieldName(column);
  const path = "ordering[0]";
  if (field.startsWith("data__")) {
    const jsonField = literalJsonField(field);
    const step = singleStep(jsonField);
    const asText = (): Key<string> => {
      const raw = dataReader(ds, [step]);
      return {
        get: (i) => {
          const v = raw(i);
          return v === undefined ? null : jsonbFieldText(v as JsonValue);
        },
        cmp: collate,
        text: true,
      };
    };
    if (columnsDisplayType?.[`tasks:${column}`] !== "Number") return sorter(ds, `text:${jsonField}`, asText, descending);
    const raw = dataReader(ds, [step]);
    const cast = castData(ds, jsonField);
    const asNumber = (): Key<number> => {
      const cast = castData(ds, jsonField);
      return { get: (i) => castAt(cast, i), cmp: numeric };
    };
    const textOrder = sorter(ds, `text:${jsonField}`, asText, descending);
    const numberOrder = sorter<number>(ds, `number:${jsonField}`, asNumber, descending);
    if (cast.badText === undefined) return numberOrder;
    // The numeric probe runs on the filtered tasks: fall back to text when one of them fails to cast.
    return {
      k: "ok",
      sort: (ix) =>
        (ix.some((i) => cast.nulls[i] === 1 && raw(i) !== undefined && jsonbFieldText(raw(i) as JsonValue) !== null)
          ? textOrder
          : numberOrder
        ).sort(ix),
    };
  }
  if (isAgreementRelated(field)) return BY_ID;
  // A many-to-many field no community task has rows in: every task sorts as NULL.
  if (field === "comment_authors") return BY_ID;
  if (field.includes("__")) {
    return {
      k: "error",
      error: unhandled(
        { path, expected: "a column of the task (dmq does not order by a related row)", found: JSON.stringify(column) },
        `dmq cannot order by ${column}: the server would return a task once per related row`,
        true,
      ),
    };
  }
  const col = engineColumn(field);
  if (col === undefined) return { k: "error", error: cannotResolve(path, field, annotated) };
  const id = `column:${field}`;
  /** The column's key over the dataset as it is. */
  const keyOf =
    <T>(cmp: (a: T, b: T) => number, text?: true) =>
    (): Key<T> => {
      const get = col.read(ds) as (i: number) => T | null;
      return text ? { get, cmp, text } : { get, cmp };
    };
  return match(col)
    .returnType<Order>()
    .with({ db: "array" }, (c) => {
      const element = match(c.element)
        .returnType<(a: unknown, b: unknown) => number>()
        .with("json", () => (a, b) => jsonbCompare(a as JsonValue, b as JsonValue))
        .with("text", () => (a, b) => collate(a as string, b as string))
        .with("int", () => (a, b) => (a as number) - (b as number))
        .exhaustive();
      return sorter<readonly unknown[]>(
        ds,
        id,
        keyOf((a, b) => compareArrays(a, b, element)),
        descending,
      );
    })
    .with({ db: "text" }, () => sorter<string>(ds, id, keyOf(collate, true), descending))
    .with({ db: "bool" }, () =>
      sorter<boolean>(
        ds,
        id,
        keyOf((a, b) => Number(a) - Number(b)),
        descending,
      ),
    )
    .with({ db: P.union("int", "float", "timestamp") }, () => sorter<number>(ds, id, keyOf(numeric), descending))
    .exhaustive();
}
