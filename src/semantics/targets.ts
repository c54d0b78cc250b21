import type { JsonValue } from "../vocabulary/json.js";
import { assertNever } from "../vocabulary/never.js";
import { ANNOTATION_AUTHOR_TRAVERSAL, engineColumn, type ArrayColumn, type Scalar, type ScalarColumn } from "./columns.js";
import { dataAt, type PathStep, type PreparedDataset } from "./dataset.js";
import { jsonbFieldText, jsonbText } from "../emulation/jsonb.js";
import { arrayText, float8In, float8Text, timestamptzText } from "../emulation/postgres.js";
import { pyType } from "../emulation/python-json.js";
import { parsePyInt } from "../emulation/python-text.js";
import type { AnnotationRecord, TaskRecord } from "./records.js";
import { moveTyped, type Patcher } from "./rows.js";
import type { InlineRead } from "./fused.js";

/**
 * What a generic condition reads: a task column, a `data` key (as JSON, or cast to float for a
 * Number filter), an ArrayAgg annotation, or the joined annotation row of the allow-listed
 * `annotations__completed_by` traversal. Values: null/undefined = SQL NULL; for a JSON key,
 * undefined = missing key (SQL NULL) and null = JSON null.
 */
export type Target =
  | {
      readonly t: "scalar";
      readonly key: string;
      readonly col: ScalarColumn;
      readonly get: (i: number) => Scalar | null;
      readonly firstPyType: string;
      /** How a fused scan reads it inline (the id, inner_id, a timestamp), when it can. */
      readonly inline?: InlineRead;
      /** Its numbers read one task at a time, when the dataset keeps no column of them and was never asked (ScalarColumn.streamed). */
      readonly streamed?: (i: number) => number | null;
    }
  | {
      readonly t: "array";
      readonly col: ArrayColumn;
      readonly get: (i: number) => readonly (Scalar | JsonValue)[];
      readonly firstPyType: string;
    }
  | {
      readonly t: "json";
      readonly key: string;
      readonly field: string;
      readonly get: (i: number) => JsonValue | undefined;
      readonly firstPyType: string;
      /** How a fused scan reads it inline (one object key), when it can. */
      readonly inline?: InlineRead;
    }
  | {
      readonly t: "dataNumber";
      readonly key: string;
      readonly field: string;
      readonly alias: string;
      readonly get: (i: number) => number | null;
      /** The cast of every task, read straight by number comparisons (undefined: `get` casts each task as it reads it). */
      readonly cast: Cast | undefined;
      /** The first text Postgres cannot cast to float, if any task holds one (every task cast). */
      readonly badText: () => string | undefined;
      readonly firstPyType: string;
      /** How a fused scan reads it inline (a streamed cast of one key), when it can. */
      readonly inline?: InlineRead;
    }
  | { readonly t: "annAuthor"; readonly field: string; readonly firstPyType: string };

/** `preprocess_field_name`: `data.` becomes `data__` everywhere in the name. */
export function djangoFieldName(column: string): string {
  return column.replaceAll("data.", "data__");
}

/** A Django lookup path `data__a__0`: KeyTransforms, `->` for one step (an int-like key indexes), `#>` for more. */
export function lookupPath(fieldName: string): PathStep[] {
  const parts = fieldName.split("__").slice(1);
  if (parts.length === 1) return [singleStep(parts[0] as string)];
  return parts.map((p) => ({ key: p, index: /^\s*[+-]?\d+\s*$/.test(p) ? Number(p) : undefined }));
}

/** One `->` step: Django sends an int-like key as an integer, which only indexes a list. */
export function singleStep(key: string): PathStep {
  const n = parsePyInt(key);
  return n === undefined ? { key, index: undefined } : { key: undefined, index: n };
}

/** `field_name.replace('data__', '')`: the key KeyTextTransform reads for Number filters and ordering. */
export function literalJsonField(fieldName: string): string {
  return fieldName.replaceAll("data__", "");
}

export function dataReader(ds: PreparedDataset, path: readonly PathStep[]): (i: number) => JsonValue | undefined {
  const tasks = ds.tasks;
  const only = path.length === 1 ? (path[0] as PathStep).key : undefined;
  if (only === undefined) return (i) => dataAt((tasks[i] as TaskRecord).data, path);
  // One object key (the usual `data.<key>`): no path walk. A value found that is an object or a
  // function may come from Object.prototype (`constructor`, `__proto__`): only own keys count.
  return (i) => {
    const data = (tasks[i] as TaskRecord).data;
    const v = data[only];
    if (v === undefined || Array.isArray(data)) return undefined;
    return (typeof v === "object" && v !== null) || typeof v === "function" ? (Object.hasOwn(data, only) ? v : undefined) : v;
  };
}

