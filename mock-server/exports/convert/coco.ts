import { PyException } from "../../../src/emulation/exceptions.js";
import { dumps, num, PyFloat, ujsonIndentedAscii, type PyValue } from "../../../src/emulation/py-dumps.js";
import type { Item, PyObject, Schema } from "./items.js";
import type { OutDir } from "./out.js";
import { codePointCompare } from "./tables.js";
import { cachedPath } from "./resources.js";
import { datetimeStr } from "../../../src/emulation/python.js";

/**
 * COCO and YOLO's shared pieces, and COCO itself (label_studio_sdk `converter/converter.py`
 * `convert_to_coco`, `_get_labels`, `rotated_rectangle`; `converter/keypoints.py`; `converter/utils.py`).
 * Arithmetic is IEEE doubles on both sides; rotated boxes go through `Math.cos`/`Math.sin`, whose
 * last bit may differ from the C library's (docs/exports.md).
 */

export interface ConvertContext {
  /** The server's own URL for uploaded and cloud files (the one-step export has it, a snapshot download not). */
  readonly hostname: string | undefined;
  /** `datetime.now()` for the files that carry it (milliseconds since the epoch). */
  readonly now: number;
  /**
   * The `*_WITH_IMAGES` formats: the converter downloads each image, and the mock's downloads all
   * fail (it has no media and no network), so each task keeps its image value as it is.
   */
  readonly download?: boolean;
}

export type Category = { id: PyValue; name: string; [key: string]: PyValue };

/** `Converter._get_labels`: categories named in the config with a `category` attribute first, then the rest sorted. */
export function configLabels(schema: Schema): { categories: Category[]; ids: Map<string, PyValue> } {
  const labels = new Set<string>();
  const categories: Category[] = [];
  const ids = new Map<string, PyValue>();
  for (const info of schema.values()) {
    for (const label of info.labels) labels.add(label);
    for (const [label, attrs] of Object.entries(info.labels_attrs)) {
      const category = attrs["category"];
      if (category) {
        categories.push({ id: category, name: label });
        ids.set(label, category);
      }
    }
  }
  const rest = [...labels].filter((l) => !ids.has(l)).sort(codePointCompare);
  const used = () => [...ids.values()];
  let idx = 0;
  while (used().includes(idx)) idx++;
  for (const label of rest) {
    categories.push({ id: idx, name: label });
    ids.set(label, idx);
    idx++;
    while (used().includes(idx)) idx++;
  }
  return { categories, ids };
}

/** `keypoints_in_label_config`. */
export const hasKeypoints = (schema: Schema) => [...schema.values()].some((t) => t.type === "KeyPointLabels");

/** The KeyPointLabels labels, first seen first. */
function keypointLabels(schema: Schema): string[] {
  return [...new Set([...schema.values()].filter((t) => t.type === "KeyPointLabels").flatMap((t) => t.labels))];
}

/** `update_categories_for_keypoints`: renumbered from 0, keypoint labels merged into one "default" category. */
function forKeypoints(categories: readonly Category[], schema: Schema): { categories: Category[]; ids: Map<string, PyValue> } {
  const kp = keypointLabels(schema);
  const out: Category[] = [];
  const ids = new Map<string, PyValue>();
  let next = 0;
  for (const cat of categories) {
    if (kp.includes(cat.name)) continue;
    out.push({ ...cat, id: next });
    ids.set(cat.name, next);
    next++;
  }
  if (kp.length > 0) {
    out.push({ id: next, name: "default", supercategory: "default", keypoints: kp, skeleton: [] });
    for (const name of kp) ids.set(name, next);
  }
  return { categories: out, ids };
}

/** `build_kp_order`: keypoint labels by their `model_index` (first of an index wins). */
export function keypointOrder(schema: Schema): string[] {
  const block: Record<string, Readonly<Record<string, string>>> = {};
  for (const tag of schema.values()) if (tag.type === "KeyPointLabels") Object.assign(block, tag.labels_attrs);
  const pairs: [number, string][] = [];
  const used = new Set<number>();
  for (const [name, attrs] of Object.entries(block)) {
    const raw = attrs["model_index"];
    const idx = raw === undefined ? Number.NaN : Number(raw.trim());
    if (!Number.isInteger(idx) || !/^\s*[+-]?\d+\s*$/.test(raw ?? "") || used.has(idx)) continue;
    pairs.push([idx, name]);
    used.add(idx);
  }
  return pairs.sort((a, b) => a[0] - b[0]).map(([, name]) => name);
}

