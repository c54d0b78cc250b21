import { isPlainObject } from "../../src/vocabulary/json.js";
import { fileUpload } from "../../src/contract/file-upload.js";
import type { FileUploadRecord } from "../../src/contract/records.js";
import { isUploadedFile } from "../../src/emulation/multipart.js";
import { pyJsonLoads } from "../../src/emulation/json-loads.js";
import { QueryDict } from "../../src/emulation/query-dict.js";
import { pyTruthy, pyType } from "../../src/emulation/python-json.js";
import { ServerException } from "../../src/emulation/exceptions.js";
import { validationFailure } from "../../src/emulation/error-answer.js";
import { notFound, pythonException } from "../errors.js";
import { boolFromData, boolFromQuery, noContent, ok, param, type Handler, type MockRequest } from "../http.js";
import { extensionOf, fileContent, loadUploads, renameTasksFile, unlinkTasks } from "../uploads.js";
import { saveTasks } from "./import.js";
import { pathId, projectOr404 } from "./lookup.js";
import { updateTasksStates } from "../overlap.js";
import { ranged } from "./exports.js";

/**
 * The uploaded files' routes (label_studio/data_import/api.py `FileUploadAPI`, `FileUploadListAPI`, `ReImportAPI`)
 * and the import records' (projects/api.py `ProjectImportAPI`, `ProjectReimportAPI`). docs/reference/imports.md.
 */

/** `FileUploadSerializer`: the declared fields (`fileUpload`, src/contract/file-upload.ts) of a stored upload. */
export const presentFileUpload = (u: FileUploadRecord) => {
  const fields: Record<keyof typeof fileUpload.fields, unknown> = { id: u.id, file: u.file, size: u.size };
  return fields;
};

/** `FileUploadAPI.get_object`: any upload by id, whoever asks (the view checks authentication only). */
function uploadOr404(req: MockRequest, ctxStore: { find: (c: "file_uploads", id: number) => FileUploadRecord | undefined }) {
  const upload = ctxStore.find("file_uploads", pathId(req.params));
  if (!upload) throw notFound("FileUpload");
  return upload;
}

export const getFileUpload: Handler = (req, ctx) => ok(presentFileUpload(uploadOr404(req, ctx.store)));

/**
 * `PATCH`/`PUT /api/import/file-upload/{id}`: `file` (a FileField) replaces the stored file under a new name; the
 * tasks read from it keep their data and show the new name. PUT requires it; a value that is no uploaded file is
 * DRF's `invalid`.
 */
export const updateFileUpload: Handler = (req, ctx) => {
  const upload = uploadOr404(req, ctx.store);
  const body = req.body;
  const has = body instanceof QueryDict ? body.has("file") : isPlainObject(body) && Object.hasOwn(body, "file");
  const given = body instanceof QueryDict ? body.get("file") : isPlainObject(body) ? body["file"] : undefined;
  const refuse = (message: string) => new ServerException(validationFailure({ file: [message] }));
  if (!has) {
    if (req.method === "PUT") throw refuse("No file was submitted.");
    return ok(presentFileUpload(upload));
  }
  if (given === null) throw refuse("This field may not be null.");
  if (!isUploadedFile(given)) throw refuse("The submitted data was not a file. Check the encoding type on the form.");
  if (given.name === "") throw refuse("No filename could be determined.");
  // The model's FileField has max_length 100 (DRF checks the uploaded name).
  if (given.name.length > 100) throw refuse(`Ensure this filename has at most 100 characters (it has ${given.name.length}).`);
  if (given.size === 0) throw refuse("The submitted file is empty.");
  const next = ctx.store.update("file_uploads", upload.id, fileContent(upload.project, given));
  renameTasksFile(ctx, next);
  return ok(presentFileUpload(next));
};

/** `DELETE /api/import/file-upload/{id}`: the upload goes; its tasks stay, with no upload (SET_NULL). */
export const deleteFileUpload: Handler = (req, ctx) => {
  const upload = uploadOr404(req, ctx.store);
  ctx.store.removeWhere("file_uploads", (u) => u.id === upload.id);
  unlinkTasks(ctx, new Set([upload.id]));
  return noContent();
};

/**
 * Django's `id__in` over a decoded value: Python iterates it (a dict's keys, a text's characters; a number is a
 * TypeError), and each item must be an integer or a text of one (else the field's ValueError).
 */
function idsOf(value: unknown): number[] {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (isPlainObject(value)) items = Object.keys(value);
  else if (typeof value === "string") items = [...value];
  else throw pythonException("TypeError", `'${pyType(value)}' object is not iterable`);
  return items.map((item) => {
    if (typeof item === "number" && Number.isFinite(item)) return Math.trunc(item);
    if (typeof item === "boolean") return item ? 1 : 0;
    if (typeof item === "string" && /^\s*[+-]?\d+\s*$/.test(item)) return Number(item);
    const shown = typeof item === "string" ? `'${item}'` : JSON.stringify(item);
    throw pythonException("ValueError", `Field 'id' expected a number but got ${shown}.`);
  });
}

/**
 * `GET /api/projects/{id}/file-uploads` (`FileUploadListAPI.get_queryset`): the caller's own uploads of the project,
 * all of them with `all=true` (or for a draft project), else those `ids` names (a JSON list, `[]` by default). Not
 * paginated.
 */
