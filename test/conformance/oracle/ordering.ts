/**
 * Ordering (docs/reference/ordering.md#ordering): only the first key; NULLs last in both
 * directions; no tie-breaker (ties may come in any order); `data.<key>` by its text unless
 * columnsDisplayType says Number and every filtered value casts, in which case by number.
 */
import { arrayColumns, enterpriseColumns, isAgreementColumn, plainColumns } from "./columns.js";
import { dataPath, dataValue, type Ctx } from "./conditions.js";
import type { TaskFacts } from "./facts.js";
import type { PossibleError, Tri } from "./outcome.js";
import { collate, keyText, pgFloat } from "./pg.js";
import type { OOrdering } from "./query.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";

type Key = number | string | boolean | null;
export type Comparator = (a: number, b: number) => number;

export interface OrderingPlan {
  readonly compare: Comparator;
  readonly error?: PossibleError;
  readonly maybe?: PossibleError;
}

const byId: Comparator = (a, b) => a - b;
const unordered: Comparator = () => 0;

function compareKeys(x: Key, y: Key, descending: boolean, text: boolean): number {
  if (x === null || y === null) return x === null && y === null ? 0 : x === null ? 1 : -1;
  let s: number;
  if (text) s = collate(String(x), String(y));
  else if (typeof x === "boolean" || typeof y === "boolean") s = Number(x) - Number(y);
  else s = x < y ? -1 : x > y ? 1 : 0;
  return descending ? -s : s;
}

/** Sign that every pair of possible keys agrees on, else 0. */
function agreeing(xs: readonly Key[], ys: readonly Key[], cmp: (x: Key, y: Key) => number): number {
  let sign: number | undefined;
  for (const x of xs) {
    for (const y of ys) {
      const s = Math.sign(cmp(x, y));
      if (sign === undefined) sign = s;
      else if (sign !== s) return 0;
    }
  }
  return sign ?? 0;
}

export function planOrdering(
  ordering: OOrdering | undefined,
  ctx: Ctx,
  filtered: ReadonlyMap<number, Tri>,
  displayTypes: Readonly<Record<string, unknown>> | undefined,
): OrderingPlan {
  if (!ordering) return { compare: byId };
  const { column, descending } = ordering;
  const facts = ctx.facts;
  const get = (id: number) => facts.get(id) as TaskFacts;

  if (column.startsWith("data.")) {
    const path = dataPath(column);
    if (!path || path.length > 1) {
      ctx.notes.push(`unspecified: ordering by ${column} (a nested or odd key)`);
      return { compare: unordered };
    }
    const text = (t: TaskFacts) => keyText(dataValue(t, path) as JsonValue | undefined);
    // LS looks the raw key up (`tasks:-data.x` and `data.x` miss a `tasks:data.x` entry); the spec
    // names only `tasks:data.<key>`. Where the two readings differ, both orders are accepted.
    const raw = displayTypes?.[ordering.displayKey] === "Number";
    const canonical = displayTypes?.[`tasks:${column}`] === "Number";
    if (raw !== canonical) ctx.notes.push(`unspecified: columnsDisplayType looked up by ${ordering.displayKey} or tasks:${column}`);
    const modes = new Set<"number" | "text">();
    if (!raw || !canonical) modes.add("text");
    if (raw || canonical) {
      // The numeric cast is tried over the filtered rows; one non-numeric text falls back to text.
      let definiteBad = false,
        maybeBad = false;
      for (const [id, member] of filtered) {
        const s = text(get(id));
        if (s === null || typeof pgFloat(s) === "number") continue;
        if (member === true) definiteBad = true;
        else if (member === "either") maybeBad = true;
      }
      if (definiteBad) modes.add("text");
      else {
        modes.add("number");
        if (maybeBad) modes.add("text");
      }
    }
    const keyIn = (t: TaskFacts, mode: "number" | "text"): Key => {
      const s = text(t);
      if (s === null) return null;
      return mode === "text" ? s : (pgFloat(s) as number);
    };
    return {
      compare: (a, b) => {
        const signs = [...modes].map((m) => Math.sign(compareKeys(keyIn(get(a), m), keyIn(get(b), m), descending, m === "text")));
        return signs.every((s) => s === signs[0]) ? (signs[0] as number) : 0;
      },
    };
  }

  if (isAgreementColumn(column)) return { compare: byId };
  // Task.comment_authors: a relation no community task has rows in, so every task sorts as NULL.
  if (column === "comment_authors") return { compare: unordered };
  if (column === "predictions_score" && facts.size === 0) {
    // LS source: annotate_predictions_score adds nothing without a first task (see conditions.ts),
    // so LS answers 500; the spec is silent and there is nothing to order: both are accepted.
    return { compare: byId, maybe: { status: 500, reason: "Cannot resolve keyword 'predictions_score' (no tasks to annotate)" } };
  }
  if (arrayColumns.has(column)) {
    ctx.notes.push(`unspecified: ordering by the aggregated list column ${column}`);
    return { compare: unordered };
  }
  const spec = plainColumns[column];
  if (!spec) {
    if (column === "state") {
      ctx.notes.push("unspecified: ordering by the feature-flagged state column");
      return { compare: unordered };
    }
    return {
      compare: unordered,
      error: {
        status: 500,
        reason: `Cannot resolve keyword '${column}' into field${enterpriseColumns.has(column) ? " (Enterprise column)" : ""}`,
      },
    };
  }
  return {
    compare: (a, b) => {
      const xs = spec.values(get(a)),
        ys = spec.values(get(b));
      if (xs === "unclear" || ys === "unclear") return 0;
      return agreeing(xs, ys, (x, y) => compareKeys(x, y, descending, spec.kind === "text"));
    },
  };
}
