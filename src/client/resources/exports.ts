import { describeValue } from "../../vocabulary/json.js";
import { isExportType } from "../../vocabulary/export-formats.js";
import { ClientConfigError } from "../errors.js";
import type { RequestOptions } from "../options.js";
import { arrayOf, number, object, record, string } from "../shape.js";
import type { Send, Streamed } from "../transport.js";
import type {
  ExportConvert,
  ExportConverted,
  ExportCreate,
  ExportDownloadParams,
  ExportDownloadSyncParams,
  ExportFile,
  ExportFormatInfo,
  ExportSnapshot,
  ExportSnapshotCreated,
} from "../types.js";
import { checkId, checkObject } from "./common.js";

/**
 * Exports and snapshots of one project's tasks, in the shape of the official SDK's
 * `client.projects.exports` (`list_formats`, `download_sync`, `list`, `create`, `get`, `delete`,
 * `convert`, `download`), camelCased, the project id first. Downloads are streams
 * (docs/exports.md).
 */
export interface ExportsResource {
  /** `GET /api/projects/{id}/export/formats`: every format, the ones the label config cannot produce `disabled`. */
  listFormats(id: number, options?: RequestOptions): Promise<ExportFormatInfo[]>;
  /**
   * The one-step export `GET /api/projects/{id}/export`: the file in one request (only tasks with
   * an annotation unless `download_all_tasks`). The SDK sends `ids` as `ids=…`, a key the server
   * does not read; this client sends `ids[]`, which it does.
   */
  downloadSync(id: number, params?: ExportDownloadSyncParams, options?: RequestOptions): Promise<ExportFile>;
  /** `GET /api/projects/{id}/exports/`: the project's newest 100 snapshots, newest first. */
  list(id: number, options?: RequestOptions): Promise<ExportSnapshot[]>;
  /** `POST /api/projects/{id}/exports/`: a new snapshot (the community server writes it before answering). */
  create(id: number, body?: ExportCreate, options?: RequestOptions): Promise<ExportSnapshotCreated>;
  /** `GET /api/projects/{id}/exports/{export_pk}`. */
  get(id: number, exportPk: number, options?: RequestOptions): Promise<ExportSnapshot>;
  /** `DELETE /api/projects/{id}/exports/{export_pk}`. */
  delete(id: number, exportPk: number, options?: RequestOptions): Promise<void>;
  /** `POST /api/projects/{id}/exports/{export_pk}/convert`: once per format and snapshot. */
  convert(id: number, exportPk: number, body: ExportConvert, options?: RequestOptions): Promise<ExportConverted>;
  /** `GET /api/projects/{id}/exports/{export_pk}/download`: the snapshot's file, converted to `export_type` when given. */
  download(id: number, exportPk: number, params?: ExportDownloadParams, options?: RequestOptions): Promise<ExportFile>;
}

const snapshot = record<ExportSnapshot>({ status: string, counters: object() });
const created = record<ExportSnapshotCreated>({ status: string });
const converted = object<ExportConverted>({ converted_format: number, export_type: string });
const format = object<ExportFormatInfo>({ name: string, title: string });

/** A format name: one the converter knows (the server answers any other with a 500). */
function checkType(field: string, value: unknown): string {
  if (!isExportType(value))
    throw new ClientConfigError(field, "an export format such as JSON, CSV or COCO (see exportTypes)", describeValue(value));
  return value;
}

/** `Content-Disposition`'s quoted file name (the server writes `attachment; filename="…"`). */
function filenameOf(headers: Headers): string {
  const disposition = headers.get("content-disposition") ?? "";
  const quoted = /filename="((?:[^"\\]|\\.)*)"/.exec(disposition);
  if (quoted) return (quoted[1] as string).replace(/\\(.)/g, "$1");
  return /filename=([^;]+)/.exec(disposition)?.[1]?.trim() ?? headers.get("filename") ?? "";
}

/** The streamed answer as an `ExportFile` (its body readable once). */
export function exportFile(answer: Streamed, fallbackName = ""): ExportFile {
  const length = answer.headers.get("content-length");
  let used = false;
  const take = (): ReadableStream<Uint8Array> => {
    if (used) throw new TypeError("the export's body was already read");
    used = true;
    return answer.body;
  };
  const bytes = async () => new Uint8Array(await new Response(take()).arrayBuffer());
  return {
    filename: filenameOf(answer.headers) || fallbackName,
    contentType: answer.headers.get("content-type") ?? "",
    size: length === null ? undefined : Number(length),
    get stream() {
      return take();
    },
    bytes,
    text: async () => new TextDecoder().decode(await bytes()),
    json: async () => JSON.parse(new TextDecoder().decode(await bytes())) as unknown,
    async *[Symbol.asyncIterator]() {
      const reader = take().getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
}

/** A file already read (what `.export()` returns once it has removed the snapshot it downloaded). */
export function fileFromBytes(bytes: Uint8Array, filename: string, contentType: string): ExportFile {
  const headers = new Headers({
    "content-type": contentType,
    "content-length": String(bytes.length),
    "content-disposition": `attachment; filename="${filename.replace(/["\\]/g, "\\$&")}"`,
  });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return exportFile({ status: 200, headers, body });
}

export function exportsResource(send: Send): ExportsResource {
  const base = (id: number) => `/api/projects/${checkId("id", id)}`;
  const one = (id: number, exportPk: number) => `${base(id)}/exports/${checkId("exportPk", exportPk)}`;
  return Object.freeze({
    async listFormats(id: number, options?: RequestOptions) {
      return send({ method: "GET", path: `${base(id)}/export/formats`, expect: arrayOf(format) }, options);
    },
    async downloadSync(id: number, params: ExportDownloadSyncParams = {}, options?: RequestOptions) {
      checkObject("params", params);
      const path = `${base(id)}/export`;
      const ids = params.ids?.map((task, i) => checkId(`params.ids[${i}]`, task));
      const query = {
        exportType: params.export_type === undefined ? undefined : checkType("params.export_type", params.export_type),
        download_all_tasks: params.download_all_tasks,
        download_resources: params.download_resources,
        "ids[]": ids,
      };
      return exportFile(await send.stream({ method: "GET", path, query }, options));
    },
    async list(id: number, options?: RequestOptions) {
      return send({ method: "GET", path: `${base(id)}/exports/`, expect: arrayOf(snapshot) }, options);
    },
    async create(id: number, body: ExportCreate = {}, options?: RequestOptions) {
      checkObject("body", body);
      return send({ method: "POST", path: `${base(id)}/exports/`, body, expect: created }, options);
    },
    async get(id: number, exportPk: number, options?: RequestOptions) {
      return send({ method: "GET", path: one(id, exportPk), expect: snapshot }, options);
    },
    async delete(id: number, exportPk: number, options?: RequestOptions) {
      await send({ method: "DELETE", path: one(id, exportPk) }, options);
    },
    async convert(id: number, exportPk: number, body: ExportConvert, options?: RequestOptions) {
      checkObject("body", body);
      const payload = { ...body, export_type: checkType("body.export_type", body.export_type) };
      return send({ method: "POST", path: `${one(id, exportPk)}/convert`, body: payload, expect: converted }, options);
    },
    async download(id: number, exportPk: number, params: ExportDownloadParams = {}, options?: RequestOptions) {
      checkObject("params", params);
      const query = { exportType: params.export_type === undefined ? undefined : checkType("params.export_type", params.export_type) };
      return exportFile(await send.stream({ method: "GET", path: `${one(id, exportPk)}/download`, query }, options));
    },
  });
}
