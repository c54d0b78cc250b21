import { describeValue } from "../../vocabulary/json.js";
import { ClientConfigError } from "../errors.js";
import type { RequestOptions } from "../options.js";
import { arrayOf, number, object, record, string } from "../shape.js";
import type { Send } from "../transport.js";
import type { ExportFile, FileUpload, FileUploadListParams, FileUploadsDeleted, UploadSource } from "../types.js";
import { exportFile } from "./exports.js";
import { checkId, checkObject } from "./common.js";

/**
 * Uploaded files, in the official SDK's shape (`client.files`): the files a multipart import kept
 * (`client.projects.importFiles`). Their tasks stay when an upload is deleted (they lose the link).
 */
export interface FilesResource {
  /**
   * `GET /api/projects/{project}/file-uploads`: the caller's uploads of the project, those `ids` names, or all of
   * them with `all: true`. Without either the server lists none.
   */
  list(project: number, params?: FileUploadListParams, options?: RequestOptions): Promise<FileUpload[]>;
  /** One upload, whoever made it: `GET /api/import/file-upload/{id}`. */
  get(id: number, options?: RequestOptions): Promise<FileUpload>;
  /** Replace the upload's file (a new stored name; its tasks keep their data): `PATCH /api/import/file-upload/{id}`. */
  update(id: number, file: UploadSource, options?: RequestOptions): Promise<FileUpload>;
  /** `DELETE /api/import/file-upload/{id}`. */
  delete(id: number, options?: RequestOptions): Promise<void>;
  /**
   * The file's bytes: `GET /data/upload/<path>` (not an `/api/` route), for an upload's `file` (`upload/1/…-a.csv`) or
   * the path after `upload/`. A stream, readable once (`bytes()`, `text()`, `json()` or `for await`).
   */
  download(file: string, options?: RequestOptions): Promise<ExportFile>;
  /** `DELETE /api/projects/{project}/file-uploads`: those of `ids`, or every upload of the project (anyone's) without it. */
  deleteMany(project: number, ids?: readonly number[], options?: RequestOptions): Promise<FileUploadsDeleted>;
}

const fileUpload = record<FileUpload>({ id: number, file: string });

/** A multipart body of files, each under `field` (the server takes each field's last file: one field per file). */
export function uploadForm(files: readonly UploadSource[], field: (i: number) => string): FormData {
  const form = new FormData();
  for (const [i, file] of files.entries()) {
    if (typeof file !== "object" || file === null || typeof file.name !== "string" || file.name === "")
      throw new ClientConfigError(`files[${i}].name`, "a file name with its extension", describeValue(file?.name));
    const { content } = file;
    const blob =
      content instanceof Blob
        ? content
        : typeof content === "string"
          ? new Blob([content])
          : content instanceof Uint8Array
            ? new Blob([new Uint8Array(content)])
            : undefined;
    if (blob === undefined) throw new ClientConfigError(`files[${i}].content`, "a string, Uint8Array or Blob", describeValue(content));
    form.append(field(i), blob, file.name);
  }
  return form;
}

export function filesResource(send: Send): FilesResource {
  const at = (id: number) => `/api/import/file-upload/${checkId("id", id)}`;
  const ofProject = (project: number) => `/api/projects/${checkId("project", project)}/file-uploads`;
  return Object.freeze({
    async list(project: number, params: FileUploadListParams = {}, options?: RequestOptions) {
      checkObject("params", params);
      if (params.ids !== undefined && !(Array.isArray(params.ids) && params.ids.every((id, i) => checkId(`params.ids[${i}]`, id))))
        throw new ClientConfigError("params.ids", "an array of upload ids", describeValue(params.ids));
      // The server reads `ids` as one JSON list (`json.loads`): repeated keys would be a 500.
      const query = {
        ...(params.all === undefined ? {} : { all: params.all }),
        ...(params.ids === undefined ? {} : { ids: JSON.stringify(params.ids) }),
      };
      return send({ method: "GET", path: ofProject(project), query, expect: arrayOf(fileUpload) }, options);
    },
    async get(id: number, options?: RequestOptions) {
      return send({ method: "GET", path: at(id), expect: fileUpload }, options);
    },
    async update(id: number, file: UploadSource, options?: RequestOptions) {
      const path = at(id);
      return send({ method: "PATCH", path, body: uploadForm([file], () => "file"), expect: fileUpload }, options);
    },
    async delete(id: number, options?: RequestOptions) {
      return send<void>({ method: "DELETE", path: at(id) }, options);
    },
    async download(file: string, options?: RequestOptions) {
      const stored = typeof file === "string" ? file.replace(/^upload\//, "") : "";
      if (stored === "") throw new ClientConfigError("file", "an upload's stored name, e.g. upload/1/0a1b2c3d-a.csv", describeValue(file));
      const path = `/data/upload/${stored.split("/").map(encodeURIComponent).join("/")}`;
      return exportFile(await send.stream({ method: "GET", path }, options), file.slice(file.lastIndexOf("/") + 1));
    },
    async deleteMany(project: number, ids?: readonly number[], options?: RequestOptions) {
      const path = ofProject(project);
      if (ids !== undefined && !(Array.isArray(ids) && ids.every((id, i) => checkId(`ids[${i}]`, id))))
        throw new ClientConfigError("ids", "an array of upload ids", describeValue(ids));
      const body = ids === undefined ? {} : { file_upload_ids: ids };
      return send({ method: "DELETE", path, body, expect: object<FileUploadsDeleted>({ deleted: number }) }, options);
    },
  });
}
