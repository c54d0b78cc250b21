import { beforeAll, describe, expect, test } from "vitest";
import { actionIds } from "../../src/vocabulary/actions.js";
import { refusals, rules, type RuleName } from "../../src/query/rules.js";
import { columnKinds, type ColumnKindName } from "../../src/vocabulary/column-kinds.js";
import { operatorAliases, operators, type OperatorName } from "../../src/vocabulary/operators.js";
import { editor, type Editor } from "./language-service.js";
import { accepted, errorTexts } from "./error-texts.js";

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
  test.each(askEach(errorTexts, 1))("%s", (_name, snippet, message) => {
    expect(ed.errors(snippet)).toEqual([message]);
  });
  const acceptedSnippet = ask(accepted);
  test("the accepted forms compile", () => {
    expect(ed.errors(acceptedSnippet)).toEqual([]);
  });
});
