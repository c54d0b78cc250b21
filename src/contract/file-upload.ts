import { pick, type Declaration, type FieldSpec } from "./field.js";

/**
 * Uploaded files and what the import routes answer (label_studio/data_import/models.py `FileUpload`,
 * serializers.py, api.py; docs/reference/imports.md). A multipart import keeps each file as a `FileUpload`
 * of the project and its uploader; the tasks read from it name it (`Task.file_upload`, SET_NULL).
 */

/** The FileUpload model: its owner references, and the stored file's name (`upload/<project>/<8 hex>-<name>`). */
export const fileUploadModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  /** CASCADE: a project owns its uploads. */
  project: { kind: "pk", nullable: false, access: "read-write", ref: "projects", owner: true },
  /** The uploader (CASCADE); the project's list shows each caller their own. */
  user: { kind: "pk", nullable: false, access: "read-write", ref: "users" },
  /** `upload_name_generator`: the upload directory, the project id, 8 hex digits of a uuid4, a dash, the sanitised name. */
  file: { kind: "string", nullable: false, access: "read-write", required: true },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** What the mock keeps of the file itself (the server keeps it on its disk under MEDIA_ROOT). */
export const fileUploadOwn = {
  /** The file's bytes, base64. */
  content: { kind: "string", nullable: false, access: "read-only", blank: true, default: "" },
  /** `file.size`: the byte count. */
  size: { kind: "integer", nullable: false, access: "read-only", default: 0 },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/**
 * `FileUploadSerializer`: `id`, the stored name (`use_url=False`) and the size in bytes (null when the file is
 * gone from the disk; the mock never loses one). Not paginated in the project's list.
 */
export const fileUpload = {
  source: "label_studio/data_import/serializers.py FileUploadSerializer",
  routes: [
    "GET /api/import/file-upload/{id}",
    "PATCH /api/import/file-upload/{id}",
    "PUT /api/import/file-upload/{id}",
    "GET /api/projects/{id}/file-uploads",
  ],
  flex: false,
  fields: {
    ...pick(fileUploadModel, "id", "file"),
    size: { kind: "integer", nullable: true, access: "read-only" },
  },
} as const satisfies Declaration;

/** `FileUploadListAPI.delete`: how many uploads went (the tasks that named them stay, with `file_upload` null). */
export const fileUploadsDeleted = {
  source: "label_studio/data_import/api.py FileUploadListAPI.delete",
  routes: ["DELETE /api/projects/{id}/file-uploads"],
  flex: false,
  fields: { deleted: { kind: "integer", nullable: false, access: "read-only" } },
} as const satisfies Declaration;

/** The counts both import answers share (`ImportAPI.sync_import`, `ReImportAPI.sync_reimport`). */
const importCounts = {
  task_count: { kind: "integer", nullable: false, access: "read-only" },
  /** Null when `commit_to_project=false` (nothing was stored). */
  annotation_count: { kind: "integer", nullable: true, access: "read-only" },
  prediction_count: { kind: "integer", nullable: true, access: "read-only" },
  /** Seconds the import took (a float; the reimport's empty answer says the integer 0). */
  duration: { kind: "float", nullable: false, access: "read-only" },
  file_upload_ids: { kind: "integers", nullable: false, access: "read-only" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** `found_formats`: each file extension read and how many files had it (`{".csv": 2}`); `[]` for a body with no files. */
const foundFormats = { kind: "json", nullable: false, access: "read-only" } as const satisfies FieldSpec;
/** The data keys common to every file read (a set on the server: no order); `[]` for a body with no files. */
const dataColumns = { kind: "strings", nullable: false, access: "read-only" } as const satisfies FieldSpec;

/** `ImportAPI.sync_import` (the community edition imports synchronously and keeps no `ProjectImport`). */
export const importResult = {
  source: "label_studio/data_import/api.py ImportAPI.sync_import",
  routes: ["POST /api/projects/{id}/import", "POST /api/projects/{id}/tasks/bulk/"],
  flex: false,
  fields: {
    ...importCounts,
    /** Whether a file was a CSV, TSV or TXT file (`FileUpload.format_could_be_tasks_list`). */
    could_be_tasks_list: { kind: "boolean", nullable: false, access: "read-only" },
    found_formats: foundFormats,
    data_columns: dataColumns,
    /** With `return_task_ids=true`, when tasks were stored. */
    task_ids: { kind: "integers", nullable: false, access: "read-only", when: { context: "return_task_ids" } },
  },
} as const satisfies Declaration;

/** `ReImportAPI.sync_reimport`: the uploads read again; their earlier tasks are replaced. */
export const reimportResult = {
  source: "label_studio/data_import/api.py ReImportAPI.sync_reimport",
  routes: ["POST /api/projects/{id}/reimport"],
  flex: false,
  fields: { ...importCounts, found_formats: foundFormats, data_columns: dataColumns },
} as const satisfies Declaration;

const IMPORT_STATUSES = ["created", "in_progress", "failed", "completed"] as const;

/**
 * `ProjectImportSerializer`: an asynchronous import's record (Enterprise). A community server never makes one,
 * so `GET /api/projects/{id}/imports/{import_pk}/` answers 404 there (and in the mock) for every id.
 */
export const projectImport = {
  source: "label_studio/projects/serializers.py ProjectImportSerializer",
  routes: ["GET /api/projects/{id}/imports/{import_pk}/"],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    project: { kind: "pk", nullable: true, access: "read-write" },
    preannotated_from_fields: { kind: "json", nullable: true, access: "read-write" },
    commit_to_project: { kind: "boolean", nullable: false, access: "read-write" },
    return_task_ids: { kind: "boolean", nullable: false, access: "read-write" },
    status: { kind: "choice", nullable: false, access: "read-write", choices: IMPORT_STATUSES },
    url: { kind: "string", nullable: true, access: "read-write" },
    error: { kind: "string", nullable: true, access: "read-write" },
    created_at: { kind: "datetime", nullable: true, access: "read-only" },
    updated_at: { kind: "datetime", nullable: true, access: "read-only" },
    finished_at: { kind: "datetime", nullable: true, access: "read-write" },
    task_count: { kind: "integer", nullable: false, access: "read-write" },
    annotation_count: { kind: "integer", nullable: false, access: "read-write" },
    prediction_count: { kind: "integer", nullable: false, access: "read-write" },
    duration: { kind: "integer", nullable: false, access: "read-write" },
    file_upload_ids: { kind: "json", nullable: false, access: "read-write" },
    could_be_tasks_list: { kind: "boolean", nullable: false, access: "read-write" },
    found_formats: { kind: "json", nullable: false, access: "read-write" },
    data_columns: { kind: "json", nullable: false, access: "read-write" },
    tasks: { kind: "json", nullable: true, access: "read-write" },
    task_ids: { kind: "json", nullable: false, access: "read-write" },
  },
} as const satisfies Declaration;

/** `ProjectReimportSerializer`: an asynchronous reimport's record (Enterprise; never made by a community server). */
export const projectReimport = {
  source: "label_studio/projects/serializers.py ProjectReimportSerializer",
  routes: ["GET /api/projects/{id}/reimports/{reimport_pk}/"],
  flex: false,
  fields: {
    ...pick(projectImport.fields, "id", "project", "status", "error", "task_count", "annotation_count", "prediction_count", "duration"),
    file_upload_ids: projectImport.fields.file_upload_ids,
    files_as_tasks_list: { kind: "boolean", nullable: false, access: "read-write" },
    found_formats: projectImport.fields.found_formats,
    data_columns: projectImport.fields.data_columns,
  },
} as const satisfies Declaration;
