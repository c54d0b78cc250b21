import { FILTER_PREFIX, type ConditionNode } from "../query/nodes.js";
import { columnKinds, dataKindByType, type ColumnKindName } from "../vocabulary/column-kinds.js";
import { columnNames, columns, DATA_PREFIX, isColumnName, kindOf } from "../vocabulary/columns.js";
import { isPlainObject, type JsonValue } from "../vocabulary/json.js";
import { isOperatorName, operatorNames, operators, type OperatorName } from "../vocabulary/operators.js";
import { valueShapes, type ShapeName } from "../vocabulary/value-shapes.js";
import { isValueTypeName, valueTypeNames } from "../vocabulary/value-types.js";
import { type Cursor } from "./parse-cursor.js";
import type { Report } from "./parse-report.js";

/** A filter item whose fields have the server's shape (strings and an accepted value), before normalisation. */
export interface RawCondition {
  readonly at: Cursor;
  readonly filter: string;
  readonly operator: string;
  readonly type: string;
  readonly value: JsonValue;
  readonly children: readonly RawCondition[];
}

/** The server's default `DATA_MANAGER_FILTER_ALLOWLIST` (settings): relations a filter may traverse. */
export const FILTER_ALLOWLIST: readonly string[] = ["updated_by__active_organization", "annotations__completed_by"];

/** The name the server's `__` guard checks: a leading `-`, `filter:`, `tasks:` and one more `-` removed. */
export function traversalName(column: string): string {
  let name = column.startsWith("-") ? column.slice(1) : column;
  for (const prefix of ["filter:", "tasks:"]) if (name.startsWith(prefix)) name = name.slice(prefix.length);
  return name.startsWith("-") ? name.slice(1) : name;
}

/** The server's 400 text when `name` traverses a relation, or undefined when it may be used. */
export function traversalRefusal(name: string): string | undefined {
  if (name.startsWith(DATA_PREFIX) || FILTER_ALLOWLIST.includes(name) || !name.includes("__")) return undefined;
  return (
    `"__" is not generally allowed in filters. Consider asking your administrator to add "${name}" ` +
    "to DATA_MANAGER_FILTER_ALLOWLIST, but note that some filter expressions may pose a security risk"
  );
}

export const TRAVERSAL_EXPECTED = `a column without "__" (only data.<key> columns and the allow-listed ${FILTER_ALLOWLIST.join(", ")} may contain it)`;

const columnList = columnNames.join(", ");
const dataTypeList = Object.keys(dataKindByType).join(", ");
export const KNOWN_COLUMN_EXPECTED = `a known column (${columnList}) or data.<key>; the server answers 500 for any other`;

/** Wire wording where a shape's builder-side `expected` talks about builder inputs (Date, any JSON value). */
const WIRE_DATETIME_TEXT =
  "a UTC datetime in the server's %Y-%m-%dT%H:%M:%S.%fZ form (e.g. \"2024-01-31T23:59:59.000000Z\"); the server's strptime refuses any other text and passes it on unparsed";
const wireExpected: Partial<Record<ShapeName, string>> = {
  datetime: WIRE_DATETIME_TEXT,
  datetimeRange: `{ "min", "max" }, each ${WIRE_DATETIME_TEXT}`,
  json: "a string holding JSON text (the server parses it; text that is not JSON empties the whole result)",
  // The wire form of these is a list; a lone value is read differently by the server.
  userIds: "a non-empty array of user ids (the server also reads a single id, as a one-element list)",
  idList: "a non-empty array of integer annotation ids (the server splits a single value as text)",
  stringList: "a non-empty array of strings (the server iterates a single string character by character)",
};
/** Range shapes are checked end by end so the issue points at `value.min` or `value.max`. */
const rangeEnds: Partial<Record<ShapeName, ShapeName>> = { numberRange: "number", integerRange: "integer", datetimeRange: "datetime" };

const expectedFor = (shape: ShapeName): string => wireExpected[shape] ?? valueShapes[shape].expected;

/**
 * Normalises the filter items the server evaluates and reports every deviation from the documented
 * shape that it evaluates anyway. `inline`: items without `filter:tasks:` are dropped (a root with
 * its children); a view refused them when it was saved.
 */
export function toConditions(
  items: readonly RawCondition[],
  report: Report,
  context: "inline" | "view",
): { conditions: ConditionNode[]; skippedRegex: JsonValue[] } {
  const out: ConditionNode[] = [];
  const skippedRegex: JsonValue[] = [];
  // The server compiles the regex of a skipped item too (filters_contain_invalid_regex runs first).
  const skip = (raw: RawCondition) => {
    if (raw.operator === "regex" && raw.value !== null) skippedRegex.push(raw.value);
  };
  for (const root of items) {
    if (!root.filter.startsWith(FILTER_PREFIX)) {
      if (context === "inline") {
        const more = root.children.length ? ` (with its ${root.children.length} child filter${root.children.length > 1 ? "s" : ""})` : "";
        report.soft(`${root.at.path}.filter`, "ignored", `"${FILTER_PREFIX}<column>": the server skips this filter${more}`, root.filter);
      }
      skip(root);
      root.children.forEach(skip);
      continue;
    }
    const children: ConditionNode[] = [];
    for (const child of root.children) {
      if (!child.filter.startsWith(FILTER_PREFIX)) {
        if (context === "inline")
          report.soft(`${child.at.path}.filter`, "ignored", `"${FILTER_PREFIX}<column>": the server skips this child filter`, child.filter);
        skip(child);
        continue;
      }
      children.push(condition(child, [], report));
    }
    out.push(condition(root, children, report));
  }
  return { conditions: out, skippedRegex };
}

