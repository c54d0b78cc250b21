import type { ConditionNode, QueryNode } from "../../src/query/nodes.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { parseQueryBody } from "../../src/wire/parse.js";
import {
  draftOf,
  emptyDraft,
  isDataColumn,
  newCondition,
  shapeOf,
  withColumn,
  withOperator,
  type ConditionDraft,
  type Draft,
} from "./model.js";
import { isOperatorName } from "../../src/vocabulary/operators.js";

// The link format is shared with `dmq explain --open`, so it lives below the CLI and the playground.
export { linkHash, parseLink, playgroundUrl, type Link, type ParsedLink } from "../../src/wire/playground-link.js";

/**
 * A body as the editor's draft, read by the wire parser (so a link is read the way the server reads
 * a body). What the editor cannot hold is reported, never silently changed.
 */
export function draftFromBody(project: number, body: unknown): { draft: Draft; problems: string[] } {
  const problems: string[] = [];
  const parsed = parseQueryBody(body);
  for (const issue of parsed.issues) problems.push(`${issue.path}: expected ${issue.expected}, found ${issue.found}`);
  const query: QueryNode = parsed.query ?? {};
  const draft = emptyDraft(project);
  const condition = (node: ConditionNode, path: string): ConditionDraft | undefined => {
    if (!isOperatorName(node.operator)) {
      problems.push(`${path}: the editor leaves this condition out (it offers no operator "${node.operator}")`);
      return undefined;
    }
    const typed = isDataColumn(node.column) ? node.type : undefined;
    let c: ConditionDraft;
    try {
      c = withOperator(withColumn(newCondition(), node.column, typed), node.operator);
    } catch {
      problems.push(`${path}: the editor leaves this condition out (it offers no column "${node.column}" as ${node.type})`);
      return undefined;
    }
    const shape = shapeOf(c);
    if (shape === undefined || c.operator !== node.operator) {
      problems.push(
        `${path}: the editor leaves this condition out (${node.operator} is not offered for tasks:${node.column} as ${node.type})`,
      );
      return undefined;
    }
    return { ...c, value: draftOf(shape, node.value as JsonValue) };
  };
  const lines = (query.filters?.items ?? []).flatMap((item, k) => {
    const root = condition(item, `filters.items[${k}]`);
    if (!root) return [];
    const children = item.children.flatMap((child, c) => condition(child, `filters.items[${k}].child_filters[${c}]`) ?? []);
    return [{ root, children }];
  });
  const order = query.ordering?.[0];
  const selected = query.selectedItems;
  return {
    draft: {
      ...draft,
      conjunction: query.filters?.conjunction ?? "and",
      lines,
      ordering: order ? { column: order.column, descending: order.descending } : undefined,
      selection: !selected
        ? draft.selection
        : selected.all
          ? { mode: selected.excluded.length ? "excluding" : "all", ids: selected.excluded.join(", ") }
          : { mode: "including", ids: selected.included.join(", ") },
    },
    problems,
  };
}
