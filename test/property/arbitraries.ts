/**
 * fast-check generators of selections built **through the builder** (`selection(...)`), shared by
 * the round-trip property and the conformance suite. Everything is derived from the vocabulary
 * tables: every column kind × every operator of that kind × valid builder inputs of its value shape.
 *
 * A generated `SelectionSpec` is plain data (readable when a property fails and shrinks);
 * `buildSelection(spec)` replays it on the builder. `arbSelection()` does both.
 */
import fc from "fast-check";
import type { QueryBody, QueryNode } from "../../src/query/nodes.js";
import { selection } from "../../src/selection.js";
import { columnKinds, dataKindByType, type ColumnKindName, type DataTypeName } from "../../src/vocabulary/column-kinds.js";
import { columnNames, columns } from "../../src/vocabulary/columns.js";
import { toWireDatetime, wireDatetimeMicros } from "../../src/vocabulary/datetime.js";
import { operatorByMethod, type OperatorName } from "../../src/vocabulary/operators.js";
import type { ShapeName } from "../../src/vocabulary/value-shapes.js";

export interface GeneratorOptions {
  /**
   * Only inputs that also survive a view save unchanged: the server trims a filter's text when it
   * saves a view (so a data key may not end in whitespace) and de-duplicates user ids when it reads
   * a user filter back.
   */
  readonly viewSafe?: boolean;
}

/** Which column a condition names: `tasks:<column>`, or `tasks:data.<key>` with an optional type. */
export interface ColumnTarget {
  readonly column: string;
  readonly type?: DataTypeName;
  readonly kind: ColumnKindName;
}

export interface ConditionSpec extends ColumnTarget {
  readonly operator: OperatorName;
  /** The builder method called: the operator's method name or an alias (`between` for `in`). */
  readonly method: string;
  readonly value: unknown;
}

export interface LineSpec {
  readonly root: ConditionSpec;
  readonly children: readonly ConditionSpec[];
}

export type IdsSpec =
  | { readonly mode: "including"; readonly ids: readonly number[] }
  | { readonly mode: "excluding"; readonly ids: readonly number[] }
  | { readonly mode: "all" };

export interface SelectionSpec {
  readonly project: number;
  readonly conjunction: "and" | "or";
  readonly lines: readonly LineSpec[];
  /** An ordering key as passed to `orderBy`, e.g. `-tasks:created_at`. */
  readonly orderBy?: string;
  readonly ids?: IdsSpec;
}

const kindNames = Object.keys(columnKinds) as ColumnKindName[];
const dataTypesOf = (kind: ColumnKindName): DataTypeName[] =>
  (Object.keys(dataKindByType) as DataTypeName[]).filter((t) => dataKindByType[t] === kind);
const columnsOf = (kind: ColumnKindName) => columnNames.filter((c) => columns[c].kind === kind);
const isDataKind = (kind: ColumnKindName) => kind === "dataAny" || dataTypesOf(kind).length > 0;

/** Every kind a condition can be built for (known columns of that kind, or data keys typed to it). */
export const buildableKinds: readonly ColumnKindName[] = kindNames.filter((k) => columnsOf(k).length > 0 || isDataKind(k));
export const operatorsOf = (kind: ColumnKindName): OperatorName[] => Object.keys(columnKinds[kind].operators) as OperatorName[];
const methodsOf = (operator: OperatorName): string[] =>
  Object.entries(operatorByMethod)
    .filter(([, op]) => op === operator)
    .map(([method]) => method);

/** Data keys: plain, unicode, and the odd ones (dots and `__` are literal, a leading `-`, prefixes inside). */
export function arbDataKey(options: GeneratorOptions = {}): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.string({ minLength: 1, maxLength: 10 }),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
    fc.constantFrom("text", "a.b", "x__y", "-k", "images__0", "tasks:x", "filter:tasks:y", "score", " pad "),
  );
  return options.viewSafe ? key.filter((k) => k === k.trimEnd()) : key;
}

export function arbTarget(kind: ColumnKindName, options: GeneratorOptions = {}): fc.Arbitrary<ColumnTarget> {
  const known = columnsOf(kind).map((c) => ({ column: `tasks:${c}`, kind }) as ColumnTarget);
  const choices: fc.Arbitrary<ColumnTarget>[] = [];
  if (known.length > 0) choices.push(fc.constantFrom(...known));
  if (kind === "dataAny") choices.push(arbDataKey(options).map((k) => ({ column: `tasks:data.${k}`, kind })));
  const types = dataTypesOf(kind);
  if (types.length > 0) {
    choices.push(
      fc
        .record({ key: arbDataKey(options), type: fc.constantFrom(...types) })
        .map(({ key, type }) => ({ column: `tasks:data.${key}`, type, kind })),
    );
  }
  return fc.oneof(...choices);
}