/** Python's `round()` (half to even) of a double. */
export function pyRound(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const has = (o: PyObject, key: string) => Object.hasOwn(o, key);
const f = (x: number) => new PyFloat(x);

/** `rotated_rectangle`: the axis-aligned box around a rotated one (percentages). */
export function rotatedRectangle(label: PyObject): [number, number, number, number] | undefined {
  if (!(has(label, "x") && has(label, "y") && has(label, "width") && has(label, "height"))) return undefined;
  let x = num(label["x"]);
  let y = num(label["y"]);
  let w = num(label["width"]);
  let h = num(label["height"]);
  const r = has(label, "rotation") ? num(label["rotation"]) : 0;
  if (Math.abs(r) > 0) {
    const alpha = Math.atan(h / w);
    const beta = Math.PI * (r / 180);
    const radius = Math.sqrt((w / 2) ** 2 + (h / 2) ** 2);
    const x0 = x - radius * (Math.cos(Math.PI - alpha - beta) - Math.cos(Math.PI - alpha)) + w / 2;
    const y0 = y + radius * (Math.sin(Math.PI - alpha - beta) - Math.sin(Math.PI - alpha)) + h / 2;
    const thetas = [alpha + beta, Math.PI - alpha + beta, Math.PI + alpha + beta, 2 * Math.PI - alpha + beta];
    const xs = thetas.map((t) => x0 + radius * Math.cos(t));
    const ys = thetas.map((t) => y0 + radius * Math.sin(t));
    x = Math.min(...xs);
    y = Math.min(...ys);
    w = Math.max(...xs) - x;
    h = Math.max(...ys) - y;
  }
  return [x, y, w, h];
}

/** `get_polygon_area`: the shoelace formula (numpy's dot products, summed in order). */
function polygonArea(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  let a = 0;
  let b = 0;
  for (let i = 0; i < n; i++) a += (xs[i] as number) * (ys[(i + n - 1) % n] as number);
  for (let i = 0; i < n; i++) b += (ys[i] as number) * (xs[(i + n - 1) % n] as number);
  return 0.5 * Math.abs(a - b);
}

/** The image key of the config (`_data_keys[0]`). */
export function dataKey(schema: Schema): string | undefined {
  for (const info of schema.values()) {
    for (const input of info.inputs) {
      const key = input["value"] ?? input["valueList"];
      if (typeof key === "string") return key;
    }
  }
  return undefined;
}

/** `convert_to_coco` (without downloads: `COCO_WITH_IMAGES` is COCO whose downloads failed). */
export function coco(items: Iterable<Item>, schema: Schema, out: OutDir, ctx: ConvertContext): void {
  out.mkdir("images");
  const images: PyObject[] = [];
  const annotations: PyObject[] = [];
  const base = configLabels(schema);
  const { categories, ids } = forKeypoints(base.categories, schema);
  const key = dataKey(schema);
  const addImage = (width: PyValue, height: PyValue, id: number, path: PyValue) => images.push({ width, height, id, file_name: path });
  for (const item of items) {
    if (key === undefined || !Object.hasOwn(item.input, key)) throw new PyException("KeyError", `'${key ?? ""}'`);
    let imagePath: PyValue = item.input[key] as PyValue;
    const imageId = images.length;
    let width: PyValue = null;
    let height: PyValue = null;
    if (typeof imagePath === "string" && !ctx.download) imagePath = cachedPath(imagePath, "images", ctx.hostname, item.id) ?? imagePath;
    // Image.open fails (nothing was downloaded): the size comes from the labels.
    if (item.output.size === 0) {
      addImage(width, height, imageId, imagePath);
      continue;
    }
    const labels = [...item.output.values()].flat();
    const keypoints: PyObject[] = [];
    for (const label of labels) {
      let category: string | undefined;
      for (const k of ["rectanglelabels", "polygonlabels", "keypointlabels", "labels"]) {
        const list = label[k];
        if (Array.isArray(list) && list.length > 0) {
          category = list[0] as string;
          break;
        }
      }
      if (category === undefined) continue;
      if (!height || !width) {
        if (!has(label, "original_width") || !has(label, "original_height")) continue;
        width = label["original_width"] as PyValue;
        height = label["original_height"] as PyValue;
        addImage(width, height, imageId, imagePath);
      }
      if (!ids.has(category)) {
        ids.set(category, categories.length);
        categories.push({ id: categories.length, name: category });
      }
      const categoryId = ids.get(category) as PyValue;
      const annotationId = annotations.length;
      if (has(label, "rectanglelabels") || has(label, "labels")) {
        const box = rotatedRectangle(label);
        if (!box) continue;
        const ow = num(label["original_width"]);
        const oh = num(label["original_height"]);
        const x = (box[0] * ow) / 100;
        const y = (box[1] * oh) / 100;
        const w = (box[2] * ow) / 100;
        const h = (box[3] * oh) / 100;
        annotations.push({
          id: annotationId,
          image_id: imageId,
          category_id: categoryId,
          segmentation: [],
          bbox: [f(x), f(y), f(w), f(h)],
          ignore: 0,
          iscrowd: 0,
          area: f(w * h),
        });
      } else if (has(label, "polygonlabels")) {
        const points = (label["points"] ?? []) as readonly (readonly PyValue[])[];
        const abs = points.map((p) => [(num(p[0]) / 100) * num(width), (num(p[1]) / 100) * num(height)] as const);
        const xs = abs.map((p) => p[0]);
        const ys = abs.map((p) => p[1]);
        const x1 = Math.min(...xs);
        const y1 = Math.min(...ys);
        annotations.push({
          id: annotationId,
          image_id: imageId,
          category_id: categoryId,
          segmentation: [abs.flatMap((p) => [f(p[0]), f(p[1])])],
          bbox: [f(x1), f(y1), f(Math.max(...xs) - x1), f(Math.max(...ys) - y1)],
          ignore: 0,
          iscrowd: 0,
          area: f(polygonArea(xs, ys)),
        });
      } else if (has(label, "keypointlabels")) keypoints.push(label);
      else throw new PyException("ValueError", "Unknown label type");
    }
    if (keypoints.length > 0) annotations.push(cocoKeypoints(keypoints, keypointOrder(schema), annotations.length, imageId, ids));
  }
  const year = new Date(ctx.now).getUTCFullYear();
  const info = {
    year,
    version: "1.0",
    description: "",
    contributor: "Label Studio",
    url: "",
    date_created: datetimeStr(Math.round(ctx.now * 1000)),
  };
  out.write("result.json", dumps({ images, categories: categories as PyObject[], annotations, info }, ujsonIndentedAscii));
}

/** `process_keypoints_for_coco`. */
function cocoKeypoints(
  labels: readonly PyObject[],
  order: readonly string[],
  id: number,
  imageId: number,
  ids: Map<string, PyValue>,
): PyObject {
  if (order.length === 0) {
    throw new PyException(
      "ValueError",
      "No keypoint order found. Please ensure that KeyPointLabels in your label config have 'model_index' attributes defined.",
    );
  }
  const keypoints: number[] = new Array<number>(order.length * 3).fill(0);
  for (const kp of labels) {
    const x = (num(kp["x"]) / 100) * num(kp["original_width"]);
    const y = (num(kp["y"]) / 100) * num(kp["original_height"]);
    const names = (kp["keypointlabels"] ?? []) as readonly string[];
    const v = names.length > 0 ? 2 : 0;
    for (const name of names) {
      const idx = order.indexOf(name);
      if (idx < 0) continue;
      keypoints[3 * idx] = pyRound(x);
      keypoints[3 * idx + 1] = pyRound(y);
      keypoints[3 * idx + 2] = v;
    }
  }
  const visible = order.map((_, i) => i).filter((i) => (keypoints[3 * i + 2] as number) > 0);
  const xs = visible.map((i) => keypoints[3 * i] as number);
  const ys = visible.map((i) => keypoints[3 * i + 1] as number);
  const bbox =
    xs.length > 0 ? [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)] : [0, 0, 0, 0];
  return {
    id,
    image_id: imageId,
    category_id: ids.get(order[0] as string) ?? 0,
    keypoints,
    num_keypoints: visible.length,
    bbox,
    iscrowd: 0,
  };
}
