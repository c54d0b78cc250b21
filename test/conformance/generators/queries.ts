/**
 * Queries produced through the builder (`selection()`), over every column × operator × value shape
 * of the vocabulary tables. A query is generated as a plain spec first, so that a failure can print
 * the exact builder chain that reproduces it (format.ts).
 */
import fc from "fast-check";
import { selection } from "../../../src/selection.js";
import type { QueryNode } from "../../../src/query/nodes.js";
import {
  columnKinds,
  columnNames,
  columns,
  dataKindByType,
  operators,
  type ColumnKindName,
  type OperatorName,
  type ShapeName,
} from "../../../src/vocabulary/index.js";
import * as pools from "./pools.js";

/** A column the builder accepts, with the kind that decides its operators. */
export interface Target {
  /** `tasks:<column>` */
  readonly column: string;
  /** For `tasks:data.<key>`: the filter type passed to `.where(column, type)`; none = inferred. */
  readonly type?: string;
  readonly kind: ColumnKindName;
}

export interface ConditionSpec {
  readonly target: Target;
  readonly operator: OperatorName;
  readonly shape: ShapeName;
  readonly value: unknown;
}
export interface LineSpec {
  readonly root: ConditionSpec;
  readonly children: readonly ConditionSpec[];
}
export interface QuerySpec {
  readonly conjunction: "and" | "or";
  readonly lines: readonly LineSpec[];
  readonly orderBy?: string;
  readonly ids?: { readonly kind: "including" | "excluding" | "all"; readonly ids: readonly number[] };
  /** Added to the Query value (the builder has no method for it; views and bodies carry it). */
  readonly columnsDisplayType?: Readonly<Record<string, string>>;
}

const dataKeys = [...pools.dataKeys, pools.missingKey, "nested__inner"];
const dataTypes = Object.keys(dataKindByType) as (keyof typeof dataKindByType)[];

/** Every target of the vocabulary: each known column, and data keys under each data type (and none). */
export const knownTargets: readonly Target[] = columnNames.map((c) => ({ column: `tasks:${c}`, kind: columns[c].kind }));
export const dataTargets = (key: string): Target[] => [
  { column: `tasks:data.${key}`, kind: "dataAny" },
  ...dataTypes.map((type) => ({ column: `tasks:data.${key}`, type, kind: dataKindByType[type] as ColumnKindName })),
];

/** Every (target, operator, shape) the vocabulary allows, with a representative data key. */
export function allCombinations(): { target: Target; operator: OperatorName; shape: ShapeName }[] {
  const targets = [...knownTargets, ...dataTargets("mixed")];
  return targets.flatMap((target) =>
    (Object.entries(columnKinds[target.kind].operators) as [OperatorName, ShapeName][]).map(([operator, shape]) => ({
      target,
      operator,
      shape,
    })),
  );
}

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const bare = (t: Target) => t.column.slice("tasks:".length);

function numberFor(t: Target): fc.Arbitrary<number> {
  const c = bare(t);
  if (c === "id" || c === "inner_id")
    return fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 30 }) }, { weight: 1, arbitrary: pick([2.5, -1]) });
  const kind = t.kind;
  if (kind === "counter") return fc.integer({ min: 0, max: 3 });
  if (c === "predictions_score") return pick([0, 0.25, 0.5, 0.6, 1]);
  if (c === "avg_lead_time") return pick([0, 1.5, 2, 3, 10]);
  if (kind === "number") return fc.integer({ min: 0, max: 3 });
  return pick(pools.numbers);
}

/** An integer for an integer shape: ids and counters from their pools (the builder refuses a fraction there), else 0–30. */
function integerFor(t: Target): fc.Arbitrary<number> {
  return t.kind === "id" || t.kind === "counter" ? numberFor(t).filter(Number.isInteger) : fc.integer({ min: 0, max: 30 });
}

const datetimeArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: pick(pools.timestamps) },
  { weight: 1, arbitrary: pick(pools.timestamps).map((s) => new Date(s)) },
  { weight: 1, arbitrary: pick(["2024-01-01", "2024-02-29T14:30:00+02:00", "2024-06-15T08:00:00.123456Z"]) },
);
const micros = (v: unknown) => {
  const s = v instanceof Date ? v.toISOString() : String(v);
  const d = s.length === 10 ? `${s}T00:00:00Z` : s;
  const frac = /\.(\d+)/.exec(d)?.[1] ?? "";
  return Date.parse(d) * 1000 + Number(frac.padEnd(6, "0").slice(3, 6));
};

const userIdsArb = fc.oneof(pick([1, 2, 3, 4, 9]), fc.array(pick([1, 2, 3, 4, 9]), { minLength: 1, maxLength: 3 }));

/** A value of the given shape, drawn from pools that hit the generated data. */
export function valueArb(shape: ShapeName, t: Target): fc.Arbitrary<unknown> {
  const kind = t.kind;
  switch (shape) {
    case "number":
      return numberFor(t);
    case "integer":
      return integerFor(t);
    case "integerRange":
      return fc.tuple(integerFor(t), integerFor(t)).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));
    case "numberRange":
      return fc.tuple(numberFor(t), numberFor(t)).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));
    case "datetime":
      return datetimeArb;
    case "datetimeRange":
      return fc.tuple(datetimeArb, datetimeArb).map(([a, b]) => (micros(a) <= micros(b) ? { min: a, max: b } : { min: b, max: a }));
    case "boolean":
      return fc.boolean();
    case "string":
      if (kind === "results") return pick(pools.resultNeedles);
      if (bare(t) === "file_upload" || bare(t) === "storage_filename")
        return pick(["upload", "UPLOAD/a", ".csv", "s3://", "bucket", "ünï", "", "x.jpg"]);
      return fc.oneof(pick(pools.words), pick(pools.needles), pick(pools.numericStrings));
    case "scalar":
      return fc.oneof(pick(pools.words), pick(pools.numbers), pick(pools.numericStrings), fc.boolean());
    case "regex":
      return fc.oneof({ weight: 8, arbitrary: pick(pools.regexes) }, { weight: 1, arbitrary: pick(pools.badRegexes) });
    case "numberList":
      return fc.array(numberFor(t), { minLength: 1, maxLength: 3 });
    case "integerList":
      return fc.array(integerFor(t), { minLength: 1, maxLength: 3 });
    case "scalarList":
      return fc.array(
        fc.oneof(pick(pools.words), pick(pools.numbers), pick(pools.numericStrings), pick([' "apple" ', " Apple ", "'x2'", true])),
        { minLength: 1, maxLength: 3 },
      );
    case "idList":
      return fc.oneof(fc.integer({ min: 1, max: 30 }), fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 3 }));
    case "userIds":
      return userIdsArb;
    case "stringList":
      return fc.oneof(
        pick(["v1", "V1", "beta", "model", "v"]),
        fc.array(pick(["v1", "V1", "beta", "model-1", "2"]), { minLength: 1, maxLength: 2 }),
      );
    case "json":
      return fc.oneof({ weight: 5, arbitrary: pick(pools.resultJsonValues) }, { weight: 1, arbitrary: fc.constant("PREDICTIONS") });
  }
}

/** A target: a known column (enterprise ones rarely) or a data key under some type. */
const isCommunity = (c: string) => columns[c as keyof typeof columns].edition === "community";
export const targetArb: fc.Arbitrary<Target> = fc.oneof(
  { weight: 30, arbitrary: pick(knownTargets.filter((t) => isCommunity(bare(t)))) },
  { weight: 1, arbitrary: pick(knownTargets.filter((t) => !isCommunity(bare(t)))) },
  { weight: 5, arbitrary: pick(dataKeys).chain((key) => pick(dataTargets(key))) },
);

export const conditionArb: fc.Arbitrary<ConditionSpec> = targetArb.chain((target) => {
  const ops = Object.entries(columnKinds[target.kind].operators) as [OperatorName, ShapeName][];
  return pick(ops).chain(([operator, shape]) => valueArb(shape, target).map((value) => ({ target, operator, shape, value })));
});

