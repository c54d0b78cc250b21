import { match } from "ts-pattern";
import { ORDER_PREFIX, type ConditionNode, type QueryNode } from "../../query/nodes.js";
import { QueryBuildError, refuse } from "../../query/rules.js";
import type { ResumedSelection } from "../../query/types.js";
import { DATA_PREFIX } from "../../vocabulary/columns.js";
import { isNonEmpty } from "../../vocabulary/value-shapes.js";
import { inferDataType } from "../../vocabulary/column-kinds.js";
import { operatorAliases, operators, isOperatorName } from "../../vocabulary/operators.js";
import { isOrderKey } from "../../query/condition.js";
import { resume, startSelection, type DynamicSelection } from "../query/builder.js";
import { bodyPathOf } from "../../wire/parse-condition.js";
import type { ParseIssue } from "../../wire/issues.js";

/** The method a chain uses for an operator: the readable alias where the builder has one (between). */
const methodOf = (operator: string): string => {
  const alias = Object.entries(operatorAliases).find(([, op]) => op === operator)?.[0];
  return alias ?? (isOperatorName(operator) ? operators[operator].method : operator);
};

const literal = (value: unknown): string => JSON.stringify(value);

/** The column argument(s): a data key keeps its wire type unless the builder would infer that type. */
function columnArgs(node: ConditionNode): { args: string; type: string | undefined } {
  const column = `${ORDER_PREFIX}${node.column}`;
  const inferred = node.column.startsWith(DATA_PREFIX) && node.type === inferDataType(node.operator, node.value);
  const type = node.column.startsWith(DATA_PREFIX) && !inferred ? node.type : undefined;
  return { args: type === undefined ? literal(column) : `${literal(column)}, ${literal(type)}`, type };
}

/**
 * A builder error about one condition, at the body's position `path`: the builder numbers the
 * conditions it was given, so its own prefix (`filters.items[1]`) gives way to the body's.
 */
function inBodyWords(error: QueryBuildError, path: string): string {
  const own = /^filters\.items\[\d+\](\.child_filters\[\d+\])?/.exec(error.path)?.[0];
  if (own === undefined || !error.message.startsWith(`${error.path}: `)) return `${path}: ${error.message}`;
  return `${path}${error.path.slice(own.length)}: ${error.message.slice(error.path.length + 2)}`;
}

export interface Chain {
  /** TypeScript source that builds the selection, as `export const query = selection(…)…;`. */
  readonly code: string;
  /** The builder's selection: what the code evaluates to. */
  readonly selection: DynamicSelection;
  /** Parts of the query the builder cannot express (with why). */
  readonly leftOut: readonly string[];
}

/**
 * The builder chain for a parsed query, checked step by step against the builder itself: each
 * call is made at run time as it is written, so the printed chain gives back the same body.
 */
export function chainOf(query: QueryNode, project: number, view: number | undefined, ignored: readonly ParseIssue[] = []): Chain {
  let s = startSelection(project);
  const lines: string[] = [];
  const leftOut: string[] = [];
  const step = (text: string, path: string, apply: (next: ResumedSelection) => DynamicSelection) => {
    try {
      s = apply(resume(s));
      lines.push(text);
    } catch (error) {
      if (!(error instanceof QueryBuildError)) throw error;
      leftOut.push(inBodyWords(error, path));
    }
  };
  if (view !== undefined) step(`.fromView(${view})`, "view", (next) => next.fromView(view));
  const items = query.filters?.items ?? [];
  const conjunction = query.filters?.conjunction ?? "and";
  items.forEach((item, i) => {
    const place = i === 0 ? "where" : conjunction;
    // The body's own positions: the server (and the parser) drop items, so the query's indices are not the body's.
    const at = bodyPathOf(item) ?? `filters.items[${i}]`;
    const nodes: [ConditionNode, "where" | "and" | "or" | "child", string][] = [
      [item, place, at],
      ...item.children.map((c, j): [ConditionNode, "child", string] => [c, "child", bodyPathOf(c) ?? `${at}.child_filters[${j}]`]),
    ];
    for (const [node, at, path] of nodes) {
      const { args, type } = columnArgs(node);
      const method = methodOf(node.operator);
      step(`.${at}(${args}).${method}(${literal(node.value)})`, path, (next) => {
        if (!isOperatorName(node.operator) || !operators[node.operator].implemented) {
          throw new QueryBuildError(`${path}.operator: ${JSON.stringify(node.operator)} is not an operator the builder offers`, path);
        }
        const condition = { column: `${ORDER_PREFIX}${node.column}`, operator: node.operator, value: node.value, type };
        return match(at)
          .with("where", () => next.where(condition))
          .with("and", () => next.and(condition))
          .with("or", () => next.or(condition))
          .with("child", () => next.child(condition))
          .exhaustive();
      });
    }
  });
  const order = query.ordering?.[0];
  if (order) {
    const key = `${order.descending ? "-" : ""}${ORDER_PREFIX}${order.column}`;
    // A parsed ordering names a known column, so the key always narrows; otherwise the step is left out.
    step(`.orderBy(${literal(key)})`, "ordering[0]", (next) => {
      if (!isOrderKey(key))
        throw new QueryBuildError(`ordering[0]: ${literal(key)} is not an ordering key the builder offers`, "ordering[0]");
      return next.orderBy(key);
    });
  }
  const selected = query.selectedItems;
  if (selected) {
    match(selected)
      .with({ all: true }, ({ excluded }) =>
        excluded.length === 0
          ? step(".all()", "selectedItems", (next) => next.all())
          : step(`.excluding(${literal(excluded)})`, "selectedItems.excluded", (next) => next.excluding(excluded)),
      )
      .with({ all: false }, ({ included }) =>
        step(`.including(${literal(included)})`, "selectedItems.included", (next) =>
          // An empty list gets the builder's own refusal (its type takes only a non-empty one).
          isNonEmpty(included) ? next.including(included) : refuse("emptyIncluding", "selectedItems.included"),
        ),
      )
      .exhaustive();
  }
  if (query.columnsDisplayType)
    leftOut.push("columnsDisplayType: the builder does not write display types (they only make data.* ordering numeric)");
  const notes = [
    ...ignored.map((i) => `// ignored by the server: ${i.path} (found ${i.found}; expected ${i.expected})`),
    ...leftOut.map((l) => `// left out (the builder cannot write it): ${l}`),
  ];
  if (items.length === 1 && conjunction === "or") {
    notes.push('// written differently: filters.conjunction "or" with one line; the builder writes "and", which selects the same tasks');
  }
  const code = [
    'import { selection } from "dmq";',
    "",
    ...notes,
    `export const query = selection(${project})${lines.map((l) => `\n  ${l}`).join("")};`,
    "",
  ].join("\n");
  return { code, selection: s, leftOut };
}
