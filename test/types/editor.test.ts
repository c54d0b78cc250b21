import { beforeAll, describe, expect, test } from "vitest";
import { paramsText } from "../../src/query/action-args.js";
import { actionIds } from "../../src/vocabulary/actions.js";
import { anyRefusals, refusals, rules, type RuleName } from "../../src/query/rules.js";
import { stateWords as words } from "../../src/query/state.js";
import { columnKinds, type ColumnKindName } from "../../src/vocabulary/column-kinds.js";
import { operatorAliases, operators, type OperatorName } from "../../src/vocabulary/operators.js";
import { datetimeWhy } from "../../src/vocabulary/datetime.js";
import { emptyListRule } from "../../src/vocabulary/value-shapes.js";
import { editor, type Editor } from "./language-service.js";

/*
 * What an editor shows and what the compiler says, asked from the TypeScript language service:
 * completions per state (refused members last and deprecated with their rule), operator docs,
 * and the exact text of the errors that matter.
 */

let ed: Editor;
/** Every snippet the tests ask about, noted while vitest collects them, so that one program serves them all. */
const asked: string[] = [];
const ask = (snippet: string) => (asked.push(snippet), snippet);
/** A table whose rows hold a snippet at `column`, noted. */
const askEach = <Row extends readonly unknown[]>(rows: Row[], column: number): Row[] => {
  for (const row of rows) ask(row[column] as string);
  return rows;
};
beforeAll(() => {
  ed = editor();
  ed.prepare(asked);
  ed.errors(asked[0]!); // builds the program once
}, 120_000);

const names = (snippet: string) => {
  const list = ed
    .completions(snippet)
    .filter((c) => !c.name.startsWith("$") && !["project", "view", "toJSON", "toQuery", "toRequest"].includes(c.name));
  return {
    offered: list
      .filter((c) => !c.deprecated)
      .map((c) => c.name)
      .sort(),
    refused: list
      .filter((c) => c.deprecated)
      .map((c) => c.name)
      .sort(),
    lastAreRefused: list.every((c) => !c.deprecated || list.filter((o) => !o.deprecated).every((o) => o.sortText < c.sortText)),
  };
};

