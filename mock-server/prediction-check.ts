import { pyTruthy } from "../src/emulation/python-json.js";
import { parsePyFloat } from "../src/emulation/python-text.js";
import { isPlainObject } from "../src/vocabulary/json.js";
import { configElements, parseConfig, type ControlTag } from "./label-config.js";

/**
 * Whether the server's `LabelInterface.validate_prediction` (label_studio_sdk `label_interface/interface.py`)
 * finds nothing wrong with a prediction, for the views that skip what it refuses (ImportPredictionsAPI keeps
 * only the predictions it passes; with the community's default flags nothing is reported).
 *
 * A prediction passes when: it has `result`, a list; `score`, if not null, is a number `float()` reads, in
 * [0, 1]; every region is an object with `from_name`, `to_name`, `type` and `value`, names a control of the
 * config and an object it points at, has the control's type (any case), and a value the control's value
 * class accepts (pydantic's lax coercion) with labels the control declares; every relation has `type`,
 * `direction` (left, right, bi), and `from_id`/`to_id` naming valid regions' `id`s.
 */

/** A value class field (`control_tags.py` `…Value` models), as pydantic 2 reads a JSON value in lax mode. */
type Shape =
  | "str"
  | "int"
  | "int>=0"
  | "float"
  | "float<=50"
  | "float<=100"
  | "float<=360"
  | "bool"
  | "int|str"
  | "str[]"
  | "int[]"
  | "str[][]"
  | "point[]"
  | "frame[]";
/** `?`: may be absent (a default); `null`: null is accepted (Optional). */
type Field = Shape | `${Shape}?` | `${Shape}?null` | `${Shape} null`;

const box = { x: "float<=100", y: "float<=100", width: "float<=100", height: "float<=100", rotation: "float<=360?null" } as const;
const ellipse = { x: "float<=100", y: "float<=100", radiusX: "float<=50", radiusY: "float<=50", rotation: "float<=360?null" } as const;
const point = { x: "float<=100", y: "float<=100" } as const;
const span = { start: "int|str", end: "int|str" } as const;
const offsets = { startOffset: "int>=0?null", endOffset: "int>=0?null" } as const;

/** Each control tag the SDK has a class for: the value class's fields, and the key its labels are under. */
const CONTROLS: Readonly<Record<string, { readonly labels?: string; readonly value: Readonly<Record<string, Field>> }>> = {
  brushlabels: { labels: "brushlabels", value: { format: "str?", rle: "int[]", brushlabels: "str[]" } },
  brush: { value: { format: "str?", rle: "int[]" } },
  choices: { labels: "choices", value: { choices: "str[]" } },
  datetime: { labels: "datetime", value: { datetime: "str" } },
  ellipselabels: { labels: "ellipselabels", value: { ...ellipse, ellipselabels: "str[]" } },
  ellipse: { value: ellipse },
  hypertextlabels: { labels: "htmllabels", value: { ...span, ...offsets, htmllabels: "str[]" } },
  keypointlabels: { labels: "keypointlabels", value: { ...point, keypointlabels: "str[]" } },
  keypoint: { value: point },
  labels: { labels: "labels", value: { ...span, labels: "str[]" } },
  number: { labels: "number", value: { number: "int>=0" } },
  pairwise: { labels: "selected", value: { selected: "str" } },
  paragraphlabels: { labels: "paragraphlabels", value: { ...span, ...offsets, paragraphlabels: "str[]" } },
  polygonlabels: { labels: "polygonlabels", value: { points: "point[]", polygonlabels: "str[]" } },
  polygon: { value: { points: "point[]" } },
  ranker: { value: { rank: "str[]" } },
  rating: { labels: "rating", value: { rating: "int>=0" } },
  rectanglelabels: { labels: "rectanglelabels", value: { ...box, rectanglelabels: "str[]" } },
  rectangle: { value: box },
  taxonomy: { labels: "taxonomy", value: { taxonomy: "str[][]" } },
  textarea: { labels: "text", value: { text: "str[]" } },
  timeserieslabels: { labels: "timeserieslabels", value: { ...span, instant: "bool", timeserieslabels: "str[]" } },
  videorectangle: { labels: "labels", value: { framesCount: "int", duration: "float", sequence: "frame[]", labels: "str[] null" } },
};

