import { errorAnswer, pythonFailure, validationFailure } from "../../src/emulation/error-answer.js";
import { PyException } from "../../src/emulation/exceptions.js";
import { loadsKeepingFloats, type PyValue } from "../../src/emulation/py-dumps.js";
import { parsePyInt } from "../../src/emulation/python-text.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import { systemClock } from "../../src/vocabulary/clock.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { timestampFromMs } from "../../src/vocabulary/timestamps.js";
import { newRecordDefaults, storedTable, type Declaration, type FieldSpec } from "../../src/contract/field.js";
import { convertedFormatModel, exportModel, exportOwn } from "../../src/contract/export.js";
import { convertedFormat, exportConvert, exportCreate, exportSnapshot } from "../../src/contract/index.js";
import { render } from "../../src/contract/render.js";
import { drfBoolean, drfMessages } from "../drf/fields.js";
import { HttpProblem, pythonException, SERVER_VERSION, validationError } from "../errors.js";
import { convert } from "../exports/convert/index.js";
import type { PyObject } from "../exports/convert/items.js";
import type { OutDir } from "../exports/convert/out.js";
import { formatList, listedNames } from "../exports/formats.js";
import {
  defaultTitle,
  md5,
  minuteStamp,
  oneStepFile,
  oneStepMd5,
  schemaOf,
  snapshotFile,
  type AnnotationFilter,
  type Serialization,
  type TaskFilter,
} from "../exports/run.js";
import { zipArchive } from "../exports/zip.js";
import { FileBody, noContent, ok, param, type Handler, type MockContext, type MockRequest, type Reply } from "../http.js";
import { presentUserSimple } from "../present/users.js";
import type { ConvertedFormatRecord, ExportRecord } from "../../src/contract/state.js";
import { pathId, projectOr404 } from "./lookup.js";
import { validateWrite, writeInput } from "../drf/serializer.js";
import { randomBytes, randomUUID } from "node:crypto";
import { ServerException } from "../../src/emulation/exceptions.js";

/**
 * The export app's routes (label_studio/data_export/api.py, urls.py): the formats a project's config
 * offers, the one-step export, and snapshots (`Export`) with their conversions and downloads.
 * docs/reference/exports.md states what each answers; docs/exports.md shows them in use.
 */

const nowOf = (ctx: MockContext) => (ctx.clock ?? systemClock).now();

/** `GET /api/projects/{id}/export/formats` (`ExportFormatsListAPI`). */
export const listFormats: Handler = (req, ctx) => ok(formatList(schemaOf(projectOr404(ctx, pathId(req.params)))));

// ------------------------------------------------------------------------------------------------
// The one-step export

/**
 * `ExportParamSerializer` over `request.GET`: booleans as DRF reads them from a form (a missing one
 * is False), `exportType` before the deprecated `export_type` (an empty one counts as absent).
 */
function exportParams(req: MockRequest): { type: string; all: boolean } {
  const errors: Record<string, string[]> = {};
  const bool = (key: string): boolean => {
    const raw = param(req.query, key);
    if (raw === undefined) return false;
    const value = drfBoolean(raw);
    if (value !== undefined) return value;
    errors[key] = [drfMessages.boolean];
    return false;
  };
  const all = bool("download_all_tasks");
  bool("download_resources");
  bool("interpolate_key_frames");
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const text = (key: string) => {
    const raw = param(req.query, key)?.trim();
    return raw === undefined || raw === "" ? undefined : raw;
  };
  return { type: text("exportType") ?? text("export_type") ?? "JSON", all };
}

/** `ids[]` as `Task.objects.filter(id__in=…)` takes them: Python's `int()` of each, a 500 for any other. */
function taskIds(req: MockRequest): number[] {
  const raw = req.query["ids[]"];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw as string];
  return list.map((text) => {
    const n = parsePyInt(text);
    if (n === undefined) throw pythonException("ValueError", `Field 'id' expected a number but got '${text}'.`);
    return n;
  });
}

/** A file answer as Django's FileResponse sends it: the type, `Content-Disposition` and the server's own `filename` header. */
function fileReply(
  bytes: Uint8Array,
  contentType: string,
  disposition: string,
  filename: string,
  status = 200,
  extra: Record<string, string> = {},
): Reply {
  return { status, body: new FileBody(bytes), headers: { ...attachment(contentType, disposition, filename), ...extra } };
}

/** A FileResponse's headers with `as_attachment` (and the `filename` header the export views add). */
const attachment = (contentType: string, disposition: string, filename: string) => ({
  "Content-Type": contentType,
  "Content-Disposition": `attachment; filename="${disposition}"`,
  filename,
});

const utf8 = (text: string) => Buffer.from(text, "utf8");

