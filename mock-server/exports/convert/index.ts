import { PyException } from "../../../src/emulation/exceptions.js";
import { match } from "ts-pattern";
import { isExportType, type ExportType } from "../../../src/vocabulary/export-formats.js";
import { coco, hasKeypoints, type ConvertContext } from "./coco.js";
import { itemsOfAll, type PyObject, type Schema } from "./items.js";
import { OutDir } from "./out.js";
import { delimited, jsonMin } from "./tables.js";
import { yolo } from "./yolo.js";

/**
 * `Converter.convert` (label_studio_sdk `converter/converter.py`): the exported tasks into one
 * format's files. The formats whose files the mock cannot write exactly write nothing here: what
 * the server sends when its converter wrote nothing then follows (docs/exports.md).
 */
export interface ConvertInput {
  /** The exported tasks, as the converter reads them back from the file (called once per pass). */
  readonly tasks: () => Iterable<PyObject>;
  /** The file's text (JSON is a copy of it). */
  readonly text: () => string;
  readonly schema: Schema;
}

/** `Format.from_string`: a name the enum does not have raises a bare ValueError (the 500's detail is ""). */
export function formatOf(name: string): ExportType {
  if (!isExportType(name)) throw new PyException("ValueError", "");
  return name;
}

export function convert(name: string, input: ConvertInput, ctx: ConvertContext): OutDir {
  const format = formatOf(name);
  const out = new OutDir();
  const items = (keypoints = false) => itemsOfAll(input.tasks(), input.schema, keypoints);
  match(format)
    .with("JSON", () => out.write("result.json", input.text()))
    .with("JSON_MIN", () => out.write("result.json", jsonMin(items())))
    .with("CSV", "TSV", (f) =>
      out.write(
        "result.csv",
        delimited(() => items(), f === "CSV" ? "," : "\t"),
      ),
    )
    .with("COCO", "COCO_WITH_IMAGES", (f) => coco(items(), input.schema, out, { ...ctx, download: f.endsWith("_WITH_IMAGES") }))
    .with("YOLO", "YOLO_WITH_IMAGES", "YOLO_OBB", "YOLO_OBB_WITH_IMAGES", (f) =>
      yolo(
        items(hasKeypoints(input.schema)),
        input.schema,
        out,
        { ...ctx, download: f.endsWith("_WITH_IMAGES") },
        f.startsWith("YOLO_OBB"),
      ),
    )
    .with("CONLL2003", "VOC", "BRUSH_TO_NUMPY", "BRUSH_TO_PNG", "BRUSH_TO_COCO", "ASR_MANIFEST", "CSV_OLD", () => undefined)
    .exhaustive();
  return out;
}
