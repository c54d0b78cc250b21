import { match } from "ts-pattern";
import type { ConditionNode, FiltersNode } from "../query/nodes.js";
import { describeValue } from "../vocabulary/json.js";
import { isAgreementRelated } from "./columns.js";
import type { PreparedDataset } from "./dataset.js";
import { unhandled } from "./errors.js";
import { annotationAlias, cannotResolve } from "./field-error.js";
import { genericPiece } from "./generic.js";
import { NULL_ROW, type Ctx, type Lookup, type Pending, type Piece, type RowLookup } from "./pieces.js";
import { candidates, lookupFused, lookupTest, mergeLookups, type Candidates, type Line } from "./plan.js";
import type { Fused, Inline } from "./fused.js";
import { str, type PyVal } from "../emulation/python.js";
import type { AnnotationRecord, PredictionRecord } from "./records.js";
import { checkPythonRegex } from "../emulation/regex/python-re.js";
import {
  annotationIdsPiece,
  commentAuthorsPiece,
  modelVersionsPiece,
  resultPiece,
  userPiece,
  validateInList,
  validateUserOperator,
} from "./special.js";
import { djangoFieldName, targetOf } from "./targets.js";
import { pydanticValue } from "./values.js";

/**
 * `apply_filters` (docs/reference/filters.md#lines-and-the-conjunction): the filter set compiled
 * once into a predicate over task indexes. A line is a root item and its `child_filters`, AND-ed;
 * lines are combined by the conjunction; a line with nothing to test drops out. The result is "all"
 * (no constraint), "none" (the server returns no tasks) or a test.
 */
export type FilterSet =
  | { readonly k: "all" }
  | { readonly k: "none" }
  | {
      readonly k: "test";
      readonly test: (i: number) => boolean;
      /** The same test as a fused scan compiles it (fused.ts). */
      readonly fused: Fused;
      readonly candidates: Candidates | undefined;
      /** How many rows the server's SQL gives a selected task, when that can be more than one (groupedRows). */
      readonly rows?: (i: number) => number;
    };

const ALL: FilterSet = Object.freeze({ k: "all" });
const NONE: FilterSet = Object.freeze({ k: "none" });

interface Item {
  readonly node: ConditionNode;
  readonly path: string;
  readonly value: PyVal;
  /** A child filter: its column is not annotated for it. */
  readonly child: boolean;
}

