import { InvalidArgumentError } from "@commander-js/extra-typings";
import { columnKinds, dataKindByType, type ColumnKindName, type DataTypeName } from "../../vocabulary/column-kinds.js";
import { columnNames, DATA_PREFIX, kindOf } from "../../vocabulary/columns.js";
import { didYouMean } from "../../vocabulary/nearest.js";
import type { OperatorName } from "../../vocabulary/operators.js";
import type { ShapeName } from "../../vocabulary/value-shapes.js";
import { readValue } from "./values.js";

/** A column name the vocabulary does not know, in the command line's words (`tasks:` is optional there), with the nearest known one. */
export const unknownColumn = (name: string): string =>
  `unknown column ${JSON.stringify(name)}${didYouMean(name, columnNames)}: expected a column that "dmq columns" lists, or data.<key>`;

/**
 * The readable condition syntax of `--where/--or/--child`: `<column>[@Type] <operator> [value]`,
 * e.g. `completed_at > 2024-01-01T00:00:00Z`, `total_annotations between 1 and 3`,
 * `data.text contains "hello world"`, `id in [1, 2, 3]`, `annotators is empty`.
 * Each operator's spellings are keyed by the vocabulary's operator names (a new operator without
 * a spelling is a compile error); columns, kinds and value shapes come from the vocabulary tables.
 */
interface Spelling {
  readonly word: string;
  /** A spelling that fixes the value (`is empty` = empty true). */
  readonly value?: boolean;
}
const say = (...words: string[]): readonly Spelling[] => words.map((word) => ({ word }));

export const spellings: { readonly [O in OperatorName]: readonly Spelling[] } = {
  equal: say("=", "==", "equal"),
  not_equal: say("!=", "≠", "not_equal"),
  less: say("<", "less"),
  greater: say(">", "greater"),
  less_or_equal: say("<=", "≤", "less_or_equal"),
  greater_or_equal: say(">=", "≥", "greater_or_equal"),
  // The wire's `in` is a range; here `in` reads as "is any of" (in_list), so the range is `between`.
  in: say("between"),
  not_in: say("!between", "not between"),
  in_list: say("in", "in_list"),
  not_in_list: say("!in", "not in", "not_in_list"),
  contains: say("contains"),
  not_contains: say("!contains", "not contains", "not_contains"),
  regex: say("~", "matches", "regex"),
  empty: [{ word: "is empty", value: true }, { word: "is not empty", value: false }, { word: "empty" }],
  starts_with: say("starts_with"),
  ends_with: say("ends_with"),
  exists: say("exists"),
  not_exists: say("not_exists"),
};

/** Longest first, so `<=` wins over `<` and `is not empty` over `is empty`. */
const byLength = Object.entries(spellings)
  .flatMap(([operator, list]) => list.map((s) => ({ ...s, operator: operator as OperatorName })))
  .sort((a, b) => b.word.length - a.word.length);

/** The first spelling of an operator, for messages and docs. */
export const spell = (operator: OperatorName): string => spellings[operator][0]?.word ?? operator;

export interface Condition {
  /** `tasks:<column>` or `tasks:data.<key>`. */
  readonly column: string;
  readonly type: DataTypeName | undefined;
  readonly operator: OperatorName;
  readonly value: unknown;
}

const EXAMPLE = 'e.g. "completed_at > 2024-01-01T00:00:00Z" or "data.text contains hello"';

function fail(text: string, why: string): never {
  throw new InvalidArgumentError(`${JSON.stringify(text)}: ${why}`);
}

/** `tasks:x`, `x`, `filter:tasks:x`, each with an optional `@Type` for data keys. */
function readColumn(token: string, text: string): { column: string; type: DataTypeName | undefined; kind: ColumnKindName } {
  const at = token.lastIndexOf("@");
  const name = (at > 0 ? token.slice(0, at) : token).replace(/^filter:/, "").replace(/^tasks:/, "");
  const typeText = at > 0 ? token.slice(at + 1) : undefined;
  const isData = name.startsWith(DATA_PREFIX) && name.length > DATA_PREFIX.length;
  if (typeText !== undefined && !isData) fail(text, `only tasks:data.<key> columns take a @Type; ${name} has a fixed type`);
  if (typeText !== undefined && !Object.hasOwn(dataKindByType, typeText)) {
    const types = Object.keys(dataKindByType);
    fail(text, `unknown data type @${typeText}${didYouMean(typeText, types)}; expected one of ${types.join(", ")}`);
  }
  const type = typeText as DataTypeName | undefined;
  const kind = kindOf(name, type);
  if (kind === undefined) fail(text, unknownColumn(name));
  return { column: `tasks:${name}`, type, kind };
}

export function parseCondition(text: string): Condition {
  const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(text);
  const columnToken = m?.[1];
  if (columnToken === undefined) fail(text, `expected "<column> <operator> [value]", ${EXAMPLE}`);
  const { column, type, kind } = readColumn(columnToken, text);
  const rest = m?.[2] ?? "";
  const lower = rest.toLowerCase();
  const found = byLength.find(
    ({ word }) => lower.startsWith(word) && (rest.length === word.length || /[\s["'(]/.test(rest[word.length] ?? "") || !/\w$/.test(word)),
  );
  const allowed = columnKinds[kind].operators as Partial<Record<OperatorName, ShapeName>>;
  const offer = Object.keys(allowed).map((op) => spell(op as OperatorName));
  if (found === undefined) {
    const what = rest.trim() === "" ? "no operator" : `unknown operator in ${JSON.stringify(rest.trim().split(/\s+/)[0])}`;
    fail(text, `${what}; ${column} takes ${offer.join(", ")} (${EXAMPLE})`);
  }
  const shape = allowed[found.operator];
  if (shape === undefined)
    fail(text, `${found.word} is not an operator of ${column} (${columnKinds[kind].type}); it takes ${offer.join(", ")}`);
  const valueText = rest.slice(found.word.length).trim();
  if (found.value !== undefined) {
    if (valueText !== "") fail(text, `${found.word} takes no value, found ${JSON.stringify(valueText)}`);
    return { column, type, operator: found.operator, value: found.value };
  }
  if (valueText === "") {
    if (shape === "boolean") return { column, type, operator: found.operator, value: true };
    fail(text, `${found.word} needs a value`);
  }
  return { column, type, operator: found.operator, value: readValue[shape](valueText) };
}
