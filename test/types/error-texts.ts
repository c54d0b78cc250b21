import { paramsText } from "../../src/query/action-args.js";
import { anyRefusals, rules } from "../../src/query/rules.js";
import { stateWords as words } from "../../src/query/state.js";
import { datetimeWhy } from "../../src/vocabulary/datetime.js";
import { emptyListRule } from "../../src/vocabulary/value-shapes.js";

/*
 * The compile errors that say what to do, with their exact texts: a snippet (one module, after `prelude`) and the one
 * error the compiler reports for it. Asked of the project's TypeScript through its language service (editor.test.ts),
 * of TypeScript 7's tsc (typescript7.test.ts), and, for the selection mismatches, of both on the packed declarations
 * (test/package).
 */

/** What every snippet's module starts with: the public names it may use, imported from `index` (dmq's src/index.ts). */
export const prelude = (index = "../../src/index.js") => `import { condition, customAction, isOrderKey, selection } from "${index}";
import type { AndSelection, ProjectHandle } from "${index}";
declare const handle: ProjectHandle;
declare const flag: boolean;
`;

const refused = (why: string) => `Argument of type 'string' is not assignable to parameter of type 'Refused<"${why}">'.`;
/** What TypeScript 7 reports for a refused `this`: only the elaboration, without TypeScript 6's headline. */
const missingRule = (self: string, why: string) =>
  `Property '[dmqRule]' is missing in type '${self}' but required in type 'Refused<"${why}">'.`;
const notAny = (self: string, why: string) =>
  `The 'this' context of type '${self}' is not assignable to method's 'this' of type 'Refused<"${why}">'.\n  ${missingRule(self, why)}`;
/** `[]` against a `NonEmptyList`: TypeScript 7 orders NonEmpty's union the other way, and names its other member last. */
const emptyList = (why: string, tuple: string) =>
  `Argument of type '[]' is not assignable to parameter of type 'NonEmptyList<number, "${why}">'.\n  Type '[]' is not assignable to type '${tuple}'.\n    Source has 0 element(s) but target requires 1.`;
const [leadingItem, trailingItem] = ["readonly [number, ...number[]]", "readonly [...number[], number]"];
const unionRule =
  "a column or a condition, not a union of both: write each branch as a condition (condition(column).equal(value)), or branch with $if";

