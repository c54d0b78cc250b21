/**
 * The oracle's own reading of a query: filter lines, one ordering key, a selection. Built either
 * from a `QueryNode` (what the builder and the parser produce) or from a raw body (body.ts).
 */
import type { JsonValue } from "../../../src/vocabulary/json.js";
import type { QueryNode } from "../../../src/query/nodes.js";

export interface OCondition {
  /** After `filter:tasks:` (and a direction marker) is stripped, e.g. `completed_at`, `data.x`. */
  readonly column: string;
  readonly operator: string;
  readonly type: string;
  readonly value: JsonValue;
  /** Set for items the server skips: no `filter:tasks:` prefix (a skipped root drops its line). */
  readonly skipped?: true;
}

export interface OLine {
  readonly root: OCondition;
  readonly children: readonly OCondition[];
}

export interface OOrdering {
  readonly column: string;
  readonly descending: boolean;
  /** The key looked up in columnsDisplayType (`tasks:<column>` unless written `tasks:-<column>`). */
  readonly displayKey: string;
}

export interface OQuery {
  readonly conjunction: "and" | "or";
  /** Undefined or empty: no filtering. */
  readonly lines: readonly OLine[];
  readonly ordering?: OOrdering;
  /** `{all, ids}`: ids are `included` when all is false, `excluded` when true. */
  readonly selection?: { readonly all: boolean; readonly ids: readonly number[] };
  readonly columnsDisplayType?: Readonly<Record<string, unknown>>;
}

export function fromQueryNode(query: QueryNode): OQuery {
  const condition = (n: { column: string; operator: string; type: string; value: JsonValue }): OCondition => ({
    column: n.column,
    operator: n.operator,
    type: n.type,
    value: n.value,
  });
  const first = query.ordering?.[0];
  const sel = query.selectedItems;
  return {
    conjunction: query.filters?.conjunction ?? "and",
    lines: [
      ...(query.filters?.items ?? []).map((item) => ({ root: condition(item), children: item.children.map(condition) })),
      // regex values of items the parser dropped for their missing prefix: skipped, yet compiled
      ...(query.filters?.skippedRegex ?? []).map((value) => ({
        root: { column: "", operator: "regex", type: "String", value, skipped: true as const },
        children: [],
      })),
    ],
    ...(first ? { ordering: { column: first.column, descending: first.descending, displayKey: `tasks:${first.column}` } } : {}),
    ...(sel ? { selection: { all: sel.all, ids: sel.all ? sel.excluded : sel.included } } : {}),
    ...(query.columnsDisplayType ? { columnsDisplayType: query.columnsDisplayType } : {}),
  };
}
