import type { JsonValue } from "../vocabulary/json.js";
import type { CollectionName } from "./collections.js";

/**
 * The vocabulary of the declared wire contract: what one field of a server serializer is. Every
 * resource in this folder is a `Declaration` written as `as const` data; the mock's presenters and
 * write validation and the client's response types are derived from those declarations.
 *
 * `kind` is the DRF field class the serializer uses (a ModelSerializer maps the model field to it):
 * it fixes both the JSON type on output and how DRF reads a written value.
 */
export type Kind =
  /** IntegerField (also BigIntegerField / AutoField): a JSON integer. */
  | "integer"
  /** FloatField: a JSON number. */
  | "float"
  /** CharField / TextField / a method field returning text. */
  | "string"
  /** BooleanField. */
  | "boolean"
  /** DateTimeField: ISO 8601 as DRF renders it (see `renderTimestamp`). */
  | "datetime"
  /** JSONField: any JSON value. */
  | "json"
  /** A JSON object (a JSONField the server only ever fills with a dict, or a method returning one). */
  | "dict"
  /** A JSON array of any JSON values (an annotation or prediction `result`). */
  | "list"
  /** PrimaryKeyRelatedField: the related record's integer id. */
  | "pk"
  /** ManyRelatedField of primary keys: a list of ids. */
  | "pks"
  /** ListField(child=IntegerField()): a list of integers. */
  | "integers"
  /** ChoiceField: one of `choices`. */
  | "choice"
  /** A list of strings. */
  | "strings"
  /** A string or a list of strings (an action's `permission`). */
  | "string-or-strings"
  /** A nested serializer: `of` renders the object. */
  | "nested"
  /** A nested serializer with many=True (or a method returning such a list). */
  | "nested-list";

/**
 * Who may write a field. DRF drops read-only fields from a write silently; write-only fields are
 * read from a write and never rendered.
 */
export type Access = "read-only" | "read-write" | "write-only";

/**
 * A check DRF runs on a written value after the field has parsed it, with the server's message
 * (complete: limits are written out as the server prints them).
 */
export type Validator =
  /** CharField max_length (the model's max_length, or a MaxLengthValidator). */
  | { readonly rule: "max-length"; readonly limit: number; readonly message: string }
  /** CharField min_length (a MinLengthValidator on the model field). */
  | { readonly rule: "min-length"; readonly limit: number; readonly message: string }
  /** IntegerField min_value (Django's integer range for the column type). */
  | { readonly rule: "min-value"; readonly limit: number; readonly message: string }
  /** IntegerField max_value. */
  | { readonly rule: "max-value"; readonly limit: number; readonly message: string }
  /**
   * A rule the serializer implements in code (`validate_<field>`, a model method it calls): the mock
   * implements it under this name. `source` names the server's function; `message` is its text.
   */
  | { readonly rule: "custom"; readonly name: string; readonly source: string; readonly message: string };

/**
 * When a rendered field is present. Absent `when`: always.
 * - `context`: the serializer context flag the view sets (e.g. `annotations` with `fields=all`);
 * - `evaluated`: the Data Manager column is in the evaluated set (filters, ordering, `fields=all`);
 *   without it the field renders `fallback`, or is left out when `fallback` is `"omit"`;
 * - `registered`: the key is there when the registry entry has it (the action list).
 */
export type Condition =
  | { readonly context: string }
  | { readonly evaluated: string; readonly fallback: JsonValue | "omit" }
  | { readonly registered: true };

export interface FieldSpec {
  readonly kind: Kind;
  /** The rendered value may be null. */
  readonly nullable: boolean;
  /** A written null is accepted (DRF allow_null); when left out, as `nullable`. */
  readonly allowNull?: boolean;
  readonly access: Access;
  /** A create without the field is refused with "This field is required.". */
  readonly required?: boolean;
  /** What the server stores when a create leaves the field out (the model default). */
  readonly default?: JsonValue;
  /** A CharField that accepts "" (allow_blank); other CharFields refuse it. */
  readonly blank?: boolean;
  readonly checks?: readonly Validator[];
  readonly choices?: readonly string[];
  /** A list field that refuses `[]` (DRF allow_empty=False). */
  readonly nonEmpty?: boolean;
  /** The nested declaration of a `nested` / `nested-list` field. */
  readonly of?: Declaration;
  readonly when?: Condition;
  /**
   * A ForeignKey to a record the store keeps: the collection whose id the field holds. A write is
   * checked against it (DRF's PrimaryKeyRelatedField queryset), and so is a seed.
   */
  readonly ref?: CollectionName;
  /**
   * The referenced record owns this one (ForeignKey `on_delete=CASCADE`): the store never holds the
   * record without it (null-able in the model or not), and a seed must name it.
   */
  readonly owner?: true;
  /**
   * How the mock's store keeps a model field. Absent: on every record (the seed loader and the routes
   * fill the default in). `sparse`: only once something writes it; an absent one reads as the default.
   * `computed`: never, the engine derives it from other records (a task's counters). `numbered`: on
   * every record, numbered per project by the store (at creation; a seed's after the load).
   */
  readonly stored?: "sparse" | "computed" | "numbered";
  /**
   * What a seed record without the field holds, where the seed format has a default of its own (the
   * server has no seed format): the mock's, not the model's. The field's comment says why.
   */
  readonly seedDefault?: JsonValue;
}