/** `VideoRectangleSequenceValue`. */
const FRAME: Readonly<Record<string, Field>> = { ...box, time: "float", frame: "int", rotation: "float?null" };

/** pydantic's lax int: an int, a bool, a whole float, a string of digits. */
function intOf(v: unknown): number | undefined {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
  if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v.trim());
  return undefined;
}

/** pydantic's lax float: a number, a bool, a string `float()` reads. */
function floatOf(v: unknown): number | undefined {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  return typeof v === "string" ? parsePyFloat(v) : undefined;
}

const BOOL_TEXTS = new Set(["0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes"]);

const SHAPES: Readonly<Record<Shape, (v: unknown) => boolean>> = {
  str: (v) => typeof v === "string",
  int: (v) => intOf(v) !== undefined,
  "int>=0": (v) => (intOf(v) ?? -1) >= 0,
  float: (v) => floatOf(v) !== undefined,
  "float<=50": (v) => (floatOf(v) ?? Number.NaN) <= 50,
  "float<=100": (v) => (floatOf(v) ?? Number.NaN) <= 100,
  "float<=360": (v) => (floatOf(v) ?? Number.NaN) <= 360,
  bool: (v) => typeof v === "boolean" || v === 0 || v === 1 || (typeof v === "string" && BOOL_TEXTS.has(v.toLowerCase())),
  "int|str": (v) => typeof v === "string" || intOf(v) !== undefined,
  "str[]": (v) => Array.isArray(v) && v.every(SHAPES.str),
  "int[]": (v) => Array.isArray(v) && v.every(SHAPES.int),
  "str[][]": (v) => Array.isArray(v) && v.every(SHAPES["str[]"]),
  "point[]": (v) => Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && p.every(SHAPES["float<=100"])),
  "frame[]": (v) => Array.isArray(v) && v.every((f) => isPlainObject(f) && fits(f, FRAME)),
};

/** `ValueClass(**value)` succeeds. */
function fits(value: Record<string, unknown>, fields: Readonly<Record<string, Field>>): boolean {
  return Object.entries(fields).every(([name, field]) => {
    if (!Object.hasOwn(value, name)) return field.includes("?");
    const v = value[name];
    if (v === null) return field.endsWith("null");
    const cut = [...field].findIndex((c) => c === "?" || c === " ");
    return SHAPES[(cut < 0 ? field : field.slice(0, cut)) as Shape](v);
  });
}

/** Python's `set(labels).issubset(set(control.labels))`; false where `set()` raises (a number, an unhashable item). */
function labelsDeclared(labels: unknown, declared: readonly string[]): boolean {
  if (declared.length === 0 || !pyTruthy(labels)) return true;
  const items =
    typeof labels === "string" ? [...labels] : Array.isArray(labels) ? labels : isPlainObject(labels) ? Object.keys(labels) : undefined;
  if (items === undefined || items.some((i) => typeof i === "object" && i !== null)) return false;
  return items.every((i) => typeof i === "string" && declared.includes(i));
}

/** `ControlTag.validate_value` (with Rating's and Taxonomy's own label checks). */
function valueFits(name: string, control: Control, given: unknown): boolean {
  const spec = CONTROLS[control.type.toLowerCase()];
  if (spec === undefined || !isPlainObject(given)) return false;
  // A value nested under the control's name is read from there.
  const value = isPlainObject(given[name]) ? (given[name] as Record<string, unknown>) : given;
  const kind = control.type.toLowerCase();
  if (spec.labels !== undefined) {
    if (!Object.hasOwn(value, spec.labels)) return false;
    const labels = value[spec.labels];
    if (kind === "rating") {
      // `0 <= int(rating) <= int(maxRating)`: int() truncates a float and reads only digits from a string.
      const max = control.maxRating === undefined ? 5 : intOf(control.maxRating);
      const rating = typeof labels === "number" ? (Number.isFinite(labels) ? Math.trunc(labels) : undefined) : intOf(labels);
      if (max === undefined || rating === undefined || rating < 0 || rating > max) return false;
    } else if (kind === "taxonomy") {
      if (!Array.isArray(labels) || !labels.every(Array.isArray)) return false;
      if (!labelsDeclared(labels.flat(), control.labels)) return false;
    } else if (!labelsDeclared(labels, control.labels)) return false;
  }
  return fits(value, spec.value);
}

