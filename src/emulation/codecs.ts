import { PyException } from "./exceptions.js";

/**
 * Python's text codecs as the server's request parsing uses them: Django takes the body's encoding from
 * the `charset` parameter of `Content-Type` when Python knows the codec (`HttpRequest._set_content_type_params`),
 * else `DEFAULT_CHARSET` (utf-8); DRF's JSONParser reads the body through `codecs.getreader(encoding)`, and
 * Django's QueryDict decodes form bodies with it (falling back to latin-1).
 */

/** A Python codec this module emulates, by its canonical name (the one Python's error messages carry). */
export type CodecName = "utf-8" | "utf-8-sig" | "ascii" | "latin-1";

/** `encodings.normalize_encoding` followed by the alias table, for the codecs above. */
const aliases: Readonly<Record<string, CodecName>> = {
  utf_8: "utf-8",
  utf8: "utf-8",
  u8: "utf-8",
  utf: "utf-8",
  utf8_ucs2: "utf-8",
  utf8_ucs4: "utf-8",
  cp65001: "utf-8",
  utf_8_sig: "utf-8-sig",
  utf8_sig: "utf-8-sig",
  ascii: "ascii",
  "646": "ascii",
  us_ascii: "ascii",
  us: "ascii",
  ansi_x3_4_1968: "ascii",
  "ansi_x3.4_1968": "ascii",
  "ansi_x3.4_1986": "ascii",
  cp367: "ascii",
  csascii: "ascii",
  ibm367: "ascii",
  iso646_us: "ascii",
  "iso_646.irv_1991": "ascii",
  iso_ir_6: "ascii",
  latin_1: "latin-1",
  latin1: "latin-1",
  latin: "latin-1",
  l1: "latin-1",
  iso8859_1: "latin-1",
  iso_8859_1: "latin-1",
  "8859": "latin-1",
  cp819: "latin-1",
  csisolatin1: "latin-1",
  ibm819: "latin-1",
  iso8859: "latin-1",
  iso_8859_1_1987: "latin-1",
  iso_ir_100: "latin-1",
};

/**
 * `codecs.lookup(label)` for the codecs emulated here: the canonical name, or undefined when this module does
 * not know the label (Django then keeps utf-8; for a codec Python knows and we do not, see docs/mock-server.md).
 */
export function lookupCodec(label: string): CodecName | undefined {
  // normalize_encoding: runs of characters other than alphanumerics and "." become one "_"; then lower-case.
  const key = label
    .trim()
    .replace(/[^A-Za-z0-9.]+/g, "_")
    .replace(/^_|_$/g, "")
    .toLowerCase();
  return Object.hasOwn(aliases, key) ? aliases[key] : undefined;
}

/** Python's `UnicodeDecodeError` (a ValueError), with its `str()`. */
export class UnicodeDecodeError extends PyException {
  constructor(
    readonly encoding: CodecName,
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
    readonly reason: string,
  ) {
    const hex = (b: number) => `0x${b.toString(16).padStart(2, "0")}`;
    super(
      "UnicodeDecodeError",
      end === start + 1
        ? `'${encoding}' codec can't decode byte ${hex(bytes[start] ?? 0)} in position ${start}: ${reason}`
        : `'${encoding}' codec can't decode bytes in position ${start}-${end - 1}: ${reason}`,
      true,
    );
  }
}

const isContinuation = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;

/** Where CPython's UTF-8 decoder stops: an error (start, end, reason) or a sequence cut off by the end of the data. */
type Utf8Stop = { readonly at: number; readonly end: number; readonly reason: string } | { readonly at: number; readonly truncated: true };

/**
 * The first place CPython's UTF-8 decoder (`Objects/stringlib/codecs.h` `utf8_decode`) stops at, or undefined
 * for valid UTF-8. Error ranges follow CPython: an invalid start byte is one byte; an invalid continuation
 * covers the valid prefix before it. Overlong forms, surrogates (ED A0..BF) and code points past U+10FFFF are
 * invalid continuations of their lead byte.
 */
