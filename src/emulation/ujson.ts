import type { JsonValue } from "../vocabulary/json.js";
import { setKey } from "./json-loads.js";
import { jsonString } from "./jsonb.js";
import { PyException } from "./exceptions.js";
import { floatRepr } from "./python-json.js";
import { INT_MAX_STR_DIGITS } from "./python-text.js";

/** The server's `ujson` (ultrajson), where its output or its reading differs from the standard library's. */

/** `ujson.dumps(v, ensure_ascii=False)`: compact, `/` escaped, keys in the order the dict holds them. */
export function ujsonDumps(v: JsonValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return jsonString(v, true);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : floatRepr(v);
  if (Array.isArray(v)) return `[${v.map(ujsonDumps).join(",")}]`;
  const o = v as { readonly [key: string]: JsonValue };
  return `{${Object.keys(o)
    .map((k) => `${jsonString(k, true)}:${ujsonDumps(o[k] as JsonValue)}`)
    .join(",")}}`;
}

/**
 * `ujson.loads(text)` (ujson 5.x, `src/ujson/lib/ultrajsondec.c` over `python/JSONtoObj.c`), which the server
 * uses for the `query` URL parameter, a `selectedItems` string and the results columns' `equal`. It accepts
 * more than JSON: `NaN`, `Infinity`, `-Infinity`; leading zeros (`007` is 7); a bare `-` (0); `-.5`, `1.` and
 * `1.5e` as far as they read as a number; raw control characters inside strings. It refuses
 * trailing commas and anything after the value but whitespace, with its own messages, and nests at most 1024
 * arrays and objects. Iterative: no input can exhaust the stack.
 */
export function ujsonLoads(s: string): unknown {
  const at = (i: number) => (i < s.length ? s.charCodeAt(i) : 0); // the C buffer ends in NUL
  const stack: Frame[] = [];
  let i = 0;
  let value: unknown;
  /** Type of the last scalar decoded (`ds->lastType`): only a string may be a key. */
  let lastType: "utf8" | "other" | "invalid" = "invalid";
  /** A container accepted as a key (the lastType quirk) fails in PyDict_SetItem; the error surfaces at the end. */
  let unhashableKey = false;
  const fail = (message: string): never => {
    throw unhashableKey ? keysMustBeStrings() : new PyException("ujson.JSONDecodeError", message, true);
  };
  const skipWs = () => {
    for (let c = at(i); c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a; c = at(++i));
  };
  const enter = () => {
    if (stack.length >= UJSON_MAX_DEPTH) fail("Reached object decoding depth limit");
  };

  for (;;) {
    // decode_any: one value at i; a container pushes a frame and goes on with its first member.
    skipWs();
    const c = at(i);
    let scanned = true;
    if (c === 0x22) {
      value = decodeString(s, i, at, fail);
      i = (value as DecodedString).end;
      value = (value as DecodedString).text;
      lastType = "utf8";
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x49 || c === 0x4e) {
      const [n, end] = decodeNumeric(s, i, at, fail);
      value = n;
      i = end;
      lastType = "other";
    } else if (c === 0x5b) {
      enter();
      lastType = "invalid";
      i++;
      skipWs();
      if (at(i) === 0x5d) {
        i++;
        value = [];
      } else {
        stack.push({ list: [] });
        scanned = false;
      }
    } else if (c === 0x7b) {
      enter();
      i++;
      skipWs();
      if (at(i) === 0x7d) {
        i++;
        value = {};
      } else {
        stack.push({ dict: {}, key: undefined, phase: "key" });
        lastType = "invalid";
        scanned = false;
      }
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? "true" : c === 0x66 ? "false" : "null";
      if (!s.startsWith(word, i)) fail(`Unexpected character found when decoding '${word}'`);
      value = c === 0x74 ? true : c === 0x66 ? false : null;
      i += word.length;
      lastType = "other";
    } else {
      fail("Expected object or value");
    }
    if (!scanned) continue;

    // Hand the value to the enclosing containers, closing every one that ends here.
    for (;;) {
      const frame = stack.at(-1);
      if (!frame) {
        skipWs();
        if (i !== s.length) fail("Trailing data");
        if (unhashableKey) throw keysMustBeStrings();
        return value;
      }
      if ("list" in frame) {
        frame.list.push(value);
        skipWs();
        const next = at(i++);
        if (next === 0x5d) {
          stack.pop();
          value = frame.list;
          continue;
        }
        if (next !== 0x2c) fail("Unexpected character found when decoding array value (2)");
        skipWs();
        if (at(i) === 0x5d) fail("Unexpected character found when decoding array value (1)");
        break;
      }
      if (frame.phase === "key") {
        if (lastType !== "utf8") fail("Key name of object must be 'string' when decoding 'object'");
        frame.key = value;
        skipWs();
        if (at(i++) !== 0x3a) fail("No ':' found when decoding object value");
        frame.phase = "value";
        break;
      }
      if (typeof frame.key === "string") setKey(frame.dict, frame.key, value);
      else unhashableKey = true;
      skipWs();
      const next = at(i++);
      if (next === 0x7d) {
        stack.pop();
        value = frame.dict;
        continue;
      }
      if (next !== 0x2c) fail("Unexpected character in found when decoding object value");
      skipWs();
      if (at(i) === 0x7d) fail("Unexpected character in found when decoding object value");
      frame.phase = "key";
      lastType = "invalid";
      break;
    }
  }
}

