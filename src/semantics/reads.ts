import type { QueryNode } from "../query/nodes.js";
import type { Read } from "./changes.js";
import { ANNOTATION_AUTHOR_TRAVERSAL, engineColumn } from "./columns.js";
import { djangoFieldName, literalJsonField } from "./targets.js";

/**
 * What a column reads, for deciding whether a write can change an evaluation (see `affects`): the
 * engine column's declared reads, the keys a `data.*` column walks from, and `*` for a name the engine
 * does not evaluate as a column (its error or its skip may depend on anything).
 */
export function columnReads(column: string): readonly Read[] {
  if (column.startsWith("data.")) {
    // A filter walks the path from its first key; a Number filter and the ordering read the rest as one key.
    const field = djangoFieldName(column);
    return [`data.${field.split("__")[1] ?? ""}`, `data.${literalJsonField(field)}`];
  }
  if (column === ANNOTATION_AUTHOR_TRAVERSAL) return ["annotations"];
  return engineColumn(column)?.reads ?? ["*"];
}

/** Everything a query's evaluation reads: its filters (children included) and its first ordering key. */
export function queryReads(query: QueryNode): ReadonlySet<Read> {
  const out = new Set<Read>();
  const add = (column: string) => {
    for (const r of columnReads(column)) out.add(r);
  };
  for (const item of query.filters?.items ?? []) {
    add(item.column);
    for (const child of item.children) add(child.column);
  }
  const first = query.ordering?.[0];
  if (first) add(first.column);
  return out;
}
