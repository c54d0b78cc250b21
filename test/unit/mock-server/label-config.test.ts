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
    // expat's words and positions, as Python's xml.etree reports them (validate_label_config); found by dmq verify.
    expect(labelConfigProblem("<View><Text name='t' value='$t'></View>")).toBe("mismatched tag: line 1, column 34");
    expect(labelConfigProblem("<View/><View/>")).toBe("junk after document element: line 1, column 7");
    expect(labelConfigProblem("no xml")).toBe("syntax error: line 1, column 0");
    expect(labelConfigProblem("<View><Nope")).toBe("unclosed token: line 1, column 6");
    expect(labelConfigProblem("abc<View/>")).toBe("not well-formed (invalid token): line 1, column 3");
    expect(labelConfigProblem('<View a="1" a="2"/>')).toBe("duplicate attribute: line 1, column 12");
    expect(labelConfigProblem("<View>\n <Text name=\"a\"></Txt>\n</View>")).toBe("mismatched tag: line 2, column 18");
    expect(labelConfigProblem("")).toBe("no element found: line 1, column 0");
    expect(labelConfigProblem('<View><Text name="a" value="$a"/><Text name="a" value="$b"/></View>')).toBe(
      "Label config contains non-unique names",
    );
    expect(labelConfigProblem('<View><Text name="t" value="$t"/><Choices name="c" toName="t,x"/></View>')).toBe(
      "toName=\"x\" not found in names: ['c', 't']",
    );
  });
});
