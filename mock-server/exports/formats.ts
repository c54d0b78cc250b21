import { exportFormats, type ExportType } from "../../src/vocabulary/export-formats.js";
import type { Rendered } from "../../src/contract/field.js";
import type { exportFormat } from "../../src/contract/index.js";
import type { Schema } from "./convert/items.js";

/**
 * Which formats a label config supports (label_studio_sdk `converter/converter.py`
 * `Converter._get_supported_formats`), and the formats list the server answers with
 * (`DataExport.get_export_formats`, label_studio/data_export/models.py).
 */

type Name = ExportType;

/** Every `Format` member, in enum order (`CSV_OLD` is one; it is never listed, and never removed). */
const ENUM_ORDER: readonly Name[] = [
  "JSON",
  "JSON_MIN",
  "CSV",
  "TSV",
  "CONLL2003",
  "COCO",
  "VOC",
  "BRUSH_TO_NUMPY",
  "BRUSH_TO_PNG",
  "ASR_MANIFEST",
  "YOLO",
  "YOLO_OBB",
  "CSV_OLD",
  "YOLO_WITH_IMAGES",
  "COCO_WITH_IMAGES",
  "YOLO_OBB_WITH_IMAGES",
  "BRUSH_TO_COCO",
];

/** `_get_supported_formats` over a parsed config. */
export function supportedFormats(schema: Schema): ReadonlySet<Name> {
  const dataKeys = new Set<string>();
  for (const info of schema.values()) {
    for (const input of info.inputs) {
      for (const key of ["value", "valueList"]) if (typeof input[key] === "string") dataKeys.add(input[key]);
    }
  }
  if (dataKeys.size > 1) return new Set<Name>(["JSON", "JSON_MIN", "CSV", "TSV"]);
  const outputs = new Set<string>();
  const inputs = new Set<string>();
  let mig = false;
  for (const info of schema.values()) {
    outputs.add(info.type);
    for (const input of info.inputs) {
      if (input["valueList"]) mig = true;
      if (input["type"] === "Text" && input["valueType"] === "url") continue;
      inputs.add(String(input["type"]));
    }
  }
  const all = new Set<Name>(ENUM_ORDER);
  const out = (...names: Name[]) => names.forEach((n) => all.delete(n));
  const o = (t: string) => outputs.has(t);
  const i = (t: string) => inputs.has(t);
  if (o("KeyPointLabels") && !o("RectangleLabels")) out("COCO", "COCO_WITH_IMAGES", "YOLO", "YOLO_WITH_IMAGES");
  if (!(i("Text") && o("Labels"))) out("CONLL2003");
  if (mig || !(i("Image") && (o("RectangleLabels") || (o("Rectangle") && o("Labels"))))) out("VOC");
  const imageShapes =
    (i("Image") && (o("RectangleLabels") || o("PolygonLabels") || o("KeyPointLabels"))) ||
    (o("Rectangle") && o("Labels")) ||
    (o("PolygonLabels") && o("Labels")) ||
    (o("KeyPointLabels") && o("Labels"));
  if (mig || !imageShapes) out("COCO", "COCO_WITH_IMAGES", "YOLO", "YOLO_WITH_IMAGES");
  if (!(i("Image") && (o("BrushLabels") || o("brushlabels") || (o("Brush") && o("Labels")))))
    out("BRUSH_TO_NUMPY", "BRUSH_TO_PNG", "BRUSH_TO_COCO");
  if (!((i("Audio") || i("AudioPlus")) && o("TextArea"))) out("ASR_MANIFEST");
  if (mig || (i("Video") && o("TimelineLabels"))) out("YOLO_OBB", "YOLO_OBB_WITH_IMAGES");
  return all;
}

export type FormatEntry = Rendered<typeof exportFormat>;

/** `get_export_formats`: every listed format with its `name`, unsupported ones `disabled`, those last. */
export function formatList(schema: Schema): FormatEntry[] {
  const supported = supportedFormats(schema);
  const entries = exportFormats.flatMap((f): FormatEntry[] => {
    if ("listed" in f) return [];
    // Key order as the server's dict: the info's keys, then `name`, then `disabled`.
    const entry = {
      title: f.title,
      description: f.description,
      link: f.link,
      ...("tags" in f ? { tags: [...f.tags] } : {}),
      name: f.name,
      ...(supported.has(f.name) ? {} : { disabled: true }),
    };
    return [entry];
  });
  return [...entries.filter((e) => !e.disabled), ...entries.filter((e) => e.disabled)];
}

/** The names `ExportConvertSerializer.validate_export_type` accepts: every listed one, disabled or not. */
export function listedNames(): ReadonlySet<string> {
  return new Set(exportFormats.filter((f) => !("listed" in f)).map((f) => f.name));
}