export function compileFilters(ds: PreparedDataset, filters: FiltersNode | undefined, pending: Pending): FilterSet {
  if (!filters) return ALL;
  // pydantic reads the whole body before anything is filtered: a value it refuses is a 500 first.
  const lines: Item[][] = filters.items.map((root, r) => {
    const rootPath = `filters.items[${r}]`;
    return [
      { node: root, path: rootPath, value: pydanticValue(root.value, rootPath), child: false },
      ...root.children.map((child, c) => {
        const path = `${rootPath}.child_filters[${c}]`;
        return { node: child, path, value: pydanticValue(child.value, path), child: true };
      }),
    ];
  });

  // filters_contain_invalid_regex: any regex Python cannot compile empties the whole result —
  // including those of items the server then skips for their missing prefix.
  for (const [i, value] of (filters.skippedRegex ?? []).entries()) {
    if (!checkPythonRegex(str(pydanticValue(value, `filters.skippedRegex[${i}]`))).ok) return NONE;
  }
  for (const line of lines) {
    for (const item of line) {
      if (item.node.operator === "regex" && !checkPythonRegex(str(item.value)).ok) return NONE;
    }
  }

  const compiled: CompiledLine[] = [];
  for (const line of lines) {
    const pieces: Piece[] = [];
    let dropLine = false;
    for (const [k, item] of line.entries()) {
      const out = compileItem({ ds, path: item.path, pending }, item);
      if (out === "exit") return NONE;
      if (out === "skip") continue;
      if (out === "skipLine") {
        if (k === 0) dropLine = true; // a root's skip_line drops its children too
        if (k === 0) break;
        continue;
      }
      pieces.push(...(Array.isArray(out) ? out : [out as Piece]));
    }
    if (dropLine) continue;
    const test = lineTest(ds, pieces);
    if (test !== undefined) compiled.push(test);
  }
  if (compiled.length === 0) return ALL;
  const or = filters.conjunction === "or";
  // An OR of equalities on one target is one lookup (`x = a OR x = b` is `x IN (a, b)`).
  const merged =
    or && compiled.length > 1 && compiled.every((l) => l.lookup) ? mergeLookups(compiled.map((l) => l.lookup as Lookup)) : undefined;
  const mergedTest = merged && lookupTest(merged);
  const final: readonly Line[] =
    merged && mergedTest ? [{ test: mergedTest, lookup: merged, cost: 1, fused: lookupFused(merged, mergedTest) }] : compiled;
  const found = candidates(ds, final, filters.conjunction);
  if (final.length === 1) {
    const line = final[0] as Line;
    return { k: "test", test: line.test, fused: line.fused, candidates: found };
  }
  // Every test is pure, so AND-ed lines can run cheapest first.
  const ordered = or ? [...final] : [...final].sort((a, b) => a.cost - b.cost);
  const tests = ordered.map((l) => l.test);
  const fused: Fused = { k: or ? "or" : "and", items: ordered.map((l) => l.fused) };
  const rows = or
    ? groupedRows(
        ds,
        compiled.map((l) => l.parts),
      )
    : undefined;
  return { k: "test", test: or ? anyOf(tests) : allOf(tests), fused, candidates: found, ...(rows ? { rows } : {}) };
}

/** A line's conditions by what they read, for groupedRows. */
interface LineParts {
  readonly tasks: readonly ((i: number) => boolean)[];
  readonly ann: readonly Extract<Piece, { k: "ann" }>[];
  readonly pred: readonly Extract<Piece, { k: "pred" }>[];
  /** Some condition reads an aggregate. */
  readonly having: boolean;
  /** The line is Q(pk__in=[]). */
  readonly nothing: boolean;
}

type CompiledLine = Line & { readonly parts: LineParts };

/**
 * The OR of the lines is one `Q` in one `.filter()`: when a line reads an aggregate, Django moves the
 * whole OR into HAVING, and every joined column it tests there into the GROUP BY (`split_having_qualify`,
 * `get_group_by`). A task then comes back once per distinct value of those columns among its joined
 * rows (its annotations, its predictions; one NULL row without any) for which the OR holds: the
 * list shows it, counts it and sums its counters that many times. Measured on a 1.22 server on
 * Postgres: `predictions_score = 0 OR predictions_model_versions contains ["m"]` lists a task with
 * predictions m1 and m2 twice. Undefined when every selected task is one row.
 */
function groupedRows(ds: PreparedDataset, lines: readonly LineParts[]): ((i: number) => number) | undefined {
  if (lines.length < 2 || !lines.some((l) => l.having)) return undefined;
  const annKeys = lines.flatMap((l) => l.ann.map((p) => p.key));
  const predKeys = lines.flatMap((l) => l.pred.map((p) => p.key));
  if (annKeys.length === 0 && predKeys.length === 0) return undefined;
  /** One representative row per distinct GROUP BY value (a task without the join: one group). */
  function groups<R>(rows: readonly R[], keys: readonly ((r: R | null) => unknown)[]): readonly (R | null)[] {
    if (keys.length === 0) return NULL_ROW;
    const seen = new Map<string, R | null>();
    for (const r of rows.length > 0 ? rows : NULL_ROW) {
      const k = JSON.stringify(keys.map((key) => key(r) ?? null));
      if (!seen.has(k)) seen.set(k, r);
    }
    return [...seen.values()];
  }
  return (i) => {
    const anns = groups(ds.annotations[i] as readonly AnnotationRecord[], annKeys);
    const preds = groups(ds.predictions[i] as readonly PredictionRecord[], predKeys);
    let count = 0;
    for (const a of anns) {
      for (const p of preds) {
        const holds = lines.some(
          (l) => !l.nothing && l.tasks.every((t) => t(i)) && l.ann.every((x) => x.test(a)) && l.pred.every((x) => x.test(p)),
        );
        if (holds) count++;
      }
    }
    return count;
  };
}

