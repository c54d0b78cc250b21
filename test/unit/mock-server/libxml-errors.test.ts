import { describe, expect, test } from "vitest";
import { libxmlSyntaxProblem } from "../../../mock-server/label-config.js";

/*
 * The project-scoped label config check (`POST /api/projects/{id}/validate/`) parses with lxml first, so its 400
 * words a broken document as libxml2 does. Each expected text below is what lxml 5 (the real server's) raised for
 * the input (`str(etree.XMLSyntaxError)`), recorded with the server's Python.
 */
const recorded: [string, string][] = [
  ['<View><Text name="text" value="$text"/>', "Premature end of data in tag View line 1, line 1, column 40 (<string>, line 1)"],
  ['<View><Choices name="a" toName="b">', "Premature end of data in tag Choices line 1, line 1, column 36 (<string>, line 1)"],
  [
    '<View>\n  <Choices name="a">\n    <Choice value="A">\n',
    "Premature end of data in tag Choice line 3, line 4, column 1 (<string>, line 4)",
  ],
  [
    '<View><Text name="text" value="$text"></View>',
    "Opening and ending tag mismatch: Text line 1 and View, line 1, column 46 (<string>, line 1)",
  ],
  ["<View>\n<A>\n</B>\n</View>", "Opening and ending tag mismatch: A line 2 and B, line 3, column 5 (<string>, line 3)"],
  ["<View></Vie>", "Opening and ending tag mismatch: View line 1 and Vie, line 1, column 13 (<string>, line 1)"],
  ["not xml", "Start tag expected, '<' not found, line 1, column 1 (<string>, line 1)"],
  ["  text <View/>", "Start tag expected, '<' not found, line 1, column 3 (<string>, line 1)"],
  ["", "Document is empty, line 1, column 1 (<string>, line 1)"],
  ["   ", "Start tag expected, '<' not found, line 1, column 4 (<string>, line 1)"],
  ["<View>&bad;</View>", "Entity 'bad' not defined, line 1, column 12 (<string>, line 1)"],
  ["<View>\n x &nope; y</View>", "Entity 'nope' not defined, line 2, column 10 (<string>, line 2)"],
  ["<View>& x</View>", "xmlParseEntityRef: no name, line 1, column 8 (<string>, line 1)"],
  ["<View/><View/>", "Extra content at the end of the document, line 1, column 8 (<string>, line 1)"],
  ["<View/>\n  junk", "Extra content at the end of the document, line 2, column 3 (<string>, line 2)"],
  ['<View a="1" a="2"/>', "Attribute a redefined, line 1, column 18 (<string>, line 1)"],
  ["<View a=1/>", "AttValue: \" or ' expected, line 1, column 9 (<string>, line 1)"],
  ["<View a/>", "Specification mandates value for attribute a, line 1, column 8 (<string>, line 1)"],
  ["<View <A/>", "error parsing attribute name, line 1, column 7 (<string>, line 1)"],
  ['<View a="x<y"/>', "Unescaped '<' not allowed in attributes values, line 1, column 11 (<string>, line 1)"],
  ["<View", "Couldn't find end of Start Tag View line 1, line 1, column 6 (<string>, line 1)"],
  ["<1View/>", "StartTag: invalid element name, line 1, column 2 (<string>, line 1)"],
  ["</View>", "StartTag: invalid element name, line 1, column 2 (<string>, line 1)"],
  ["<View><!-- x </View>", "Comment not terminated, line 1, column 21 (<string>, line 1)"],
];

describe("libxmlSyntaxProblem", () => {
  test.each(recorded)("%j", (config, message) => {
    expect(libxmlSyntaxProblem(config)).toBe(message);
  });
  test("a well-formed document, and one with a DOCTYPE (lxml reads it; defusedxml refuses it later): none", () => {
    expect(libxmlSyntaxProblem('<View><Text name="t" value="$t"/></View>')).toBeUndefined();
    expect(libxmlSyntaxProblem("<!DOCTYPE View><View/>")).toBeUndefined();
  });
});
