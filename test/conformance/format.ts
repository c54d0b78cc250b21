/**
 * Failure reports: the builder chain that reproduces a query, and a short account of the dataset.
 * A query from a raw body may hold things the builder cannot express (unknown operators, types the
 * builder never sends); those lines are written as comments with their wire form.
 */
import type { ConditionNode, QueryNode } from "../../src/query/nodes.js";
import { toBody } from "../../src/wire/serialize.js";
import type { Dataset } from "../../src/semantics/records.js";
import {
  columnKinds,
  dataKindByType,
  isOperatorName,
  kindOf,
  operators,
  type ColumnKindName,
  type OperatorName,
} from "../../src/vocabulary/index.js";
import type { QuerySpec } from "./generators/queries.js";

const lit = (v: unknown): string => {
  if (v instanceof Date) return `new Date(${JSON.stringify(v.toISOString())})`;
  return JSON.stringify(v);
};

/** The builder chain of a generated spec: paste it into a test to reproduce. */
export function specSnippet(spec: QuerySpec, project = 1): string {
  const parts = [`selection(${project})`];
  spec.lines.forEach((line, i) => {
    const verb = i === 0 ? "where" : spec.conjunction;
    for (const [j, c] of [line.root, ...line.children].entries()) {
      const typeArg = c.target.type === undefined ? "" : `, ${lit(c.target.type)}`;
      parts.push(`  .${j === 0 ? verb : "child"}(${lit(c.target.column)}${typeArg}).${operators[c.operator].method}(${lit(c.value)})`);
    }
  });
  if (spec.orderBy) parts.push(`  .orderBy(${lit(spec.orderBy)})`);
  if (spec.ids) parts.push(spec.ids.kind === "all" ? "  .all()" : `  .${spec.ids.kind}(${lit(spec.ids.ids)})`);
  let out = parts.join("\n");
  if (spec.columnsDisplayType) out += `\n  // + columnsDisplayType ${lit(spec.columnsDisplayType)} on the Query value`;
  return out;
}

function builderValue(c: ConditionNode): unknown {
  const kind = kindOf(c.column, c.type) as ColumnKindName | undefined;
  const shape = kind ? (columnKinds[kind].operators as Record<string, string>)[c.operator] : undefined;
  if (shape === "json" && typeof c.value === "string") {
    try {
      return JSON.parse(c.value);
    } catch {
      return c.value;
    }
  }
  return c.value;
}

function conditionCall(verb: string, c: ConditionNode): string {
  const isData = c.column.startsWith("data.");
  const kind = kindOf(c.column, isData ? c.type : undefined);
  const allowed = kind ? Object.hasOwn(columnKinds[kind].operators, c.operator) : false;
  const typeOk = isData ? Object.hasOwn(dataKindByType, c.type) : kind !== undefined && columnKinds[kind].type === c.type;
  if (!isOperatorName(c.operator) || !allowed || !typeOk) {
    return `  // not expressible with the builder: ${JSON.stringify({ column: c.column, operator: c.operator, type: c.type, value: c.value })}`;
  }
  const typeArg = isData ? `, ${lit(c.type)}` : "";
  return `  .${verb}(${lit(`tasks:${c.column}`)}${typeArg}).${operators[c.operator as OperatorName].method}(${lit(builderValue(c))})`;
}

/** A builder chain for a Query value (best effort), followed by its documented body. */
export function querySnippet(query: QueryNode, project = 1): string {
  const parts = [`selection(${project})`];
  const items = query.filters?.items ?? [];
  items.forEach((item, i) => {
    parts.push(conditionCall(i === 0 ? "where" : (query.filters?.conjunction ?? "and"), item));
    for (const child of item.children) parts.push(conditionCall("child", child));
  });
  const first = query.ordering?.[0];
  if (first) parts.push(`  .orderBy(${lit(`${first.descending ? "-" : ""}tasks:${first.column}`)})`);
  const sel = query.selectedItems;
  if (sel) {
    if (sel.all) parts.push(sel.excluded.length ? `  .excluding(${lit(sel.excluded)})` : "  .all()");
    else
      parts.push(
        sel.included.length
          ? `  .including(${lit(sel.included)})`
          : "  // selectedItems {all: false, included: []} (the builder refuses it)",
      );
  }
  return `${parts.join("\n")}\n// body: ${JSON.stringify(toBody(query))}`;
}

/** The dataset in a form that can be pasted back (compact JSON). */
export function datasetSnippet(dataset: Dataset): string {
  return JSON.stringify(dataset);
}
