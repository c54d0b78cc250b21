import { pyStrip } from "./python-text.js";

/**
 * Content negotiation for request bodies as the server does it: Django's `parse_header_parameters`
 * (`django/utils/http.py`) and DRF's `_MediaType.match` (`rest_framework/utils/mediatypes.py`), which
 * `DefaultContentNegotiation.select_parser` uses to pick the first parser whose media type the request's
 * `Content-Type` satisfies. Label Studio sets no `DEFAULT_PARSER_CLASSES` (`label_studio/core/settings/base.py`
 * `REST_FRAMEWORK`), so DRF's defaults apply: JSON, form, multipart, in that order.
 */

export interface HeaderValue {
  /** The value before the first `;`, stripped and lower-cased (`application/json`). */
  readonly key: string;
  /** Parameters by lower-cased name; quoted values unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

/** `_parseparam`: split at `;` outside double quotes, each part stripped. */
function* parseParam(s: string): Generator<string> {
  while (s.startsWith(";")) {
    s = s.slice(1);
    let end = s.indexOf(";");
    const quotes = (upTo: number) => (s.slice(0, upTo).match(/"/g)?.length ?? 0) - (s.slice(0, upTo).match(/\\"/g)?.length ?? 0);
    while (end > 0 && quotes(end) % 2 === 1) end = s.indexOf(";", end + 1);
    if (end < 0) end = s.length;
    yield pyStrip(s.slice(0, end));
    s = s.slice(end);
  }
}

/** Django's `parse_header_parameters(line)`. RFC 2231 `name*=charset'lang'value` keeps its raw value here. */
export function parseHeaderParameters(line: string): HeaderValue {
  if (line === "") return { key: "", params: {} };
  const parts = parseParam(`;${line}`);
  const key = pyStrip(parts.next().value ?? "").toLowerCase();
  const params: Record<string, string> = {};
  for (const p of parts) {
    const i = p.indexOf("=");
    if (i < 0) continue;
    let name = pyStrip(p.slice(0, i)).toLowerCase();
    if (name.endsWith("*")) name = name.slice(0, -1);
    let value = pyStrip(p.slice(i + 1));
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1).replaceAll("\\\\", "\\").replaceAll('\\"', '"');
    params[name] = value;
  }
  return { key, params };
}

/** DRF's `_MediaType`: `main/sub` and parameters. */
interface MediaType {
  readonly main: string;
  readonly sub: string;
  readonly params: Readonly<Record<string, string>>;
}

function mediaType(text: string): MediaType {
  const { key, params } = parseHeaderParameters(text);
  const slash = key.indexOf("/");
  return slash < 0 ? { main: key, sub: "", params } : { main: key.slice(0, slash), sub: key.slice(slash + 1), params };
}

/** `media_type_matches(lhs, rhs)`: a `*` on either side matches anything. */
export function mediaTypeMatches(lhs: string, rhs: string): boolean {
  const a = mediaType(lhs);
  const b = mediaType(rhs);
  for (const [key, value] of Object.entries(a.params)) if (key !== "q" && b.params[key] !== value) return false;
  if (a.sub !== "*" && b.sub !== "*" && a.sub !== b.sub) return false;
  if (a.main !== "*" && b.main !== "*" && a.main !== b.main) return false;
  return true;
}

/** DRF's default parsers in order, by the media type each declares. */
export const DRF_PARSERS = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"] as const;
export type DrfParser = (typeof DRF_PARSERS)[number];

/** `select_parser`: the first default parser the request's content type satisfies. */
export function selectParser(contentType: string): DrfParser | undefined {
  return DRF_PARSERS.find((parser) => mediaTypeMatches(parser, contentType));
}

/** DRF's `is_form_media_type`. */
export function isFormMediaType(contentType: string): boolean {
  const { key } = parseHeaderParameters(contentType);
  return key === "application/x-www-form-urlencoded" || key === "multipart/form-data";
}
