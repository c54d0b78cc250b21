import { match } from "ts-pattern";
import type { ConditionNode, QueryNode } from "../../query/nodes.js";
import { isOperatorName, operators } from "../../vocabulary/operators.js";
import type { IssueEffect, ParseIssue } from "../../wire/issues.js";

/** A value as people read it: ranges as `A and B`, lists in brackets, text in quotes. */
function valueWords(value: unknown): string {
  if (typeof value === "object" && value !== null && !Array.isArray(value) && "min" in value && "max" in value) {
    return `${JSON.stringify(value.min)} and ${JSON.stringify(value.max)}`;
  }
  return JSON.stringify(value);
}

/** `completed_at > "2024-01-01T00:00:00.000000Z"`, `annotators is empty`, `data.score (as Number) ≥ 0.5`. */
export function conditionWords(node: ConditionNode): string {
  const column = node.column.startsWith("data.") ? `${node.column} (as ${node.type})` : node.column;
  if (node.operator === "empty") return `${column} ${node.value === false ? "is not empty" : "is empty"}`;
  const label = isOperatorName(node.operator) ? operators[node.operator].label : `${node.operator} (unknown: read as equal)`;
  return `${column} ${label} ${valueWords(node.value)}`;
}

/** What a parsed query selects, one plain line after another. */
export function selectionWords(query: QueryNode, project: number | undefined): string[] {
  const of = project === undefined ? "the project" : `project ${project}`;
  const items = query.filters?.items ?? [];
  const out: string[] = [];
  if (items.length === 0) out.push(`every task of ${of}`);
  else {
    const joint = query.filters?.conjunction === "or" ? "or" : "and";
    items.forEach((item, i) => {
      const line = [item, ...item.children].map(conditionWords).join(" and ");
      const wrapped = item.children.length > 0 && items.length > 1 ? `(${line})` : line;
      out.push(i === 0 ? `tasks of ${of} where ${wrapped}` : `  ${joint} ${wrapped}`);
    });
  }
  const selected = query.selectedItems;
  if (selected) {
    out.push(
      match(selected)
        .with({ all: true }, ({ excluded }) => (excluded.length === 0 ? "all of them" : `all of them except tasks ${excluded.join(", ")}`))
        .with({ all: false }, ({ included }) =>
          included.length === 0 ? "ALL of them: an empty included list is no restriction" : `only tasks ${included.join(", ")} among them`,
        )
        .exhaustive(),
    );
  }
  const order = query.ordering?.[0];
  out.push(
    order
      ? `ordered by ${order.column}, ${order.descending ? "descending" : "ascending"} (empty values last)`
      : "in the server's default order",
  );
  return out;
}

const effectWords: { readonly [E in IssueEffect]: string } = {
  ignored: "ignored",
  evaluated: "read differently",
  rejected: "refused (400)",
  "server-error": "server error (500)",
};

/** The issue in plain words, with the surprises that need more than the parser's sentence spelled out. */
export function issueWords(issue: ParseIssue, body: unknown): string {
  const tag = `[${effectWords[issue.effect]}]`;
  const conjunction = /^filters\.items\[\d+\]\.conjunction$/.test(issue.path);
  if (conjunction) {
    const set = (body as { filters?: { conjunction?: unknown } } | undefined)?.filters?.conjunction;
    return `${tag} ${issue.path}: a line asks for ${issue.found}, but a filter set has one conjunction: the server joins every line with filters.conjunction (${JSON.stringify(set)}) and ignores this key`;
  }
  if (issue.path === "selectedItems.included" && issue.effect === "evaluated") {
    return `${tag} selectedItems: {all: false, included: []} selects EVERY task, not none`;
  }
  return `${tag} ${issue.path}: found ${issue.found}; expected ${issue.expected}`;
}
