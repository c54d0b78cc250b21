import { PyException } from "../../src/emulation/exceptions.js";
import { pyJsonLoads } from "../../src/emulation/json-loads.js";
import { QueryDict } from "../../src/emulation/query-dict.js";
import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import type { Declaration, FieldSpec, WritableName } from "../../src/contract/field.js";
import { validationError, type SerializerErrors } from "../errors.js";
import { drfMessages, readValue, type ReadOptions } from "./fields.js";

/**
 * A write validated the way DRF's `Serializer.is_valid` does it, from the contract: every writable
 * field the body carries is read by its kind (required and null rules first, then the field's
 * limits, then the serializer's `validate_<field>` rule), errors are collected per field and
 * answered together as one 400; read-only fields and unknown keys are dropped. A refused write
 * changes nothing.
 */

/** A serializer's `validate_<field>` (a `custom` check of the contract): messages to refuse, or the value to keep. */
export type CustomRule = (value: unknown) => { readonly errors: readonly string[] } | { readonly value: unknown };
export type CustomRules = Readonly<Record<string, CustomRule>>;

export interface WriteOptions extends ReadOptions {
  /** PATCH: absent fields stay as they are (required ones too). */
  readonly partial: boolean;
  /** Strict mode: refuse the keys the server would drop silently (unknown and read-only fields). */
  readonly strict: boolean;
  /** Keys a view reads itself from the body besides the serializer (e.g. `draft_id`). */
  readonly extra?: readonly string[];
  /** Implementations of the contract's `custom` checks, by name. */
  readonly rules?: CustomRules;
}

export type Written<D extends Declaration> = { readonly [K in WritableName<D>]?: JsonValue };

/** What a serializer reads: `request.data`, a dict (JSON) or a QueryDict (a form or multipart body). */
export type WriteInput = Readonly<Record<string, unknown>> | QueryDict;

/** The body as DRF's `Serializer.to_internal_value` requires it: a dict or a form. */
export function writeInput(body: unknown): WriteInput {
  if (body === undefined) return {};
  if (body instanceof QueryDict) return body;
  if (!isPlainObject(body)) throw validationError({ non_field_errors: [drfMessages.notADict(body)] });
  return body;
}

/** A key of the input as `request.data.get(key)` reads it (a form's last value). */
export function inputValue(input: WriteInput, key: string): unknown {
  return input instanceof QueryDict ? input.get(key) : input[key];
}

export function inputHas(input: WriteInput, key: string): boolean {
  return input instanceof QueryDict ? input.has(key) : Object.hasOwn(input, key);
}

/** Validate a write; throws the server's 400 when any field is refused. */
export function validateWrite<D extends Declaration>(decl: D, input: WriteInput, options: WriteOptions): Written<D> {
  const body = input instanceof QueryDict ? input.dict() : input;
  if (options.strict) refuseIgnored(decl, body, options.extra ?? []);
  const { errors, out } = collect(decl, input, options);
  if (Object.keys(errors).length > 0) throw validationError(errors as SerializerErrors);
  return out as Written<D>;
}

/** Every writable field of `decl` read from `input`: the values, and the errors by field. */
function collect(decl: Declaration, input: WriteInput, options: WriteOptions) {
  const errors: Record<string, SerializerErrors[string]> = {};
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(decl.fields) as [string, FieldSpec][]) {
    if (spec.access === "read-only") continue;
    const result = validateField(name, spec, fieldValue(name, spec, input, options.partial), options);
    if (result === undefined) continue;
    if ("errors" in result) errors[name] = result.errors;
    else out[name] = result.value;
  }
  return { errors, out };
}

/** A nested serializer with fields of its own to read: DRF runs it on the dict, its errors nest under the field. */
const readsNested = (spec: FieldSpec): spec is FieldSpec & { of: Declaration } =>
  spec.of !== undefined && Object.values(spec.of.fields).some((f) => f.access !== "read-only");

type FieldResult = { readonly value: unknown } | { readonly errors: SerializerErrors[string] } | undefined;

