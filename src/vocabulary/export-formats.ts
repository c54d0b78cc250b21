/**
 * The export formats, as the server's converter lists them (label_studio_sdk `converter/converter.py`:
 * `Converter._FORMAT_INFO` in its order, then `CSV_OLD`, the one `Format` member it has no entry for). The formats route renders these
 * entries; the client's `ExportType`, the CLI's choices and the docs' table derive from them.
 *
 * `mock` says what dmq's mock makes of the format:
 * - `exact`: the file the server writes, byte for byte (see docs/exports.md for the limits of that);
 * - `archive`: the files of the server's ZIP archive, each byte for byte (the archive's own bytes,
 *   dates and member order differ, as they do between two runs of the server);
 * - `none`: what the server answers when its converter writes nothing (docs/exports.md lists why).
 */
export const exportFormats = [
  {
    name: "JSON",
    title: "JSON",
    description:
      "List of items in raw JSON format stored in one JSON file. Use to export both the data and the annotations for a dataset. It's Label Studio Common Format",
    link: "https://labelstud.io/guide/export.html#JSON",
    mock: "exact",
  },
  {
    name: "JSON_MIN",
    title: "JSON-MIN",
    description:
      'List of items where only "from_name", "to_name" values from the raw JSON format are exported. Use to export only the annotations for a dataset.',
    link: "https://labelstud.io/guide/export.html#JSON-MIN",
    mock: "exact",
  },
  {
    name: "CSV",
    title: "CSV",
    description:
      'Results are stored as comma-separated values with the column names specified by the values of the "from_name" and "to_name" fields.',
    link: "https://labelstud.io/guide/export.html#CSV",
    mock: "exact",
  },
  {
    name: "TSV",
    title: "TSV",
    description: 'Results are stored in tab-separated tabular file with column names specified by "from_name" "to_name" values',
    link: "https://labelstud.io/guide/export.html#TSV",
    mock: "exact",
  },
  {
    name: "CONLL2003",
    title: "CONLL2003",
    description: "Popular format used for the CoNLL-2003 named entity recognition challenge.",
    link: "https://labelstud.io/guide/export.html#CONLL2003",
    tags: ["sequence labeling", "text tagging", "named entity recognition"],
    mock: "none",
  },
  {
    name: "COCO",
    title: "COCO",
    description:
      "Popular machine learning format used by the COCO dataset for object detection and image segmentation tasks with polygons and rectangles.",
    link: "https://labelstud.io/guide/export.html#COCO",
    tags: ["image segmentation", "object detection", "keypoints"],
    mock: "archive",
  },
  {
    name: "COCO_WITH_IMAGES",
    title: "COCO with Images",
    description: "COCO format with images downloaded.",
    link: "https://labelstud.io/guide/export.html#COCO",
    tags: ["image segmentation", "object detection", "keypoints"],
    mock: "archive",
  },
  {
    name: "VOC",
    title: "Pascal VOC XML",
    description: "Popular XML format used for object detection and polygon image segmentation tasks.",
    link: "https://labelstud.io/guide/export.html#Pascal-VOC-XML",
    tags: ["image segmentation", "object detection"],
    mock: "none",
  },
  {
    name: "YOLO",
    title: "YOLO",
    description:
      "Popular TXT format is created for each image file. Each txt file contains annotations for the corresponding image file, that is object class, object coordinates, height & width.",
    link: "https://labelstud.io/guide/export.html#YOLO",
    tags: ["image segmentation", "object detection", "keypoints"],
    mock: "archive",
  },
  {
    name: "YOLO_WITH_IMAGES",
    title: "YOLO with Images",
    description: "YOLO format with images downloaded.",
    link: "https://labelstud.io/guide/export.html#YOLO",
    tags: ["image segmentation", "object detection", "keypoints"],
    mock: "archive",
  },
  {
    name: "YOLO_OBB",
    title: "YOLOv8 OBB",
    description:
      "Popular TXT format is created for each image file. Each txt file contains annotations for the corresponding image file. The YOLO OBB format designates bounding boxes by their four corner points with coordinates normalized between 0 and 1, so it is possible to export rotated objects.",
    link: "https://labelstud.io/guide/export.html#YOLO",
    tags: ["image segmentation", "object detection"],
    mock: "archive",
  },
  {
    name: "YOLO_OBB_WITH_IMAGES",
    title: "YOLOv8 OBB with Images",
    description: "YOLOv8 OBB format with images downloaded.",
    link: "https://labelstud.io/guide/export.html#YOLO",
    tags: ["image segmentation", "object detection"],
    mock: "archive",
  },
  {
    name: "BRUSH_TO_NUMPY",
    title: "Brush labels to NumPy",
    description: "Export your brush labels as NumPy 2d arrays. Each label outputs as one image.",
    link: "https://labelstud.io/guide/export.html#Brush-labels-to-NumPy-amp-PNG",
    tags: ["image segmentation"],
    mock: "none",
  },
  {
    name: "BRUSH_TO_PNG",
    title: "Brush labels to PNG",
    description: "Export your brush labels as PNG images. Each label outputs as one image.",
    link: "https://labelstud.io/guide/export.html#Brush-labels-to-NumPy-amp-PNG",
    tags: ["image segmentation"],
    mock: "none",
  },
  {
    name: "ASR_MANIFEST",
    title: "ASR Manifest",
    description:
      "Export audio transcription labels for automatic speech recognition as the JSON manifest format expected by NVIDIA NeMo models.",
    link: "https://labelstud.io/guide/export.html#ASR-MANIFEST",
    tags: ["speech recognition"],
    mock: "none",
  },
  {
    name: "BRUSH_TO_COCO",
    title: "Brush labels to COCO",
    description: "Export your brush labels as COCO format for segmentation tasks. Converts RLE encoded masks to COCO polygons.",
    link: "https://labelstud.io/guide/export.html#COCO",
    tags: ["image segmentation", "brush annotations"],
    mock: "none",
  },
  {
    name: "CSV_OLD",
    title: "",
    description: "",
    link: "",
    mock: "none",
    listed: false,
  },
] as const satisfies readonly ExportFormatEntry[];

interface ExportFormatEntry {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly link: string;
  readonly tags?: readonly string[];
  readonly mock: "exact" | "archive" | "none";
  /** `false`: a `Format` member without an entry in `_FORMAT_INFO`: never listed, refused by the conversion route. */
  readonly listed?: false;
}

/** A format the converter knows (`Format[name]`); any other name makes it raise. */
export type ExportType = (typeof exportFormats)[number]["name"];

/** Every format name, in the table's order. */
export const exportTypes: readonly ExportType[] = exportFormats.map((f) => f.name);

/** Whether `name` is a format the converter knows (case-sensitive, as the server reads it). */
export function isExportType(name: unknown): name is ExportType {
  return typeof name === "string" && (exportTypes as readonly string[]).includes(name);
}
