/**
 * The start of a value's JSON text and the length of the whole text, without building the whole text:
 * the journal keeps a few KB of a body that may list a million ids. Values are what body parsing makes
 * (plain objects and arrays, strings, numbers, booleans, null); anything else (a class instance, a
 * `toJSON`, a bigint) answers undefined and the caller serialises it whole.
 */
export function jsonHead(value: unknown, limit: number): { readonly head: string; readonly length: number } | undefined {
  const parts: string[] = [];
  let kept = 0;
  let length = 0;
  const emit = (text: string) => {
    if (kept < limit) {
      parts.push(text);
      kept += text.length;
    }
    length += text.length;
  };
  const walk = (v: unknown): boolean => {
    if (v === null) emit("null");
    else if (typeof v === "number") {
      // Past the head a safe integer is counted, not printed (a million ids).
      if (kept >= limit && Number.isSafeInteger(v)) length += integerLength(v);
      else emit(Number.isFinite(v) ? String(v) : "null");
    } else if (typeof v === "string") emit(JSON.stringify(v));
    else if (typeof v === "boolean") emit(v ? "true" : "false");
    else if (Array.isArray(v)) {
      emit("[");
      for (let k = 0; k < v.length; k++) {
        const item: unknown = v[k];
        // Hot loop past the head (a million ids): a safe integer and its comma are counted inline.
        if (kept >= limit && typeof item === "number" && Number.isSafeInteger(item)) {
          length += k > 0 ? integerLength(item) + 1 : integerLength(item);
          continue;
        }
        if (k > 0) emit(",");
        if (item === undefined || typeof item === "function" || typeof item === "symbol") emit("null");
        else if (!walk(item)) return false;
      }
      emit("]");
    } else if (isPlainRecord(v)) {
      emit("{");
      let first = true;
      for (const key of Object.keys(v)) {
        const item = v[key];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
        emit(`${first ? "" : ","}${JSON.stringify(key)}:`);
        first = false;
        if (!walk(item)) return false;
      }
      emit("}");
    } else return false;
    return true;
  };
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return undefined;
  if (!walk(value)) return undefined;
  return { head: parts.join("").slice(0, limit), length };
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || "toJSON" in v) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Characters of a safe integer's decimal text. */
function integerLength(n: number): number {
  const a = n < 0 ? -n : n;
  let digits = 1;
  for (let p = 10; p <= a && digits < 16; p *= 10) digits++;
  return n < 0 ? digits + 1 : digits;
}
