/**
 * The task-data value types each object tag of a labeling config takes: `_DATA_TYPES` of Label Studio 1.22
 * (label_studio/tasks/validation.py), in the server's order (its refusal lists them so). `TaskValidator.check_data`
 * reads it for every data key the config names (`extract_data_types`), on an import and a create; an update never
 * runs it. Measured on the real server for every tag and value type (docs/reference/resources.md#task-data-types).
 */

/** `type(value).__name__` of a decoded JSON value (src/emulation/python-json.ts `pyType`). */
export type PyTypeName = "str" | "int" | "float" | "bool" | "list" | "dict" | "NoneType";

export const TAG_DATA_TYPES = {
  Text: ["str", "int", "float", "list"],
  Header: ["str", "int", "float"],
  HyperText: ["str"],
  Image: ["str", "list"],
  Paragraphs: ["list", "str"],
  Chat: ["list", "str"],
  Table: ["dict", "list", "str"],
  TimeSeries: ["dict", "list", "str"],
  TimeSeriesChannel: ["dict", "list", "str"],
  List: ["list", "str"],
  Choices: ["str", "list"],
  PolygonLabels: ["str", "list"],
  Labels: ["str", "list"],
  BrushLabels: ["str", "list"],
  EllipseLabels: ["str", "list"],
  HyperTextLabels: ["str", "list"],
  KeyPointLabels: ["str", "list"],
  ParagraphLabels: ["str", "list"],
  RectangleLabels: ["str", "list"],
  TimeSeriesLabels: ["str", "list"],
  Taxonomy: ["str", "list", "NoneType"],
  Ranker: ["list", "str"],
} as const satisfies Readonly<Record<string, readonly PyTypeName[]>>;

/** Any other tag (Audio, Video…): `_DATA_TYPES.get(tag, (str,))`. */
export const OTHER_TAG_DATA_TYPES = ["str"] as const satisfies readonly PyTypeName[];
/** A key read inside a `Repeater` (`$key[{{idx}}]`): the list itself. */
export const REPEATER_DATA_TYPES = ["list"] as const satisfies readonly PyTypeName[];

/** The types a tag takes, as the server's message lists them. */
export function tagDataTypes(tag: string): readonly PyTypeName[] {
  return Object.hasOwn(TAG_DATA_TYPES, tag) ? TAG_DATA_TYPES[tag as keyof typeof TAG_DATA_TYPES] : OTHER_TAG_DATA_TYPES;
}

/** Python's `isinstance(value, tuple(types))` by type name: a bool is an int to Python. */
export function takesType(types: readonly PyTypeName[], type: string): boolean {
  return (types as readonly string[]).includes(type) || (type === "bool" && types.includes("int"));
}
