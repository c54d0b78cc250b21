import { randomUUID } from "node:crypto";
import type { FileUploadRecord, ProjectRecord } from "../src/contract/records.js";
import { isPlainObject, type JsonValue } from "../src/vocabulary/json.js";
import { PyException, ServerException } from "../src/emulation/exceptions.js";
import { validationFailure } from "../src/emulation/error-answer.js";
import { pyJsonLoads } from "../src/emulation/json-loads.js";
import { streamRead } from "../src/emulation/codecs.js";
import { readCsvRecords } from "../src/emulation/pandas-csv.js";
import type { UploadedFile } from "../src/emulation/multipart.js";
import { pyTruthy, pyType } from "../src/emulation/python-json.js";
import type { MockContext } from "./http.js";
import { dataTypes } from "./label-config.js";

/**
 * Uploaded files (label_studio/data_import/models.py `FileUpload`, uploader.py): how a multipart import keeps
 * its files and how tasks are read from them, for the import, the reimport and the file-upload routes.
 */

/** `settings.SUPPORTED_EXTENSIONS` (core/settings/base.py): what an upload may end with (compared in lower case). */
export const SUPPORTED_EXTENSIONS = [
  ".bmp",
  ".csv",
  ".flac",
  ".gif",
  ".htm",
  ".html",
  ".jpg",
  ".jpeg",
  ".json",
  ".m4a",
  ".mp3",
  ".ogg",
  ".png",
  ".svg",
  ".tsv",
  ".txt",
  ".wav",
  ".xml",
  ".mp4",
  ".webm",
  ".webp",
  ".pdf",
] as const;

/** `settings.DATA_UNDEFINED_NAME`: the data key of a task read from a plain file. */
export const UNDEFINED_KEY = "$undefined$";
/** `settings.TASKS_MAX_NUMBER`. */
const TASKS_MAX_NUMBER = 1_000_000;

/** `os.path.splitext(name)[1]`: the last dot's suffix, none for a name whose only dot leads it. */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 || /^\.+$/.test(base.slice(0, dot + 1)) ? "" : base.slice(dot);
}

/** `os.path.basename`. */
export const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** Django's `get_valid_filename` (the storage's name for a file): spaces to `_`, only word characters, `-` and `.` kept. */
const validFileName = (name: string): string =>
  name
    .trim()
    .replace(/ /g, "_")
    .replace(/[^-\p{L}\p{N}\p{M}_.]/gu, "");

/** `check_extensions` (uploader.py): every file's extension, lower-cased, must be supported. */
function checkExtensions(files: readonly UploadedFile[]): void {
  for (const file of files) {
    const ext = extensionOf(file.name);
    if (!(SUPPORTED_EXTENSIONS as readonly string[]).includes(ext.toLowerCase()))
      throw new ServerException(validationFailure([`${ext} extension is not supported`]));
  }
}

/**
 * `create_file_upload` for each file (uploader.py `load_tasks`): a FileUpload of the project and the caller,
 * stored as `upload/<project>/<8 hex digits>-<name>`. Saved at once: a later failure of the import keeps them.
 */
export function storeUploads(ctx: MockContext, user: number, project: ProjectRecord, files: readonly UploadedFile[]): FileUploadRecord[] {
  checkExtensions(files);
  return files.map((file) => ctx.store.insert("file_uploads", { project: project.id, user, ...fileContent(project.id, file) }));
}

/** The stored name, content and size of an uploaded file (a new name each time, as `upload_name_generator` draws one). */
export function fileContent(project: number, file: UploadedFile): Pick<FileUploadRecord, "file" | "content" | "size"> {
  return {
    file: `upload/${project}/${randomUUID().slice(0, 8)}-${validFileName(file.name)}`,
    content: Buffer.from(file.content).toString("base64"),
    size: file.size,
  };
}

/** `FileUpload.format`: the stored name's extension, as written (`.CSV` is no CSV to the reader). */
export const formatOf = (upload: FileUploadRecord): string => extensionOf(upload.file);

