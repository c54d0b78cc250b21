import { match } from "ts-pattern";
import type { ConditionNode, FiltersNode } from "../query/nodes.js";
import { columnNames, columns } from "../vocabulary/columns.js";
import { describeValue } from "../vocabulary/json.js";
import { isAgreementRelated } from "./columns.js";
import type { PreparedDataset } from "./dataset.js";
import { unhandled } from "./errors.js";
import { genericPiece } from "./generic.js";
import { NULL_ROW, type Ctx, type Lookup, type Pending, type Piece } from "./pieces.js";
import { candidates, lookupTest, mergeLookups, type Candidates, type Line } from "./plan.js";
import { str, type PyVal } from "../emulation/python.js";
import type { AnnotationRecord, PredictionRecord } from "./records.js";
import { checkPythonRegex } from "../emulation/regex/python-re.js";
import { annotationIdsPiece, modelVersionsPiece, resultPiece, userPiece, validateInList, validateUserOperator } from "./special.js";
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
  | { readonly k: "test"; readonly test: (i: number) => boolean; readonly candidates: Candidates | undefined };

const ALL: FilterSet = Object.freeze({ k: "all" });
const NONE: FilterSet = Object.freeze({ k: "none" });

/** The server's `Cannot resolve keyword` FieldError for a column it has no field for (a 500). */
export function cannotResolve(path: string, name: string): ReturnType<typeof unhandled> {
  const choices = columnNames
    .filter((c) => columns[c].edition === "community")
    .sort()
    .join(", ");
  return unhandled(
    { path, expected: `a known column (${choices}) or data.<key>`, found: JSON.stringify(name) },
    `Cannot resolve keyword '${name}' into field. Choices are: ${choices}`,
  );
}

interface Item {
  readonly node: ConditionNode;
  readonly path: string;
  readonly value: PyVal;
}

export function compileFilters(ds: PreparedDataset, filters: FiltersNode | undefined, pending: Pending): FilterSet {
  if (!filters) return ALL;
  // pydantic reads the whole body before anything is filtered: a value it refuses is a 500 first.
  const lines: Item[][] = filters.items.map((root, r) => {
    const rootPath = `filters.items[${r}]`;
    return [
      { node: root, path: rootPath, value: pydanticValue(root.value, rootPath) },
      ...root.children.map((child, c) => {
        const path = `${rootPath}.child_filters[${c}]`;
        return { node: child, path, value: pydanticValue(child.value, path) };
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

  const compiled: Line[] = [];
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
  const final: readonly Line[] = merged ? [{ test: lookupTest(merged), lookup: merged, cost: 1 }] : compiled;
  const found = candidates(ds, final, filters.conjunction);
  if (final.length === 1) return { k: "test", test: (final[0] as Line).test, candidates: found };
  // Every test is pure, so AND-ed lines can run cheapest first.
  const tests = (or ? [...final] : [...final].sort((a, b) => a.cost - b.cost)).map((l) => l.test);
  return { k: "test", test: or ? anyOf(tests) : allOf(tests), candidates: found };
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
  if (column === "predictions_model_versions") {
    const mv = modelVersionsPiece(ctx, operator, value);
    if (mv !== undefined) return mv;
  }

  // annotate_predictions_score adds nothing to a project without tasks: .filter() then cannot
  // resolve the name. (Ordering by it would fail the same way, but the list endpoint never runs
  // the ordered query for an empty page, so no error is reproduced there.)
  if (column === "predictions_score" && ctx.ds.size === 0) ctx.pending.filter.push(cannotResolve(`${ctx.path}.filter`, column));
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
  if (target.t === "dataNumber" && target.badText !== undefined) {
    ctx.pending.sql.push(
      unhandled(
        {
          path: `${ctx.path}.filter`,
          expected: `numbers (or numeric text) in every task's ${column} for a Number filter`,
          found: describeValue(target.badText),
        },
        `invalid input syntax for type double precision: "${target.badText}"`,
      ),
    );
  }
  return genericPiece(ctx, { column, operator, type, value }, target);
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
  const error = cannotResolve(`${ctx.path}.filter`, field);
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
function lineTest(ds: PreparedDataset, pieces: readonly Piece[]): Line | undefined {
  const tasks: { test: (i: number) => boolean; cost: number }[] = [];
  const annRow: ((a: AnnotationRecord | null) => boolean)[] = [];
  const predRow: ((p: PredictionRecord | null) => boolean)[] = [];
  const only = pieces.filter((p) => p.k !== "emptyQ");
  if (only.length === 0) return undefined;
  for (const p of only) {
    // true: the piece is Q(pk__in=[]), so the line matches nothing
    const matchesNothing = match(p)
      .returnType<boolean>()
      .with({ k: "false" }, () => true)
      .with({ k: "task" }, (t) => {
        tasks.push({ test: t.test, cost: t.lookup ? 1 : (t.cost ?? TASK_COST) });
        return false;
      })
      .with({ k: "ann" }, (a) => {
        annRow.push(a.test);
        return false;
      })
      .with({ k: "pred" }, (r) => {
        predRow.push(r.test);
        return false;
      })
      .exhaustive();
    if (matchesNothing) return { test: () => false, cost: 0 };
  }
  if (only.length === 1 && only[0]?.k === "task" && only[0].lookup) return { test: only[0].test, lookup: only[0].lookup, cost: 1 };
  if (annRow.length > 0) tasks.push({ test: joinedRowTest(ds, "annotations", annRow), cost: ROW_COST });
  if (predRow.length > 0) tasks.push({ test: joinedRowTest(ds, "predictions", predRow), cost: ROW_COST });
  tasks.sort((a, b) => a.cost - b.cost);
  const cost = tasks.reduce((sum, t) => sum + t.cost, 0);
  if (tasks.length === 1) return { test: (tasks[0] as { test: (i: number) => boolean }).test, cost };
  return { test: allOf(tasks.map((t) => t.test)), cost };
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
      const joined = new Uint8Array(ds.size);
      // Hot loop over every record: a plain loop, the row tests inline.
      for (let k = 0; k < flat.length; k++) {
        const r = flat[k] as RowOf[K];
        const at = ds.indexOf(r.task);
        if (at === undefined) continue;
        joined[at] = 1;
        if (marks[at] === 0 && passes(tests, r)) marks[at] = 1;
      }
      const nullPasses = passes(tests, null);
      if (nullPasses) for (let at = 0; at < marks.length; at++) if (joined[at] === 0) marks[at] = 1;
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