/** Where each parsed condition stood in its body (`filters.items[2]`): the parser drops items, so indices shift. */
const origins = new WeakMap<ConditionNode, string>();

/** The body path of a condition the parser read (its index in the body as sent), or undefined for one it did not make. */
export function bodyPathOf(node: ConditionNode): string | undefined {
  return origins.get(node);
}

function condition(raw: RawCondition, children: readonly ConditionNode[], report: Report): ConditionNode {
  let column = raw.filter.slice(FILTER_PREFIX.length);
  if (column.startsWith("-")) {
    column = column.slice(1);
    report.soft(
      `${raw.at.path}.filter`,
      "evaluated",
      `"${FILTER_PREFIX}${column}" (the server drops a "-" after the prefix: a direction means nothing in a filter)`,
      raw.filter,
    );
  }
  check(column, raw, report);
  const node: ConditionNode = Object.freeze({
    column,
    operator: raw.operator,
    type: raw.type,
    value: raw.value,
    children: Object.freeze([...children]),
  });
  origins.set(node, raw.at.path);
  return node;
}

function check(column: string, raw: RawCondition, report: Report): void {
  const at = raw.at.path;
  let kind: ColumnKindName | undefined;
  let subject: string;
  if (column.startsWith(DATA_PREFIX)) {
    if (column.length === DATA_PREFIX.length) {
      report.soft(
        `${at}.filter`,
        "evaluated",
        `"${FILTER_PREFIX}data.<key>" with a non-empty key; the server answers 500 for "data."`,
        raw.filter,
      );
      return;
    }
    kind = kindOf(column, raw.type);
    if (kind === undefined) {
      const known = isValueTypeName(raw.type) ? "" : ` (known types: ${valueTypeNames.join(", ")})`;
      report.soft(`${at}.type`, "evaluated", `a type for a data column: ${dataTypeList}${known}`, raw.type);
      return;
    }
    subject = `tasks:${column} typed ${raw.type}`;
  } else if (!isColumnName(column)) {
    report.soft(`${at}.filter`, "evaluated", KNOWN_COLUMN_EXPECTED, raw.filter);
    return;
  } else {
    kind = columns[column].kind;
    const type = columnKinds[kind].type;
    if (raw.type !== type) {
      report.soft(
        `${at}.type`,
        "evaluated",
        `"${type}" (the type of tasks:${column}; the server casts the value by the filter's type)`,
        raw.type,
      );
    }
    subject = `tasks:${column}`;
  }
  const operator = raw.operator;
  if (!isOperatorName(operator)) {
    const actsAs = operator.startsWith("not_") ? "not_equal" : "equal";
    report.soft(
      `${at}.operator`,
      "evaluated",
      `a known operator (${operatorNames.join(", ")}); the server treats an unknown operator as ${actsAs}`,
      operator,
    );
    return;
  }
  if (!operators[operator].implemented) {
    const actsAs = operators[operator].negated ? "not_equal" : "equal";
    report.soft(
      `${at}.operator`,
      "evaluated",
      `an operator the server implements; it has no code for ${operator} and treats it as ${actsAs}`,
      operator,
    );
    return;
  }
  const allowed = columnKinds[kind].operators as Partial<Record<OperatorName, ShapeName>>;
  const shape = allowed[operator];
  if (shape === undefined) {
    report.soft(`${at}.operator`, "evaluated", `an operator of ${subject} (${Object.keys(allowed).join(", ")})`, operator);
    return;
  }
  checkValue(shape, raw.value, `${at}.value`, `${operator} on ${subject}`, report);
}

function checkValue(shape: ShapeName, value: JsonValue, path: string, what: string, report: Report): void {
  if (valueShapes[shape].isWire(value)) return;
  const end = rangeEnds[shape];
  if (end !== undefined && isPlainObject(value) && "min" in value && "max" in value) {
    let pointed = false;
    for (const key of ["min", "max"] as const) {
      if (!valueShapes[end].isWire(value[key])) {
        report.soft(`${path}.${key}`, "evaluated", `${expectedFor(end)} (${what})`, value[key]);
        pointed = true;
      }
    }
    if (pointed) return;
  }
  report.soft(path, "evaluated", `${expectedFor(shape)} (${what})`, value);
}
