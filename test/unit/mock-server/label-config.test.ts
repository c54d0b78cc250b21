import { describe, expect, test } from "vitest";
import { dataTypes, labelConfigProblem, parseConfig, parsedLabelConfig } from "../../../mock-server/label-config.js";

const config =
  '<View><Image name="img" value="$image"/><RectangleLabels name="box" toName="img"><Label value="Car"/><Label value="Tree" background="green"/></RectangleLabels>' +
  '<Choices name="kind" toName="img" choice="single"><View><Choice value="Day"/><Choice alias="N" value="Night"/></View></Choices>' +
  '<TextArea name="note" toName="img" perRegion="true" whenLabelValue="Car"/><Labels name="dyn" toName="img" value="$options"/></View>';

describe("parse_config", () => {
  test("control tags with their inputs, labels (alias first) and label attributes; object tags are not controls", () => {
    expect([...parseConfig(config).keys()]).toEqual(["box", "kind", "note", "dyn"]);
    expect(parsedLabelConfig(config)).toEqual({
      box: {
        type: "RectangleLabels",
        to_name: ["img"],
        inputs: [{ type: "Image", valueType: null, value: "image" }],
        labels: ["Car", "Tree"],
        labels_attrs: { Car: { value: "Car" }, Tree: { value: "Tree", background: "green" } },
      },
      kind: {
        type: "Choices",
        to_name: ["img"],
        inputs: [{ type: "Image", valueType: null, value: "image" }],
        labels: ["Day", "N"],
        labels_attrs: { Day: { value: "Day" }, N: { alias: "N", value: "Night" } },
      },
      note: {
        type: "TextArea",
        to_name: ["img"],
        conditionals: { type: "label", name: "Car" },
        inputs: [{ type: "Image", valueType: null, value: "image" }],
        labels: [],
        labels_attrs: {},
      },
      dyn: {
        type: "Labels",
        to_name: ["img"],
        dynamic_labels: true,
        inputs: [{ type: "Image", valueType: null, value: "image" }],
        labels: [],
        labels_attrs: {},
      },
    });
  });

  test("an empty or unreadable config has no control tags", () => {
    expect(parsedLabelConfig("<View></View>")).toEqual({});
    expect(parsedLabelConfig("")).toEqual({});
    expect(parsedLabelConfig("<View><Choices name='a' toName='b'>")).toEqual({});
  });

  test("extract_data_types: elements with a name and a value, the first $key of a pattern, Video wins", () => {
    const types = dataTypes(
      '<View><Text name="t" value="$text"/><Header value="$title"/><HyperText name="h" value="Read $page and $other"/>' +
        '<Video name="v" value="$url"/><Audio name="a" value="$url"/><Choice value="$text"/></View>',
    );
    expect([...types]).toEqual([
      ["text", "Text"],
      ["page", "HyperText"],
      ["url", "Video"],
    ]);
  });
});

describe("validate_label_config checks", () => {
  test("well-formedness, unique names, toName targets", () => {
    expect(labelConfigProblem(config)).toBeUndefined();
    expect(labelConfigProblem('<View><Text name="a" value="$a"/><Text name="a" value="$b"/></View>')).toBe(
      "Label config contains non-unique names",
    );
    expect(labelConfigProblem('<View><Text name="t" value="$t"/><Choices name="c" toName="t,x"><Choice value="A"/></Choices></View>')).toBe(
      "toName=\"x\" not found in names: ['c', 't']",
    );
  });

  // Each as a server (1.22, expat through defusedxml, jsonschema) answered POST /api/projects/validate/.
  test.each([
    ['<View><Text name="t" value="$t"/></View', "unclosed token: line 1, column 33"],
    ['<View><Text name="t" value="$t"></View>', "mismatched tag: line 1, column 34"],
    ['<View>\n  <Text name="t" value="$t">\n</View>', "mismatched tag: line 3, column 2"],
    ['<View name="é"><Text name="t" value="$t"></View>', "mismatched tag: line 1, column 43"],
    ['<View><Text name="t" value="$t" /></Vie>', "mismatched tag: line 1, column 36"],
    ["abc", "syntax error: line 1, column 0"],
    // These two as Python's expat (xml.etree) words them: text run into the root's `<`, an end tag before any element.
    ["abc<View/>", "not well-formed (invalid token): line 1, column 3"],
    ["</View>", "not well-formed (invalid token): line 1, column 1"],
    ['<View><Text name="t" value="$t"/></View><View/>', "junk after document element: line 1, column 40"],
    ["<View/>tail", "junk after document element: line 1, column 7"],
    ['<View><Text name="t" value="$t"/>', "no element found: line 1, column 33"],
    ["<!-- c -->", "no element found: line 1, column 10"],
    ["<View a=b/>", "not well-formed (invalid token): line 1, column 8"],
    ["<View><1/></View>", "not well-formed (invalid token): line 1, column 7"],
    ['<View a="<"/>', "not well-formed (invalid token): line 1, column 9"],
    ['<View a="1" a="2"/>', "duplicate attribute: line 1, column 12"],
    ["<View>&foo;</View>", "undefined entity: line 1, column 6"],
    ["<!DOCTYPE x><View/>", "DTDForbidden(name='x', system_id=None, public_id=None)"],
    ['<View><Text value="$t"/></View>', "Validation failed on : 'name' is a required property"],
    ['<View><Text name="t"/></View>', "Validation failed on : 'value' is a required property"],
    ['<View><View><Text name="t"/></View></View>', "Validation failed on : 'value' is a required property"],
    ['<View><Choices name="c" toName="t"/><Text name="t" value="$t"/></View>', "Validation failed on : 'Choice' is a required property"],
    [
      '<View><Labels name="l" toName="t"><Label/></Labels><Text name="t" value="$t"/></View>',
      "Validation failed on : 'value' is a required property",
    ],
    [
      '<View><Text name="a" value="$a"/><Choices name="c" toName="a"><Choice/></Choices></View>',
      "Validation failed on Choice/0: 'value' is a required property",
    ],
    [null, "can only parse strings"],
  ])("%s: %s", (input, message) => {
    expect(labelConfigProblem(input)).toBe(message);
  });

  test.each([
    "<View></View>",
    "<View>&amp;</View>",
    '<?xml version="1.0"?><View/>',
    "<View><![CDATA[x]]></View>",
    '<View><Header><Text name="t"/></Header></View>',
    '<Foo><Text value="$a"/></Foo>',
    '<View><Text name="a" valueList="$a"/></View>',
    '<View><Choices name="c" toName="a" value="$x"/><Text name="a" value="$a"/></View>',
  ])("accepted as the server accepts it: %s", (input) => {
    expect(labelConfigProblem(input)).toBeUndefined();
  });
});