/** Finite numbers; -0 is left out because JSON has no negative zero (it comes back as 0). */
export const arbNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => (Object.is(n, -0) ? 0 : n));
const arbSafeInt = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const arbScalar = fc.oneof(fc.string(), arbNumber, fc.boolean());

const MIN_MS = Date.UTC(1000, 0, 1);
const MAX_MS = Date.UTC(9998, 11, 31);
const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * Datetime inputs the builder accepts: `Date`s, dates, and ISO date-times with `Z`/`z` or an offset
 * (`+hh:mm`, `+hhmm`, `+hh`), `T` or space, optional seconds, 1–6 fraction digits (`.` or `,`).
 * Years stay within 1000–9998 so every instant, shifted by any offset, has a four-digit UTC year
 * (the builder refuses years outside 0000–9999: the server cannot parse them).
 */
export const arbDatetimeInput: fc.Arbitrary<Date | string> = fc.oneof(
  fc.integer({ min: MIN_MS, max: MAX_MS }).map((ms) => new Date(ms)),
  fc.integer({ min: MIN_MS, max: MAX_MS }).map((ms) => new Date(ms).toISOString().slice(0, 10)),
  fc
    .record({
      ms: fc.integer({ min: MIN_MS, max: MAX_MS }),
      micros: fc.integer({ min: 0, max: 999_999 }),
      offset: fc.integer({ min: -14 * 60, max: 14 * 60 }),
      zoneForm: fc.constantFrom("colon", "compact", "hours", "Z", "z"),
      separator: fc.constantFrom("T", " "),
      precision: fc.constantFrom("minutes", "seconds", 1, 2, 3, 4, 5, 6),
      comma: fc.boolean(),
    })
    .map(({ ms, micros, offset, zoneForm, separator, precision, comma }) => {
      const utcZone = zoneForm === "Z" || zoneForm === "z";
      const minutes = utcZone ? 0 : zoneForm === "hours" ? Math.trunc(offset / 60) * 60 : offset;
      const local = new Date(ms + minutes * 60_000);
      const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
      let time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
      if (precision !== "minutes") time += `:${pad(local.getUTCSeconds())}`;
      if (typeof precision === "number") time += `${comma ? "," : "."}${pad(micros, 6).slice(0, precision)}`;
      const sign = minutes < 0 ? "-" : "+";
      const hh = pad(Math.trunc(Math.abs(minutes) / 60));
      const mm = pad(Math.abs(minutes) % 60);
      const zone = utcZone
        ? zoneForm
        : zoneForm === "colon"
          ? `${sign}${hh}:${mm}`
          : zoneForm === "compact"
            ? `${sign}${hh}${mm}`
            : `${sign}${hh}`;
      return `${date}${separator}${time}${zone}`;
    }),
);

/** The instant of a generated datetime (microseconds), to order range ends. */
const instant = (input: Date | string): number => {
  const r = toWireDatetime(input);
  if (!r.ok) throw new Error(`arbDatetimeInput produced ${String(input)}, which the builder refuses: ${r.expected}`);
  return wireDatetimeMicros(r.value) as number;
};

/** Valid builder inputs for each value shape. */
export function arbShapeInput(shape: ShapeName, options: GeneratorOptions = {}): fc.Arbitrary<unknown> {
  const ids = (item: fc.Arbitrary<number>) => {
    const list = options.viewSafe ? fc.uniqueArray(item, { minLength: 1, maxLength: 5 }) : fc.array(item, { minLength: 1, maxLength: 5 });
    return fc.oneof(item, list);
  };
  switch (shape) {
    case "number":
      return arbNumber;
    case "integer":
      return arbSafeInt;
    case "numberRange":
      return fc.tuple(arbNumber, arbNumber).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));
    case "integerRange":
      return fc.tuple(arbSafeInt, arbSafeInt).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));
    case "datetime":
      return arbDatetimeInput;
    case "datetimeRange":
      return fc
        .tuple(arbDatetimeInput, arbDatetimeInput)
        .map(([a, b]) => (instant(a) <= instant(b) ? { min: a, max: b } : { min: b, max: a }));
    case "boolean":
      return fc.boolean();
    case "string":
    case "regex":
      return fc.string();
    case "scalar":
      return arbScalar;
    case "numberList":
      return fc.array(arbNumber, { minLength: 1, maxLength: 5 });
    case "integerList":
      return fc.array(arbSafeInt, { minLength: 1, maxLength: 5 });
    case "scalarList":
      return fc.array(arbScalar, { minLength: 1, maxLength: 5 });
    case "idList":
    case "userIds":
      return ids(arbSafeInt);
    case "stringList":
      return fc.oneof(fc.string(), fc.array(fc.string(), { minLength: 1, maxLength: 5 }));
    case "json":
      return fc.jsonValue({ maxDepth: 3 });
  }
}