/**
 * `CAST(data->>'<key>' AS float)` of every task: the floats (NaN is a value here, as in Postgres),
 * `nulls` marking SQL NULL (a missing key, a JSON null, a text that does not cast) and `bad` a text
 * Postgres cannot cast.
 */
export interface Cast {
  readonly values: Float64Array;
  readonly nulls: Uint8Array;
  readonly bad: Uint8Array;
  /** The first such text, in id order: the one the server's error names. */
  readonly badText: string | undefined;
}

/** One task's cast: its float (null for NULL), or the text that does not cast. */
function castOne(v: JsonValue | undefined): number | null | { bad: string } {
  // A JSON number's text casts back to the same float; only other values need the text.
  if (typeof v === "number") return v;
  const text = v === undefined ? null : typeof v === "string" ? v : jsonbFieldText(v);
  if (text === null) return null;
  const f = float8In(text);
  return f === undefined ? { bad: text } : f;
}

/** Row `i` of a cast from the task's value; true when the value is a text that does not cast. */
function castInto(cast: Cast, i: number, v: JsonValue | undefined): string | undefined {
  const c = typeof v === "number" ? v : castOne(v);
  if (typeof c === "number") {
    cast.values[i] = c;
    cast.nulls[i] = cast.bad[i] = 0;
    return undefined;
  }
  cast.values[i] = 0;
  cast.nulls[i] = 1;
  cast.bad[i] = c === null ? 0 : 1;
  return c === null ? undefined : c.bad;
}

/** A cast's value at a row: the float, or null for SQL NULL. */
export const castAt = (cast: Cast, i: number): number | null => (cast.nulls[i] === 1 ? null : (cast.values[i] as number));

/** `CAST(data->>'<key>' AS float)` of every task, memoised per key and patched by writes. */
export function castData(ds: PreparedDataset, jsonField: string): Cast {
  return ds.memo(
    `cast:${jsonField}`,
    (): Cast => {
      const read = dataReader(ds, [singleStep(jsonField)]);
      const n = ds.size;
      const cast = emptyCast(n);
      for (let i = 0; i < n; i++) {
        const bad = castInto(cast, i, read(i));
        if (bad !== undefined) cast.badText ??= bad;
      }
      return cast;
    },
    followCast(ds, jsonField),
  );
}

const emptyCast = (n: number) => ({
  values: new Float64Array(n),
  nulls: new Uint8Array(n),
  bad: new Uint8Array(n),
  badText: undefined as string | undefined,
});

function followCast(ds: PreparedDataset, jsonField: string): Patcher<Cast> {
  return (cast, p) => {
    const read = dataReader(ds, [singleStep(jsonField)]);
    const next = { values: moveTyped(cast.values, p), nulls: moveTyped(cast.nulls, p, 1), bad: moveTyped(cast.bad, p), badText: undefined };
    for (const i of p.changed) castInto(next, i, read(i));
    return { ...next, badText: firstBad(next, read) };
  };
}

/** The text of the first row (in id order) that does not cast: the one the server's error names. */
function firstBad(cast: Cast, read: (i: number) => JsonValue | undefined): string | undefined {
  const first = cast.bad.indexOf(1);
  const again = first < 0 ? undefined : castOne(read(first));
  return again !== undefined && again !== null && typeof again !== "number" ? again.bad : undefined;
}

/**
 * The cast read straight from each task as a scan tests it, for a dataset that keeps none and was
 * never asked for one (a one-off evaluation): each task's value is read once, in the scan's own
 * pass, and no column is built. `finish` reads the tasks no test read (the server's error for a text
 * that does not cast reads every task) and gives the first such text.
 */
interface StreamedCast {
  /** Row `i`'s float, or null for NULL (a text that does not cast is noted). */
  readonly at: (i: number) => number | null;
  readonly finish: () => string | undefined;
  /** A scan read every task (through `at`, or straight when the value is a number): `finish` reads none again. */
  readonly all: () => void;
}

function streamedCast(ds: PreparedDataset, jsonField: string): StreamedCast {
  const read = dataReader(ds, [singleStep(jsonField)]);
  const n = ds.size;
  const seen = new Uint8Array(n);
  let unseen = n,
    firstBad = n;
  const at = (i: number): number | null => {
    const v = read(i);
    if (seen[i] === 0) {
      seen[i] = 1;
      unseen--;
    }
    if (typeof v === "number") return v;
    const c = castOne(v);
    if (c === null || typeof c === "number") return c;
    if (i < firstBad) firstBad = i;
    return null;
  };
  return {
    at,
    all() {
      unseen = 0;
    },
    finish() {
      if (unseen > 0) for (let i = 0; i < n; i++) if (seen[i] === 0) at(i);
      const c = firstBad === n ? null : castOne(read(firstBad));
      return c !== null && typeof c === "object" ? c.bad : undefined;
    },
  };
}