/** `[what, snippet, the one error's text]`. */
export const errorTexts: [string, string, string][] = [
  [
    "a misspelt column, and nothing cascades",
    'selection(1).where("tasks:completed").greater(1);',
    `Argument of type '"tasks:completed"' is not assignable to parameter of type '"tasks:completed_at"'.`,
  ],
  [
    "a column without tasks:",
    'selection(1).where("completed_at").equal(new Date());',
    `Argument of type '"completed_at"' is not assignable to parameter of type '"tasks:completed_at"'.`,
  ],
  [
    "camelCase",
    'selection(1).where("tasks:createdAt").greater(new Date());',
    `Argument of type '"tasks:createdAt"' is not assignable to parameter of type '"tasks:created_at"'.`,
  ],
  [
    "a prefix",
    'selection(1).where("tasks:total").greater(1);',
    `Argument of type '"tasks:total"' is not assignable to parameter of type '"tasks:total_annotations" | "tasks:total_predictions"'.`,
  ],
  [
    "a task-data key",
    'selection<{ score: number }>(1).where("tasks:data.scor").greater(1);',
    `Argument of type '"tasks:data.scor"' is not assignable to parameter of type '"tasks:data.score"'.`,
  ],
  [
    "an ordering key",
    'selection(1).orderBy("-tasks:created");',
    `Argument of type '"-tasks:created"' is not assignable to parameter of type '"-tasks:created_at"'.`,
  ],
  [
    "an unknown column",
    'selection(1).where("tasks:nope").greater(1);',
    refused("unknown column tasks:nope: use tasks:<column> (dmq columns lists them) or tasks:data.<key>"),
  ],
  [
    "a column in a string",
    'const c: string = "tasks:id"; selection(1).where(c).greater(1);',
    refused(
      "a column held in a string is only known at run time: pass a condition { column, operator, value } instead; it is checked at run time",
    ),
  ],
  [
    "an ordering key in a string",
    'const k: string = "tasks:id"; selection(1).orderBy(k);',
    refused("an ordering key held in a string is only known at run time: narrow it with isOrderKey(key) first"),
  ],
  ["a destructive action on every task", 'void selection(handle).run("delete_tasks");', refused(`delete_tasks: ${rules.everyTask}`)],
  [
    "a destructive action on a selection that only excludes ids",
    'void selection(handle).excluding([1, 2]).run("delete_tasks");',
    refused(`delete_tasks: ${rules.everyTaskExcluded}`),
  ],
  [
    "a missing required param",
    'void selection(handle).all().run("propagate_annotations");',
    refused(`propagate_annotations needs ${paramsText("propagate_annotations")}`),
  ],
  [
    "an unknown param",
    'void selection(handle).all().run("delete_tasks_annotations", { annotator: 2, reviewer: 3 });',
    refused("delete_tasks_annotations takes params { annotator? }; reviewer is not one of them"),
  ],
  [
    "options passed second",
    'void selection(handle).all().run("delete_tasks", { timeoutInSeconds: 3 });',
    refused(
      "delete_tasks: timeoutInSeconds is a request option, not an action param; pass options third: .run(delete_tasks, params or undefined, options)",
    ),
  ],
  [
    "an unknown action",
    'selection(1).toRequest("delete_everything");',
    refused("unknown action id delete_everything: for an action dmq does not know, use customAction(delete_everything)"),
  ],
  ["an empty list", 'selection(1).where("tasks:id").inList([]);', emptyList(emptyListRule, leadingItem)],
  ["an empty including", "selection(1).including([]);", emptyList(rules.emptyIncluding, leadingItem)],
  [
    "a refused member",
    'selection(1).where("tasks:id").equal(1).where("tasks:id");',
    `This expression is not callable.\n  Type 'Refused<"${rules.whereTwice}">' has no call signatures.`,
  ],
  [
    "a datetime without a zone",
    'selection(1).where("tasks:created_at").greater("2024-01-01T10:00:00");',
    refused(`2024-01-01T10:00:00: ${datetimeWhy.noZone}`),
  ],
  [
    "a value one column of a union refuses",
    'selection(1).where(flag ? "tasks:id" : "tasks:created_at").greater(1);',
    `This expression is not callable.\n  Type 'Refused<"greater: the columns of this union take different kinds of value, and no value suits them all; call it per column (with $if)">' has no call signatures.`,
  ],
  [
    "an OR line after a $if that may add an AND line (one condition or an AND chain: an AND chain)",
    'selection(1).where("tasks:id").equal(0).$if(flag, (x) => x.and("tasks:inner_id").less(3)).or("tasks:id");',
    `This expression is not callable.\n  Type 'Refused<"${rules.mixedOrAfterAnd}">' has no call signatures.`,
  ],
  [
    "a variable typed by its first step, then given an AND chain",
    'let s = selection(1).where("tasks:id").equal(0); if (flag) s = s.and("tasks:draft_exists").equal(true);',
    `Type 'Selection<Untyped, "none", "and", "unordered", "unbound">' is not assignable to type 'Selection<Untyped, "none", "first", "unordered", "unbound">'.\n  The types of '[selectionIs].filters' are incompatible between these types.\n    Type '"${words.filters.and}"' is not assignable to type '"${words.filters.first}"'.`,
  ],
  [
    "a fresh variable given a condition",
    'let s = selection(1); if (flag) s = s.where("tasks:id").equal(1);',
    `Type 'Selection<Untyped, "none", "first", "unordered", "unbound">' is not assignable to type 'Selection<Untyped, "none", "none", "unordered", "unbound">'.\n  The types of '[selectionIs].filters' are incompatible between these types.\n    Type '"${words.filters.first}"' is not assignable to type '"${words.filters.none}"'.`,
  ],
  [
    "an ordered selection where an unordered one is declared",
    'const f = (s: AndSelection) => s; f(selection(1).where("tasks:id").equal(1).orderBy("tasks:id"));',
    `Argument of type 'Selection<Untyped, "none", "first", "ordered", "unbound">' is not assignable to parameter of type 'Selection<Untyped, "none", "first" | "and", "unordered", Binding>'.\n  The types of '[selectionIs].order' are incompatible between these types.\n    Type '"${words.order.ordered}"' is not assignable to type '"${words.order.unordered}"'.`,
  ],
  [
    "a selection of other task data",
    'const f = (s: AndSelection<{ a: number }>) => s; const s = selection(1).where("tasks:id").equal(1); f(s);',
    `Argument of type 'Selection<Untyped, "none", "first", "unordered", "unbound">' is not assignable to parameter of type 'Selection<{ a: number; }, "none", "first" | "and", "unordered", Binding>'.\n  The types of '[selectionIs].data' are incompatible between these types.\n    Property 'a' is missing in type 'Untyped' but required in type '{ a: number; }'.`,
  ],
  [
    "a fraction on a counter (the server would truncate it)",
    'selection(1).where("tasks:total_annotations").equal(0.5);',
    `Argument of type 'number' is not assignable to parameter of type 'Refused<"0.5 is not an integer: ids and counters are whole numbers, and the server truncates a fraction">'.`,
  ],
  [
    "a fraction as a range end on an id",
    'selection(1).where("tasks:id").between({ min: 1, max: 2.5 });',
    `Object literal may only specify known properties, and 'min' does not exist in type 'Refused<"2.5 is not an integer: ids and counters are whole numbers, and the server truncates a fraction">'.`,
  ],
  [
    "a datetime that does not exist",
    'selection(1).where("tasks:created_at").greater("2024-13-45");',
    refused("2024-13-45: month 13 does not exist"),
  ],
  ["a data column without a key", 'selection(1).where("tasks:data.").equal(1);', refused("tasks:data. needs a key: tasks:data.<key>")],
  [
    "a union of a column and a condition",
    'selection(1).where(flag ? "tasks:id" : condition("tasks:id").equal(1));',
    `Argument of type '"tasks:id" | Condition<unknown>' is not assignable to parameter of type 'Refused<"${unionRule}">'.\n  Type 'string' is not assignable to type 'Refused<"${unionRule}">'.`,
  ],
  [
    "an any column",
    'selection(1).where(JSON.parse("{}"));',
    notAny('Selection<Untyped, "none", "none", "unordered", "unbound">', anyRefusals.where),
  ],
  [
    "a $if callback that returns any",
    "selection(1).$if(flag, (s) => s as any);",
    notAny('Selection<Untyped, "none", "none", "unordered", "unbound">', anyRefusals.$if),
  ],
  [
    "a $call step that returns any",
    "selection(1).$call((s) => s as any);",
    notAny('Selection<Untyped, "none", "none", "unordered", "unbound">', anyRefusals.$call),
  ],
  [
    "an any action id",
    'void selection(handle).run(JSON.parse("{}"));',
    notAny('Selection<Untyped, "none", "none", "unordered", "bound">', anyRefusals.action),
  ],
  [
    "a condition built for other task data",
    'selection<{ a: number }>(1).where(condition.of<{ b: string }>()("tasks:data.b").equal("x"));',
    `Argument of type 'Condition<{ b: string; }>' is not assignable to parameter of type 'Condition<{ a: number; }>'.\n  Property 'b' is missing in type '{ a: number; }' but required in type '{ b: string; }'.`,
  ],
  [
    "a $if callback that returns a bound selection for an unbound one",
    'selection(1).$if(flag, () => selection(handle).where("tasks:id").equal(1));',
    `Type 'Selection<Untyped, "none", "first", "unordered", "bound">' is not assignable to type 'Stateful<Untyped, "unbound">'.\n  Types of property '[selectionState]' are incompatible.\n    Type 'SelectionState<"none", "first", "unordered", Untyped, "bound", true>' is not assignable to type 'SelectionState<IdState, FilterState, OrderState, Untyped, "unbound", Scoped<IdState, FilterState>>'.\n      Type '"bound"' is not assignable to type '"unbound"'.`,
  ],
  [
    "a list of optional conditions that may all be skipped, then a destructive action",
    'selection(1).whereAll([flag && condition("tasks:id").equal(1)]).toRequest("delete_tasks");',
    refused(`delete_tasks: ${rules.everyTask}`),
  ],
  [
    "a value outside a literal union",
    'selection<{ label: "cat" | "dog" }>(1).where("tasks:data.label").equal("cow");',
    `Argument of type '"cow"' is not assignable to parameter of type '"cat" | "dog"'.`,
  ],
];

