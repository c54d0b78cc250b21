import type { OrderingNode } from "../query/nodes.js";
import { isAgreementRelated, engineColumn, type Scalar } from "./columns.js";
import type { PreparedDataset } from "./dataset.js";
import type { EvaluationError } from "./errors.js";
import { serverError } from "./errors.js";
import { fieldError } from "./filters.js";
import { jsonbCompare, jsonbFieldText } from "../emulation/jsonb.js";
import { collate, compareArrays, compareFloat8 } from "../emulation/postgres.js";
import type { JsonValue } from "../vocabulary/json.js";
import { castData, djangoFieldName, literalJsonField, singleStep } from "./targets.js";
import { dataAt } from "./dataset.js";
import type { TaskRecord } from "./records.js";

/**
 * `apply_ordering` (server-semantics §4): only the first key counts; NULLs sort last in both
 * directions; `data.*` sorts as text unless `columnsDisplayType` marks it Number (then as float,
 * falling back to text when a selected task's value does not cast); ties by id, ascending.
 */
export type Order =
  | { readonly k: "ok"; readonly sort: (indexes: number[]) => number[] }
  | { readonly k: "error"; readonly error: EvaluationError };

const BY_ID: Order = { k: "ok", sort: (ix) => ix };

type Key<T> = { readonly get: (i: number) => T | null; readonly cmp: (a: T, b: T) => number };

function sorter<T>(key: Key<T>, descending: boolean): Order & { k: "ok" } {
  return {
    k: "ok",
    sort(indexes) {
      const n = indexes.length;
      const values: (T | null)[] = new Array<T | null>(n);
      for (let j = 0; j < n; j++) values[j] = key.get(indexes[j] as number);
      const order = Array.from({ length: n }, (_, j) => j);
      const sign = descending ? -1 : 1;
      const cmp = key.cmp;
      order.sort((x, y) => {
        const a = values[x] as T | null, b = values[y] as T | null;
        if (a === null || b === null) {
          if (a !== b) return a === null ? 1 : -1;
        } else {
          const c = cmp(a, b);
          if (c !== 0) return sign * c;
        }
        return (indexes[x] as number) - (indexes[y] as number);
      });
      return order.map((j) => indexes[j] as number);
    },
  };
}

const numeric = (a: number, b: number) => compareFloat8(a, b);

export function compileOrdering(
  ds: PreparedDataset,
  ordering: readonly OrderingNode[] | undefined,
  columnsDisplayType: Readonly<Record<string, string>> | undefined,
): Order {
  const first = ordering?.[0];
  if (first === undefined) return BY_ID;
  const { column, descending } = first;
  const field = djangoFieldName(column);
  const path = "ordering[0]";
  if (field.startsWith("data__")) {
    const jsonField = literalJsonField(field);
    const step = singleStep(jsonField);
    const raw = (i: number) => dataAt((ds.tasks[i] as TaskRecord).data, [step]);
    const asText: Key<string> = { get: (i) => {
      const v = raw(i);
      return v === undefined ? null : jsonbFieldText(v as JsonValue);
    }, cmp: collate };
    if (columnsDisplayType?.[`tasks:${column}`] !== "Number") return sorter(asText, descending);
    const cast = castData(ds, jsonField);
    const textOrder = sorter(asText, descending);
    const numberOrder = sorter<number>({ get: (i) => cast.values[i] ?? null, cmp: numeric }, descending);
    if (cast.badText === undefined) return numberOrder;
    // The numeric probe runs on the filtered tasks: fall back to text when one of them fails to cast.
    return {
      k: "ok",
      sort: (ix) => (ix.some((i) => cast.values[i] === null && raw(i) !== undefined && jsonbFieldText(raw(i) as JsonValue) !== null) ? textOrder : numberOrder).sort(ix),
    };
  }
  if (isAgreementRelated(field)) return BY_ID;
  if (field.includes("__")) {
    return { k: "error", error: serverError({ path, expected: "a column of the task (dmq does not order by a related row)", found: JSON.stringify(column) }, `dmq cannot order by ${column}: the server would return a task once per related row`, true) };
  }
  const col = engineColumn(field);
  if (col === undefined) return { k: "error", error: fieldError(path, field) };
  const get = col.read(ds) as (i: number) => unknown;
  if (col.db === "array") {
    const element = col.element === "json" ? (a: unknown, b: unknown) => jsonbCompare(a as JsonValue, b as JsonValue)
      : col.element === "text" ? (a: unknown, b: unknown) => collate(a as string, b as string)
      : (a: unknown, b: unknown) => (a as number) - (b as number);
    return sorter<readonly unknown[]>({ get: (i) => get(i) as readonly unknown[], cmp: (a, b) => compareArrays(a, b, element) }, descending);
  }
  if (col.db === "text") return sorter<string>({ get: (i) => get(i) as string | null, cmp: collate }, descending);
  if (col.db === "bool") return sorter<boolean>({ get: (i) => get(i) as boolean | null, cmp: (a, b) => Number(a) - Number(b) }, descending);
  return sorter<number>({ get: (i) => get(i) as Exclude<Scalar, string | boolean> | null, cmp: numeric }, descending);
}
