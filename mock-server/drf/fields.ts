import { match } from "ts-pattern";
import { parseDjangoDatetime } from "../../src/emulation/django.js";
import { parsePyFloat, parsePyInt, pyStrip } from "../../src/emulation/python-text.js";
import type { FieldSpec } from "../../src/contract/field.js";
import { pyStr, pyType } from "../../src/emulation/python-json.js";
import type { CollectionName } from "../../src/contract/state.js";
import type { Store } from "../store/store.js";
import { timestampFromMicros } from "../../src/vocabulary/timestamps.js";

/**
 * How DRF reads one written value, per field kind of the contract (rest_framework/fields.py and
 * relations.py, DRF 3.17): `to_internal_value` with DRF's messages, then the field's own limits.
 * A refusal is a list of messages, or for a nested serializer its errors by field.
 */
export const drfMessages = {
  required: "This field is required.",
  null: "This field may not be null.",
  blank: "This field may not be blank.",
  string: "Not a valid string.",
  integer: "A valid integer is required.",
  float: "A valid number is required.",
  boolean: "Must be a valid boolean.",
  tooLong: "String value too large.",
  floatOverflow: "Integer value too large to convert to float",
  json: "Value must be valid JSON.",
  datetime: "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].",
  pkType: (v: unknown) => `Incorrect type. Expected pk value, received ${pyType(v)}.`,
  pkMissing: (v: unknown) => `Invalid pk "${pyStr(v)}" - object does not exist.`,
  notAList: (v: unknown) => `Expected a list of items but got type "${pyType(v)}".`,
  emptyList: "This list may not be empty.",
  choice: (v: unknown) => `"${pyStr(v)}" is not a valid choice.`,
  notADict: (v: unknown) => `Invalid data. Expected a dictionary, but got ${pyType(v)}.`,
  /** `DictField`'s `not_a_dict`. */
  notADictField: (v: unknown) => `Expected a dictionary of items but got type "${pyType(v)}".`,
} as const;

/** A refusal: messages, or for a list field the messages of each refused item by index. */
export type Refusal = readonly string[] | { readonly [index: string]: readonly string[] };
export type Read<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: Refusal };

const good = <T>(value: T): Read<T> => ({ ok: true, value });
const bad = (...errors: string[]): Read<never> => ({ ok: false, errors });

/** DRF's MAX_STRING_LENGTH for numeric fields given as text. */
const MAX_STRING_LENGTH = 1000;

/** IntegerField: `int(re.sub(r'\.0*\s*$', '', str(data)))`. */
function readInteger(raw: unknown): Read<number> {
  if (typeof raw === "string" && raw.length > MAX_STRING_LENGTH) return bad(drfMessages.tooLong);
  if (typeof raw === "number") return Number.isInteger(raw) ? good(raw) : bad(drfMessages.integer);
  if (typeof raw !== "string") return bad(drfMessages.integer);
  const n = parsePyInt(raw.replace(/\.0*\s*$/, ""));
  return n === undefined ? bad(drfMessages.integer) : good(n);
}

/** FloatField: Python `float(data)` (booleans are numbers to Python). */
function readFloat(raw: unknown): Read<number> {
  if (typeof raw === "string" && raw.length > MAX_STRING_LENGTH) return bad(drfMessages.tooLong);
  if (typeof raw === "boolean") return good(raw ? 1 : 0);
  if (typeof raw === "number") return Number.isFinite(raw) ? good(raw) : bad(drfMessages.floatOverflow);
  if (typeof raw !== "string") return bad(drfMessages.float);
  const f = parsePyFloat(raw);
  return f === undefined ? bad(drfMessages.float) : good(f);
}

/** CharField: text, integers and floats (as Python prints them); whitespace trimmed. */
function readString(raw: unknown, spec: FieldSpec): Read<string> {
  const text = typeof raw === "string" ? raw : typeof raw === "number" ? pyStr(raw) : undefined;
  if (text === undefined) return bad(drfMessages.string);
  const trimmed = pyStrip(text);
  if (trimmed === "") return spec.blank ? good("") : bad(drfMessages.blank);
  return good(trimmed);
}