/** A condition on a fixed column and operator (for the exhaustive column × operator sweep). */
export const conditionFor = (target: Target, operator: OperatorName, shape: ShapeName): fc.Arbitrary<ConditionSpec> =>
  valueArb(shape, target).map((value) => ({ target, operator, shape, value }));

const orderKeyArb = fc.oneof(
  { weight: 12, arbitrary: pick(columnNames.filter(isCommunity).map((c) => `tasks:${c}`)) },
  { weight: 1, arbitrary: pick(columnNames.filter((c) => !isCommunity(c)).map((c) => `tasks:${c}`)) },
  { weight: 10, arbitrary: pick([...pools.dataKeys, pools.missingKey].map((k) => `tasks:data.${k}`)) },
);
export const orderByArb: fc.Arbitrary<string> = fc.tuple(fc.boolean(), orderKeyArb).map(([desc, key]) => (desc ? `-${key}` : key));

export const idsArb: fc.Arbitrary<NonNullable<QuerySpec["ids"]>> = fc.oneof(
  fc.record({ kind: fc.constant("including" as const), ids: fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 5 }) }),
  fc.record({ kind: fc.constant("excluding" as const), ids: fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 5 }) }),
  fc.constant({ kind: "all" as const, ids: [] }),
);

export interface QueryArbOptions {
  readonly maxLines?: number;
  readonly condition?: fc.Arbitrary<ConditionSpec>;
}

export function querySpecArb(options: QueryArbOptions = {}): fc.Arbitrary<QuerySpec> {
  const condition = options.condition ?? conditionArb;
  return fc.record(
    {
      conjunction: fc.constantFrom("and" as const, "or" as const),
      lines: fc.array(fc.record({ root: condition, children: fc.array(condition, { maxLength: 1 }) }), {
        maxLength: options.maxLines ?? 3,
      }),
      orderBy: orderByArb,
      ids: idsArb,
      columnsDisplayType: fc.constantFrom<Record<string, string>>(
        { "tasks:data.num": "Number" },
        { "tasks:data.mixed": "Number" },
        { "tasks:data.Score": "Number", "tasks:data.text": "String" },
      ),
    },
    { requiredKeys: ["conjunction", "lines"] },
  );
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the builder's public types are per state; generated chains use the runtime class */
// a chain is replayed step by step across every type state; the steps are checked by the round-trip properties
type Chain = any;

function applyCondition(step: Chain, c: ConditionSpec): Chain {
  return step[operators[c.operator].method](c.value);
}

/** Run a spec through the builder. Throws what the builder throws. */
export function buildSelection(spec: QuerySpec, project = 1): Chain {
  let sel: Chain = selection(project);
  spec.lines.forEach((line, i) => {
    const verb = i === 0 ? "where" : spec.conjunction;
    const t = line.root.target;
    sel = applyCondition(t.type === undefined ? sel[verb](t.column) : sel[verb](t.column, t.type), line.root);
    for (const child of line.children) {
      const ct = child.target;
      sel = applyCondition(ct.type === undefined ? sel.child(ct.column) : sel.child(ct.column, ct.type), child);
    }
  });
  if (spec.orderBy) sel = sel.orderBy(spec.orderBy);
  if (spec.ids) {
    if (spec.ids.kind === "including") sel = sel.including(spec.ids.ids);
    else if (spec.ids.kind === "excluding") sel = sel.excluding(spec.ids.ids);
    else sel = sel.all();
  }
  return sel;
}

/**
 * The selection of a spec for running actions: the builder refuses a destructive action on a
 * selection without filters or included ids unless it says `.all()`, so an unscoped spec says it
 * (the server reads `{all: true, excluded: []}` and no selectedItems alike: every task).
 */
export function buildActionSelection(spec: QuerySpec, project: unknown = 1): Chain {
  const sel = buildSelection(spec, project as number);
  return spec.lines.length > 0 || spec.ids?.kind === "including" ? sel : sel.all();
}

/** The Query value of a spec (with columnsDisplayType added when the spec has it). */
export function buildQuery(spec: QuerySpec, project = 1): QueryNode {
  const query: QueryNode = buildSelection(spec, project).toQuery();
  return spec.columnsDisplayType ? { ...query, columnsDisplayType: spec.columnsDisplayType } : query;
}