function utf8Stop(bytes: Uint8Array, final: boolean): Utf8Stop | undefined {
  const n = bytes.length;
  let i = 0;
  // Hot loop over every body byte: plain branches, no allocation.
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const left = n - i;
    const b1 = bytes[i + 1];
    if (b < 0xc2 || b > 0xf4) return { at: i, end: i + 1, reason: "invalid start byte" };
    if (b < 0xe0) {
      if (left < 2) return { at: i, truncated: true };
      if (!isContinuation(b1)) return { at: i, end: i + 1, reason: "invalid continuation byte" };
      i += 2;
      continue;
    }
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (left < 2) return { at: i, truncated: true };
    // A stream read (not final) keeps a cut-off surrogate lead (ED A0..BF) for the next read, like any cut-off.
    if (!final && left === 2 && b === 0xed && isContinuation(b1)) return { at: i, truncated: true };
    if (b1 === undefined || b1 < low || b1 > high) {
      return { at: i, end: i + 1, reason: "invalid continuation byte" };
    }
    const size = b < 0xf0 ? 3 : 4;
    for (let k = 2; k < size; k++) {
      if (k >= left) return { at: i, truncated: true };
      if (!isContinuation(bytes[i + k])) return { at: i, end: i + k, reason: "invalid continuation byte" };
    }
    i += size;
  }
  return undefined;
}

/** Not fatal: callers validate first (strict) or want U+FFFD (replace), which follows the same maximal-subpart rule. */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
/**
 * Fatal: what it accepts is exactly what Python's strict decoder accepts, with the same text (a test holds them
 * together), at native speed; on what it refuses, `utf8Stop` finds Python's answer.
 */
const utf8Fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of valid, complete UTF-8; undefined when the bytes are invalid or cut off. */
function validUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8Fatal.decode(bytes);
  } catch {
    return undefined;
  }
}

function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/**
 * `codecs.getreader(codec)(stream).read()`: the whole body as text, strict errors. A UTF-8 sequence cut off by
 * the end of the body is not an error there: the StreamReader decodes with `final=False`, keeps the bytes for
 * a next read that never comes, and they are dropped.
 */
export function streamRead(bytes: Uint8Array, codec: CodecName): string {
  if (codec === "latin-1") return latin1(bytes);
  if (codec === "ascii") {
    const bad = bytes.findIndex((b) => b >= 0x80);
    if (bad >= 0) throw new UnicodeDecodeError("ascii", bytes, bad, bad + 1, "ordinal not in range(128)");
    return latin1(bytes);
  }
  let text = validUtf8(bytes);
  if (text === undefined) {
    const stop = utf8Stop(bytes, false);
    if (stop && !("truncated" in stop)) throw new UnicodeDecodeError(codec, bytes, stop.at, stop.end, stop.reason);
    text = utf8.decode(stop ? bytes.subarray(0, stop.at) : bytes);
  }
  return codec === "utf-8-sig" && text.startsWith("\ufeff") ? text.slice(1) : text;
}

/** `bytes.decode(codec)` (final): like `streamRead`, except that a cut-off sequence is an error. */
export function decode(bytes: Uint8Array, codec: CodecName): string {
  if (codec !== "utf-8" && codec !== "utf-8-sig") return streamRead(bytes, codec);
  let text = validUtf8(bytes);
  if (text === undefined) {
    const stop = utf8Stop(bytes, true);
    if (stop) {
      throw "truncated" in stop
        ? new UnicodeDecodeError(codec, bytes, stop.at, bytes.length, "unexpected end of data")
        : new UnicodeDecodeError(codec, bytes, stop.at, stop.end, stop.reason);
    }
    text = utf8.decode(bytes);
  }
  return codec === "utf-8-sig" && text.startsWith("\ufeff") ? text.slice(1) : text;
}

/** `bytes.decode(codec, errors="replace")`: U+FFFD for each invalid sequence. */
export function decodeReplace(bytes: Uint8Array, codec: CodecName): string {
  if (codec === "latin-1") return latin1(bytes);
  if (codec === "ascii") return latin1(bytes).replace(/[\u0080-\u00ff]/g, "\ufffd");
  return utf8.decode(bytes);
}