/** `format_could_be_tasks_list`. */
export const couldBeTasksList = (upload: FileUploadRecord): boolean => [".csv", ".tsv", ".txt"].includes(formatOf(upload));

/** `FileUpload.content`: the bytes decoded as UTF-8 (Python's error for bytes that are not). */
const textOf = (upload: FileUploadRecord): string => streamRead(new Uint8Array(Buffer.from(upload.content, "base64")), "utf-8");

/** `FileUpload.url`: MEDIA_URL and the stored name. */
export const urlOf = (upload: FileUploadRecord): string => `/data/${upload.file}`;

/** A task as read from a file, before it names its upload. */
type ReadTask = Record<string, JsonValue>;

/** `str(ValidationError(message))`, as the reader's wrapper prints one it caught. */
const errorDetail = (message: string): string => `[ErrorDetail(string='${message}', code='invalid')]`;

/** `read_tasks_list_from_json`: a dict is one task, a list many; an item whose `data` is falsy is the data itself. */
function tasksFromJson(text: string): ReadTask[] {
  let parsed: unknown;
  try {
    parsed = pyJsonLoads(text);
  } catch {
    // ujson's message for text it cannot decode (the mock does not tell its cases apart).
    throw new PyException("JSONDecodeError", "Expected object or value");
  }
  let list: unknown[];
  if (isPlainObject(parsed)) list = [parsed];
  else if (Array.isArray(parsed)) list = parsed;
  else if (typeof parsed === "string") list = [...parsed];
  else throw new PyException("TypeError", `'${pyType(parsed)}' object is not iterable`);
  return list.map((task) => {
    if (!isPlainObject(task)) throw new PyException("AttributeError", `'${pyType(task)}' object has no attribute 'get'`);
    const item = (pyTruthy(task["data"]) ? task : { data: task }) as ReadTask;
    if (!isPlainObject(item["data"])) throw new PyException("ValidationError", errorDetail("Task item should be dict"));
    return item;
  });
}

/** Python's line boundaries (`str.splitlines`): \n, \r, \r\n, \v, \f, the file/group/record separators, NEL, U+2028, U+2029. */
// eslint-disable-next-line no-control-regex -- the file, group and record separators are line breaks to Python
const LINE_BREAKS = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** `str.splitlines()`: no empty last line for a trailing break. */
const splitLines = (text: string): string[] => {
  const lines = text.split(LINE_BREAKS);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
};

/**
 * `FileUpload.read_tasks`: a CSV, TSV or TXT file as a list of tasks (unless `asList` is false), a JSON file's
 * tasks; any other file is one task, its text (HTML, XML) or its URL under `$undefined$`, which only a config with
 * at most one data key takes. Any failure is a 400 naming the file.
 */
export function readTasks(upload: FileUploadRecord, project: ProjectRecord, asList: boolean): ReadTask[] {
  const format = formatOf(upload);
  try {
    if (format === ".csv" && asList) return readCsvRecords(textOf(upload).replace(/^\uFEFF/, ""), ",").map((data) => ({ data }));
    if (format === ".tsv" && asList) return readCsvRecords(textOf(upload).replace(/^\uFEFF/, ""), "\t").map((data) => ({ data }));
    if (format === ".txt" && asList) return splitLines(textOf(upload)).map((line) => ({ data: { [UNDEFINED_KEY]: line } }));
    if (format === ".json") return tasksFromJson(textOf(upload));
    // `one_object_in_label_config`: at most one data key.
    if (dataTypes(project.label_config).size > 1) {
      throw new PyException(
        "ValidationError",
        errorDetail(
          "Your label config has more than one data key and direct file upload supports only one data key. " +
            "To import data with multiple data keys, use a JSON or CSV file.",
        ),
      );
    }
    if ([".html", ".htm", ".xml"].includes(format)) return [{ data: { [UNDEFINED_KEY]: textOf(upload) } }];
    return [{ data: { [UNDEFINED_KEY]: urlOf(upload) } }];
  } catch (error) {
    const reason = error instanceof PyException ? error.message : String(error);
    throw new ServerException(validationFailure([`Failed to parse input file ${baseName(upload.file)}: ${reason}`]));
  }
}

