import type { JsonValue } from "../vocabulary/json.js";

/** Structural equality of decoded JSON values (key order ignored), without serialising them. */
export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v: JsonValue, i: number) => deepEqual(v, b[i] as JsonValue));
  }
  const ka = Object.keys(a);
  const ob = b as { readonly [key: string]: JsonValue };
  if (ka.length !== Object.keys(ob).length) return false;
  return ka.every((k) => Object.hasOwn(ob, k) && deepEqual((a as { readonly [key: string]: JsonValue })[k], ob[k]));
}