/** ujson's `JSON_MAX_OBJECT_DEPTH`. */
export const UJSON_MAX_DEPTH = 1024;

type Frame = { readonly list: unknown[] } | { readonly dict: Record<string, unknown>; key: unknown; phase: "key" | "value" };
type Fail = (message: string) => never;
interface DecodedString {
  readonly text: string;
  readonly end: number;
}

const keysMustBeStrings = () => new PyException("ujson.JSONDecodeError", "Invalid JSON: object keys must be strings", true);

const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\", '"': '"', "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** `decode_string`: from the opening quote at `start`; raw control characters and non-ASCII pass through. */
function decodeString(s: string, start: number, at: (i: number) => number, fail: Fail): DecodedString {
  let out = "";
  let i = start + 1;
  let run = i;
  for (;;) {
    const c = at(i);
    if (c === 0) fail("Unmatched '\"' when decoding 'string'");
    if (c === 0x22) return { text: out + s.slice(run, i), end: i + 1 };
    if (c !== 0x5c) {
      i++;
      continue;
    }
    out += s.slice(run, i);
    const e = at(i + 1);
    if (e === 0) fail("Unterminated escape sequence when decoding 'string'");
    const simple = ESCAPES[String.fromCharCode(e)];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (e === 0x75) {
      let code = 0;
      for (let k = 0; k < 4; k++) {
        const h = at(i + 2 + k);
        if (h === 0) fail("Unterminated unicode escape sequence when decoding 'string'");
        const d = Number.parseInt(String.fromCharCode(h), 16);
        if (Number.isNaN(d)) fail("Unexpected character in unicode escape sequence when decoding 'string'");
        code = (code << 4) | d;
      }
      // A high and a low surrogate escape in a row make one character; JavaScript strings join them alike.
      out += String.fromCharCode(code);
      i += 6;
    } else {
      fail("Unrecognized escape sequence when decoding 'string'");
    }
    run = i;
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * `decode_numeric`: an integer (leading zeros allowed; past 64 bits read by Python's `int()`), or, on a `.` or
 * an exponent, the longest prefix double-conversion reads (`ALLOW_TRAILING_JUNK`) from the number's start.
 */
function decodeNumeric(s: string, start: number, at: (i: number) => number, fail: Fail): [number, number] {
  let i = start;
  let negative = false;
  if (at(i) === 0x2d) {
    negative = true;
    i++;
  }
  for (const word of ["Infinity", "NaN"] as const) {
    if (at(i) !== word.charCodeAt(0) || (word === "NaN" && negative)) continue;
    if (!s.startsWith(word, i)) fail(`Unexpected character found when decoding '${negative ? "-" : ""}${word}'`);
    return [word === "NaN" ? Number.NaN : negative ? -Infinity : Infinity, i + word.length];
  }
  const digitsStart = i;
  while (isDigit(at(i))) i++;
  const next = at(i);
  if (next === 0x2e || next === 0x65 || next === 0x45) return readDouble(s, start);
  const digits = s.slice(digitsStart, i);
  if (digits.length >= 19) {
    const big = BigInt(digits);
    if (big > (negative ? 2n ** 63n : 2n ** 64n - 1n) && digits.length > INT_MAX_STR_DIGITS) {
      // Past 64 bits ujson hands the text to PyLong_FromString, which has Python's digit limit.
      throw new PyException(
        "ValueError",
        `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits.length} digits; ` +
          "use sys.set_int_max_str_digits() to increase the limit",
        true,
      );
    }
  }
  const magnitude = digits === "" ? 0 : Number(digits);
  return [negative && magnitude !== 0 ? -magnitude : magnitude, i];
}

/** double-conversion's `StringToDouble` with trailing junk allowed: [value, end]; nothing readable is 0.0 and no progress. */
function readDouble(s: string, start: number): [number, number] {
  let i = start;
  const at = (k: number) => (k < s.length ? s.charCodeAt(k) : 0);
  if (at(i) === 0x2d || at(i) === 0x2b) i++;
  let leadingZero = false;
  let significant = 0;
  while (at(i) === 0x30) {
    leadingZero = true;
    i++;
  }
  while (isDigit(at(i))) {
    significant++;
    i++;
  }
  let fraction = 0;
  if (at(i) === 0x2e) {
    i++;
    if (i === s.length && significant === 0 && !leadingZero) return [0, start];
    while (isDigit(at(i))) {
      fraction++;
      i++;
    }
  }
  if (!leadingZero && significant === 0 && fraction === 0) return [0, start];
  if (at(i) === 0x65 || at(i) === 0x45) {
    let k = i + 1;
    if (at(k) === 0x2b || at(k) === 0x2d) k++;
    if (isDigit(at(k))) {
      while (isDigit(at(k))) k++;
      i = k;
    }
  }
  const text = s.slice(start, i);
  return [Number(text.endsWith(".") ? text.slice(0, -1) : text), i];
}
