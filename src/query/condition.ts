import { columnKinds, dataKindByType, inferDataType, type ColumnKindName } from "../vocabulary/column-kinds.js";
import { columnNames, DATA_PREFIX, isColumnName, kindOf } from "../vocabulary/columns.js";
import { describeValue, type JsonValue } from "../vocabulary/json.js";
import { holdingWords, nearestAll, orList } from "../vocabulary/nearest.js";
import { isOperatorName, operatorByMethod, operators, type OperatorName } from "../vocabulary/operators.js";
import { valueShapes, type ShapeName } from "../vocabulary/value-shapes.js";
import type { OrderKey, Untyped } from "./columns.js";
import { ORDER_PREFIX, type ConditionNode } from "./nodes.js";
import { QueryBuildError } from "./rules.js";
import type { Condition } from "./condition-value.js";
import type { Where } from "./types.js";

export type { AnyCondition, Condition, TaskData } from "./condition-value.js";

const conditionKeys = ["column", "operator", "value", "type"];
const freeze = <T extends object>(value: T): T => Object.freeze(value);
const at = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** A resolved column: the name after `tasks:` and its kind. */
export interface Target {
  readonly column: string;
  readonly kind: ColumnKindName;
  readonly path: string;
}

/** `tasks:<column>` or `tasks:data.<key>` -> the column after `tasks:`, or undefined. */
function columnOf(name: unknown): string | undefined {
  if (typeof name !== "string" || !name.startsWith(ORDER_PREFIX)) return undefined;
  const column = name.slice(ORDER_PREFIX.length);
  return (column.startsWith(DATA_PREFIX) ? column.length > DATA_PREFIX.length : kindOf(column) !== undefined) ? column : undefined;
}

/**
 * Whether `key` is an ordering key `.orderBy()` takes: narrow a key held in a `string` (from a sort
 * header, a config file) with it, as `isNonEmpty` narrows a list.
 */
export function isOrderKey(key: unknown): key is OrderKey<Untyped> {
  return typeof key === "string" && columnOf(key.startsWith("-") ? key.slice(1) : key) !== undefined;
}

/**
 * What a name that is no column most likely stands for, as a hint: the bare column (`id`) or the wire's filter
 * name (`filter:tasks:id`) for `tasks:id`, a misspelt one (`tasks:complted_at`) for the nearest known column, a part
 * of several (`tasks:annotations`) for each of them, and a plain word that is no misspelling (`tasks:score`) for a key
 * of the task data as well. `sign` goes in front, as the key had it.
 */
function columnHint(name: unknown, sign: "" | "-"): string {
  if (typeof name !== "string") return "";
  const bare = name.replace(/^filter:/, "").replace(/^tasks:/, "");
  const quoted = (column: string) => JSON.stringify(`${sign}${ORDER_PREFIX}${column}`);
  if (bare.startsWith(DATA_PREFIX) && bare.length > DATA_PREFIX.length) return ` (did you mean ${quoted(bare)}?)`;
  const near = isColumnName(bare) ? [bare] : nearestAll(bare, columnNames);
  const columns = near.length === 0 ? "" : `did you mean ${orList(near.map(quoted))}?`;
  // A plain word that is no misspelling of a column (none is near, or only columns it is a part of) may be a key of the data.
  const partOf = holdingWords(bare, columnNames);
  const dataKey =
    /^[A-Za-z_]\w*$/.test(bare) && bare !== "data" && near.every((n) => partOf.includes(n))
      ? `a key of the task data is ${quoted(`${DATA_PREFIX}${bare}`)}`
      : "";
  const hint = [columns, dataKey].filter((h) => h !== "").join(" ");
  return hint === "" ? "" : ` (${hint})`;
}

/**
 * `tasks:<column>` or `tasks:data.<key>` -> the column after `tasks:`. `sign`: the `-` an ordering key had
 * before `name`, so that a refusal quotes the key as written.
 */
export function resolveColumnName(name: unknown, path: string, sign: "" | "-" = ""): string {
  const column = columnOf(name);
  if (column !== undefined) return column;
  const found = describeValue(typeof name === "string" ? `${sign}${name}` : name);
  throw new QueryBuildError(
    `${path}: expected a known column "tasks:<column>" or "tasks:data.<key>", found ${found}${columnHint(name, sign)}`,
    path,
    '"tasks:<column>" or "tasks:data.<key>"',
    found,
  );
}

/** The column of a condition at `path` (a filter item), with its kind given the optional data type. */
export function resolveColumn(column: unknown, type: unknown, path: string): Target {
  const name = resolveColumnName(column, at(path, "filter"));
  if (!name.startsWith(DATA_PREFIX) && type !== undefined) {
    throw new QueryBuildError(
      `${at(path, "type")}: only tasks:data.<key> columns take a type; ${String(column)} is always ${columnKinds[kindOf(name) as ColumnKindName].type}`,
      at(path, "type"),
    );
  }
  const kind = kindOf(name, type as string | undefined);
  if (kind === undefined) {
    const expected = Object.keys(dataKindByType).join(", ");
    throw new QueryBuildError(
      `${at(path, "type")}: expected a data column type (${expected}), found ${describeValue(type)}`,
      at(path, "type"),
      expected,
      describeValue(type),
    );
  }
  return { column: name, kind, path };
}