const TRUE = new Set<unknown>(["t", "T", "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "1", 1, true]);
const FALSE = new Set<unknown>(["f", "F", "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "0", 0, false]);
const NULLS = new Set<unknown>(["null", "Null", "NULL", ""]);

/** BooleanField's TRUE_VALUES / FALSE_VALUES (1.0 and 0.0 are 1 and 0 to Python): the value read, or undefined. */
export function drfBoolean(raw: unknown): boolean | undefined {
  return TRUE.has(raw) ? true : FALSE.has(raw) ? false : undefined;
}

/** BooleanField: DRF's exact word lists, and its nulls where the field allows null. */
function readBoolean(raw: unknown, allowNull: boolean): Read<boolean | null> {
  const value = drfBoolean(raw);
  if (value !== undefined) return good(value);
  if (allowNull && NULLS.has(raw)) return good(null);
  return bad(drfMessages.boolean);
}

/**
 * DateTimeField with input_formats ISO_8601: Django's `parse_datetime` (`datetime.fromisoformat`,
 * then its own pattern); a value without a zone is UTC (TIME_ZONE "UTC"). The stored value is
 * the canonical UTC form.
 */
function readDatetime(raw: unknown): Read<string> {
  const micros = typeof raw === "string" ? parseDjangoDatetime(raw) : "invalid";
  if (typeof micros !== "number") return bad(drfMessages.datetime);
  return good(timestampFromMicros(micros));
}

/**
 * PrimaryKeyRelatedField: `queryset.get(pk=data)`; Django turns the pk into `int(value)` (a float is truncated, a
 * text must spell an integer); what int() refuses, and a boolean, is the wrong type. `collection` "none": a model
 * the mock keeps no records of, so no pk exists.
 */
function readPk(raw: unknown, store: Store, collection: CollectionName | "none"): Read<number> {
  let id: number | undefined;
  if (typeof raw === "number") id = Math.trunc(raw);
  else if (typeof raw === "string") id = parsePyInt(raw);
  if (typeof raw === "boolean" || id === undefined || !Number.isFinite(id)) return bad(drfMessages.pkType(raw));
  return collection !== "none" && store.find(collection, id) ? good(id) : bad(drfMessages.pkMissing(raw));
}

/**
 * Where a pk field reads its related record from, where the field's `ref` (its model's reference) does
 * not say: "none" for models the mock keeps no records of. `pks` fields hold users.
 */
export type Relations = Readonly<Record<string, CollectionName | "none">>;

export interface ReadOptions {
  readonly store: Store;
  /** The collection of a pk field whose spec has no `ref`; without either, "none". */
  readonly relations?: Relations;
}

/** DRF's `to_internal_value` for a present, non-null value of `spec`, then its length/range limits. */
export function readValue(name: string, spec: FieldSpec, raw: unknown, options: ReadOptions): Read {
  const read = readKind(name, spec, raw, options);
  // A blank CharField value returns before the validators run (`Field.run_validation`).
  if (!read.ok || read.value === "") return read;
  const v = read.value;
  const limits = (spec.checks ?? []).flatMap((check) =>
    match(check)
      .returnType<readonly string[]>()
      .with({ rule: "max-length" }, (c) => (typeof v === "string" && [...v].length > c.limit ? [c.message] : []))
      .with({ rule: "min-length" }, (c) => (typeof v === "string" && [...v].length < c.limit ? [c.message] : []))
      .with({ rule: "max-value" }, (c) => (typeof v === "number" && v > c.limit ? [c.message] : []))
      .with({ rule: "min-value" }, (c) => (typeof v === "number" && v < c.limit ? [c.message] : []))
      // `validate_<field>` rules run in the route that implements them.
      .with({ rule: "custom" }, () => [])
      .exhaustive(),
  );
  return limits.length > 0 ? bad(...limits) : read;
}

function readKind(name: string, spec: FieldSpec, raw: unknown, options: ReadOptions): Read {
  return (
    match(spec.kind)
      .returnType<Read>()
      .with("integer", () => readInteger(raw))
      .with("float", () => readFloat(raw))
      .with("string", () => readString(raw, spec))
      .with("boolean", () => readBoolean(raw, spec.allowNull ?? spec.nullable))
      .with("datetime", () => readDatetime(raw))
      .with("choice", () => {
        if (raw === "" && spec.blank) return good("");
        const text = pyStr(raw);
        return spec.choices?.includes(text) ? good(text) : bad(drfMessages.choice(raw));
      })
      .with("pk", () => readPk(raw, options.store, options.relations?.[name] ?? spec.ref ?? "none"))
      .with("pks", () => {
        if (!Array.isArray(raw)) return bad(drfMessages.notAList(raw));
        const ids: number[] = [];
        for (const item of raw) {
          const one = readPk(item, options.store, "users");
          if (!one.ok) return one;
          ids.push(one.value);
        }
        return good(ids);
      })
      .with("integers", () => {
        // ListField(child=IntegerField()): strings and dicts are not lists; item errors by index.
        if (!Array.isArray(raw)) return bad(drfMessages.notAList(raw));
        if (spec.nonEmpty && raw.length === 0) return bad(drfMessages.emptyList);
        const byIndex: Record<string, readonly string[]> = {};
        const values = raw.map((item, i) => {
          const one = readInteger(item);
          if (!one.ok) byIndex[String(i)] = one.errors as readonly string[];
          return one.ok ? one.value : 0;
        });
        return Object.keys(byIndex).length > 0 ? { ok: false, errors: byIndex } : good(values);
      })
      // JSONField (json, dict, list): any decoded JSON value is valid JSON; the other kinds take it as it
      // comes (a nested serializer's dict is checked by the caller).
      .with("json", "dict", "list", "strings", "string-or-strings", "nested", "nested-list", () => good(raw))
      .exhaustive()
  );
}
