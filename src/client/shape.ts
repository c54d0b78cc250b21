import { describeValue, isPlainObject } from "../vocabulary/json.js";

/**
 * Small checks of response bodies: only what the client and its types rely on (ids, envelopes,
 * list-ness). Extra fields are always allowed; the server adds fields between versions.
 */
export class ShapeMismatch extends Error {
  constructor(
    readonly where: string,
    readonly expected: string,
    readonly value: unknown,
  ) {
    super(`expected ${where || "the body"} to be ${expected}`);
  }
}

export type Reader<T> = (value: unknown, where: string) => T;

const join = (where: string, key: string | number): string =>
  typeof key === "number" ? `${where}[${key}]` : where ? `${where}.${key}` : key;

const primitive =
  <T>(expected: string, test: (value: unknown) => boolean): Reader<T> =>
  (value, where) => {
    if (!test(value)) throw new ShapeMismatch(where, expected, value);
    return value as T;
  };

export const number: Reader<number> = primitive("a number", (v) => typeof v === "number" && Number.isFinite(v));
export const string: Reader<string> = primitive("a string", (v) => typeof v === "string");
export const boolean: Reader<boolean> = primitive("a boolean", (v) => typeof v === "boolean");
/** No expectation beyond being valid JSON (any 2xx body that parsed). */
export const anything: Reader<unknown> = (value) => value;

export function optional<T>(check: Reader<T>): Reader<T | undefined> {
  return (value, where) => (value === undefined ? undefined : check(value, where));
}

export function nullable<T>(check: Reader<T>): Reader<T | null> {
  return (value, where) => (value === null ? null : check(value, where));
}

/** A JSON object with at least these fields; the value itself is returned (extra fields kept). */
export function object<T>(fields: { readonly [key: string]: Reader<unknown> } = {}): Reader<T> {
  const names = Object.keys(fields);
  const expected = names.length ? `a JSON object with ${names.join(", ")}` : "a JSON object";
  return (value, where) => {
    if (!isPlainObject(value)) throw new ShapeMismatch(where, expected, value);
    for (const name of names) fields[name]?.(value[name], join(where, name));
    return value as T;
  };
}

export function arrayOf<T>(item: Reader<T>): Reader<T[]> {
  return (value, where) => {
    if (!Array.isArray(value)) throw new ShapeMismatch(where, "a JSON array", value);
    for (const [index, entry] of value.entries()) item(entry, join(where, index));
    return value as T[];
  };
}

/** An object with a numeric `id`: every stored record the server returns. */
export function record<T>(fields: { readonly [key: string]: Reader<unknown> } = {}): Reader<T> {
  return object<T>({ id: number, ...fields });
}

/** "found …" for a message: the value itself, or only its shape when it may hold a token. */
export function describeFound(value: unknown, sensitive: boolean): string {
  if (!sensitive) return describeValue(value);
  if (typeof value === "string") return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    return keys.length ? `an object with keys ${keys.slice(0, 6).join(", ")}` : "an empty object";
  }
  return describeValue(value);
}
