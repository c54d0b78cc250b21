import { expect, test } from "vitest";
import { useTarget } from "../../testing/vitest.js";

/*
 * A label config that is not well-formed XML, checked with and without a project: the project's check parses
 * it with lxml first (libxml2's words, a 400 with a detail), the project-less one with expat (its words, under
 * `label_config`). Run on the mock by npm test and on a real server by npm run test:real, unchanged.
 */
const ls = useTarget();

const cases: [string, string, string][] = [
  [
    '<View><Text name="text" value="$text"/>',
    "Premature end of data in tag View line 1, line 1, column 40 (<string>, line 1)",
    "no element found: line 1, column 39",
  ],
  [
    '<View>\n<Text name="text" value="$text">\n</View>',
    "Opening and ending tag mismatch: Text line 2 and View, line 3, column 8 (<string>, line 3)",
    "mismatched tag: line 3, column 2",
  ],
  ["not xml", "Start tag expected, '<' not found, line 1, column 1 (<string>, line 1)", "syntax error: line 1, column 0"],
  ["<View>&bad;</View>", "Entity 'bad' not defined, line 1, column 12 (<string>, line 1)", "undefined entity: line 1, column 6"],
  [
    "<View/><View/>",
    "Extra content at the end of the document, line 1, column 8 (<string>, line 1)",
    "junk after document element: line 1, column 7",
  ],
  ['<View a="1" a="2"/>', "Attribute a redefined, line 1, column 18 (<string>, line 1)", "duplicate attribute: line 1, column 12"],
];

test("the project's check words a broken document as lxml does, the project-less one as expat does", async () => {
  const seeded = await ls.seed({ tasks: [] });
  for (const [config, scoped, global] of cases) {
    const post = async (path: string) => {
      const answer = await ls.target.fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ label_config: config }),
      });
      return [answer.status, (await answer.json()) as Record<string, unknown>] as const;
    };
    const [status, body] = await post(`/api/projects/${seeded.id}/validate/`);
    expect([config, status, body["detail"]]).toEqual([config, 400, scoped]);
    expect(await post("/api/projects/validate/")).toEqual([400, { label_config: [global] }]);
  }
});
