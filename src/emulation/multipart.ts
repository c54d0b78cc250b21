import { decodeReplace, type CodecName } from "./codecs.js";
import { PyException } from "./exceptions.js";
import { parseHeaderParameters } from "./media-type.js";
import { pyStrip } from "./python-text.js";
import { DATA_UPLOAD_MAX_NUMBER_FIELDS, QueryDict, tooManyFields } from "./query-dict.js";

/**
 * Django's `MultiPartParser` (`django/http/multipartparser.py`) as DRF's MultiPartParser drives it: the form
 * fields and the uploaded files of a `multipart/form-data` body. DRF then merges both into `request.data`.
 * Its errors are `MultiPartParserError`s, which DRF reports as a 400 `Multipart form parse error - …`.
 */

/** An uploaded file as the mock keeps it (Django's `UploadedFile`: name, content type, size, content). */
export interface UploadedFile {
  readonly kind: "file";
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  readonly content: Uint8Array;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "file";
}

/** Django's `MultiPartParserError`. */
export class MultiPartParserError extends PyException {
  constructor(message: string) {
    super("MultiPartParserError", message);
  }
}

/** `settings.DATA_UPLOAD_MAX_NUMBER_FILES` (Label Studio: 100). */
export const DATA_UPLOAD_MAX_NUMBER_FILES = 100;
const MAX_TOTAL_HEADER_SIZE = 1024;
const BOUNDARY = /^[ -~]{0,200}[!-~]$/;

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  outer: for (
    let i = haystack.indexOf(first as number, from);
    i >= 0 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first as number, i + 1)
  ) {
    for (let k = 1; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

const latin1 = (bytes: Uint8Array) => decodeReplace(bytes, "latin-1");
const CRLF2 = Uint8Array.from([13, 10, 13, 10]);

/** `sanitize_file_name`: the last path component, HTML entities unescaped, nothing but a name. */
function sanitizeFileName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
  return base === "." || base === ".." ? "" : base;
}

/**
 * The parts between boundaries (`BoundaryIter`): each ends where `--boundary` starts, less one preceding
 * LF and one CR; the text before the first boundary is a part too (usually empty).
 */
function parts(body: Uint8Array, separator: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (;;) {
    const at = indexOf(body, separator, start);
    if (at < 0) {
      out.push(body.subarray(start));
      return out;
    }
    let end = at;
    if (end > start && body[end - 1] === 10) end--;
    if (end > start && body[end - 1] === 13) end--;
    out.push(body.subarray(start, end));
    start = at + separator.length;
  }
}

/** `MultiPartParser(META, stream, handlers, encoding).parse()` with Django's field and file limits. */
export function parseMultipart(contentType: string, body: Uint8Array, codec: CodecName, maxMemorySize: number): QueryDict {
  if (!contentType.startsWith("multipart/")) throw new MultiPartParserError(`Invalid Content-Type: ${contentType}`);
  // eslint-disable-next-line no-control-regex -- the ASCII range, as Python's str.isascii()
  if (/[^\x00-\x7f]/.test(contentType)) throw new MultiPartParserError(`Invalid non-ASCII Content-Type in multipart: ${contentType}`);
  const boundary = parseHeaderParameters(contentType).params["boundary"];
  if (!boundary || !BOUNDARY.test(boundary)) throw new MultiPartParserError(`Invalid boundary in multipart: ${boundary ?? "None"}`);
  const data = new QueryDict();
  const separator = Uint8Array.from(`--${boundary}`, (c) => c.charCodeAt(0));
  let fields = 0;
  let files = 0;
  let bytesRead = 0;
  const uploads: [string, UploadedFile][] = [];
  for (const part of parts(body, separator)) {
    // parse_boundary_stream: the headers must end within the first 1024 bytes; a part without headers is RAW.
    const headerEnd = indexOf(part.subarray(0, MAX_TOTAL_HEADER_SIZE), CRLF2, 0);
    const kind = headerEnd < 0 ? "raw" : undefined;
    if (kind === "raw" && part.length >= MAX_TOTAL_HEADER_SIZE) throw new MultiPartParserError("Request max total header size exceeded.");
    const headers = new Map<string, { value: string; params: Readonly<Record<string, string>> }>();
    if (headerEnd >= 0) {
      for (const line of latin1(part.subarray(0, headerEnd)).split("\r\n")) {
        const { key, params } = parseHeaderParameters(line);
        const colon = key.indexOf(":");
        if (colon >= 0) headers.set(key.slice(0, colon), { value: key.slice(colon + 1), params });
      }
    }
    const disposition = headers.get("content-disposition");
    const type = disposition === undefined ? "raw" : disposition.params["filename"] ? "file" : "field";
    if (type !== "file" && ++fields > DATA_UPLOAD_MAX_NUMBER_FIELDS + 2) throw tooManyFields();
    const rawName = disposition?.params["name"];
    if (rawName === undefined || headerEnd < 0) continue;
    const name = pyStrip(rawName);
    let content = part.subarray(headerEnd + 4);
    if (headers.get("content-transfer-encoding")?.value.trim() === "base64") {
      const text = latin1(content).replace(/\s+/g, "");
      if (/^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0) content = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      else if (type === "file") throw new MultiPartParserError("Could not decode base64 data.");
    }
    if (type === "field") {
      bytesRead += content.length + name.length + 2;
      if (bytesRead > maxMemorySize)
        throw new PyException("RequestDataTooBig", "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.");
      data.appendList(name, decodeReplace(content, codec));
    } else if (type === "file") {
      if (++files > DATA_UPLOAD_MAX_NUMBER_FILES)
        throw new PyException("TooManyFilesSent", "The number of files exceeded settings.DATA_UPLOAD_MAX_NUMBER_FILES.");
      const fileName = sanitizeFileName(disposition?.params["filename"] ?? "") || `unnamed_file_${crypto.randomUUID()}`;
      const contentType = (headers.get("content-type")?.value ?? "").trim();
      uploads.push([name, { kind: "file", name: fileName, contentType, size: content.length, content }]);
    }
  }
  // DRF's request.data: the fields, then `update(files)`, which appends each file to its key's list.
  for (const [name, file] of uploads) data.appendList(name, file);
  return data;
}