/** The filter item of `target operator value`, the value encoded for the wire. */
export function conditionNode(target: Target, operator: OperatorName, value: unknown): ConditionNode {
  const { column, kind, path } = target;
  const spec = columnKinds[kind];
  const shape = (spec.operators as Partial<Record<OperatorName, ShapeName>>)[operator];
  if (shape === undefined) {
    const allowed = Object.keys(spec.operators).join(", ");
    throw new QueryBuildError(
      `${at(path, "operator")}: ${operator} is not allowed on tasks:${column} (${kind} column); allowed: ${allowed}`,
      at(path, "operator"),
      allowed,
      operator,
    );
  }
  const encoded = valueShapes[shape].encode(value);
  if (!encoded.ok) {
    throw new QueryBuildError(
      `${at(path, "value")}: ${operator} on tasks:${column} expects ${encoded.expected}, found ${describeValue(value)}`,
      at(path, "value"),
      encoded.expected,
      describeValue(value),
    );
  }
  return freeze({
    column,
    operator,
    type: kind === "dataAny" ? inferDataType(operator, encoded.value) : spec.type,
    value: encoded.value as JsonValue,
    children: freeze([]),
  });
}

/** The dynamic entry: a `Condition` object read at run time, checked against the vocabulary. */
export function nodeOfCondition(input: unknown, path: string): ConditionNode {
  if (input instanceof ConditionStep) {
    throw new QueryBuildError(
      `${path || "condition"}: ${input.columnArg} has no operator yet: a condition needs one, e.g. condition(column).equal(value)`,
      path,
      "a condition with an operator",
      `condition(${JSON.stringify(input.columnArg)}) without an operator`,
    );
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new QueryBuildError(
      `${path}: expected a column "tasks:<column>" or a condition { column, operator, value, type? }, found ${describeValue(input)}`,
      path,
      "a column or a condition",
      describeValue(input),
    );
  }
  const extra = Object.keys(input).filter((k) => !conditionKeys.includes(k));
  if (extra.length > 0) {
    throw new QueryBuildError(
      `${path}: a condition has column, operator, value and type; found ${extra.join(", ")}`,
      at(path, extra[0] as string),
    );
  }
  const c = input as Partial<Condition>;
  const target = resolveColumn(c.column, c.type, path);
  const op = c.operator;
  const operator = isOperatorName(op)
    ? op
    : typeof op === "string" && Object.hasOwn(operatorByMethod, op)
      ? operatorByMethod[op]
      : undefined;
  if (operator === undefined) {
    const known = Object.keys(operators).join(", ");
    throw new QueryBuildError(
      `${at(path, "operator")}: expected an operator (${known}) or its method name, found ${describeValue(op)}`,
      at(path, "operator"),
      known,
      describeValue(op),
    );
  }
  return conditionNode(target, operator, c.value);
}

/**
 * The pending `(column)`: every operator method exists at run time and checks the kind's table.
 * Selection members called on it instead (when the compiler was told it is a selection, e.g. by
 * `where(flag ? "tasks:id" : condition)`) throw a `QueryBuildError` (builder.ts adds them).
 */
export class ConditionStep<T> {
  constructor(
    readonly complete: (node: ConditionNode, condition: Condition) => T,
    readonly target: Target,
    readonly columnArg: string,
    readonly type: string | undefined,
  ) {}

  apply(operator: OperatorName, value: unknown): T {
    const node = conditionNode(this.target, operator, value);
    const condition: Condition = freeze({
      column: this.columnArg,
      operator,
      value,
      ...(this.type === undefined ? {} : { type: this.type }),
    });
    return this.complete(node, condition);
  }
}

// Operator methods (and aliases) derived from the vocabulary table.
for (const [method, operator] of Object.entries(operatorByMethod)) {
  Object.defineProperty(ConditionStep.prototype, method, {
    value(this: ConditionStep<unknown>, value: unknown) {
      return this.apply(operator, value);
    },
    enumerable: false,
  });
}

/** The factory behind `condition`: a column (and optional data type), or a condition value to check. */
function makeCondition(column: unknown, type?: unknown): unknown {
  if (typeof column !== "string") {
    nodeOfCondition(column, "");
    return freeze({ ...(column as Condition) });
  }
  const target = resolveColumn(column, type, "");
  return new ConditionStep((_node, c) => c, target, column, type as string | undefined);
}

/**
 * Builds conditions. One on a known column fits every selection (`Condition`); one on a
 * `tasks:data.<key>` column carries the task data it was checked against (`Condition<Untyped>`, or
 * `Condition<D>` from `condition.of<D>()`) and fits only selections of that data.
 */
export interface ConditionFactory extends ConditionsOf<Untyped> {
  /** The same factory, typing `tasks:data.<key>` columns with the task-data type `D`: `condition.of<Review>()("tasks:data.score").greater(0.5)`. */
  of<D>(): ConditionsOf<D>;
}
/** `condition(column)` for the task data `D`; a condition value it re-checks must fit any selection. */
export type ConditionsOf<D> = Where<D, Condition, Condition<D>, unknown>;

/**
 * A condition built apart from any selection, for `.where()`, `.and()`, `.or()` and `.child()`:
 * `condition("tasks:total_annotations").equal(0)`. Checked by the compiler like `.where()`, and
 * again at run time.
 */
export const condition: ConditionFactory = Object.assign(makeCondition as unknown as ConditionsOf<Untyped>, {
  of: <D>() => makeCondition as unknown as ConditionsOf<D>,
});
