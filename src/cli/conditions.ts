import { columnKinds, type ColumnKindName } from "../vocabulary/column-kinds.js";
import { kindOf } from "../vocabulary/columns.js";
import { operatorByMethod, operators, type OperatorName } from "../vocabulary/operators.js";
import type { ShapeName } from "../vocabulary/value-shapes.js";
import { readValue } from "./values.js";

/** One `--where/--and/--or/--child` argument: `<column>[@Type] <operator> [value…]`. */
export interface ConditionArg {
  readonly column: string;
  readonly type: string | undefined;
  readonly method: string;
  readonly value: unknown;
}

export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

/** Read a condition, resolving the operator by wire or method name and the value by the kind's shape table. */
export function parseCondition(text: string, flag: string): ConditionArg {
  const m = /^\s*(\S+)\s+(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!m) {
    throw new CliUsageError(`${flag} "${text}": expected "<column> <operator> [value]", e.g. "tasks:total_annotations greater 0"`);
  }
  const [, columnToken = "", operatorToken = "", rest] = m;
  const at = columnToken.lastIndexOf("@");
  const column = at > 0 ? columnToken.slice(0, at) : columnToken;
  const type = at > 0 ? columnToken.slice(at + 1) : undefined;
  const operator: OperatorName | undefined = Object.hasOwn(operators, operatorToken)
    ? (operatorToken as OperatorName)
    : operatorByMethod[operatorToken];
  if (operator === undefined) {
    throw new CliUsageError(`${flag} "${text}": unknown operator "${operatorToken}"; known: ${Object.keys(operators).join(", ")}`);
  }
  const name = column.startsWith("tasks:") ? column.slice("tasks:".length) : column;
  const kind: ColumnKindName | undefined = kindOf(name, type);
  const shape = kind ? (columnKinds[kind].operators as Partial<Record<OperatorName, ShapeName>>)[operator] : undefined;
  if (rest === undefined && shape !== undefined && shape !== "boolean") {
    throw new CliUsageError(`${flag} "${text}": ${operatorToken} needs a value`);
  }
  // Unknown columns/operators fall through to the builder, whose errors name the rule.
  const value = rest === undefined ? true : shape ? readValue[shape](rest) : rest;
  return { column, type, method: operators[operator].method, value };
}
