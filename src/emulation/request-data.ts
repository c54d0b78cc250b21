import { lookupCodec, streamRead } from "./codecs.js";
import { DrfApiException, PyException } from "./exceptions.js";
import { pyJsonLoads } from "./json-loads.js";
import { MultiPartParserError, parseMultipart } from "./multipart.js";
import { isFormMediaType, parseHeaderParameters, selectParser } from "./media-type.js";
import { parseFormBody, QueryDict } from "./query-dict.js";

/**
 * DRF's `request.data` (`rest_framework/request.py` `Request._parse`) over Django's request: what a view gets
 * when it reads the body, or the exception it raises. Views read it lazily, so a body is only refused by a
 * view that reads it, at the moment it does.
 */

export interface RequestBody {
  /** The `Content-Type` header as sent; undefined when there is none. */
  readonly contentType: string | undefined;
  /** The body's size in bytes (0: no body). */
  readonly length: number;
  /** The body; undefined when it was larger than `maxMemorySize` and not kept. */
  readonly bytes: Uint8Array | undefined;
}

export interface DataLimits {
  /** `settings.DATA_UPLOAD_MAX_MEMORY_SIZE`: the largest body Django reads into memory. */
  readonly maxMemorySize: number;
  /** The JSON nesting depth past which Python's scanner raises RecursionError. */
  readonly maxDepth?: number;
}

export { DATA_UPLOAD_MAX_MEMORY_SIZE } from "./settings.js";

/**
 * The `Content-Type` Django sees. Without the header, Django's development server (`label-studio start`
 * runs `runserver`, on `wsgiref`) reports `text/plain`, the email-message default.
 */
export function effectiveContentType(body: RequestBody): string {
  return body.contentType ?? "text/plain";
}

export function requestDataTooBig(): PyException {
  return new PyException("RequestDataTooBig", "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.");
}

/**
 * `request.data`: `{}` for no body (an empty QueryDict for a form content type), the decoded JSON value, or a
 * QueryDict for form and multipart bodies. Throws what DRF raises: 415 UnsupportedMediaType for any other
 * content type, a 400 ParseError for a body its parser refuses, and plain Python exceptions (500s through
 * the handler) for Django's size limits and for nesting deeper than Python's recursion limit.
 */
export function requestData(body: RequestBody, limits: DataLimits): unknown {
  const contentType = effectiveContentType(body);
  if (body.length === 0) return isFormMediaType(contentType) ? new QueryDict() : {};
  const parser = selectParser(contentType);
  if (!parser) throw new DrfApiException(415, `Unsupported media type "${contentType}" in request.`);
  // Django's request encoding: the charset parameter when Python knows the codec, else DEFAULT_CHARSET.
  const codec = lookupCodec(parseHeaderParameters(contentType).params["charset"] ?? "") ?? "utf-8";
  // DRF (>= 3.15.2 … 3.17) reads JSON and form bodies through `request.body`, which enforces the size limit.
  const bytes = body.bytes;
  if (bytes === undefined || body.length > limits.maxMemorySize) throw requestDataTooBig();
  if (parser === "application/x-www-form-urlencoded") return parseFormBody(bytes, codec);
  if (parser === "multipart/form-data") {
    try {
      return parseMultipart(contentType, bytes, codec, limits.maxMemorySize);
    } catch (error) {
      if (error instanceof MultiPartParserError) throw new DrfApiException(400, `Multipart form parse error - ${error.message}`);
      throw error;
    }
  }
  try {
    return pyJsonLoads(streamRead(bytes, codec), limits.maxDepth === undefined ? {} : { maxDepth: limits.maxDepth });
  } catch (error) {
    if (error instanceof PyException && error.isValueError) throw new DrfApiException(400, `JSON parse error - ${error.message}`);
    throw error;
  }
}
