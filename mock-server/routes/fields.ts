import { pyType } from "../../src/emulation/python-json.js";
import { validationError, type ValidationErrors } from "../errors.js";
import type { CollectionName } from "../store/state.js";
import type { Store } from "../store/store.js";

/**
 * DRF serializer field checks with DRF's own messages, collected per field so one 400 names every
 * bad field (as a serializer's `is_valid` does).
 */
export const drf = {
  required: "This field is required.",
  notNull: "This field may not be null.",
  notString: "Not a valid string.",
  blank: "This field may not be blank.",
  boolean: "Must be a valid boolean.",
  integer: "A valid integer is required.",
  number: "A valid number is required.",
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  pkType: (v: unknown) => `Incorrect type. Expected pk value, received ${pyType(v)}.`,
  pkMissing: (v: unknown) => `Invalid pk "${String(v)}" - object does not exist.`,
  list: (v: unknown) => `Expected a list of items but got type "${pyType(v)}".`,
  dict: (v: unknown) => `Expected a dictionary of items but got type "${pyType(v)}".`,
  unknownField: (allowed: Iterable<string>) => `Unknown field: the server ignores it. Known fields: ${[...allowed].join(", ")}.`,
} as const;

export class FieldErrors {
  // A Map: a body's keys (`constructor`, `__proto__`) are fields here, never Object.prototype's.
  readonly #errors = new Map<string, string[]>();

  add(field: string, message: string): void {
    const messages = this.#errors.get(field);
    if (messages) messages.push(message);
    else this.#errors.set(field, [message]);
  }

  get any(): boolean {
    return this.#errors.size > 0;
  }

  throwIfAny(): void {
    if (this.any) throw validationError(Object.fromEntries(this.#errors) as ValidationErrors);
  }

  /** Accept a field if its check passes, else record DRF's message; returns the clean value. */
  check<T>(body: Record<string, unknown>, field: string, parse: (v: unknown) => { ok: true; value: T } | { ok: false; message: string }, required: boolean): T | undefined {
    if (!(field in body) || body[field] === undefined) {
      if (required) this.add(field, drf.required);
      return undefined;
    }
    const result = parse(body[field]);
    if (!result.ok) {
      this.add(field, result.message);
      return undefined;
    }
    return result.value;
  }
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
const good = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (message: string): Parsed<never> => ({ ok: false, message });

export const parse = {
  string: (maxLength?: number, allowBlank = true) => (v: unknown): Parsed<string> => {
    if (v === null) return bad(drf.notNull);
    if (typeof v !== "string" && typeof v !== "number") return bad(drf.notString);
    const text = String(v);
    if (!allowBlank && text.trim() === "") return bad(drf.blank);
    if (maxLength !== undefined && text.length > maxLength) return bad(drf.maxLength(maxLength));
    return good(text);
  },
  nullableString: (v: unknown): Parsed<string | null> => (v === null ? good(null) : parse.string()(v)),
  boolean: (v: unknown): Parsed<boolean> => {
    if (typeof v === "boolean") return good(v);
    if (v === 1 || v === 0) return good(v === 1);
    if (typeof v === "string") {
      const s = v.toLowerCase();
      if (["true", "1", "yes", "on", "t", "y"].includes(s)) return good(true);
      if (["false", "0", "no", "off", "f", "n"].includes(s)) return good(false);
    }
    return bad(drf.boolean);
  },
  number: (nullable: boolean) => (v: unknown): Parsed<number | null> => {
    if (v === null) return nullable ? good(null) : bad(drf.notNull);
    const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
    return typeof n === "number" && Number.isFinite(n) ? good(n) : bad(drf.number);
  },
  integer: (v: unknown): Parsed<number> => {
    const n = typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
    return Number.isSafeInteger(n) ? good(n as number) : bad(drf.integer);
  },
  list: (v: unknown): Parsed<unknown[]> => (Array.isArray(v) ? good(v) : bad(v === null ? drf.notNull : drf.list(v))),
  nullableList: (v: unknown): Parsed<unknown[] | null> => (v === null ? good(null) : parse.list(v)),
  dict: (v: unknown): Parsed<Record<string, unknown>> =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? good(v as Record<string, unknown>) : bad(v === null ? drf.notNull : drf.dict(v)),
  /** A PrimaryKeyRelatedField: an integer (or digit string) naming an existing record. */
  pk: (store: Store, collection: CollectionName, nullable = false) => (v: unknown): Parsed<number | null> => {
    if (v === null) return nullable ? good(null) : bad(drf.notNull);
    const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== "number" || !Number.isSafeInteger(n)) return bad(drf.pkType(v));
    return store.find(collection, n) ? good(n) : bad(drf.pkMissing(n));
  },
};

/** The fields a PATCH body gave (checked values; absent ones are undefined and left out): only these change. */
export function givenFields<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** Strict mode: body fields the server would silently drop are refused, naming each one. */
export function refuseUnknownFields(strict: boolean, body: Record<string, unknown>, known: ReadonlySet<string>): void {
  if (!strict) return;
  const errors = new FieldErrors();
  for (const key of Object.keys(body)) if (!known.has(key)) errors.add(key, drf.unknownField([...known].sort()));
  errors.throwIfAny();
}
