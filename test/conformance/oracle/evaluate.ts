/**
 * The oracle's pipeline (docs/reference/request.md#the-pipeline): the project's tasks → filters →
 * ordering → selectedItems. Lines are AND-ed inside; positive joins inside one line share the
 * annotation / prediction row (one Django `filter()` call), separate AND lines do not.
 */
import type { Dataset } from "../../../src/semantics/records.js";
import type { QueryNode } from "../../../src/query/nodes.js";
import { evalCondition, joinHolds, rowsOf, type Ctx, type Expr, type JoinPart } from "./conditions.js";
import { factsOf, type TaskFacts } from "./facts.js";
import { and3, or3, type Outcome, type PossibleError, type Tri } from "./outcome.js";
import { planOrdering } from "./ordering.js";
import { pythonRegex } from "./pg.js";
import { fromQueryNode, type OLine, type OQuery } from "./query.js";

/** Evaluate a Query value the way the spec says the server would. */
export function oracle(dataset: Dataset, query: QueryNode): Outcome {
  return oracleQuery(dataset, fromQueryNode(query));
}

function lineVerdict(exprs: readonly Expr[], ctx: Ctx, t: TaskFacts): Tri {
  const id = t.task.id;
  let independent: Tri = true;
  for (const e of exprs) {
    const v = and3(e.verdict.get(id) ?? false, e.join ? joinHolds(t, e.join) : true);
    independent = and3(independent, v);
  }
  const joins = exprs.flatMap((e) => (e.join ? [e.join] : []));
  const byRelation = new Map<string, JoinPart[]>();
  for (const j of joins) byRelation.set(j.relation, [...(byRelation.get(j.relation) ?? []), j]);
  if (![...byRelation.values()].some((parts) => parts.length > 1)) return independent;
  // Same-row reading: one row must satisfy every positive join of its relation in this line.
  let sameRow: Tri = true;
  for (const e of exprs) sameRow = and3(sameRow, e.verdict.get(id) ?? false);
  for (const [relation, parts] of byRelation) {
    const rows = rowsOf(t, relation as JoinPart["relation"]);
    const holds = rows.length === 0 ? parts.every((p) => p.noRow) : rows.some((r) => parts.every((p) => p.row(r)));
    sameRow = and3(sameRow, holds);
  }
  if (sameRow === independent) return independent;
  ctx.notes.push(`unspecified: whether conditions of one line share an annotation/prediction row (task ${id})`);
  return "either";
}

export function oracleQuery(dataset: Dataset, query: OQuery): Outcome {
  const ctx: Ctx = { facts: factsOf(dataset), project: dataset.project, notes: [] };
  const ids = [...ctx.facts.keys()];
  const maybe: PossibleError[] = [];
  const atRun: PossibleError[] = [];
  let deferred: PossibleError | undefined;
  let members = new Map<number, Tri>(ids.map((id) => [id, true]));

  const lines: readonly OLine[] = query.lines;
  const regexes = lines
    .flatMap((line) => [line.root, ...line.children])
    .filter((c) => c.operator === "regex" && typeof c.value === "string");
  const validity = regexes.map((c) => pythonRegex(c.value as string));
  const invalidRegex = validity.includes("invalid");
  if (!invalidRegex && validity.includes("unclear")) {
    // Python may refuse a pattern JavaScript accepts (or the reverse): then the result is either empty or not.
    ctx.notes.push("unspecified: whether Python compiles a regex here");
    return {
      errors: [
        { status: 400, reason: "unspecified regex" },
        { status: 500, reason: "unspecified regex" },
      ],
      result: { members: new Map(ids.map((id) => [id, "either"])), compare: () => 0, notes: ctx.notes },
    };
  }
  let exprCount = 0;
  let shortCircuited = false; // queryset.none(): the database is never asked
  if (invalidRegex) {
    shortCircuited = true;
    members = new Map(ids.map((id) => [id, false]));
  } else if (lines.length > 0) {
    const lineResults: Map<number, Tri>[] = [];
    let exit = false;
    // get_fields_for_filter_ordering: the root filters' columns and the first ordering key are annotated.
    const annotated = new Set([...lines.map((l) => l.root.column), ...(query.ordering ? [query.ordering.column] : [])]);
    outer: for (const line of lines) {
      const exprs: Expr[] = [];
      for (const [i, cond] of [line.root, ...line.children].entries()) {
        const isChild = i > 0;
        if (cond.skipped || cond.value === null) {
          if (!isChild) break;
          continue;
        }
        const step = evalCondition(cond, ctx, isChild ? { annotated } : undefined);
        if (step.kind === "error") return { errors: [...maybe, ...(step.maybe ?? []), step.error], result: null };
        if (step.kind === "exit") {
          exit = true;
          break outer;
        }
        if (step.kind === "skipLine") {
          if (!isChild) break;
          continue;
        }
        if (step.kind === "dropped") continue;
        exprs.push(step.expr);
        deferred ??= step.expr.deferred;
        maybe.push(...step.expr.maybe);
        atRun.push(...(step.expr.atRun ?? []));
      }
      if (exprs.length === 0) continue;
      exprCount += exprs.length;
      const verdict = new Map<number, Tri>();
      for (const [id, t] of ctx.facts) verdict.set(id, lineVerdict(exprs, ctx, t));
      lineResults.push(verdict);
    }
    if (exit) {
      shortCircuited = true;
      members = new Map(ids.map((id) => [id, false]));
      atRun.length = 0; // queryset.none() never reaches the database
    } else if (lineResults.length > 0) {
      const combine = query.conjunction === "or" ? or3 : and3;
      members = new Map(ids.map((id) => [id, lineResults.map((r) => r.get(id) as Tri).reduce(combine)]));
    }
  }

  if (deferred && !shortCircuited) return { errors: [...maybe, deferred], result: null };
  // A failing cast in the only condition is certain; with others Postgres may never reach the row.
  if (atRun.length > 0) {
    if (exprCount === 1) return { errors: [...maybe, ...atRun], result: null };
    maybe.push(...atRun);
  }

  const plan = planOrdering(query.ordering, ctx, members, query.columnsDisplayType);
  if (plan.maybe) maybe.push(plan.maybe);
  if (plan.error) {
    if (shortCircuited) maybe.push(plan.error);
    else return { errors: [...maybe, plan.error], result: null };
  }

  const sel = query.selection;
  if (sel && sel.ids.length > 0) {
    const chosen = new Set(sel.ids);
    for (const [id, v] of members) members.set(id, sel.all ? (chosen.has(id) ? false : v) : chosen.has(id) ? v : false);
  }
  return { errors: maybe, result: { members, compare: plan.compare, notes: [...new Set(ctx.notes)] } };
}
