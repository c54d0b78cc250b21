/**
 * Writes src/query/generated.ts: the declarations whose documentation comes from the vocabulary
 * and the rules table (JSDoc cannot be computed by the type system, so it is generated and a test
 * checks the file is current).
 *   npx tsx scripts/generate-query-types.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMain } from "../mock-server/is-main.js";
import { paramsText } from "../src/query/action-args.js";
import { refusals, rules, type RuleName } from "../src/query/rules.js";
import { actionIds } from "../src/vocabulary/actions.js";
import { columnKinds, dataKindByType, emptyRules, type ColumnKindName } from "../src/vocabulary/column-kinds.js";
import { columns, columnNames } from "../src/vocabulary/columns.js";
import { operatorAliases, operators, type OperatorName } from "../src/vocabulary/operators.js";
import { shapeExamples, valueShapes, type ShapeName } from "../src/vocabulary/value-shapes.js";

export const generatedPath = join(import.meta.dirname, "..", "src", "query", "generated.ts");
export const examplesPath = join(import.meta.dirname, "..", "test", "types", "operator-examples.test-d.ts");

/** `text` in lines of at most 100 characters. */
function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function jsdocLines(indent: string, lines: string[]): string {
  return [`${indent}/**`, ...lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`].join("\n");
}

/** A JSDoc block at `indent`, wrapped. */
const jsdoc = (indent: string, text: string): string => jsdocLines(indent, wrap(text));

function refusedMembers(): string {
  const out = [
    jsdoc(
      "",
      "Refused members, by member and rule: each is marked deprecated with its rule, so editors sort it last and strike it through, and a call fails to compile with the rule in the message.",
    ),
    "export interface RefusedMembers {",
  ];
  for (const [member, names] of Object.entries(refusals) as [string, readonly RuleName[]][]) {
    out.push(`  ${member}: {`);
    for (const rule of names) {
      out.push(
        `    ${rule}: {`,
        jsdoc("      ", `@deprecated ${rules[rule]}`),
        `      readonly ${member}: Refused<Rules["${rule}"]>;`,
        "    };",
      );
    }
    out.push("  };");
  }
  out.push("}");
  return out.join("\n");
}

function actionParamsText(): string {
  return [
    "/** How messages name each action's extra body fields. */",
    "export interface ActionParamsText {",
    ...actionIds.map((id) => `  ${id}: ${JSON.stringify(paramsText(id))};`),
    "}",
  ].join("\n");
}

const pascal = (name: string): string => name[0]!.toUpperCase() + name.slice(1);
/** Data kinds whose equality and list operators narrow to the task-data value type `V`. */
const narrowing: Partial<Record<ColumnKindName, string>> = { dataNumber: "number", dataText: "string" };
const narrowed = new Set<OperatorName>(["equal", "not_equal", "in_list", "not_in_list"]);
const kinds = Object.keys(columnKinds) as ColumnKindName[];
/**
 * Shapes whose values the compiler checks beyond their type (src/query/values.ts): the method is
 * generic over the argument, [its constraint, the check].
 */
const checked: Partial<Record<ShapeName, readonly [string, string]>> = {
  integer: ["number", "IntegerValue"],
  integerRange: ['ShapeInput["integerRange"]', "IntegerRangeValue"],
  datetime: ["DatetimeArg", "DatetimeValue"],
  datetimeRange: ["DatetimeArg", "DatetimeRangeValue"],
};
/** Checked shapes whose ends are type arguments of their own (`<const Min …, const Max …>`). */
const byEnds = new Set<ShapeName>(["datetimeRange"]);

/** The types a `tasks:data.<key>` filter is sent with to get `kind` (empty for other kinds). */
const dataTypesOf = (kind: ColumnKindName): string[] =>
  Object.entries(dataKindByType)
    .filter(([, k]) => k === kind)
    .map(([t]) => t);

/** Where a kind applies: its columns, or the data types that select it. */
function appliesTo(kind: ColumnKindName): string {
  if (kind === "dataAny") return "tasks:data.<key> without a type";
  const types = dataTypesOf(kind);
  if (types.length > 0) return `tasks:data.<key> with type ${types.join(", ")}`;
  return columnNames
    .filter((c) => columns[c].kind === kind)
    .map((c) => `tasks:${c}${columns[c].edition === "enterprise" ? " (Enterprise)" : ""}`)
    .join(", ");
}

/** `selection(1).where(<a column of this kind>)`, as an example receiver. */
function exampleWhere(kind: ColumnKindName): string {
  if (kind === "dataAny") return 'selection(1).where("tasks:data.label")';
  const type = dataTypesOf(kind)[0];
  if (type !== undefined) return `selection(1).where("tasks:data.${type === "Number" ? "score" : "label"}", "${type}")`;
  const column =
    columnNames.find((c) => columns[c].kind === kind && columns[c].edition === "community") ??
    columnNames.find((c) => columns[c].kind === kind);
  return `selection(1).where("tasks:${column}")`;
}

/** Every method of a kind: [method, wire operator], aliases after the operator they stand for. */
function methodsOf(kind: ColumnKindName): [string, OperatorName][] {
  const out: [string, OperatorName][] = [];
  for (const op of Object.keys(columnKinds[kind].operators) as OperatorName[]) {
    out.push([operators[op].method, op]);
    for (const [alias, target] of Object.entries(operatorAliases)) if (target === op) out.push([alias, op]);
  }
  return out;
}

function operatorDoc(kind: ColumnKindName, method: string, op: OperatorName, shape: ShapeName): string {
  const spec = columnKinds[kind];
  const o = operators[op];
  const alias = method === o.method ? "" : ` (\`${method}\` is \`${o.method}\`)`;
  const lines = [
    `\`${op}\` — ${o.label}${alias}: ${o.meaning}.`,
    "",
    `On ${appliesTo(kind)}: ${spec.description}.`,
    ...(op === "empty" ? [`Empty here means: ${emptyRules[spec.empty]}.`] : []),
    `Value: ${valueShapes[shape].expected}. Sent with type ${spec.type}.`,
  ];
  return jsdocLines("  ", [
    ...lines.flatMap((l) => (l ? wrap(l) : [""])),
    `@example ${exampleWhere(kind)}.${method}(${shapeExamples[shape]})`,
  ]);
}

function operatorInterfaces(): string {
  const out: string[] = [];
  for (const kind of kinds) {
    const v = narrowing[kind];
    out.push(`/** The operator methods on ${appliesTo(kind)}. */`);
    out.push(`export interface ${pascal(kind)}Operators<Next${v ? `, V extends ${v} = ${v}` : ""}> {`);
    for (const [method, op] of methodsOf(kind)) {
      const shape = (columnKinds[kind].operators as Partial<Record<OperatorName, ShapeName>>)[op] as ShapeName;
      const check = checked[shape];
      const signature =
        v && narrowed.has(op)
          ? `(value: ${op.endsWith("in_list") ? "NonEmptyList<V, EmptyListRule>" : "V"})`
          : check
            ? byEnds.has(shape)
              ? `<const Min extends ${check[0]}, const Max extends ${check[0]}>(value: ${check[1]}<Min, Max>)`
              : `<const T extends ${check[0]}>(value: ${check[1]}<T>)`
            : `(value: ShapeInput["${shape}"])`;
      out.push(operatorDoc(kind, method, op, shape), `  ${method}${signature}: Next;`);
    }
    out.push("}", "");
  }
  out.push("/** The operator methods per column kind; `V` narrows typed task data (`unknown`: no narrowing). */");
  out.push("export interface OperatorsByKind<Next, V> {");
  for (const kind of kinds) {
    const v = narrowing[kind];
    out.push(`  ${kind}: ${pascal(kind)}Operators<Next${v ? `, [V] extends [${v}] ? V : ${v}` : ""}>;`);
  }
  out.push("}");
  return out.join("\n");
}

/** The generated type test: every `@example` of the operator docs compiles. */
export function generateExamples(): string {
  const calls = kinds.flatMap((kind) =>
    methodsOf(kind).map(([method, op]) => {
      const shape = (columnKinds[kind].operators as Partial<Record<OperatorName, ShapeName>>)[op] as ShapeName;
      return `    ${exampleWhere(kind)}.${method}(${shapeExamples[shape]});`;
    }),
  );
  return `/* Generated by scripts/generate-query-types.ts: the @example of every operator method compiles. */
import { test } from "vitest";
import { selection } from "../../src/selection.js";

test("every operator example in the generated docs compiles", () => {
  for (const run of [() => {
${calls.join("\n")}
  }]) void run;
});
`;
}

export function generate(): string {
  return `/* Generated by scripts/generate-query-types.ts from src/vocabulary and src/query/rules.ts: do not edit. */
import type { EmptyListRule, NonEmptyList, ShapeInput } from "../vocabulary/value-shapes.js";
import type { Refused, rules } from "./rules.js";
import type { DatetimeArg, DatetimeRangeValue, DatetimeValue, IntegerRangeValue, IntegerValue } from "./values.js";
// state.ts before this file in every program (and .d.ts): TypeScript 7 compares a selection's members in the order of
// their declarations' files and positions, so the state in words (declared there) comes before these refusals.
export type {} from "./state.js";

type Rules = typeof rules;

${operatorInterfaces()}

${refusedMembers()}

${actionParamsText()}
`;
}

if (isMain(import.meta.url)) {
  writeFileSync(generatedPath, generate());
  writeFileSync(examplesPath, generateExamples());
}
