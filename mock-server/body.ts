import type { IncomingMessage } from "node:http";
import { decodeReplace } from "../src/emulation/codecs.js";
import { PyException } from "../src/emulation/exceptions.js";
import { QueryDict } from "../src/emulation/query-dict.js";
import { requestData, type DataLimits, type RequestBody } from "../src/emulation/request-data.js";
import { fieldError } from "./errors.js";

/**
 * The one body layer of the mock: every request's bytes are read here (never more than the limit kept in
 * memory), and `request.data` is what DRF's parsers make of them, computed once and raised at every read, so
 * a view that never reads its body never refuses it, and one that does refuses it where the server would.
 */

/** Reads the whole body; past `limit` bytes the rest is counted and dropped. */
export function readBody(req: IncomingMessage, limit: number): Promise<RequestBody> {
  const declared = Number(req.headers["content-length"]);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let keep = !(declared > limit);
    req.on("data", (chunk: Buffer) => {
      length += chunk.length;
      if (keep && length > limit) {
        keep = false;
        chunks.length = 0;
      }
      if (keep) chunks.push(chunk);
    });
    req.on("end", () => {
      // A view of the joined bytes, not a second copy of them.
      const joined = keep ? Buffer.concat(chunks, length) : undefined;
      const bytes = joined && new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
      resolve({ contentType: req.headers["content-type"], length, bytes });
    });
    req.on("error", reject);
  });
}

export interface LazyData {
  /** DRF's `request.data`; throws what DRF raises for this body, at every read. */
  readonly data: () => unknown;
  /** What the journal shows: the parsed body (a form as key → value or values), else the text, else undefined. */
  readonly journal: () => unknown;
  /** A body with content that no view read: the server ignores it (strict mode refuses it). */
  readonly ignored: () => boolean;
}

/**
 * `strict`: where reading the body is a 500 on the server (a size or field-count limit, nesting past Python's
 * recursion limit), a 400 naming the body instead.
 */
export function lazyData(body: RequestBody, limits: DataLimits, strict: boolean): LazyData {
  let outcome: { ok: true; value: unknown } | { ok: false; error: unknown } | undefined;
  const settle = () => {
    if (outcome) return outcome;
    try {
      outcome = { ok: true, value: requestData(body, limits) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    return outcome;
  };
  let read = false;
  return {
    data: () => {
      read = true;
      const o = settle();
      if (o.ok) return o.value;
      if (strict && o.error instanceof PyException) {
        throw fieldError(
          "body",
          `expected a body the server can read, found one it answers 500 for (${o.error.pyClass}: ${o.error.message})`,
        );
      }
      throw o.error;
    },
    journal: () => {
      if (body.length === 0) return undefined;
      const o = settle();
      if (o.ok) return o.value instanceof QueryDict ? o.value.toJSON() : o.value;
      return body.bytes ? decodeReplace(body.bytes, "utf-8") : undefined;
    },
    ignored: () => {
      if (read || body.length === 0) return false;
      const o = settle();
      if (!o.ok) return true;
      const v = o.value;
      return !(v instanceof QueryDict ? v.size === 0 : typeof v === "object" && v !== null && Object.keys(v).length === 0);
    },
  };
}
