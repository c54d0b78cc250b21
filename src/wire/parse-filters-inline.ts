import type { Conjunction } from "../query/nodes.js";
import { isPlainObject, type JsonValue } from "../vocabulary/json.js";
import { traversalName, traversalRefusal, TRAVERSAL_EXPECTED, type RawCondition } from "./parse-condition.js";
import { childAt, field, has, item, keyPath, type Cursor } from "./parse-cursor.js";
import { modelTypeError, pydanticError, valueError, type PydanticError } from "../emulation/pydantic.js";
import type { Report } from "./parse-report.js";

/**
 * `filters` of a request body (or the `query` URL parameter) as the server's pydantic models
 * read it (`Filters`, `Filter`, `FilterIn` in data_manager/prepare_params.py): shape errors are
 * collected into one 500, a `__` traversal in a `filter:tasks:` column raises a 400 at once.
 */
export function inlineFilters(body: Readonly<Record<string, unknown>>, report: Report): InlineFilters | undefined {
  if (!has(body, "filters") || body.filters === null) return undefined;
  const raw = body.filters;
  const at: Cursor = { path: "filters", loc: ["filters"], drf: [] };
  if (!isPlainObject(raw)) {
    report.pydantic(at.path, FILTERS_EXPECTED, raw, [modelTypeError(at.loc, "Filters", raw)]);
    return undefined;
  }
  let conjunction: Conjunction | undefined;
  const conj = field(at, "conjunction");
  if (!has(raw, "conjunction")) {
    report.pydantic(conj.path, '"and" or "or"', undefined, [pydanticError(conj.loc, "missing", raw)]);
  } else if (raw.conjunction === "and" || raw.conjunction === "or") {
    conjunction = raw.conjunction;
  } else {
    report.pydantic(conj.path, '"and" or "or"', raw.conjunction, [pydanticError(conj.loc, "enum", raw.conjunction)]);
  }
  const itemsAt = field(at, "items");
  let checked: Checked[] = [];
  if (!has(raw, "items")) {
    report.pydantic(itemsAt.path, "a list of filter items ([] for none)", undefined, [pydanticError(itemsAt.loc, "missing", raw)]);
  } else if (!Array.isArray(raw.items)) {
    report.pydantic(itemsAt.path, "a list of filter items ([] for none)", raw.items, [pydanticError(itemsAt.loc, "list_type", raw.items)]);
  } else {
    checked = raw.items.map((x: unknown, i: number) => checkFilter(x, item(itemsAt, i), report));
  }
  for (const key of Object.keys(raw)) {
    if (key !== "conjunction" && key !== "items")
      report.soft(keyPath("filters", key), "ignored", "only conjunction and items in filters", raw[key]);
  }
  // Filters.validate_one_nesting_level runs only once every field is valid; it raises on the first offender.
  let first = true;
  for (const root of checked) {
    for (const child of root.children) {
      if (child.childCount === 0) continue;
      const nested = child.childKey === "child_filter" ? `${child.at.path}.child_filter` : `${child.at.path}.child_filters`;
      const errors = first ? [valueError(at.loc, "Child filters cannot contain nested child filters", raw)] : [];
      report.pydantic(nested, "no child filters inside a child filter (one level only)", child.rawChildren, errors, "filters");
      first = false;
    }
  }
  if (conjunction === undefined || checked.some((c) => c.condition === undefined)) return undefined;
  return { conjunction, items: checked.map((c) => c.condition as RawCondition) };
}

export interface InlineFilters {
  readonly conjunction: Conjunction;
  readonly items: readonly RawCondition[];
}

export const FILTERS_EXPECTED = 'an object { "conjunction": "and" | "or", "items": [...] } or null';
const ITEM_KEYS = new Set(["filter", "operator", "type", "value", "child_filters", "child_filter"]);
const FIELD_EXPECTED = {
  filter: 'a string "filter:tasks:<column>"',
  operator: "an operator name (string)",
  type: "a type name (string)",
} as const;
export const VALUE_EXPECTED = 'a number, string, boolean, list or { "min", "max" } (null is refused)';

interface Checked {
  readonly at: Cursor;
  /** Undefined when this item or one of its children has a shape error. */
  readonly condition: RawCondition | undefined;
  readonly children: readonly Checked[];
  readonly childKey: "child_filters" | "child_filter" | undefined;
  readonly childCount: number;
  readonly rawChildren: unknown;
}

