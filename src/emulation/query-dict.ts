import { decode, decodeReplace, type CodecName } from "./codecs.js";
import { PyException } from "./exceptions.js";

/**
 * Django's `QueryDict` (`django/http/request.py`, a `MultiValueDict`): what `request.data` is for a form or
 * multipart body. Every key holds a list; `get(key)` and `data[key]` give its last value, `getlist` all of
 * them. Values are strings (form fields) or uploaded files (multipart).
 */
export class QueryDict {
  readonly #lists = new Map<string, unknown[]>();

  appendList(key: string, value: unknown): void {
    const list = this.#lists.get(key);
    if (list) list.push(value);
    else this.#lists.set(key, [value]);
  }

  has(key: string): boolean {
    return this.#lists.has(key);
  }

  /** `QueryDict.get(key)`: the last value, or undefined. */
  get(key: string): unknown {
    return this.#lists.get(key)?.at(-1);
  }

  getList(key: string): readonly unknown[] {
    return this.#lists.get(key) ?? [];
  }

  keys(): string[] {
    return [...this.#lists.keys()];
  }

  get size(): number {
    return this.#lists.size;
  }

  /** `QueryDict.dict()`: each key with its last value, as the server's `request.data.get(…)` sees it. */
  dict(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, list] of this.#lists)
      Object.defineProperty(out, key, { value: list.at(-1), enumerable: true, writable: true, configurable: true });
    return out;
  }

  /** Each key with its value, or its list of values when repeated (the journal's form of a query string). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, list] of this.#lists)
      Object.defineProperty(out, key, {
        value: list.length === 1 ? list[0] : [...list],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
}

const HEX_PAIR = /^[0-9a-fA-F]{2}/;

/** `urllib.parse.unquote(s, encoding, errors="replace")`: `%XX` runs decoded, anything malformed kept. */
export function pyUnquote(s: string, codec: CodecName = "utf-8"): string {
  if (!s.includes("%")) return s;
  // ASCII runs are unquoted to bytes and decoded; other characters pass through (`_generate_unquoted_parts`).
  // eslint-disable-next-line no-control-regex -- runs of ASCII, control characters included
  return s.replace(/[\x00-\x7f]+/g, (run) => {
    const bits = run.split("%");
    const bytes: number[] = [];
    const push = (text: string) => {
      for (let i = 0; i < text.length; i++) bytes.push(text.charCodeAt(i));
    };
    push(bits[0] ?? "");
    for (const item of bits.slice(1)) {
      if (HEX_PAIR.test(item)) {
        bytes.push(Number.parseInt(item.slice(0, 2), 16));
        push(item.slice(2));
      } else {
        push(`%${item}`);
      }
    }
    return decodeReplace(Uint8Array.from(bytes), codec);
  });
}

/** `settings.DATA_UPLOAD_MAX_NUMBER_FIELDS` (Django's default; Label Studio keeps it). */
export const DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000;

export function tooManyFields(): PyException {
  return new PyException("TooManyFieldsSent", "The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.");
}

/**
 * `QueryDict(body, encoding)` for a form body: the bytes decoded with the request's encoding (latin-1 when
 * they do not decode), then `parse_qsl(keep_blank_values=True, max_num_fields=1000)`: `&` separates fields,
 * a field without `=` has an empty value, empty fields are skipped, `+` is a space.
 */
export function parseFormBody(body: Uint8Array, codec: CodecName): QueryDict {
  let text: string;
  try {
    text = decode(body, codec);
  } catch {
    text = decode(body, "latin-1");
  }
  const out = new QueryDict();
  if (text === "") return out;
  if (1 + (text.split("&").length - 1) > DATA_UPLOAD_MAX_NUMBER_FIELDS) throw tooManyFields();
  for (const field of text.split("&")) {
    if (field === "") continue;
    const eq = field.indexOf("=");
    const [name, value] = eq < 0 ? [field, ""] : [field.slice(0, eq), field.slice(eq + 1)];
    out.appendList(pyUnquote(name.replaceAll("+", " "), codec), pyUnquote(value.replaceAll("+", " "), codec));
  }
  return out;
}