/** `GET /api/projects/{id}/export` (`ExportAPI.get`, `DataExport.generate_export_file`). */
export const oneStepExport: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const { type, all } = exportParams(req);
  const ids = taskIds(req);
  const now = nowOf(ctx);
  const exported = oneStepFile(ctx, ctx.store.dataset(project), { ids, all, now });
  const name = `project-${project.id}-at-${minuteStamp(now)}-${oneStepMd5(exported.text).slice(0, 8)}`;
  const out = convert(
    type,
    { tasks: () => exported.tasks(), text: () => exported.text, schema: schemaOf(project) },
    { hostname: `${req.origin}/`, now },
  );
  // One entry in the output directory is sent as it is; anything else (nothing too) as a ZIP archive.
  const top = [...out.topFiles(), ...out.topDirs()];
  if (top.length === 1) {
    const file = out.topFiles()[0];
    if (file === undefined) throw pythonException("IndexError", "list index out of range");
    const ext = extension(file);
    return fileReply(utf8(out.text(file) as string), `application/${ext}`, `${name}${ext}`, `${name}${ext}`);
  }
  return fileReply(archive(out, now), "application/zip", `${name}.zip`, `${name}.zip`);
};

/** `os.path.splitext(name)[-1]`: the last extension with its dot. */
function extension(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot) : "";
}

function archive(out: OutDir, now: number): Uint8Array {
  return zipArchive(
    out.entries().map((e) => (e.text === undefined ? { name: e.name } : { name: e.name, bytes: utf8(e.text) })),
    now,
  );
}

// ------------------------------------------------------------------------------------------------
// Snapshots

function presentSnapshot(ctx: MockContext, e: ExportRecord) {
  const author = e.created_by === null ? undefined : ctx.store.find("users", e.created_by);
  return render(exportSnapshot, {
    title: e.title,
    id: e.id,
    created_by: author ? presentUserSimple(author) : null,
    created_at: e.created_at,
    finished_at: e.finished_at,
    status: e.status,
    md5: e.md5,
    counters: e.counters as { [key: string]: JsonValue },
    converted_formats: ctx.store
      .list("converted_formats")
      .filter((c) => c.export === e.id)
      .map((c) => render(convertedFormat, { id: c.id, status: c.status, export_type: c.export_type, traceback: c.traceback })),
  });
}

/** A snapshot of the project in the URL (`get_queryset` filters by it), else 404. */
function snapshotOr404(ctx: MockContext, project: ProjectRecord, id: number): ExportRecord {
  const snapshot = ctx.store.find("exports", id);
  if (!snapshot || snapshot.project !== project.id) throw new HttpProblem(404, "No Export matches the given query.");
  return snapshot;
}

/** `GET /api/projects/{id}/exports/`: the newest 100 snapshots of the project. */
export const listSnapshots: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const rows = ctx.store
    .list("exports")
    .filter((e) => e.project === project.id)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
    .slice(0, 100);
  return ok(rows.map((e) => presentSnapshot(ctx, e)));
};

/** Each field of a nested serializer's validated data its default where the body left it out. */
function withDefaults(decl: Declaration, given: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const values = given as Record<string, unknown>;
  for (const [name, spec] of Object.entries(decl.fields) as [string, FieldSpec][]) {
    if (Object.hasOwn(values, name)) {
      const value = values[name];
      out[name] = spec.kind === "nested" && spec.of && value !== null ? withDefaults(spec.of, value) : value === "None" ? null : value;
    } else if (spec.default !== undefined) out[name] = spec.default;
  }
  return out;
}

const nestedOf = (name: "task_filter_options" | "annotation_filter_options" | "serialization_options") => exportCreate.fields[name].of;

/**
 * `POST /api/projects/{id}/exports/` (`ExportListAPI.perform_create`, `ExportMixin.run_file_exporting`):
 * the body is validated before the project is looked up; the snapshot is written in the request
 * (the community server has no job queue), so the answer is already `completed` (or `failed`).
 */