/** A region id as a Python dict key: 1, 1.0 and True are one key; lists and dicts cannot be keys. */
function keyOf(id: unknown): string | undefined {
  if (typeof id === "boolean") return `n${id ? 1 : 0}`;
  if (typeof id === "number") return `n${id}`;
  if (typeof id === "string") return `s${id}`;
  return id === null ? "null" : undefined;
}

export interface PredictionChecker {
  (prediction: Record<string, unknown>): boolean;
}

/** The check for one project's label config (parsed once for a batch). */
export function predictionChecker(config: string | null | undefined): PredictionChecker {
  const controls = withMaxRating(config);
  const objects = new Set(
    configElements(config)
      .filter((e) => e.attrs["name"] && (e.attrs["value"] || e.attrs["valueList"]) && !e.attrs["toName"])
      .map((e) => e.attrs["name"] as string),
  );
  const regionFits = (r: Record<string, unknown>): boolean => {
    if (!["from_name", "to_name", "type", "value"].every((k) => Object.hasOwn(r, k))) return false;
    const { from_name: from, to_name: to, type } = r;
    const control = typeof from === "string" ? controls.get(from) : undefined;
    if (control === undefined || typeof to !== "string" || !objects.has(to) || typeof type !== "string") return false;
    return (
      type.toLowerCase() === control.type.toLowerCase() && control.to_name.includes(to) && valueFits(from as string, control, r["value"])
    );
  };
  return (prediction) => {
    const result = prediction["result"];
    if (!Array.isArray(result)) return false;
    if (Object.hasOwn(prediction, "score") && prediction["score"] !== null) {
      const score = typeof prediction["score"] === "object" ? undefined : floatOf(prediction["score"]);
      if (score === undefined || !(score >= 0 && score <= 1)) return false;
    }
    const regions: Record<string, unknown>[] = [];
    const relations: Record<string, unknown>[] = [];
    let valid = true;
    for (const region of result) {
      if (!isPlainObject(region)) valid = false;
      else if (region["type"] === "relation") relations.push(region);
      else if (!regionFits(region)) valid = false;
      else regions.push(region);
    }
    if (!valid) return false;
    if (relations.length === 0) return true;
    // Each relation's check maps the valid regions by id: an id that cannot be a dict key fails every relation.
    const keys = regions.filter((r) => Object.hasOwn(r, "id")).map((r) => keyOf(r["id"]));
    if (keys.includes(undefined)) return false;
    const ids = new Set(keys);
    const relationFits = (r: Record<string, unknown>) =>
      ["type", "direction", "from_id", "to_id"].every((k) => Object.hasOwn(r, k)) &&
      ["left", "right", "bi"].includes(r["direction"] as string) &&
      ids.has(keyOf(r["from_id"])) &&
      ids.has(keyOf(r["to_id"]));
    return relations.every(relationFits);
  };
}

type Control = ControlTag & { readonly maxRating?: string };

/** The config's controls, each with its `maxRating` attribute (Rating's label check reads it). */
function withMaxRating(config: string | null | undefined): ReadonlyMap<string, Control> {
  const controls = new Map<string, Control>(parseConfig(config));
  for (const e of configElements(config)) {
    const name = e.attrs["name"];
    const control = name === undefined ? undefined : controls.get(name);
    if (control && e.attrs["maxRating"] !== undefined) controls.set(name as string, { ...control, maxRating: e.attrs["maxRating"] });
  }
  return controls;
}
