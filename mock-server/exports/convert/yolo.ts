import { dumps, num, PyFloat, pyStrOf, ujsonIndentedAscii, type PyValue } from "../../../src/emulation/py-dumps.js";
import { configLabels, dataKey, hasKeypoints, keypointOrder, type Category, type ConvertContext } from "./coco.js";
import type { Item, PyObject, Schema } from "./items.js";
import type { OutDir } from "./out.js";
import { basename, cachedPath } from "./resources.js";

/**
 * YOLO and YOLO OBB (label_studio_sdk `converter/converter.py` `convert_to_yolo`,
 * `converter/exports/yolo.py`, `convert_annotation_to_yolo(_obb)` of `converter/utils.py`): a label
 * file per image (named after the image), `classes.txt` and `notes.json`. The `*_WITH_IMAGES`
 * variants are these with their downloads failed: the mock downloads nothing.
 */

const f = (x: number) => new PyFloat(x);
const has = (o: PyObject, key: string) => Object.hasOwn(o, key);

/** `get_yolo_categories_for_keypoints`. */
function keypointCategories(schema: Schema): { categories: Category[]; ids: Map<string, PyValue> } {
  const labelsOf = (type: string) => [...new Set([...schema.values()].filter((t) => t.type === type).flatMap((t) => t.labels))];
  const keypoints = labelsOf("KeyPointLabels");
  const categories: Category[] = [];
  const ids = new Map<string, PyValue>();
  labelsOf("RectangleLabels").forEach((label, i) => {
    categories.push({ id: i, name: label, keypoints });
    ids.set(label, i);
  });
  return { categories, ids };
}

/** `convert_annotation_to_yolo`: centre and size, as fractions. */
function yoloBox(label: PyObject): PyValue[] | undefined {
  if (!(has(label, "x") && has(label, "y") && has(label, "width") && has(label, "height"))) return undefined;
  const w = num(label["width"]);
  const h = num(label["height"]);
  return [f((num(label["x"]) + w / 2) / 100), f((num(label["y"]) + h / 2) / 100), f(w / 100), f(h / 100)];
}