export const createSnapshot: Handler = (req, ctx) => {
  const written = validateWrite(exportCreate, writeInput(req.body), {
    partial: false,
    strict: ctx.strict,
    store: ctx.store,
    relations: {},
  });
  const project = projectOr404(ctx, pathId(req.params));
  const given = (key: "task_filter_options" | "annotation_filter_options" | "serialization_options") =>
    written[key] === undefined ? null : withDefaults(nestedOf(key), written[key]);
  const task = given("task_filter_options") as TaskFilter | null;
  const annotation = given("annotation_filter_options") as AnnotationFilter | null;
  const serialization = given("serialization_options") as Serialization | null;
  // DRF's `raise_errors_on_nested_writes`: a nested value (a dict or a list; null passes) cannot be saved.
  const nested = (v: unknown) => typeof v === "object" && v !== null;
  if (nested(written.created_by) || nested(written.converted_formats)) {
    throw pythonException(
      "AssertionError",
      "The `.create()` method does not support writable nested fields by default.\n" +
        "Write an explicit `.create()` method for serializer `data_export.serializers.ExportCreateSerializer`, or set `read_only=True` on nested serializer fields.",
    );
  }
  const now = nowOf(ctx);
  const title = typeof written.title === "string" ? written.title : "";
  let snapshot = ctx.store.insert("exports", {
    ...newRecordDefaults(storedTable(exportModel, exportOwn)),
    project: project.id,
    title: title === "" ? defaultTitle(project, now) : title,
    created_at: timestampFromMs(now),
    created_by: req.user.id,
    status: "in_progress",
  });
  try {
    const exported = snapshotFile(ctx, ctx.store.dataset(project), { task, annotation, serialization, now });
    const hash = md5(exported.text);
    snapshot = ctx.store.update("exports", snapshot.id, {
      status: "completed",
      md5: hash,
      counters: { task_number: exported.count },
      file: availableName(ctx, `export/${project.id}/project-${project.id}-at-${minuteStamp(now)}-${hash.slice(0, 8)}.json`),
      content: exported.text,
      finished_at: timestampFromMs(now),
    });
  } catch {
    snapshot = ctx.store.update("exports", snapshot.id, { status: "failed", finished_at: timestampFromMs(now) });
  }
  return ok(
    {
      ...presentSnapshot(ctx, snapshot),
      task_filter_options: null,
      annotation_filter_options: null,
      serialization_options: null,
    },
    201,
  );
};

/** Django storage's `get_available_name`: a name in use gets `_` and seven random letters before its extension. */
function availableName(ctx: MockContext, name: string): string {
  const taken = new Set(ctx.store.list("exports").map((e) => e.file));
  if (!taken.has(name)) return name;
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (;;) {
    const suffix = [...randomBytes(7)].map((b) => letters[b % letters.length]).join("");
    const candidate = name.replace(/\.json$/, `_${suffix}.json`);
    if (!taken.has(candidate)) return candidate;
  }
}

const snapshotOf = (req: MockRequest, ctx: MockContext) =>
  snapshotOr404(ctx, projectOr404(ctx, pathId(req.params)), pathId(req.params, "export_pk"));

/** `GET /api/projects/{id}/exports/{export_pk}`. */
export const getSnapshot: Handler = (req, ctx) => ok(presentSnapshot(ctx, snapshotOf(req, ctx)));

/** `DELETE /api/projects/{id}/exports/{export_pk}`: the snapshot and its conversions. */
export const deleteSnapshot: Handler = (req, ctx) => {
  const snapshot = snapshotOf(req, ctx);
  ctx.store.removeWhere("converted_formats", (c) => c.export === snapshot.id);
  ctx.store.removeWhere("exports", (e) => e.id === snapshot.id);
  return noContent();
};

/**
 * `Export.convert_file`: the snapshot's file converted. Nothing written is None; one file (and no
 * directory) is that file named after the snapshot's; anything else is a ZIP archive.
 */
function convertSnapshot(ctx: MockContext, snapshot: ExportRecord, type: string, hostname: string | undefined, now: number) {
  const project = ctx.store.find("projects", snapshot.project) as ProjectRecord;
  const content = snapshot.content ?? "[]";
  let tasks: PyObject[] | undefined;
  const read = () => (tasks ??= loadsKeepingFloats(content) as PyValue[] as PyObject[]);
  const out = convert(type, { tasks: read, text: () => content, schema: schemaOf(project) }, { hostname, now });
  const files = out.topFiles();
  const dirs = out.topDirs();
  const stem = (snapshot.file ?? "").slice((snapshot.file ?? "").lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  if (files.length === 0 && dirs.length === 0) return undefined;
  if (files.length === 1 && dirs.length === 0) {
    const file = files[0] as string;
    return { name: `${stem}${extension(file)}`, bytes: utf8(out.text(file) as string) };
  }
  return { name: `${stem}.zip`, bytes: archive(out, now) };
}

/**
 * `GET /api/projects/{id}/exports/{export_pk}/download` (`ExportDownloadAPI.get`; with the
 * community's flags the conversion happens here, on every download). A `Range` header is served as
 * `RangedFileResponse` serves it.
 */
export const downloadSnapshot: Handler = (req, ctx) => {
  const snapshot = snapshotOf(req, ctx);
  if (snapshot.status !== "completed") throw new HttpProblem(404, "Export is not completed");
  const type = param(req.query, "exportType");
  let file: { name: string; bytes: Uint8Array } | undefined;
  if (type === undefined) file = { name: snapshot.file ?? "", bytes: utf8(snapshot.content ?? "") };
  else file = convertSnapshot(ctx, snapshot, type, undefined, nowOf(ctx));
  if (!file) throw new HttpProblem(404, "Can't get file");
  const ext = file.name.split(".").at(-1) as string;
  return ranged(req, file.bytes, attachment(`application/${ext}`, file.name, file.name));
};

/**
 * `RangedFileResponse` over a file's bytes and headers: one satisfiable `bytes=` range is a 206; an unsatisfiable one
 * a 416 with the whole file. Also the uploaded files' download (routes/file-uploads.ts).
 */
export function ranged(req: MockRequest, bytes: Uint8Array, headers: Readonly<Record<string, string>>): Reply {
  const reply = (body: Uint8Array, status = 200, extra: Record<string, string> = {}): Reply => ({
    status,
    body: new FileBody(body),
    headers: { ...headers, ...extra },
  });
  const raw = req.headers["range"];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header === undefined) return reply(bytes);
  const size = bytes.length;
  const extra: Record<string, string> = { "Accept-Ranges": "bytes" };
  const ranges = parseRanges(header, size);
  if (ranges?.length === 1) {
    const [start, stop0] = ranges[0] as [number, number];
    if (start >= size) return reply(bytes, 416, extra);
    const stop = Math.min(stop0, size);
    return reply(bytes.subarray(start, stop), 206, { ...extra, "Content-Range": `bytes ${start}-${stop - 1}/${size}` });
  }
  return reply(bytes, 200, extra);
}