function checkFilter(x: unknown, at: Cursor, report: Report): Checked {
  if (!isPlainObject(x)) {
    report.pydantic(at.path, "a filter object { filter, operator, type, value }", x, [modelTypeError(at.loc, "Filter", x)]);
    return { at, condition: undefined, children: [], childKey: undefined, childCount: 0, rawChildren: undefined };
  }
  // Filter.normalize_child_filters: the plural wins; a null singular means no child.
  let childKey: Checked["childKey"];
  let list: readonly unknown[] = [];
  let rawChildren: unknown;
  let ok = true;
  if (has(x, "child_filters")) {
    childKey = "child_filters";
    rawChildren = x.child_filters;
    if (has(x, "child_filter")) {
      report.soft(
        `${at.path}.child_filter`,
        "ignored",
        "child_filters or child_filter, not both (the server uses child_filters)",
        x.child_filter,
      );
    }
    if (Array.isArray(rawChildren)) list = rawChildren;
    else {
      const c = field(at, "child_filters");
      report.pydantic(c.path, "a list of filter items", rawChildren, [pydanticError(c.loc, "list_type", rawChildren)]);
      ok = false;
    }
  } else if (has(x, "child_filter")) {
    childKey = "child_filter";
    rawChildren = x.child_filter;
    list = x.child_filter === null ? [] : [x.child_filter];
  }
  const children = list.map((c, j) => checkFilter(c, childAt(at, childKey as "child_filters", j), report));
  const strings: Partial<Record<keyof typeof FIELD_EXPECTED, string>> = {};
  for (const key of ["filter", "operator", "type"] as const) {
    const f = field(at, key);
    if (!has(x, key)) {
      report.pydantic(f.path, FIELD_EXPECTED[key], undefined, [pydanticError(f.loc, "missing", x)]);
      ok = false;
    } else if (typeof x[key] !== "string") {
      report.pydantic(f.path, FIELD_EXPECTED[key], x[key], [pydanticError(f.loc, "string_type", x[key])]);
      ok = false;
    } else {
      strings[key] = x[key];
    }
  }
  const column = strings.filter;
  // validate_filter_column_no_fk_traversal: only prefixed names reach the ORM, so only they are guarded.
  if (column?.startsWith("filter:tasks:")) {
    const refusal = traversalRefusal(traversalName(column));
    if (refusal !== undefined) report.refuse("raise", `${at.path}.filter`, TRAVERSAL_EXPECTED, column, refusal);
  }
  const v = field(at, "value");
  let value: JsonValue | undefined;
  if (!has(x, "value")) {
    report.pydantic(v.path, VALUE_EXPECTED, undefined, [pydanticError(v.loc, "missing", x)]);
  } else {
    value = checkValue(x.value, v, report);
  }
  for (const key of Object.keys(x)) {
    if (!ITEM_KEYS.has(key))
      report.soft(keyPath(at.path, key), "ignored", "only filter, operator, type, value and child_filters in a filter item", x[key]);
  }
  const valid = ok && value !== undefined && children.every((c) => c.condition !== undefined);
  const condition: RawCondition | undefined = valid
    ? {
        at,
        filter: strings.filter as string,
        operator: strings.operator as string,
        type: strings.type as string,
        value: value as JsonValue,
        children: children.map((c) => c.condition as RawCondition),
      }
    : undefined;
  return { at, condition, children, childKey, childCount: list.length, rawChildren };
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export type UnionCheck =
  | { readonly ok: true; readonly value: JsonValue; readonly dropped: readonly string[] }
  | { readonly ok: false; readonly errors: readonly PydanticError[]; readonly range: boolean };

/**
 * `value: Union[StrictInt, StrictFloat, StrictBool, StrictStr, FilterIn, list]` of the server's
 * `Filter`. On success: the value the server keeps (FilterIn drops extra keys, listed in
 * `dropped`); on failure: pydantic's errors, one per union member.
 */
export function checkUnion(value: unknown, at: Cursor): UnionCheck {
  if (isNumber(value) || typeof value === "boolean" || typeof value === "string" || Array.isArray(value)) {
    return { ok: true, value: value as JsonValue, dropped: [] };
  }
  const loc = at.loc;
  const tagged = (tag: string) => [...loc, tag];
  const scalarErrors: PydanticError[] = [
    pydanticError(tagged("int"), "int_type", value),
    pydanticError(tagged("float"), "float_type", value),
    pydanticError(tagged("bool"), "bool_type", value),
    pydanticError(tagged("str"), "string_type", value),
  ];
  const listError = pydanticError(tagged("list[any]"), "list_type", value);
  if (!isPlainObject(value)) {
    return { ok: false, errors: [...scalarErrors, modelTypeError(tagged("FilterIn"), "FilterIn", value), listError], range: false };
  }
  const endErrors: PydanticError[] = [];
  for (const end of ["min", "max"] as const) {
    const at = [...loc, "FilterIn", end];
    const e = value[end];
    if (!has(value, end)) endErrors.push(pydanticError(at, "missing", value));
    else if (!isNumber(e) && typeof e !== "string") {
      endErrors.push(
        pydanticError([...at, "int"], "int_type", e),
        pydanticError([...at, "float"], "float_type", e),
        pydanticError([...at, "str"], "string_type", e),
      );
    }
  }
  if (endErrors.length > 0) return { ok: false, errors: [...scalarErrors, ...endErrors, listError], range: true };
  const dropped = Object.keys(value).filter((k) => k !== "min" && k !== "max");
  return { ok: true, value: Object.freeze({ min: value.min as number | string, max: value.max as number | string }), dropped };
}

/** Reports the outcome of `checkUnion` for the value at `at`; `found` is what the body held there. */
export function reportUnion(check: UnionCheck, at: Cursor, found: unknown, report: Report, note = ""): JsonValue | undefined {
  if (!check.ok) {
    const expected = check.range ? `${VALUE_EXPECTED}; a range needs "min" and "max", each a number or a string` : VALUE_EXPECTED;
    report.pydantic(at.path, `${expected}${note}`, found, check.errors);
    return undefined;
  }
  for (const key of check.dropped) {
    report.soft(
      keyPath(at.path, key),
      "ignored",
      'only "min" and "max" in a range (the server drops other keys)',
      (found as Record<string, unknown>)[key],
    );
  }
  return check.value;
}

function checkValue(value: unknown, at: Cursor, report: Report): JsonValue | undefined {
  return reportUnion(checkUnion(value, at), at, value, report);
}