/** `empty`: DRF's marker for a value the input does not give. */
const EMPTY = Symbol("empty");

/**
 * DRF's `Field.get_value`. From JSON: the key's value. From a form (`html.is_html_input`): a missing
 * key is "empty" on a partial update, else the field's `default_empty_html` (False for a BooleanField);
 * "" is None for a nullable field, "empty" for an optional one; a JSONField's text is JSON to parse;
 * a list field takes every value of the key. A relation reads "" as None.
 */
function fieldValue(name: string, spec: FieldSpec, input: WriteInput, partial: boolean): unknown {
  if (!(input instanceof QueryDict)) {
    const raw = Object.hasOwn(input, name) ? input[name] : EMPTY;
    return spec.kind === "pk" && raw === "" ? null : raw;
  }
  if (!input.has(name)) return partial || spec.kind !== "boolean" ? EMPTY : false;
  if (spec.kind === "pks" || spec.kind === "integers") return [...input.getList(name)];
  const raw = input.get(name);
  if (raw === "" && (spec.allowNull ?? spec.nullable)) return spec.blank ? "" : null;
  if (raw === "" && !spec.required) return spec.blank ? "" : EMPTY;
  if (spec.kind === "pk" && raw === "") return null;
  if (["json", "dict", "list"].includes(spec.kind) && typeof raw === "string") return { jsonText: raw };
  return raw;
}

/** One field: `validate_empty_values`, `run_validation`, then `validate_<field>`; undefined when absent. */
function validateField(name: string, spec: FieldSpec, given: unknown, options: WriteOptions): FieldResult {
  if (given === EMPTY) {
    if (options.partial || !spec.required) return undefined;
    return { errors: [drfMessages.required] };
  }
  let raw = given;
  if (isPlainObject(raw) && typeof raw["jsonText"] === "string" && Object.keys(raw).length === 1) {
    // A form's JSONField value (`JSONString`): json.loads of the text.
    try {
      raw = pyJsonLoads(raw["jsonText"]);
    } catch (error) {
      if (error instanceof PyException) return { errors: [drfMessages.json] };
      throw error;
    }
  }
  let value: unknown = null;
  if (raw === null) {
    if (!(spec.allowNull ?? spec.nullable)) return { errors: [drfMessages.null] };
  } else if (spec.kind === "nested") {
    // A nested serializer: a dict is validated field by field (the view then decides), anything else refused as a whole.
    if (!isPlainObject(raw)) return { errors: { non_field_errors: [drfMessages.notADict(raw)] } };
    if (readsNested(spec)) {
      const nested = collect(spec.of, raw, { ...options, partial: false });
      if (Object.keys(nested.errors).length > 0) return { errors: nested.errors as SerializerErrors[string] };
      value = nested.out;
    } else value = raw;
  } else {
    const read = readValue(name, spec, raw, options);
    if (!read.ok) return { errors: read.errors as SerializerErrors[string] };
    value = read.value;
  }
  for (const check of spec.checks ?? []) {
    if (check.rule !== "custom") continue;
    const rule = options.rules?.[check.name];
    if (!rule) continue;
    const ruled = rule(value);
    if ("errors" in ruled) return ruled;
    value = ruled.value;
  }
  return { value };
}

/** Strict mode: what DRF would drop without a word (keys it does not know, read-only fields) is a 400. */
function refuseIgnored(decl: Declaration, body: Readonly<Record<string, unknown>>, extra: readonly string[]): void {
  const writable = Object.entries(decl.fields).flatMap(([name, spec]) => (spec.access === "read-only" ? [] : [name]));
  const known = [...writable, ...extra].sort();
  const errors: Record<string, string[]> = {};
  for (const key of Object.keys(body)) {
    if (known.includes(key)) continue;
    const readOnly = Object.hasOwn(decl.fields, key);
    errors[key] = [
      readOnly
        ? `expected a writable field, found the read-only field "${key}", which the server ignores`
        : `expected a known field (${known.join(", ")}), found "${key}", which the server ignores`,
    ];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