/** What `load_tasks_from_uploaded_files` returns: the tasks (each naming its upload), the formats counted, the common data keys. */
export interface LoadedUploads {
  readonly tasks: ReadTask[];
  readonly foundFormats: Record<string, number>;
  readonly dataColumns: string[];
}

/** `_old_vs_new_data_keys_inconsistency_message` (data_import/models.py). */
function inconsistency(newKeys: readonly string[], oldKeys: readonly string[], file: string): string {
  const n = newKeys.join(",");
  const o = oldKeys.join(",");
  const prefix = "You're trying to import inconsistent data:\n";
  if (n === o) return "";
  if (n === UNDEFINED_KEY) return `${prefix}uploading a single file ${file} clashes with data key(s) found from other files:\n"${o}"`;
  if (o === UNDEFINED_KEY)
    return `${prefix}uploading tabular data from ${file} with data key(s) ${n}, clashes with other raw binary files (images, audios, etc.)`;
  return `${prefix}uploading tabular data from "${file}" with data key(s) "${n}", clashes with data key(s) found from other files:\n"${o}"`;
}

/**
 * `FileUpload.load_tasks_from_uploaded_files`: the project's uploads (those of `ids` when given and not empty), in id
 * order; each file's tasks name it (`file_upload_id`); the data keys of each file's first task must share one with
 * those before (the keys kept are the common ones). The server keeps the keys in a set: the mock lists them in the
 * order the files first wrote them.
 */
export function loadUploads(ctx: MockContext, project: ProjectRecord, ids: readonly unknown[] | undefined, asList: boolean): LoadedUploads {
  const wanted = ids && ids.length > 0 ? new Set(ids.map((id) => Number(id))) : undefined;
  const uploads = ctx.store.list("file_uploads").filter((u) => u.project === project.id && (!wanted || wanted.has(u.id)));
  const tasks: ReadTask[] = [];
  const formats: Record<string, number> = {};
  let common: string[] = [];
  for (const upload of uploads) {
    const read: ReadTask[] = readTasks(upload, project, asList).map((task) => ({ ...task, file_upload_id: upload.id }));
    const first = read[0]?.["data"];
    const keys = isPlainObject(first) ? Object.keys(first) : [];
    if (common.length === 0) common = keys;
    else if (!keys.some((k) => common.includes(k)))
      throw new ServerException(validationFailure([inconsistency(keys, common, upload.file)]));
    else common = common.filter((k) => keys.includes(k));
    tasks.push(...read);
    const format = formatOf(upload);
    formats[format] = (formats[format] ?? 0) + 1;
  }
  return { tasks, foundFormats: formats, dataColumns: common };
}

/** `check_max_task_number`. */
export function checkTaskNumber(tasks: readonly unknown[]): void {
  if (tasks.length > TASKS_MAX_NUMBER)
    throw new ServerException(validationFailure([`Maximum task number is ${TASKS_MAX_NUMBER}, current task number is ${tasks.length}`]));
}

/** A SET_NULL of the uploads' tasks: they keep their data and lose the file they came from. */
export function unlinkTasks(ctx: MockContext, uploads: ReadonlySet<number>): void {
  for (const task of ctx.store.list("tasks"))
    if (task.file_upload_id !== null && uploads.has(task.file_upload_id))
      ctx.store.update("tasks", task.id, { file_upload_id: null, file_upload: null });
}

/** A replaced file: the tasks that name the upload show its new name. */
export function renameTasksFile(ctx: MockContext, upload: FileUploadRecord): void {
  for (const task of ctx.store.list("tasks"))
    if (task.file_upload_id === upload.id) ctx.store.update("tasks", task.id, { file_upload: upload.file });
}