describe("completions per state: refused members are offered last, struck through", () => {
  test.each(
    askEach(
      [
        [
          "a fresh selection",
          "selection(1)./*|*/",
          ["all", "excluding", "fromView", "including", "orderBy", "where", "whereAll", "whereAny"],
          ["and", "child", "export", "or", "run"],
        ],
        [
          "a bound one",
          "selection(handle)./*|*/",
          ["all", "excluding", "export", "fromView", "including", "orderBy", "run", "where", "whereAll", "whereAny"],
          ["and", "child", "or"],
        ],
        [
          "after where",
          'selection(1).where("tasks:id").greater(1)./*|*/',
          ["all", "and", "child", "excluding", "including", "or", "orderBy"],
          ["export", "fromView", "run", "where", "whereAll", "whereAny"],
        ],
        [
          "after and",
          'selection(1).where("tasks:id").greater(1).and("tasks:id").less(9)./*|*/',
          ["all", "and", "child", "excluding", "including", "orderBy"],
          ["export", "fromView", "or", "run", "where", "whereAll", "whereAny"],
        ],
        [
          "after excluding",
          "selection(1).excluding([1])./*|*/",
          ["all", "excluding", "orderBy", "where", "whereAll", "whereAny"],
          ["and", "child", "export", "fromView", "including", "or", "run"],
        ],
        [
          "after including",
          "selection(1).including([1])./*|*/",
          ["including", "orderBy", "where", "whereAll", "whereAny"],
          ["all", "and", "child", "excluding", "export", "fromView", "or", "run"],
        ],
        [
          "after orderBy",
          'selection(1).orderBy("tasks:id")./*|*/',
          ["all", "excluding", "including", "where", "whereAll", "whereAny"],
          ["and", "child", "export", "fromView", "or", "orderBy", "run"],
        ],
        [
          "a view's",
          "selection(handle).fromView(2)./*|*/",
          ["export", "run"],
          ["all", "and", "child", "excluding", "fromView", "including", "or", "orderBy", "where", "whereAll", "whereAny"],
        ],
      ],
      1,
    ),
  )("%s", (_name, snippet, offered, refused) => {
    const got = names(snippet);
    expect(got.offered).toEqual(offered);
    expect(got.refused).toEqual(refused);
    expect(got.lastAreRefused).toBe(true);
  });

  const deprecations = askEach<[string, string, RuleName]>(
    [
      ['selection(1).where("tasks:id").equal(1)./*|*/', "where", "whereTwice"],
      ['selection(1).where("tasks:id").equal(1)./*|*/', "whereAll", "whereTwice"],
      ["selection(1).fromView(2)./*|*/", "whereAny", "viewIgnoresBody"],
      ["selection(1)./*|*/", "and", "conditionFirst"],
      ['selection(1).where("tasks:id").equal(1).or("tasks:id").equal(2)./*|*/', "and", "mixedAndAfterOr"],
      ['selection(1).where("tasks:id").equal(1).and("tasks:id").equal(2)./*|*/', "or", "mixedOrAfterAnd"],
      ["selection(1).fromView(2)./*|*/", "child", "viewIgnoresBody"],
      ['selection(1).orderBy("tasks:id")./*|*/', "orderBy", "orderedTwice"],
      ["selection(1).all()./*|*/", "including", "includingAfterExcluding"],
      ["selection(1).including([1])./*|*/", "excluding", "excludingAfterIncluding"],
      ["selection(1).including([1])./*|*/", "fromView", "fromViewFresh"],
      ["selection(1)./*|*/", "run", "notBound"],
    ],
    0,
  );
  test("every refused member carries its rule as the deprecation text", () => {
    for (const [snippet, member, rule] of deprecations) {
      expect(refusals[member as keyof typeof refusals] as readonly RuleName[]).toContain(rule);
      expect(ed.deprecation(snippet, member)?.replace(/\s+/g, " ")).toBe(rules[rule]);
    }
  });

  const allowedDocs = ask("selection(1)./*|*/where; selection(1)./*|*/all;");
  const columnNames = ask('selection(1).where("tasks:/*|*/');
  const [unscopedRun, everyTaskRun] = [ask('void selection(handle).run("/*|*/'), ask('void selection(handle).all().run("/*|*/')];
  const requestActions = ask('selection(1).toRequest("/*|*/');
  const paramsEmpty = ask('void selection(handle).all().run("cache_labels", { /*|*/ });');
  const paramsValid = ask('void selection(handle).all().run("cache_labels", { control_tag: "x", /*|*/ });');
  const paramsOptional = ask('void selection(handle).all().run("predictions_to_annotations", { /*|*/ });');
  test("allowed members are documented, not deprecated", () => {
    expect(ed.deprecation("selection(1)./*|*/", "where")).toBeUndefined();
    const [where, all] = ed.quickInfo(allowedDocs).map((i) => i.documentation.replace(/\s+/g, " "));
    expect(where).toMatch(/^Start the filter set with a condition on `column`/);
    expect(all).toMatch(/the word that lets a destructive action run/i);
  });

  test("column completions are the columns, no messages", () => {
    const columns = ed.completions(columnNames).map((c) => c.name);
    expect(columns).toContain("tasks:completed_at");
    expect(columns.every((c) => c.startsWith("tasks:") && !c.includes(" "))).toBe(true);
    expect(ed.completions('selection<{ score: number }>(1).where("tasks:/*|*/').map((c) => c.name)).toContain("tasks:data.score");
    const keys = ed.completions('selection<{ score: number }>(1).orderBy("/*|*/').map((c) => c.name);
    expect(keys).toEqual(expect.arrayContaining(["tasks:created_at", "-tasks:created_at", "tasks:data.score", "-tasks:data.score"]));
  });

  test('every action is offered after .run(" (and .toRequest("): a refused one says why once chosen', () => {
    expect(ed.completions(unscopedRun).map((c) => c.name)).toEqual([...actionIds]);
    expect(ed.completions(everyTaskRun).map((c) => c.name)).toEqual([...actionIds]);
    expect(ed.completions(requestActions).map((c) => c.name)).toEqual([...actionIds]);
  });
  test("params completions offer the fields not written yet, also in a params object that is already valid", () => {
    expect(ed.completions(paramsEmpty).map((c) => c.name)).toEqual(["control_tag", "custom_control_tag", "source", "with_counters"]);
    expect(ed.completions(paramsValid).map((c) => c.name)).toEqual(["custom_control_tag", "source", "with_counters"]);
    expect(ed.completions(paramsOptional).map((c) => c.name)).toEqual(["model_version"]);
  });
});