export function arbConditionOf(kind: ColumnKindName, operator: OperatorName, options: GeneratorOptions = {}): fc.Arbitrary<ConditionSpec> {
  const shape = (columnKinds[kind].operators as Partial<Record<OperatorName, ShapeName>>)[operator] as ShapeName;
  return fc
    .record({
      target: arbTarget(kind, options),
      method: fc.constantFrom(...methodsOf(operator)),
      value: arbShapeInput(shape, options),
    })
    .map(({ target, method, value }) => ({ ...target, operator, method, value }));
}

/** A condition on any kind, with any operator of that kind: kinds first, so rare kinds are as likely as common ones. */
export function arbCondition(options: GeneratorOptions = {}): fc.Arbitrary<ConditionSpec> {
  return fc
    .constantFrom(...buildableKinds)
    .chain((kind) => fc.constantFrom(...operatorsOf(kind)).chain((op) => arbConditionOf(kind, op, options)));
}

export function arbOrderKey(options: GeneratorOptions = {}): fc.Arbitrary<string> {
  return fc
    .record({ kind: fc.constantFrom(...buildableKinds), descending: fc.boolean() })
    .chain(({ kind, descending }) => arbTarget(kind, options).map((t) => `${descending ? "-" : ""}${t.column}`));
}

export const arbIds: fc.Arbitrary<IdsSpec> = fc.oneof(
  fc.record({
    mode: fc.constant("including" as const),
    ids: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 6 }),
  }),
  fc.record({ mode: fc.constant("excluding" as const), ids: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 6 }) }),
  fc.constant({ mode: "all" as const }),
);

export function arbSelectionSpec(options: GeneratorOptions = {}): fc.Arbitrary<SelectionSpec> {
  const condition = arbCondition(options);
  return fc.record(
    {
      project: fc.integer({ min: 1, max: 1_000_000 }),
      conjunction: fc.constantFrom("and" as const, "or" as const),
      lines: fc.array(fc.record({ root: condition, children: fc.array(condition, { maxLength: 2 }) }), { maxLength: 4 }),
      orderBy: arbOrderKey(options),
      ids: arbIds,
    },
    { requiredKeys: ["project", "conjunction", "lines"] },
  );
}

/** The builder's runtime surface, loosely typed: specs pick columns and methods at run time. */
interface LooseStep {
  readonly [method: string]: (value: unknown) => LooseSelection;
}
export interface LooseSelection {
  where(column: string, type?: string): LooseStep;
  and(column: string, type?: string): LooseStep;
  or(column: string, type?: string): LooseStep;
  child(column: string, type?: string): LooseStep;
  orderBy(key: string): LooseSelection;
  including(ids: readonly number[]): LooseSelection;
  excluding(ids: readonly number[]): LooseSelection;
  all(): LooseSelection;
  toQuery(): QueryNode;
  toJSON(): QueryBody;
}

function apply(step: LooseStep, c: ConditionSpec): LooseSelection {
  const method = step[c.method];
  if (method === undefined) throw new Error(`the builder has no ${c.method}() for ${c.column}`);
  return method.call(step, c.value);
}

/** Replays a spec on the builder: where/and|or for each line, child for its children, then ordering and ids. */
export function buildSelection(spec: SelectionSpec): LooseSelection {
  let s = selection(spec.project) as unknown as LooseSelection;
  spec.lines.forEach((line, i) => {
    const start = i === 0 ? s.where(line.root.column, line.root.type) : s[spec.conjunction](line.root.column, line.root.type);
    s = apply(start, line.root);
    for (const child of line.children) s = apply(s.child(child.column, child.type), child);
  });
  if (spec.orderBy !== undefined) s = s.orderBy(spec.orderBy);
  if (spec.ids?.mode === "including") s = s.including(spec.ids.ids);
  if (spec.ids?.mode === "excluding") s = s.excluding(spec.ids.ids);
  if (spec.ids?.mode === "all") s = s.all();
  return s;
}

/** Random selections built through the builder. */
export function arbSelection(options: GeneratorOptions = {}): fc.Arbitrary<LooseSelection> {
  return arbSelectionSpec(options).map(buildSelection);
}
