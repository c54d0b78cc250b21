import type { JsonValue } from "../../src/vocabulary/json.js";
import type { Declaration, FieldSpec, WritableName } from "../../src/wire/contract/field.js";
import { validationError, type ValidationErrors } from "../errors.js";
import { isPlainObject } from "../http.js";
import { drfMessages, readValue, type ReadOptions } from "./drf-fields.js";

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

/** The body as DRF's `Serializer.to_internal_value` requires it: a dict. */
export function bodyDict(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw validationError({ non_field_errors: [drfMessages.notADict(body)] });
  return body;
}

/** Validate a write; throws the server's 400 when any field is refused. */
export function validateWrite<D extends Declaration>(decl: D, body: Readonly<Record<string, unknown>>, options: WriteOptions): Written<D> {
  if (options.strict) refuseIgnored(decl, body, options.extra ?? []);
  const errors: Record<string, ValidationErrors[string]> = {};
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(decl.fields) as [string, FieldSpec][]) {
    if (spec.access === "read-only") continue;
    const result = validateField(name, spec, body, options);
    if (result === undefined) continue;
    if ("errors" in result) errors[name] = result.errors;
    else out[name] = result.value;
  }
  if (Object.keys(errors).length > 0) throw validationError(errors as ValidationErrors);
  return out as Written<D>;
}

type FieldResult = { readonly value: unknown } | { readonly errors: ValidationErrors[string] } | undefined;

/** One field: `validate_empty_values`, `run_validation`, then `validate_<field>`; undefined when absent. */
function validateField(name: string, spec: FieldSpec, body: Readonly<Record<string, unknown>>, options: WriteOptions): FieldResult {
  if (!Object.hasOwn(body, name)) {
    if (options.partial || !spec.required) return undefined;
    return { errors: [drfMessages.required] };
  }
  const raw = body[name];
  let value: unknown = null;
  if (raw === null) {
    if (!(spec.allowNull ?? spec.nullable)) return { errors: [drfMessages.null] };
  } else if (spec.kind === "nested") {
    // A nested serializer: a dict is validated field by field (the view then decides), anything else refused as a whole.
    if (!isPlainObject(raw)) return { errors: { non_field_errors: [drfMessages.notADict(raw)] } };
    value = raw;
  } else {
    const read = readValue(name, spec, raw, options);
    if (!read.ok) return { errors: read.errors as ValidationErrors[string] };
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