describe("operator docs, generated from the vocabulary", () => {
  const kinds = Object.keys(columnKinds) as ColumnKindName[];
  const receiver: Record<ColumnKindName, string> = {
    id: 'selection(1).where("tasks:id")',
    counter: 'selection(1).where("tasks:total_annotations")',
    number: 'selection(1).where("tasks:predictions_score")',
    datetime: 'selection(1).where("tasks:created_at")',
    boolean: 'selection(1).where("tasks:draft_exists")',
    text: 'selection(1).where("tasks:file_upload")',
    users: 'selection(1).where("tasks:annotators")',
    usersNoEmpty: 'selection(1).where("tasks:skipped_by_annotator")',
    results: 'selection(1).where("tasks:annotations_results")',
    annotationIds: 'selection(1).where("tasks:annotations_ids")',
    modelVersions: 'selection(1).where("tasks:predictions_model_versions")',
    dataNumber: 'selection(1).where("tasks:data.x", "Number")',
    dataText: 'selection(1).where("tasks:data.x", "String")',
    dataUnknown: 'selection(1).where("tasks:data.x", "Unknown")',
    dataAny: 'selection(1).where("tasks:data.x")',
    dataBoolean: 'selection(1).where("tasks:data.x", "Boolean")',
  };
  const members = (kind: ColumnKindName) => ask(`${receiver[kind]}./*|*/`);
  const docs = (kind: ColumnKindName) =>
    ask(
      (Object.keys(columnKinds[kind].operators) as OperatorName[])
        .map((op) => `${receiver[kind]}./*|*/${operators[op].method};`)
        .join("\n"),
    );
  for (const kind of kinds) {
    members(kind);
    docs(kind);
  }
  test("the receivers cover every kind", () => {
    expect(Object.keys(receiver).sort()).toEqual([...kinds].sort());
  });
  test.each(kinds)("%s: every operator method is offered, with its meaning and a compiling @example", (kind) => {
    const wire = Object.keys(columnKinds[kind].operators) as OperatorName[];
    const methods = wire.flatMap((op) => [
      operators[op].method,
      ...Object.entries(operatorAliases)
        .filter(([, t]) => t === op)
        .map(([a]) => a),
    ]);
    expect(
      ed
        .completions(members(kind))
        .map((c) => c.name)
        .sort(),
    ).toEqual([...methods].sort());
    const infos = ed.quickInfo(docs(kind));
    wire.forEach((op, i) => {
      const info = infos[i];
      expect(info?.documentation.replace(/\s+/g, " ")).toContain(operators[op].meaning);
      expect(info?.documentation.replace(/\s+/g, " ")).toContain(columnKinds[kind].description);
      expect(info?.tags.example).toMatch(new RegExp(`^selection\\(1\\)\\.where\\(.*\\)\\.${operators[op].method}\\(`));
    });
  });
});

describe("errors that say what to do (exact texts)", () => {
  const refused = (why: string) => `Argument of type 'string' is not assignable to parameter of type 'Refused<"${why}">'.`;
  const notAny = (self: string, why: string) =>
    `The 'this' context of type '${self}' is not assignable to method's 'this' of type 'Refused<"${why}">'.\n  Property '[dmqRule]' is missing in type '${self}' but required in type 'Refused<"${why}">'.`;
  const unionRule =
    "a column or a condition, not a union of both: write each branch as a condition (condition(column).equal(value)), or branch with $if";
  test.each(
    askEach(
      [
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
        [
          "an empty list",
          'selection(1).where("tasks:id").inList([]);',
          `Argument of type '[]' is not assignable to parameter of type 'NonEmptyList<number, "${emptyListRule}">'.\n  Type '[]' is not assignable to type 'readonly [number, ...number[]]'.\n    Source has 0 element(s) but target requires 1.`,
        ],
        [
          "an empty including",
          "selection(1).including([]);",
          `Argument of type '[]' is not assignable to parameter of type 'NonEmptyList<number, "${rules.emptyIncluding}">'.\n  Type '[]' is not assignable to type 'readonly [number, ...number[]]'.\n    Source has 0 element(s) but target requires 1.`,
        ],
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
        [
          "a data column without a key",
          'selection(1).where("tasks:data.").equal(1);',
          refused("tasks:data. needs a key: tasks:data.<key>"),
        ],
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
      ],
      1,
    ),
  )("%s", (_name, snippet, message) => {
    expect(ed.errors(snippet)).toEqual([message]);
  });
  const accepted = ask(`
        selection(1).where("tasks:created_at").greater("2024-01-01T10:00:00Z").and("tasks:updated_at").less("2024-01-01T10:00:00+02:00");
        selection(1).where(flag ? "tasks:id" : "tasks:inner_id").inList([1, 2]);
        selection<{ label: "cat" | "dog" }>(1).where("tasks:data.label").inList(["cat"]);
        void selection(handle).all().run("propagate_annotations", { source_annotation_id: 3 }, { maxRetries: 1 });
      `);
  test("the accepted forms compile", () => {
    expect(ed.errors(accepted)).toEqual([]);
  });
});