/** `tests.some(t => t(i))` without a closure per task (a hot loop). */
function anyOf(tests: readonly ((i: number) => boolean)[]): (i: number) => boolean {
  const n = tests.length;
  return (i) => {
    for (let k = 0; k < n; k++) if ((tests[k] as (i: number) => boolean)(i)) return true;
    return false;
  };
}

function allOf(tests: readonly ((i: number) => boolean)[]): (i: number) => boolean {
  const n = tests.length;
  return (i) => {
    for (let k = 0; k < n; k++) if (!(tests[k] as (i: number) => boolean)(i)) return false;
    return true;
  };
}

/** One filter, in the order `apply_filters` handles it. */
function compileItem(ctx: Ctx, item: Item): Piece | readonly Piece[] | "skip" | "skipLine" | "exit" {
  const { column, operator, type } = item.node;
  let value = item.value;
  const field = djangoFieldName(column);
  if (isAgreementRelated(field)) return "skip"; // a stale LSE agreement field: skipped
  validateUserOperator(ctx, column, operator, value);
  const inList = validateInList(ctx, column, operator, type, value);
  if (inList.status === "none") return { k: "false" };
  if (inList.status === "skip") return "skip";
  value = inList.value;

  const user = userPiece(ctx, column, operator, value);
  if (user !== undefined) return user;
  const result = resultPiece(ctx, column, operator, value);
  if (result !== undefined) return result;
  if (column === "annotations_ids") return annotationIdsPiece(ctx, operator, value);
  if (column === "comment_authors") {
    const authors = commentAuthorsPiece(ctx, operator, value);
    if (authors !== undefined) return authors;
  }
  if (column === "predictions_model_versions") {
    const mv = modelVersionsPiece(ctx, operator, value);
    if (mv !== undefined) return mv;
  }

  // annotate_predictions_score adds nothing to a project without tasks: .filter() then cannot
  // resolve the name. (Ordering by it would fail the same way, but the list endpoint never runs
  // the ordered query for an empty page, so no error is reproduced there.)
  if (column === "predictions_score" && ctx.ds.size === 0)
    ctx.pending.filter.push(cannotResolve(`${ctx.path}.filter`, column, ctx.pending.annotated));
  // get_fields_for_filter_ordering annotates the root filters' columns and the ordering's only: a
  // child filter on an annotated column that reaches the generic path names a field the queryset lacks.
  const alias = item.child ? annotationAlias(column) : undefined;
  if (alias !== undefined && !ctx.pending.annotated.includes(alias)) return unknownColumn(ctx, column, alias);
  const target = targetOf(ctx.ds, column, type);
  if (target === undefined) return unknownColumn(ctx, column, field);
  if (target.t === "dataNumber" && /['`"\][;\s]|--|\/\*|\*\//.test(target.alias)) {
    throw unhandled(
      {
        path: `${ctx.path}.filter`,
        expected: "a data key without quotes, brackets, semicolons, white space or SQL comments (for a Number filter)",
        found: JSON.stringify(column),
      },
      "Column aliases cannot contain whitespace characters, quotation marks, semicolons, or SQL comments.",
    );
  }
  if (target.t === "dataNumber") {
    // Known once every task is cast: a scan that reads the key casts each task on the way.
    const badText = target.badText;
    ctx.pending.sql.push(() => {
      const bad = badText();
      return bad === undefined
        ? undefined
        : unhandled(
            {
              path: `${ctx.path}.filter`,
              expected: `numbers (or numeric text) in every task's ${column} for a Number filter`,
              found: describeValue(bad),
            },
            `invalid input syntax for type double precision: "${bad}"`,
          );
    });
  }
  const piece = genericPiece(ctx, { column, operator, type, value }, target);
  // A condition on an aggregate (ArrayAgg, Avg) is Django's HAVING.
  const aggregate = target.t === "array" || (target.t === "scalar" && target.col.aggregate === true);
  return aggregate && piece.k === "task" ? { ...piece, having: true } : piece;
}

/**
 * A column the community server has no field for: `values_list` raises FieldError at once when
 * the project has tasks, else `.filter()` does. Enterprise user columns passed the operator check.
 */
function unknownColumn(ctx: Ctx, column: string, field: string): Piece {
  if (column === "updated_by__active_organization") {
    throw unhandled(
      { path: `${ctx.path}.filter`, expected: "a column dmq can evaluate", found: JSON.stringify(column) },
      "dmq does not model users' organizations: the server would evaluate updated_by__active_organization",
      true,
    );
  }
  const error = cannotResolve(`${ctx.path}.filter`, field, ctx.pending.annotated);
  // KNOWN_FILTER_VALUE_TYPES spares `reviewed` the values_list probe: its error waits for .filter().
  if (ctx.ds.size > 0 && column !== "reviewed") throw error;
  ctx.pending.filter.push(error);
  return { k: "false" };
}

/**
 * A line's test: the task-level parts, one joined annotation row satisfying every annotation-row
 * part, one joined prediction row satisfying every prediction-row part. Undefined: nothing to test.
 * A line that is one equality keeps its lookup.
 */
function lineTest(ds: PreparedDataset, pieces: readonly Piece[]): CompiledLine | undefined {
  const only = pieces.filter((p) => p.k !== "emptyQ");
  if (only.length === 0) return undefined;
  const parts: LineParts = {
    tasks: only.flatMap((p) => (p.k === "task" ? [p.test] : [])),
    ann: only.flatMap((p) => (p.k === "ann" ? [p] : [])),
    pred: only.flatMap((p) => (p.k === "pred" ? [p] : [])),
    having: only.some((p) => p.k === "task" && p.having === true),
    nothing: only.some((p) => p.k === "false"),
  };
  const line = lineOf(ds, only);
  return { ...line, parts };
}

function lineOf(ds: PreparedDataset, only: readonly Piece[]): Line {
  const tasks: { test: (i: number) => boolean; cost: number; inline?: Inline }[] = [];
  const annRow: ((a: AnnotationRecord | null) => boolean)[] = [];
  const predRow: ((p: PredictionRecord | null) => boolean)[] = [];
  let rowLookup: RowLookup | undefined;
  for (const p of only) {
    // true: the piece is Q(pk__in=[]), so the line matches nothing
    const matchesNothing = match(p)
      .returnType<boolean>()
      .with({ k: "false" }, () => true)
      .with({ k: "task" }, (t) => {
        tasks.push({ test: t.test, cost: t.lookup ? 1 : (t.cost ?? TASK_COST), ...(t.inline ? { inline: t.inline } : {}) });
        return false;
      })
      .with({ k: "ann" }, (a) => {
        annRow.push(a.test);
        rowLookup ??= a.lookup;
        return false;
      })
      .with({ k: "pred" }, (r) => {
        predRow.push(r.test);
        return false;
      })
      .with({ k: "emptyQ" }, () => false)
      .exhaustive();
    if (matchesNothing) {
      const test = () => false;
      return { test, cost: 0, fused: { k: "call", test } };
    }
  }
  if (only.length === 1 && only[0]?.k === "task" && only[0].lookup)
    return { test: only[0].test, lookup: only[0].lookup, cost: 1, fused: lookupFused(only[0].lookup, only[0].test) };
  const joined = annRow.length > 0 ? { test: joinedRowTest(ds, "annotations", annRow), cost: ROW_COST } : undefined;
  if (joined) tasks.push(joined);
  if (predRow.length > 0) tasks.push({ test: joinedRowTest(ds, "predictions", predRow), cost: ROW_COST });
  tasks.sort((a, b) => a.cost - b.cost);
  const cost = tasks.reduce((sum, t) => sum + t.cost, 0);
  const parts: Fused[] = tasks.map((t) => (t.inline ? { k: "inline", inline: t.inline } : { k: "call", test: t.test }));
  const line =
    tasks.length === 1
      ? { test: (tasks[0] as { test: (i: number) => boolean }).test, cost, fused: parts[0] as Fused }
      : { test: allOf(tasks.map((t) => t.test)), cost, fused: { k: "and", items: parts } as const };
  if (rowLookup === undefined) return line;
  // A joined-row lookup: the tasks having such a row come from an index, the rest of the line is
  // tested on them (all of it when other row tests must hold on the same row).
  const others = annRow.length === 1 ? tasks.filter((t) => t !== joined) : tasks;
  const rest =
    others.length === 0
      ? undefined
      : others.length === 1
        ? (others[0] as { test: (i: number) => boolean }).test
        : allOf(others.map((t) => t.test));
  return { ...line, within: { lookup: rowLookup, rest } };
}

/** Relative costs of a task test: a column read, a text scan (contains, regex), a walk over joined rows. */
const TASK_COST = 2;
const ROW_COST = 8;

/**
 * Does a task have a joined row (an annotation or prediction; NULL when it has none, as the LEFT JOIN gives)
 * that passes every row test? Once the dataset has grouped the records by task, a walk over the task's group.
 * Before (a cold evaluation), one pass over the records as given marks the tasks, as a hand-written loop would,
 * on the first test: grouping a project's records by task costs more than the whole filter.
 */
function joinedRowTest<K extends "annotations" | "predictions">(
  ds: PreparedDataset,
  kind: K,
  tests: readonly ((r: RowOf[K] | null) => boolean)[],
): (i: number) => boolean {
  const flat = ds.grouped(kind) ? undefined : ds.flat(kind);
  if (flat === undefined) {
    const groups = ds[kind] as readonly (readonly RowOf[K][])[];
    return (i) => someRow(groups[i] as readonly RowOf[K][], tests);
  }
  let hit: Uint8Array | undefined;
  return (i) => {
    if (hit === undefined) {
      const marks = new Uint8Array(ds.size);
      // Which tasks have rows matters only when the NULL row (a task without rows) passes.
      const joined = passes(tests, null) ? new Uint8Array(ds.size) : undefined;
      const only = tests.length === 1 ? (tests[0] as (r: RowOf[K] | null) => boolean) : undefined;
      // Hot loop over every record: a plain loop, one row test called straight.
      for (let k = 0; k < flat.length; k++) {
        const r = flat[k] as RowOf[K];
        const at = ds.indexOf(r.task);
        if (at === undefined) continue;
        if (joined !== undefined) joined[at] = 1;
        if (marks[at] === 0 && (only !== undefined ? only(r) : passes(tests, r))) marks[at] = 1;
      }
      if (joined !== undefined) for (let at = 0; at < marks.length; at++) if (joined[at] === 0) marks[at] = 1;
      hit = marks;
    }
    return hit[i] === 1;
  };
}

type RowOf = { annotations: AnnotationRecord; predictions: PredictionRecord };

function passes<R>(tests: readonly ((r: R | null) => boolean)[], r: R | null): boolean {
  for (let t = 0; t < tests.length; t++) if (!(tests[t] as (r: R | null) => boolean)(r)) return false;
  return true;
}

function someRow<R>(rows: readonly R[], tests: readonly ((r: R | null) => boolean)[]): boolean {
  const list: readonly (R | null)[] = rows.length > 0 ? rows : NULL_ROW;
  for (const r of list) {
    let ok = true;
    for (const t of tests) {
      if (!t(r)) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return false;
}