/** Forms that compile without an error. */
export const accepted = `
        selection(1).where("tasks:created_at").greater("2024-01-01T10:00:00Z").and("tasks:updated_at").less("2024-01-01T10:00:00+02:00");
        selection(1).where(flag ? "tasks:id" : "tasks:inner_id").inList([1, 2]);
        selection<{ label: "cat" | "dog" }>(1).where("tasks:data.label").inList(["cat"]);
        void selection(handle).all().run("propagate_annotations", { source_annotation_id: 3 }, { maxRetries: 1 });
      `;

/** The text TypeScript 6 reports for the snippet `name`. */
const sixText = (name: string): string => errorTexts.find(([n]) => n === name)![2];
/** TypeScript 7 prints a union of string literals in the order of their values: `"and" | "first"`. */
const literalsByValue = (text: string): string => text.replace('"first" | "and"', '"and" | "first"');

/**
 * The texts TypeScript 7 (package.json's `typescript7`) words differently, by snippet name: the same error at the same
 * place, with another message chain (a refused `this` without its headline, `NonEmpty`'s union the other way round),
 * or the same chain with a union printed in another order. A selection that does not fit is explained by its state in
 * words under both (generated.ts names state.ts first, so TypeScript 7 compares `[selectionIs]` first too).
 */
export const typescript7Texts: Record<string, string> = {
  "an empty list": emptyList(emptyListRule, trailingItem),
  "an empty including": emptyList(rules.emptyIncluding, trailingItem),
  "an ordered selection where an unordered one is declared": literalsByValue(
    sixText("an ordered selection where an unordered one is declared"),
  ),
  "a selection of other task data": literalsByValue(sixText("a selection of other task data")),
  "an any column": missingRule('Selection<Untyped, "none", "none", "unordered", "unbound">', anyRefusals.where),
  "a $if callback that returns any": missingRule('Selection<Untyped, "none", "none", "unordered", "unbound">', anyRefusals.$if),
  "a $call step that returns any": missingRule('Selection<Untyped, "none", "none", "unordered", "unbound">', anyRefusals.$call),
  "an any action id": missingRule('Selection<Untyped, "none", "none", "unordered", "bound">', anyRefusals.action),
};
