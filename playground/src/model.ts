import type { Conjunction } from "../../src/query/nodes.js";
import { columnKinds, type ColumnKindName } from "../../src/vocabulary/column-kinds.js";
import { columnNames, columns, DATA_PREFIX, kindOf } from "../../src/vocabulary/columns.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import type { OperatorName } from "../../src/vocabulary/operators.js";
import type { ShapeName } from "../../src/vocabulary/value-shapes.js";

/**
 * The editor's state: what the form holds, as text, before the builder sees it. Which operators a
 * column offers and which value input an operator gets come from the vocabulary's kind table, so
 * the form can only express combinations the builder accepts.
 */
export type ScalarKind = "text" | "number" | "boolean";

export interface ValueDraft {
  /** Single values, lists (comma-separated) and JSON. */
  readonly text: string;
  /** `{min, max}` ranges. */
  readonly min: string;
  readonly max: string;
  readonly flag: boolean;
  /** How `scalar` values and `scalarList` items are read. */
  readonly kind: ScalarKind;
}

export interface ConditionDraft {
  /** Without prefix: `completed_at`, `data.text`. */
  readonly column: string;
  /** Only for `data.*` columns; undefined lets the builder infer it from the value. */
  readonly type: string | undefined;
  readonly operator: OperatorName;
  readonly value: ValueDraft;
}

export interface LineDraft {
  readonly root: ConditionDraft;
  readonly children: readonly ConditionDraft[];
}

/** "none": no selectedItems; "all": `.all()`; the other two with the ids. */
export type SelectionMode = "none" | "all" | "excluding" | "including";

export interface Draft {
  readonly project: number;
  readonly conjunction: Conjunction;
  readonly lines: readonly LineDraft[];
  readonly ordering: { readonly column: string; readonly descending: boolean } | undefined;
  readonly selection: { readonly mode: SelectionMode; readonly ids: string };
}

export const emptyValue: ValueDraft = Object.freeze({ text: "", min: "", max: "", flag: true, kind: "text" });

export function emptyDraft(project: number): Draft {
  return { project, conjunction: "and", lines: [], ordering: undefined, selection: { mode: "none", ids: "" } };
}

export const isDataColumn = (column: string): boolean => column.startsWith(DATA_PREFIX);

/** Known columns by edition (Enterprise columns exist only on Label Studio Enterprise). */
export const knownColumns = {
  community: columnNames.filter((c) => columns[c].edition === "community"),
  enterprise: columnNames.filter((c) => columns[c].edition === "enterprise"),
};

export function kindOfCondition(c: Pick<ConditionDraft, "column" | "type">): ColumnKindName | undefined {
  return kindOf(c.column, c.type);
}

/** The operators a condition's column offers, with the value shape each takes. */
export function operatorsFor(c: Pick<ConditionDraft, "column" | "type">): readonly (readonly [OperatorName, ShapeName])[] {
  const kind = kindOfCondition(c);
  if (kind === undefined) return [];
  return Object.entries(columnKinds[kind].operators) as [OperatorName, ShapeName][];
}

export function shapeOf(c: Pick<ConditionDraft, "column" | "type" | "operator">): ShapeName | undefined {
  return operatorsFor(c).find(([op]) => op === c.operator)?.[1];
}

export function newCondition(column = "id", type?: string): ConditionDraft {
  const first = operatorsFor({ column, type })[0];
  if (!first) throw new RangeError(`no operators for column ${column}`);
  return { column, type, operator: first[0], value: emptyValue };
}

/** Another column (or type): keep the operator and value when they still fit. */
export function withColumn(c: ConditionDraft, column: string, type: string | undefined): ConditionDraft {
  const next = { column, type: isDataColumn(column) ? type : undefined };
  const offered = operatorsFor(next);
  const kept = offered.find(([op]) => op === c.operator);
  const operator = kept?.[0] ?? offered[0]?.[0] ?? c.operator;
  const sameShape = kept !== undefined && kept[1] === shapeOf(c);
  return { ...next, operator, value: sameShape ? c.value : emptyValue };
}

export function withOperator(c: ConditionDraft, operator: OperatorName): ConditionDraft {
  const same = shapeOf({ ...c, operator }) === shapeOf(c);
  return { ...c, operator, value: same ? c.value : emptyValue };
}