export interface Declaration {
  /** Where the declaration was read: `label_studio/<file>` and the class. */
  readonly source: string;
  /** The routes (method and path) whose answers render it. */
  readonly routes: readonly string[];
  /**
   * A drf-flex-fields serializer: the root serializer of a request reads `include` (the server's
   * REST_FLEX_FIELDS FIELDS_PARAM) and `omit` from the query string and keeps or drops fields.
   */
  readonly flex: boolean;
  /** In the order the serializer renders them. */
  readonly fields: { readonly [name: string]: FieldSpec };
}

// ------------------------------------------------------------------------------------------------
// Types derived from a declaration

type ChoiceOf<F extends FieldSpec> = F["choices"] extends readonly (infer C)[] ? C : string;

type Of<F extends FieldSpec> = F["of"] extends Declaration ? Rendered<F["of"]> : never;

/**
 * The JSON type each field kind renders (before null-ness): the one kind map. The stored records
 * (records.ts) keep the same types, with read-only arrays and objects and no nested serializers.
 */
export interface KindTypes<F extends FieldSpec> {
  integer: number;
  float: number;
  pk: number;
  string: string;
  datetime: string;
  boolean: boolean;
  json: JsonValue;
  dict: { [key: string]: JsonValue };
  list: JsonValue[];
  pks: number[];
  integers: number[];
  choice: ChoiceOf<F>;
  strings: string[];
  "string-or-strings": string | string[];
  nested: Of<F>;
  "nested-list": Of<F>[];
}

type KindType<F extends FieldSpec> = KindTypes<F>[F["kind"]];

export type FieldType<F extends FieldSpec> = F["nullable"] extends true ? KindType<F> | null : KindType<F>;

type Fields<D extends Declaration> = D["fields"];
type Shown<D extends Declaration> = { [K in keyof Fields<D>]: Fields<D>[K]["access"] extends "write-only" ? never : K }[keyof Fields<D>];
/** Fields present in every answer, and fields only some contexts render. */
type Always<D extends Declaration> = { [K in Shown<D>]: Fields<D>[K] extends { when: Condition } ? never : K }[Shown<D>];
type Sometimes<D extends Declaration> = Exclude<Shown<D>, Always<D>>;

/**
 * The JSON object a declaration renders: every field it always renders, and the conditional ones
 * (fields=all, evaluated columns, registry keys) as optional properties.
 */
export type Rendered<D extends Declaration> = Flat<
  { -readonly [K in Always<D>]: FieldType<Fields<D>[K]> } & { -readonly [K in Sometimes<D>]?: FieldType<Fields<D>[K]> }
>;

/** One object type instead of an intersection (readable hovers, exact type equality). */
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The names of the fields a declaration renders. */
export type FieldName<D extends Declaration> = Shown<D> & string;

/** The fields a write may carry (read-write and write-only). */
export type WritableName<D extends Declaration> = {
  [K in keyof Fields<D>]: Fields<D>[K]["access"] extends "read-only" ? never : K;
}[keyof Fields<D>] &
  string;

// ------------------------------------------------------------------------------------------------
// Building blocks shared by the declarations (DRF's own messages)

/**
 * DRF's MinValueValidator / MaxValueValidator messages. `text` is the limit as Python prints it
 * (a BigIntegerField's bounds are not exact doubles).
 */
export const minValue = (limit: number, text = String(limit)): Validator => ({
  rule: "min-value",
  limit,
  message: `Ensure this value is greater than or equal to ${text}.`,
});
const maxValue = (limit: number, text = String(limit)): Validator => ({
  rule: "max-value",
  limit,
  message: `Ensure this value is less than or equal to ${text}.`,
});

