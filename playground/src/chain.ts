import type { SelectionBuilder } from "../../src/query/builder.js";
import { ORDER_PREFIX, type QueryBody, type QueryNode } from "../../src/query/nodes.js";
import { QueryBuildError } from "../../src/query/rules.js";
import { selection } from "../../src/selection.js";
import { operators } from "../../src/vocabulary/operators.js";
import { idsOf, inputOf, shapeOf, type ConditionDraft, type Draft } from "./model.js";

/**
 * The editor's draft as a builder chain: the text a user would write, and the same calls made on
 * the real builder, whose body and Query the page shows and evaluates. The first refusal stops the
 * chain, with the builder's own message and body path.
 */
export interface Built {
  /** `selection(1)\n  .where("tasks:id").equal(1)…` */
  readonly chain: string;
  readonly body?: QueryBody;
  readonly query?: QueryNode;
  readonly error?: { readonly path: string; readonly message: string };
}

type Placement = "where" | "and" | "or" | "child";
interface Call {
  readonly placement: Placement;
  readonly condition: ConditionDraft;
  /** The condition's path in the body, as the builder names it. */
  readonly path: string;
}

function calls(draft: Draft): Call[] {
  return draft.lines.flatMap((line, k) => [
    { placement: k === 0 ? "where" : draft.conjunction, condition: line.root, path: `filters.items[${k}]` } as Call,
    ...line.children.map((condition, c) => ({ placement: "child", condition, path: `filters.items[${k}].child_filters[${c}]` }) as Call),
  ]);
}

const orderKey = (o: NonNullable<Draft["ordering"]>) => `${o.descending ? "-" : ""}${ORDER_PREFIX}${o.column}`;

export function build(draft: Draft): Built {
  const chain = chainText(draft);
  let b = selection(draft.project) as unknown as SelectionBuilder;
  try {
    for (const { placement, condition: c, path } of calls(draft)) {
      const shape = shapeOf(c);
      if (shape === undefined)
        return {
          chain,
          error: { path: `${path}.operator`, message: `${path}.operator: ${c.operator} is not offered for tasks:${c.column}` },
        };
      const value = inputOf(shape, c.value);
      if (!value.ok) return { chain, error: { path: `${path}.value`, message: `${path}.value: ${value.message}` } };
      const step = c.type === undefined ? b[placement](`${ORDER_PREFIX}${c.column}`) : b[placement](`${ORDER_PREFIX}${c.column}`, c.type);
      b = step.apply(c.operator, value.input);
    }
    if (draft.ordering) b = b.orderBy(orderKey(draft.ordering));
    const { mode, ids } = draft.selection;
    if (mode === "all") b = b.all();
    else if (mode === "excluding") b = b.excluding(idsOf(ids));
    else if (mode === "including") b = b.including(idsOf(ids));
  } catch (error) {
    if (error instanceof QueryBuildError) return { chain, error: { path: error.path, message: error.message } };
    throw error;
  }
  return { chain, body: b.toJSON(), query: b.toQuery() };
}

/** The chain as TypeScript, one call per line. */
export function chainText(draft: Draft): string {
  const out = [`selection(${draft.project})`];
  for (const { placement, condition: c } of calls(draft)) {
    const shape = shapeOf(c);
    const value = shape === undefined ? undefined : inputOf(shape, c.value);
    const column = JSON.stringify(`${ORDER_PREFIX}${c.column}`) + (c.type === undefined ? "" : `, ${JSON.stringify(c.type)}`);
    const arg = value?.ok ? literal(value.input) : "/* ? */";
    out.push(`  .${placement}(${column}).${operators[c.operator].method}(${arg})`);
  }
  if (draft.ordering) out.push(`  .orderBy(${JSON.stringify(orderKey(draft.ordering))})`);
  const { mode, ids } = draft.selection;
  if (mode === "all") out.push("  .all()");
  else if (mode !== "none") out.push(`  .${mode}(${literal(idsOf(ids))})`);
  return out.join("\n");
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A value as a TypeScript literal: `{ min: 1, max: 5 }`, `[1, 2]`, `"text"`. */
export function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${literal(v)}`);
    return entries.length ? `{ ${entries.join(", ")} }` : "{}";
  }
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : String(value);
  return JSON.stringify(value) ?? "undefined";
}