/** `RangedFileReader.parse_range_header`; undefined where it returns None or raises. */
function parseRanges(header: string, size: number): [number, number][] | undefined {
  const eq = header.indexOf("=");
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== "bytes") return undefined;
  const out: [number, number][] = [];
  for (const part of header.slice(eq + 1).split(",")) {
    const val = part.trim();
    if (!val.includes("-")) return undefined;
    if (val.startsWith("-")) {
      const n = parsePyInt(val);
      if (n === undefined) return undefined;
      out.push([Math.max(0, size + n), size]);
      continue;
    }
    const [a = "", b = ""] = [val.slice(0, val.indexOf("-")), val.slice(val.indexOf("-") + 1)];
    const start = parsePyInt(a);
    const end = b === "" ? size : parsePyInt(b);
    if (start === undefined || end === undefined) return undefined;
    const stop = b === "" ? size : end + 1;
    if (start >= stop) return undefined;
    out.push([start, stop]);
  }
  return out;
}

/**
 * `POST /api/projects/{id}/exports/{export_pk}/convert` (`ExportConvertAPI.post`): the snapshot is
 * looked up by its id alone (any project's), the format must be one the formats list names
 * (disabled or not), and a second conversion to a format is refused. The conversion runs in the
 * request; when it writes nothing, the server's failure handler is called with the wrong arguments
 * and the answer is a 500 that leaves the conversion `in_progress` (outside any transaction).
 */
export const convertSnapshotRoute: Handler = (req, ctx) => {
  const snapshot = ctx.store.find("exports", pathId(req.params, "export_pk"));
  if (!snapshot) throw new HttpProblem(404, "No Export matches the given query.");
  const body = validateWrite(exportConvert, writeInput(req.body), { partial: false, strict: ctx.strict, store: ctx.store, relations: {} });
  const type = body.export_type as string;
  if (!listedNames().has(type)) throw validationError({ export_type: [`${type} is not supported export format`] });
  if (ctx.store.list("converted_formats").some((c) => c.export === snapshot.id && c.export_type === type)) {
    throw new ServerException(validationFailure([`Conversion to ${type} already started`]));
  }
  const now = nowOf(ctx);
  let converted: ConvertedFormatRecord = ctx.store.insert("converted_formats", {
    ...newRecordDefaults(convertedFormatModel),
    export: snapshot.id,
    export_type: type,
    status: "in_progress",
    created_at: timestampFromMs(now),
  });
  let file: ReturnType<typeof convertSnapshot>;
  try {
    file = convertSnapshot(ctx, snapshot, type, `${req.origin}/`, now);
  } catch {
    file = undefined;
  }
  if (!file) {
    const answer = errorAnswer(
      pythonFailure("TypeError", "set_convert_background_failure() missing 1 required positional argument: 'traceback_obj'"),
      { id: randomUUID(), version: SERVER_VERSION },
    );
    return { status: answer.status, body: answer.body, headers: answer.headers, commit: true };
  }
  converted = ctx.store.update("converted_formats", converted.id, { status: "completed" });
  return ok({ export_type: type, converted_format: converted.id });
};

/** `GET` on the conversion route: `RetrieveAPIView.get` without a serializer class. */
export const convertGet: Handler = () => {
  throw new PyException(
    "AssertionError",
    "'ExportConvertAPI' should either include a `serializer_class` attribute, or override the `get_serializer_class()` method.",
  );
};