/** A Django IntegerField on PostgreSQL: DRF turns the column's range into min/max validators. */
export const int32: readonly Validator[] = [minValue(-2147483648), maxValue(2147483647)];
/** A Django BigIntegerField on PostgreSQL. */
export const int64: readonly Validator[] = [minValue(-(2 ** 63), "-9223372036854775808"), maxValue(2 ** 63 - 1, "9223372036854775807")];

/** A rule the serializer implements in code, named for the mock's implementation. */
export const custom = (name: string, source: string, message: string): Validator => ({ rule: "custom", name, source, message });

/** A read-only nested list (a `many=True` serializer or a method returning one). */
export const nestedList = <D extends Declaration>(of: D) => ({ kind: "nested-list", nullable: false, access: "read-only", of }) as const;

/** The fields of a model table that declare a default. */
type Defaulted<T> = { [K in keyof T]: T[K] extends { readonly default: unknown } ? K : never }[keyof T];

/**
 * A model table's defaults, by field (what the server stores when a create leaves the field out):
 * the one place a default is written; the seed loader, the routes and the presenters read it here.
 */
export function defaultsOf<T extends Readonly<Record<string, FieldSpec>>>(
  fields: T,
): { readonly [K in Defaulted<T>]: T[K] extends { readonly default: infer V } ? V : never } {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([name, spec]) => (spec.default === undefined ? [] : [[name, spec.default]])),
  ) as never;
}

/** The fields of a model table the store keeps on every record (neither `sparse` nor `computed`) that declare a default. */
type KeptDefaulted<T> = {
  [K in Defaulted<T>]: T[K] extends { readonly stored: string } | { readonly owner: true } ? never : K;
}[Defaulted<T>];

/**
 * What a route's new record starts from: the model's default of every field the store keeps on every
 * record (but the owner references, which the route always gives), objects and lists fresh for each
 * call (the route spreads what was written over it).
 */
export function newRecordDefaults<T extends Readonly<Record<string, FieldSpec>>>(
  fields: T,
): { -readonly [K in KeptDefaulted<T>]: T[K] extends { readonly default: infer V } ? V : never } {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) {
    if (spec.default === undefined || spec.stored !== undefined || spec.owner === true) continue;
    out[name] = typeof spec.default === "object" && spec.default !== null ? structuredClone(spec.default) : spec.default;
  }
  return out as never;
}

/**
 * A sparse stored field's value (`stored: "sparse"`): the record's own, or the model's default where
 * nothing wrote it (a fresh copy of an object or list).
 */
export const orDefault = <V, D>(value: V | undefined, fallback: D): V | D =>
  value !== undefined ? value : typeof fallback === "object" && fallback !== null ? structuredClone(fallback) : fallback;

/** Some fields of a declaration's field table, in the order given (the order they render in). */
export function pick<T extends Readonly<Record<string, FieldSpec>>, K extends keyof T & string>(fields: T, ...names: K[]): Pick<T, K> {
  return Object.fromEntries(names.map((name) => [name, fields[name]])) as Pick<T, K>;
}

/**
 * A labeling result (a JSONField): rendered null where the model holds None, never null on write. A
 * seed's annotation, prediction or draft without one holds no regions (`seedDefault`: the server has
 * no way to import a record without one; a route's create follows the model).
 */
export const resultField = { kind: "list", nullable: true, allowNull: false, access: "read-write", seedDefault: [] } as const;

/**
 * The table of what the store keeps for a resource: the model's fields, with the mock's own (`own`:
 * a field kept in a form of its own, or one the model does not have) in their place or after them.
 * The stored record type (`StoredRecord`, records.ts) and the seed loader's checks derive from it.
 */
export const storedTable = <M extends Readonly<Record<string, FieldSpec>>, O extends Readonly<Record<string, FieldSpec>>>(
  model: M,
  own: O,
): Omit<M, keyof O> & O => ({ ...model, ...own });

/** DRF CharField max_length (the model field's max_length). */
export const maxLength = (limit: number): Validator => ({
  rule: "max-length",
  limit,
  message: `Ensure this field has no more than ${limit} characters.`,
});
/** DRF CharField min_length (a MinLengthValidator on the model field). */
export const minLength = (limit: number): Validator => ({
  rule: "min-length",
  limit,
  message: `Ensure this field has at least ${limit} characters.`,
});