export const listFileUploads: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const mine = ctx.store.list("file_uploads").filter((u) => u.project === project.id && u.user === req.user.id);
  if (project.is_draft === true || boolFromQuery(req.query, "all", false)) return ok(mine.map(presentFileUpload));
  const ids = new Set(idsOf(pyJsonLoads(param(req.query, "ids") ?? "[]")));
  return ok(mine.filter((u) => ids.has(u.id)).map(presentFileUpload));
};

/**
 * `DELETE /api/projects/{id}/file-uploads`: the project's uploads that `file_upload_ids` names (every user's), all
 * of them without the key; anything but a list is the view's ValueError (a 500). Tasks stay (SET_NULL).
 */
export const deleteFileUploads: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const body = req.body;
  if (!isPlainObject(body) && !(body instanceof QueryDict))
    throw pythonException("AttributeError", `'${pyType(body)}' object has no attribute 'get'`);
  const given = body instanceof QueryDict ? body.get("file_upload_ids") : body["file_upload_ids"];
  let wanted: Set<number> | undefined;
  if (given === undefined || given === null) wanted = undefined;
  else if (Array.isArray(given)) wanted = new Set(idsOf(given));
  else throw pythonException("ValueError", '"file_upload_ids" parameter must be a list of integers');
  const removed = ctx.store.removeWhere("file_uploads", (u) => u.project === project.id && (!wanted || wanted.has(u.id)));
  unlinkTasks(ctx, new Set(removed.map((u) => u.id)));
  return ok({ deleted: removed.length });
};

/**
 * `POST /api/projects/{id}/reimport` (`ReImportAPI.create`, community: `sync_reimport`): the uploads named by
 * `file_upload_ids` read again (`files_as_tasks_list`, default true: a CSV, TSV or TXT file as many tasks), the
 * tasks they made before deleted and the new ones stored, in one transaction. No ids: a 200 of zeros.
 */
export const reimport: Handler = (req, ctx) => {
  const started = Date.now();
  const body = req.body;
  // `request.data.get(...)`: a JSON body that is no object has no `get`.
  if (!isPlainObject(body) && !(body instanceof QueryDict))
    throw pythonException("AttributeError", `'${pyType(body)}' object has no attribute 'get'`);
  const asList = boolFromData(body, "files_as_tasks_list", true);
  const ids = body instanceof QueryDict ? body.get("file_upload_ids") : isPlainObject(body) ? body["file_upload_ids"] : undefined;
  const project = projectOr404(ctx, pathId(req.params));
  // `if not file_upload_ids`: Python's truthiness.
  if (!pyTruthy(ids)) {
    return ok({
      task_count: 0,
      annotation_count: 0,
      prediction_count: 0,
      duration: 0,
      file_upload_ids: [],
      found_formats: {},
      data_columns: [],
    });
  }
  const list = idsOf(ids);
  const loaded = loadUploads(ctx, project, list, asList);
  // `remove_tasks_by_file_uploads`, then `_save`, in one transaction (a failure keeps the old tasks).
  const wanted = new Set(list);
  const old = ctx.store.list("tasks").filter((t) => t.project === project.id && t.file_upload_id !== null && wanted.has(t.file_upload_id));
  ctx.store.deleteTasks(new Set(old.map((t) => t.id)));
  if (old.length > 0) updateTasksStates(ctx.store, project, false, false, true);
  const saved = saveTasks(req, ctx, project, loaded.tasks);
  if ("failure" in saved) return saved.failure;
  return ok(
    {
      task_count: saved.taskIds.length,
      annotation_count: saved.annotationCount,
      prediction_count: saved.predictionCount,
      duration: (Date.now() - started) / 1000,
      file_upload_ids: ids,
      found_formats: loaded.foundFormats,
      data_columns: loaded.dataColumns,
    },
    201,
  );
};

/** `GET /api/projects/{id}/imports/{import_pk}/`: a community server keeps no import records; any id is a 404 (the project is not looked at). */
export const getImport: Handler = () => {
  throw notFound("ProjectImport");
};

/** `GET /api/projects/{id}/reimports/{reimport_pk}/`: as `getImport`, for the reimport records. */
export const getReimport: Handler = () => {
  throw notFound("ProjectReimport");
};

/** Python's `mimetypes.guess_type` for the extensions an upload may have (measured on the server); else octet-stream. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  ".bmp": "image/bmp",
  ".csv": "text/csv",
  ".flac": "audio/flac",
  ".gif": "image/gif",
  ".htm": "text/html",
  ".html": "text/html",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".json": "application/json",
  ".m4a": "audio/mp4",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".tsv": "text/tab-separated-values",
  ".txt": "text/plain",
  ".wav": "audio/x-wav",
  ".xml": "application/xml",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
};

/**
 * `GET /data/upload/<path>` (`UploadedFileResponse`, the SDK's `files.download`): the file's bytes with its media type,
 * in the CSP sandbox, a `Range` served. The last upload stored under that name; none is the view's AttributeError (a
 * 500: it asks the missing record for its permission).
 */
export const downloadUpload: Handler = (req, ctx) => {
  const name = `upload/${req.params["filename"] ?? ""}`;
  const upload = ctx.store.list("file_uploads").findLast((u) => u.file === name);
  if (!upload) throw pythonException("AttributeError", "'NoneType' object has no attribute 'has_permission'");
  const bytes = new Uint8Array(Buffer.from(upload.content, "base64"));
  const extension = extensionOf(name).toLowerCase();
  const type = Object.hasOwn(MEDIA_TYPES, extension) ? MEDIA_TYPES[extension] : undefined;
  return ranged(req, bytes, { "Content-Type": type ?? "application/octet-stream", "Content-Security-Policy": "sandbox" });
};
