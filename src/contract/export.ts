import { defaultsOf, maxLength, pick, type Declaration, type FieldSpec } from "./field.js";
import { userSimple } from "./user.js";

/**
 * The export app (label_studio/data_export/): export formats, snapshots (`Export`), their converted
 * formats (`ConvertedFormat`), the conversion request, and the task format of an exported JSON file
 * (`BaseExportDataSerializer`). docs/reference/exports.md states the behaviour around them.
 */

/** `Export.Status` and `ConvertedFormat.Status` (label_studio/data_export/models.py). */
export const exportStatusChoices = ["created", "in_progress", "failed", "completed"] as const;

const status = { kind: "choice", nullable: false, access: "read-write", default: "created", choices: exportStatusChoices } as const;

/**
 * The converted format model (`ConvertedFormat`, label_studio/data_export/models.py): a conversion of a
 * snapshot, made on download (see docs/reference/exports.md).
 */
export const convertedFormatModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  status,
  export_type: { kind: "string", nullable: false, access: "read-write", required: true, checks: [maxLength(64)] },
  traceback: { kind: "string", nullable: true, access: "read-write", default: null },
  /** The snapshot converted (CASCADE). */
  export: { kind: "pk", nullable: false, access: "read-only", ref: "exports", owner: true },
  project: { kind: "pk", nullable: true, access: "read-only", default: null, ref: "projects" },
  created_at: { kind: "datetime", nullable: true, access: "read-only" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The converted format model's defaults. */
export const convertedFormatDefaults = defaultsOf(convertedFormatModel);

/** What the mock keeps with a conversion in a form of its own (the stored `ConvertedFormatRecord`, records.ts). */
export const convertedFormatOwn = {
  /** Stamped when the mock converts (a seed's at the load), never null. */
  created_at: { ...convertedFormatModel.created_at, nullable: false },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** `label_studio/data_export/serializers.py` `ConvertedFormatSerializer` (`traceback` shown: SHOW_TRACEBACK_FOR_EXPORT_CONVERTER). */
export const convertedFormat = {
  source: "label_studio/data_export/serializers.py ConvertedFormatSerializer",
  routes: ["GET /api/projects/{id}/exports/", "GET /api/projects/{id}/exports/{export_pk}"],
  flex: false,
  fields: pick(convertedFormatModel, "id", "status", "export_type", "traceback"),
} as const satisfies Declaration;

/**
 * The snapshot model (`Export`, label_studio/data_export/models.py): its fields with kind, null-ness,
 * default and reference, in the order `ExportSerializer` renders them; `file` (a FileField) is the
 * storage name, `export/<project>/project-<project>-at-<YYYY-mm-dd-HH-MM>-<md5[:8]>.json`, null until
 * written.
 */
export const exportModel = {
  title: { kind: "string", nullable: false, access: "read-write", blank: true, default: "", checks: [maxLength(2048)] },
  id: { kind: "integer", nullable: false, access: "read-only" },
  created_by: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "users" },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  finished_at: { kind: "datetime", nullable: true, access: "read-write", default: null },
  status,
  md5: { kind: "string", nullable: false, access: "read-write", blank: true, default: "", checks: [maxLength(128)] },
  counters: { kind: "dict", nullable: false, access: "read-write", default: {} },
  file: { kind: "string", nullable: true, access: "read-only", default: null },
  project: { kind: "pk", nullable: false, access: "read-only", ref: "projects", owner: true },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The snapshot model's defaults. */
export const exportDefaults = defaultsOf(exportModel);

/** What the mock keeps with a snapshot that is no Export field (the stored `ExportRecord`, records.ts). */
export const exportOwn = {
  /**
   * The file's text (the standard library's JSON of the exported tasks), null until written. The
   * server keeps the file in its media storage under `file`; the mock keeps the text with the record,
   * so a snapshot survives a restart of a persisting mock as it does there.
   */
  content: { kind: "string", nullable: true, access: "read-only", blank: true, default: null },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/**
 * The fields of `ExportSerializer`. Its Meta names the read-only fields `read_only`, which DRF
 * does not read: `status`, `md5`, `counters`, `finished_at`, `created_by` and `converted_formats`
 * are writable, and the export overwrites the first four; the nested two make a create fail (DRF's
 * `raise_errors_on_nested_writes`).
 */
const snapshotFields = {
  ...pick(exportModel, "title", "id"),
  created_by: { kind: "nested", nullable: true, access: "read-write", of: userSimple },
  ...pick(exportModel, "created_at", "finished_at", "status", "md5"),
  /** A JSONField: the serializer renders any JSON (the export writes a dict). */
  counters: { ...exportModel.counters, kind: "json" },
  converted_formats: { kind: "nested-list", nullable: false, access: "read-write", of: convertedFormat },
} as const;

/** `label_studio/data_export/serializers.py` `ExportSerializer` over `Export`: a snapshot in the list and alone. */
export const exportSnapshot = {
  source: "label_studio/data_export/serializers.py ExportSerializer",
  routes: ["GET /api/projects/{id}/exports/", "GET /api/projects/{id}/exports/{export_pk}"],
  flex: false,
  fields: snapshotFields,
} as const satisfies Declaration;

/** `ONLY_OR_EXCLUDE_CHOICE`: "only", "exclude" or None (the text "None" reads as None too). */
const onlyOrExclude = { kind: "choice", nullable: true, access: "read-write", choices: ["only", "exclude", "None"] } as const;

/** `TaskFilterOptionsSerializer`: which tasks a snapshot keeps (`ExportMixin._get_filtered_tasks`). */
export const taskFilterOptions = {
  source: "label_studio/data_export/serializers.py TaskFilterOptionsSerializer",
  routes: ["POST /api/projects/{id}/exports/"],
  flex: false,
  fields: {
    view: { kind: "integer", nullable: false, access: "read-write" },
    skipped: onlyOrExclude,
    finished: onlyOrExclude,
    annotated: onlyOrExclude,
    only_with_annotations: { kind: "boolean", nullable: false, access: "read-write", default: false },
  },
} as const satisfies Declaration;

/** `AnnotationFilterOptionsSerializer`: which annotations a snapshot keeps (any of the kinds set). */
export const annotationFilterOptions = {
  source: "label_studio/data_export/serializers.py AnnotationFilterOptionsSerializer",
  routes: ["POST /api/projects/{id}/exports/"],
  flex: false,
  fields: {
    usual: { kind: "boolean", nullable: true, access: "read-write", default: true },
    ground_truth: { kind: "boolean", nullable: true, access: "read-write" },
    skipped: { kind: "boolean", nullable: true, access: "read-write" },
  },
} as const satisfies Declaration;

/** `SerializationOptionsSerializer.SerializationOption`: ids only, or whole objects. */
export const serializationOption = {
  source: "label_studio/data_export/serializers.py SerializationOptionsSerializer.SerializationOption",
  routes: ["POST /api/projects/{id}/exports/"],
  flex: false,
  fields: {
    only_id: { kind: "boolean", nullable: false, access: "read-write", default: false },
  },
} as const satisfies Declaration;

const option = { kind: "nested", nullable: false, access: "read-write", of: serializationOption } as const;

/** `SerializationOptionsSerializer`: how a snapshot writes drafts, predictions and annotation authors. */
export const serializationOptions = {
  source: "label_studio/data_export/serializers.py SerializationOptionsSerializer",
  routes: ["POST /api/projects/{id}/exports/"],
  flex: false,
  fields: {
    drafts: option,
    predictions: option,
    include_annotation_history: { kind: "boolean", nullable: false, access: "read-write", default: false },
    annotations__completed_by: option,
    interpolate_key_frames: { kind: "boolean", nullable: false, access: "read-write", default: false },
  },
} as const satisfies Declaration;

/**
 * `ExportCreateSerializer`: the body and the answer of `POST /api/projects/{id}/exports/`. The view
 * pops the three option sets before saving, so the answer renders them as their default, null.
 */
export const exportCreate = {
  source: "label_studio/data_export/serializers.py ExportCreateSerializer",
  routes: ["POST /api/projects/{id}/exports/"],
  flex: false,
  fields: {
    ...snapshotFields,
    task_filter_options: { kind: "nested", nullable: true, allowNull: false, access: "read-write", default: null, of: taskFilterOptions },
    annotation_filter_options: {
      kind: "nested",
      nullable: true,
      allowNull: false,
      access: "read-write",
      default: null,
      of: annotationFilterOptions,
    },
    serialization_options: {
      kind: "nested",
      nullable: true,
      allowNull: false,
      access: "read-write",
      default: null,
      of: serializationOptions,
    },
  },
} as const satisfies Declaration;

/** `ExportConvertSerializer`: the body of `POST …/exports/{export_pk}/convert`. */
export const exportConvert = {
  source: "label_studio/data_export/serializers.py ExportConvertSerializer",
  routes: ["POST /api/projects/{id}/exports/{export_pk}/convert"],
  flex: false,
  fields: {
    export_type: { kind: "string", nullable: false, access: "write-only", required: true },
    download_resources: { kind: "boolean", nullable: false, access: "write-only" },
  },
} as const satisfies Declaration;

/** `ExportConvertAPI.post`'s answer. */
export const exportConverted = {
  source: "label_studio/data_export/api.py ExportConvertAPI.post",
  routes: ["POST /api/projects/{id}/exports/{export_pk}/convert"],
  flex: false,
  fields: {
    export_type: { kind: "string", nullable: false, access: "read-only" },
    converted_format: { kind: "integer", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

const registered = { registered: true } as const;

/**
 * One entry of `GET /api/projects/{id}/export/formats`: `DataExport.get_export_formats`
 * (label_studio/data_export/models.py) copies the converter's format info (label_studio_sdk
 * converter `Converter._FORMAT_INFO`), adds `name`, and marks the formats the label config does
 * not support `disabled`; the enabled ones first.
 */
export const exportFormat = {
  source: "label_studio/data_export/models.py DataExport.get_export_formats",
  routes: ["GET /api/projects/{id}/export/formats"],
  flex: false,
  fields: {
    title: { kind: "string", nullable: false, access: "read-only" },
    description: { kind: "string", nullable: false, access: "read-only" },
    link: { kind: "string", nullable: false, access: "read-only" },
    tags: { kind: "strings", nullable: false, access: "read-only", when: registered },
    name: { kind: "string", nullable: false, access: "read-only" },
    disabled: { kind: "boolean", nullable: false, access: "read-only", when: registered },
  },
} as const satisfies Declaration;

/** `CompletedBySerializer` (label_studio/data_export/serializers.py): an annotation's author when expanded. */
export const exportCompletedBy = {
  source: "label_studio/data_export/serializers.py CompletedBySerializer",
  routes: [],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    email: { kind: "string", nullable: false, access: "read-only" },
    first_name: { kind: "string", nullable: false, access: "read-only" },
    last_name: { kind: "string", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

const exportFileRoutes = ["GET /api/projects/{id}/export", "GET /api/projects/{id}/exports/{export_pk}/download"];

/**
 * `AnnotationSerializer` of the export app (`fields = '__all__'`): the primary key, the declared
 * `completed_by` and `result`, then every model field in model order (so `prediction`,
 * `result_count` and `unique_id` too, which the API's own annotation serializer leaves out).
 */
export const exportAnnotation = {
  source: "label_studio/data_export/serializers.py AnnotationSerializer",
  routes: exportFileRoutes,
  flex: true,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    /** The author's id, or `CompletedBySerializer` (`exportCompletedBy`) when the snapshot expands it. */
    completed_by: { kind: "json", nullable: true, access: "read-only" },
    result: { kind: "list", nullable: true, access: "read-only" },
    was_cancelled: { kind: "boolean", nullable: false, access: "read-only" },
    ground_truth: { kind: "boolean", nullable: false, access: "read-only" },
    created_at: { kind: "datetime", nullable: false, access: "read-only" },
    updated_at: { kind: "datetime", nullable: false, access: "read-only" },
    draft_created_at: { kind: "datetime", nullable: true, access: "read-only" },
    lead_time: { kind: "float", nullable: true, access: "read-only" },
    prediction: { kind: "json", nullable: true, access: "read-only" },
    result_count: { kind: "integer", nullable: false, access: "read-only" },
    unique_id: { kind: "string", nullable: false, access: "read-only" },
    import_id: { kind: "integer", nullable: true, access: "read-only" },
    last_action: { kind: "string", nullable: true, access: "read-only" },
    bulk_created: { kind: "boolean", nullable: true, access: "read-only" },
    task: { kind: "pk", nullable: true, access: "read-only" },
    project: { kind: "pk", nullable: true, access: "read-only" },
    updated_by: { kind: "pk", nullable: true, access: "read-only" },
    parent_prediction: { kind: "pk", nullable: true, access: "read-only" },
    parent_annotation: { kind: "pk", nullable: true, access: "read-only" },
    last_created_by: { kind: "pk", nullable: true, access: "read-only" },
  },
} as const satisfies Declaration;

/**
 * `BaseExportDataSerializer` over `Task` (label_studio/data_export/serializers.py, Meta excludes
 * `overlap` and `is_labeled`): one task of an exported JSON file. `drafts` and `predictions` are
 * ids unless the export expands them (the one-step export expands drafts; a snapshot as its
 * `serialization_options` say); `file_upload` is there only for a task imported from a file
 * (`file_upload_name` raises otherwise and DRF skips the field).
 */
export const exportTask = {
  source: "label_studio/data_export/serializers.py BaseExportDataSerializer",
  routes: exportFileRoutes,
  flex: true,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    annotations: { kind: "nested-list", nullable: false, access: "read-only", of: exportAnnotation },
    file_upload: { kind: "string", nullable: false, access: "read-only", when: registered },
    /** Ids, or `AnnotationDraftSerializer` objects. */
    drafts: { kind: "list", nullable: false, access: "read-only" },
    /** Ids, or `PredictionSerializer` objects. */
    predictions: { kind: "list", nullable: false, access: "read-only" },
    data: { kind: "dict", nullable: false, access: "read-only" },
    meta: { kind: "dict", nullable: true, access: "read-only" },
    created_at: { kind: "datetime", nullable: false, access: "read-only" },
    updated_at: { kind: "datetime", nullable: false, access: "read-only" },
    inner_id: { kind: "integer", nullable: true, access: "read-only" },
    total_annotations: { kind: "integer", nullable: false, access: "read-only" },
    cancelled_annotations: { kind: "integer", nullable: false, access: "read-only" },
    total_predictions: { kind: "integer", nullable: false, access: "read-only" },
    comment_count: { kind: "integer", nullable: false, access: "read-only" },
    unresolved_comment_count: { kind: "integer", nullable: false, access: "read-only" },
    last_comment_updated_at: { kind: "datetime", nullable: true, access: "read-only" },
    project: { kind: "pk", nullable: true, access: "read-only" },
    updated_by: { kind: "pk", nullable: true, access: "read-only" },
    comment_authors: { kind: "pks", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;