/** `convert_annotation_to_yolo_obb`: the four corners, as fractions. */
function obbBox(label: PyObject): PyValue[] | undefined {
  const needed = ["original_width", "original_height", "x", "y", "width", "height", "rotation"];
  if (!needed.every((k) => has(label, k))) return undefined;
  const ow = num(label["original_width"]);
  const oh = num(label["original_height"]);
  const x = (num(label["x"]) / 100) * ow;
  const y = (num(label["y"]) / 100) * oh;
  const w = (num(label["width"]) / 100) * ow;
  const h = (num(label["height"]) / 100) * oh;
  const r = (num(label["rotation"]) * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const corners = [
    [x, y],
    [x + w * cos, y + w * sin],
    [x + w * cos - h * sin, y + w * sin + h * cos],
    [x - h * sin, y + h * cos],
  ] as const;
  return corners.flatMap(([cx, cy]) => [f(cx / ow), f(cy / oh)]);
}

/** `process_and_save_yolo_annotations` without keypoints: one line per label name of each region. */
function labelLines(labels: readonly PyObject[], ids: Map<string, PyValue>, categories: Category[], obb: boolean): string {
  const lines: PyValue[][] = [];
  for (const label of labels) {
    const names: string[] = [];
    for (const key of ["rectanglelabels", "polygonlabels", "labels"]) {
      const list = label[key];
      if (Array.isArray(list) && list.length > 0) names.push(...(list as string[]));
    }
    for (const name of names) {
      if (!ids.has(name)) {
        ids.set(name, categories.length);
        categories.push({ id: categories.length, name });
      }
      const id = ids.get(name) as PyValue;
      if (has(label, "rectanglelabels") || has(label, "rectangle") || has(label, "labels")) {
        const box = obb ? obbBox(label) : yoloBox(label);
        if (box) lines.push([id, ...box]);
      } else if (has(label, "polygonlabels") || has(label, "polygon")) {
        if (!has(label, "points")) continue;
        const points = label["points"] as readonly (readonly PyValue[])[];
        lines.push([id, ...points.flatMap((p) => [f(num(p[0]) / 100), f(num(p[1]) / 100)])]);
      }
    }
  }
  return lines.map((line) => `${line.map(pyStrOf).join(" ")}\n`).join("");
}

/** `process_keypoints_for_yolo`: a line per rectangle, its keypoints in `model_index` order. */
function keypointLines(labels: readonly PyObject[], categories: readonly Category[], order: readonly string[]): string {
  const classOf = new Map(categories.map((c) => [c.name, c.id] as const));
  const boxes = new Map<PyValue, { base: PyValue[]; kp: Map<string, PyValue[]> }>();
  for (const item of labels) {
    if (String(item["type"]).toLowerCase() !== "rectanglelabels") continue;
    const cls = classOf.get((item["rectanglelabels"] as string[])[0] as string);
    if (cls === undefined) continue;
    const x = num(item["x"]) / 100;
    const y = num(item["y"]) / 100;
    const w = num(item["width"]) / 100;
    const h = num(item["height"]) / 100;
    boxes.set(item["id"] ?? null, { base: [cls, f(x + w / 2), f(y + h / 2), f(w), f(h)], kp: new Map() });
  }
  for (const item of labels) {
    if (String(item["type"]).toLowerCase() !== "keypointlabels") continue;
    const box = boxes.get(item["parentID"] ?? null);
    if (!box) continue;
    box.kp.set((item["keypointlabels"] as string[])[0] as string, [f(num(item["x"]) / 100), f(num(item["y"]) / 100), 2]);
  }
  return [...boxes.values()]
    .map((b) => [...b.base, ...order.flatMap((k) => b.kp.get(k) ?? [f(0), f(0), 0])].map(pyStrOf).join(" "))
    .join("\n");
}

/** `os.path.splitext(name)[0]`: the name without its last extension; leading dots are not one. */
function splitextRoot(name: string): string {
  const dot = name.lastIndexOf(".");
  let lead = 0;
  while (lead < name.length && name.charCodeAt(lead) === 0x2e) lead++;
  return dot >= lead ? name.slice(0, dot) : name;
}

export function yolo(items: Iterable<Item>, schema: Schema, out: OutDir, ctx: ConvertContext, obb: boolean): void {
  out.mkdir("images");
  out.mkdir("labels");
  const keypoints = hasKeypoints(schema);
  const { categories, ids } = keypoints ? keypointCategories(schema) : configLabels(schema);
  const key = dataKey(schema);
  for (const item of items) {
    const value = key === undefined ? undefined : item.input[key];
    const paths = typeof value === "string" ? [value] : Array.isArray(value) ? (value as PyValue[]) : [];
    let imagePath: PyValue | undefined;
    for (const path of [...paths].reverse()) {
      imagePath = typeof path === "string" && !ctx.download ? (cachedPath(path, "images", ctx.hostname, item.id) ?? path) : path;
    }
    if (!imagePath) continue;
    const stem = splitextRoot(basename(String(imagePath))).slice(0, 251);
    const labelPath = `labels/${stem}.txt`;
    const labels = [...item.output.values()].flat();
    if (labels.length === 0) {
      if (!out.exists(labelPath)) out.write(labelPath, "");
      continue;
    }
    if (keypoints) {
      // The keypoint pass reads each region's id and parent (set on the values for keypoint configs).
      out.write(labelPath, keypointLines(labels, categories, keypointOrder(schema)));
    } else out.write(labelPath, labelLines(labels, ids, categories, obb));
  }
  out.write("classes.txt", categories.map((c) => `${c.name}\n`).join(""));
  const year = new Date(ctx.now).getUTCFullYear();
  out.write(
    "notes.json",
    dumps({ categories: categories as PyObject[], info: { year, version: "1.0", contributor: "Label Studio" } }, ujsonIndentedAscii),
  );
}