export function pyTypeOfScalar(col: ScalarColumn, v: Scalar | null): string {
  if (v === null) return "NoneType";
  return { int: "int", float: "float", timestamp: "datetime", bool: "bool", text: "str" }[col.db];
}

/** The target of a generic condition on `column` (without prefix) with the filter's `type`. */
export function targetOf(ds: PreparedDataset, column: string, type: string): Target | undefined {
  const first = ds.size > 0 ? 0 : -1;
  if (column.startsWith("data.")) {
    const field = djangoFieldName(column);
    const path = lookupPath(field);
    const read = dataReader(ds, path);
    const firstPyType = first < 0 ? "str" : pyType(read(first));
    if (type === "Number") {
      const jsonField = literalJsonField(field);
      const number = {
        t: "dataNumber",
        key: `number:${jsonField}`,
        field,
        alias: `filter_${jsonField.replaceAll("$undefined$", "undefined")}`,
        firstPyType,
      } as const;
      if (!ds.keeps(`cast:${jsonField}`) && ds.firstAsk(`cast:${jsonField}`)) {
        const streamed = streamedCast(ds, jsonField);
        const { key } = singleStep(jsonField);
        const inline = key === undefined ? {} : { inline: { r: "number", key, cast: streamed.at, all: streamed.all } as const };
        return { ...number, get: streamed.at, cast: undefined, badText: streamed.finish, ...inline };
      }
      const cast = castData(ds, jsonField);
      return { ...number, get: (i) => castAt(cast, i), cast, badText: () => cast.badText };
    }
    const only = path.length === 1 ? (path[0] as PathStep).key : undefined;
    return {
      t: "json",
      key: `json:${field}`,
      field,
      get: read,
      firstPyType,
      ...(only === undefined ? {} : { inline: { r: "data", key: only } }),
    };
  }
  if (column === ANNOTATION_AUTHOR_TRAVERSAL) {
    const firstRow = first < 0 ? undefined : ds.annotations[first]?.[0];
    return { t: "annAuthor", field: column, firstPyType: firstRow?.completed_by != null ? "int" : first < 0 ? "str" : "NoneType" };
  }
  const col = engineColumn(column);
  if (col === undefined) return undefined;
  if (col.db === "array") {
    return { t: "array", col, get: col.read(ds), firstPyType: first < 0 ? "str" : "list" };
  }
  const get = col.read(ds);
  const streamed = col.streamed?.(ds);
  // One task's value without the column (which a fused scan may never need).
  const firstValue = first < 0 ? null : col.one !== undefined ? col.one(ds, first) : get(first);
  return {
    t: "scalar",
    key: `column:${column}`,
    col,
    get,
    firstPyType: first < 0 ? "str" : pyTypeOfScalar(col, firstValue),
    ...(col.inline === undefined ? {} : { inline: col.inline }),
    ...(streamed === undefined ? {} : { streamed }),
  };
}

/** The annotation row value of the `annotations__completed_by` traversal. */
export const authorOf = (a: AnnotationRecord | null): number | null => (a === null ? null : a.completed_by);

// ---------------------------------------------------------------------------------------------
// Text forms (`::text`, `->>`) for contains and regex

export function scalarText(col: ScalarColumn, v: Scalar | null): string | null {
  if (v === null) return null;
  // plain switch: hot loop, per task in contains/regex scans (measured: 24 ms vs 377 ms per 1M values with match)
  switch (col.db) {
    case "int":
      return String(v);
    case "float":
      return float8Text(v as number);
    case "timestamp":
      return timestamptzText(v as number);
    case "bool":
      return v ? "true" : "false";
    case "text":
      return v as string;
    default:
      return assertNever(col.db, "column type");
  }
}

export function arrayElementsText(col: ArrayColumn, elements: readonly (Scalar | JsonValue)[]): string {
  return arrayText(elements.map((e) => (e === null ? null : col.element === "json" ? jsonbText(e as JsonValue) : String(e))));
}

/**
 * A target's reader made again from its key (`column:<name>`, `json:<field>`, `number:<key>`): a kept
 * index follows a write by reading the changed rows through the dataset's current columns.
 */
export function readerOfKey(ds: PreparedDataset, key: string): (i: number) => unknown {
  const at = key.indexOf(":");
  const kind = key.slice(0, at),
    name = key.slice(at + 1);
  if (kind === "number") {
    const cast = castData(ds, name);
    return (i) => castAt(cast, i);
  }
  if (kind === "json") return dataReader(ds, lookupPath(name));
  const col = kind === "column" ? engineColumn(name) : undefined;
  if (col === undefined) throw new Error(`engine: no reader for the target key ${JSON.stringify(key)}`);
  return col.read(ds);
}