// ---------------------------------------------------------------------------------------------
// Form text -> builder input, and wire value -> form text

export type Input = { readonly ok: true; readonly input: unknown } | { readonly ok: false; readonly message: string };

const items = (text: string): string[] =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
/** An empty field is not 0: keep it NaN so the builder names it. */
const num = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));
const scalarOf = (text: string, kind: ScalarKind): string | number | boolean =>
  kind === "number" ? num(text) : kind === "boolean" ? text.trim().toLowerCase() === "true" : text;
/** A `datetime-local` value is read as UTC: `2024-01-01T10:00` → `2024-01-01T10:00:00Z`. */
const utc = (local: string): string => (local === "" ? "" : `${local.length === 16 ? `${local}:00` : local}Z`);

/** The value the builder is called with for this shape. */
export function inputOf(shape: ShapeName, v: ValueDraft): Input {
  const ok = (input: unknown): Input => ({ ok: true, input });
  switch (shape) {
    case "number":
    case "integer":
      return ok(num(v.text));
    case "numberRange":
    case "integerRange":
      return ok({ min: num(v.min), max: num(v.max) });
    case "datetime":
      return ok(utc(v.text));
    case "datetimeRange":
      return ok({ min: utc(v.min), max: utc(v.max) });
    case "boolean":
      return ok(v.flag);
    case "string":
    case "regex":
      return ok(v.text);
    case "scalar":
      return ok(scalarOf(v.text, v.kind));
    case "numberList":
    case "integerList":
    case "idList":
    case "userIds":
      return ok(items(v.text).map(num));
    case "scalarList":
      return ok(items(v.text).map((s) => scalarOf(s, v.kind)));
    case "stringList":
      return ok(items(v.text));
    case "json":
      try {
        return ok(JSON.parse(v.text) as JsonValue);
      } catch (error) {
        return {
          ok: false,
          message: `expected JSON (it is sent as JSON text), found text that does not parse: ${(error as Error).message}`,
        };
      }
  }
}

const kindOfScalar = (v: unknown): ScalarKind => (typeof v === "number" ? "number" : typeof v === "boolean" ? "boolean" : "text");
/** A wire datetime for a `datetime-local` input (UTC): `2024-01-01T10:00:00.000Z` → `2024-01-01T10:00:00`. */
const local = (wire: unknown): string =>
  typeof wire === "string"
    ? wire
        .replace(/Z$/, "")
        .replace(/(\.\d{3})\d*$/, "$1")
        .replace(/\.000$/, "")
    : "";

/** The form text for a wire value of this shape (links carry bodies, the form holds text). */
export function draftOf(shape: ShapeName, wire: JsonValue): ValueDraft {
  const range = (w: JsonValue) =>
    typeof w === "object" && w !== null && !Array.isArray(w) ? (w as { min?: JsonValue; max?: JsonValue }) : {};
  const list = (w: JsonValue): readonly JsonValue[] => (Array.isArray(w) ? w : [w]);
  switch (shape) {
    case "numberRange":
    case "integerRange":
      return { ...emptyValue, min: String(range(wire).min ?? ""), max: String(range(wire).max ?? "") };
    case "datetime":
      return { ...emptyValue, text: local(wire) };
    case "datetimeRange":
      return { ...emptyValue, min: local(range(wire).min), max: local(range(wire).max) };
    case "boolean":
      return { ...emptyValue, flag: wire === true };
    case "scalar":
      return { ...emptyValue, text: String(wire), kind: kindOfScalar(wire) };
    case "numberList":
    case "integerList":
    case "idList":
    case "userIds":
    case "stringList":
    case "scalarList":
      return { ...emptyValue, text: list(wire).map(String).join(", "), kind: kindOfScalar(list(wire)[0]) };
    case "json":
      return { ...emptyValue, text: typeof wire === "string" ? wire : JSON.stringify(wire) };
    case "number":
    case "integer":
    case "string":
    case "regex":
      return { ...emptyValue, text: String(wire) };
  }
}

/** Task ids typed as `1, 2, 3`. */
export function idsOf(text: string): number[] {
  return items(text).map(num);
}
