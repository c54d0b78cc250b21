import { FILTER_PREFIX, type Conjunction } from "../query/nodes.js";
import { DATA_PREFIX, inListColumns } from "../vocabulary/columns.js";
import { isPlainObject, type JsonValue } from "../vocabulary/json.js";
import { operatorNames, operators } from "../vocabulary/operators.js";
import { traversalName, traversalRefusal, TRAVERSAL_EXPECTED, type RawCondition } from "./parse-condition.js";
import { childAt, field, has, item, type Cursor } from "./parse-cursor.js";
import { checkUnion, reportUnion, type InlineFilters } from "./parse-filters-inline.js";
import { pydanticError } from "../emulation/pydantic.js";
import { pyRepr, pyTruthy, pyType } from "../emulation/python-json.js";
import type { Report } from "./parse-report.js";
import { legacyUserOperators, userColumns, userIdOperators } from "./user-filters.js";
import { deepEqual } from "./parse-values.js";
import { parsePyInt } from "../emulation/python-text.js";
import { castBoolWord } from "../emulation/python.js";

/**
 * `data.filters` of a view being saved, read the way the server's ViewSerializer does
 * (`to_internal_value` → FilterGroupSerializer / FilterSerializer / ChildFilterSerializer), then
 * read back for use (`FilterGroupSerializer.to_representation`, which rewrites legacy user
 * filters) and checked by `PrepareParams` as every use of the view does.
 */
export function viewFilters(data: Readonly<Record<string, unknown>>, report: Report): InlineFilters | undefined {
  if (!has(data, "filters")) return undefined;
  const raw = data.filters;
  if (!isPlainObject(raw)) {
    report.refuse(
      "crash",
      "filters",
      'an object { "conjunction", "items" } ({} for no filters)',
      raw,
      `'${pyType(raw)}' object has no attribute 'get'`,
    );
    return undefined;
  }
  // Only a truthy conjunction creates a filter group: `"filters": {}` is the documented "no filters".
  if (!pyTruthy(raw.conjunction)) {
    if (pyTruthy(raw.items)) {
      report.soft(
        "filters.conjunction",
        "ignored",
        '"and" or "or": without a conjunction the server saves the view without its filters',
        raw.conjunction,
      );
    }
    return undefined;
  }
  const itemsAt: Cursor = { path: "filters.items", loc: ["filters", "items"], drf: ["filter_group", "filters"] };
  let list: readonly unknown[] = [];
  if (has(raw, "items")) {
    const items = raw.items;
    if (Array.isArray(items)) list = items;
    else if (typeof items === "string" || isPlainObject(items)) {
      // `for f in filters['items']` walks a string's characters or a dict's keys, then calls .get on them.
      if (pyTruthy(items)) {
        report.refuse("crash", itemsAt.path, "a list of filter items", items, "'str' object has no attribute 'get'");
        return undefined;
      }
      report.soft(itemsAt.path, "evaluated", "a list of filter items (the server reads this empty value as no items)", items);
    } else {
      report.refuse("crash", itemsAt.path, "a list of filter items", items, `'${pyType(items)}' object is not iterable`);
      return undefined;
    }
  }
  const converted = list.map((x, i) => convert(x, item(itemsAt, i), report));
  if (converted.some((p) => p === undefined)) return undefined;
  // Save: DRF validates the group and every item, collecting all field errors into one 400.
  const conjAt: Cursor = { path: "filters.conjunction", loc: ["filters", "conjunction"], drf: ["filter_group", "conjunction"] };
  const conj = charField(raw.conjunction, conjAt, '"and" or "or"', report);
  const saved = (converted as Payload[]).map((p) => validateItem(p, false, report));
  if (conj === undefined || saved.some((s) => s === undefined)) return undefined;
  // Use: PrepareParams checks what was stored.
  let conjunction: Conjunction | undefined;
  if (conj === "and" || conj === "or") conjunction = conj;
  else
    report.pydantic(conjAt.path, '"and" or "or" (the server saves this view but answers 500 whenever it is used)', conj, [
      pydanticError(conjAt.loc, "enum", conj),
    ]);
  const used = (saved as Saved[]).map((s) => use(s, report));
  if (conjunction === undefined || used.some((u) => u === undefined)) return undefined;
  return { conjunction, items: used as RawCondition[] };
}

/** What `_convert_filter` builds from one item: missing fields become "" (and the value {}). */
interface Payload {
  readonly at: Cursor;
  readonly source: Readonly<Record<string, unknown>>;
  readonly childKey: "child_filters" | "child_filter" | undefined;
  /** Converted children, or the raw non-list value the serializer will refuse. */
  readonly children: readonly Payload[] | { readonly notAList: unknown } | undefined;
}

function convert(x: unknown, at: Cursor, report: Report): Payload | undefined {
  if (!isPlainObject(x)) {
    report.refuse("crash", at.path, "a filter object { filter, operator, type, value }", x, `'${pyType(x)}' object has no attribute 'get'`);
    return undefined;
  }
  let childKey: Payload["childKey"];
  let rawChildren: unknown;
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
  } else if (has(x, "child_filter")) {
    childKey = "child_filter";
    rawChildren = x.child_filter === null ? [] : [x.child_filter];
  }
  if (childKey === undefined) return { at, source: x, childKey, children: undefined };
  if (!Array.isArray(rawChildren)) return { at, source: x, childKey, children: { notAList: rawChildren } };
  const children = rawChildren.map((c, j) => convert(c, childAt(at, childKey as "child_filters", j), report));
  if (children.some((c) => c === undefined)) return undefined;
  return { at, source: x, childKey, children: children as Payload[] };
}

interface Saved {
  readonly payload: Payload;
  readonly filter: string;
  readonly operator: string;
  readonly type: string;
  readonly children: readonly Saved[];
}

const MAX_LENGTH = 1024;
/** `DATA_MANAGER_LIST_FILTER_MAX_VALUES` (default 5000). */
export const LIST_MAX_VALUES = 5000;

/** A DRF CharField (trim_whitespace, max_length 1024, no blank, no null); undefined after a save error. */
function charField(value: unknown, at: Cursor, expected: string, report: Report, missing = false): string | undefined {
  const refuse = (detail: string) => report.save(at.path, expected, missing ? undefined : value, detail, at.drf);
  if (value === null) return (refuse("This field may not be null."), undefined);
  if (typeof value !== "string" && typeof value !== "number") return (refuse("Not a valid string."), undefined);
  const text = typeof value === "number" ? pyRepr(value) : value;
  if (typeof value === "number")
    report.soft(at.path, "evaluated", `${expected} (the server stores the number as the text "${text}")`, value);
  const trimmed = text.trim();
  if (trimmed === "") return (refuse("This field may not be blank."), undefined);
  if (trimmed !== text)
    report.soft(at.path, "evaluated", `${expected} without surrounding whitespace (the server trims it when it saves the view)`, value);
  if ([...trimmed].length > MAX_LENGTH) return (refuse(`Ensure this field has no more than ${MAX_LENGTH} characters.`), undefined);
  return trimmed;
}

const FIELD_EXPECTED = {
  filter: 'a string "filter:tasks:<column>"',
  operator: "an operator name (string)",
  type: "a type name (string)",
} as const;

function validateItem(p: Payload, isChild: boolean, report: Report): Saved | undefined {
  const { at, source } = p;
  // ChildFilterSerializer refuses a nested child before it looks at the child's own fields.
  if (isChild && p.children !== undefined && pyTruthy("notAList" in p.children ? p.children.notAList : p.children)) {
    const nestedAt = field(at, p.childKey ?? "child_filters", "child_filters");
    report.save(
      nestedAt.path,
      "no child filters inside a child filter (one level only)",
      source[p.childKey ?? "child_filters"],
      "Child filters cannot contain nested child filters.",
      nestedAt.drf,
    );
    return undefined;
  }
  let ok = true;
  const strings: Partial<Record<keyof typeof FIELD_EXPECTED, string>> = {};
  for (const key of ["filter", "operator", "type"] as const) {
    const f = field(at, key, key === "filter" ? "column" : key);
    const missing = !has(source, key);
    const text = charField(missing ? "" : source[key], f, FIELD_EXPECTED[key], report, missing);
    if (text === undefined) ok = false;
    else strings[key] = text;
  }
  const column = strings.filter;
  if (column !== undefined) {
    const f = field(at, "filter", "column");
    if (!column.startsWith(FILTER_PREFIX)) {
      report.save(f.path, `"${FILTER_PREFIX}<column>"`, column, `Filter "${column}" should start with "${FILTER_PREFIX}"`, f.drf);
      ok = false;
    } else {
      const refusal = traversalRefusal(traversalName(column));
      if (refusal !== undefined) {
        report.save(f.path, TRAVERSAL_EXPECTED, column, refusal, f.drf);
        ok = false;
      }
    }
  }
  let children: (Saved | undefined)[] = [];
  if (p.children !== undefined) {
    const c = field(at, p.childKey ?? "child_filters", "child_filters");
    if ("notAList" in p.children) {
      const value = p.children.notAList;
      if (value === null) report.save(c.path, "a list of filter items", null, "This field may not be null.", c.drf);
      else
        report.save(c.path, "a list of filter items", value, `Expected a list of items but got type "${pyType(value)}".`, [
          ...c.drf,
          "non_field_errors",
        ]);
      ok = false;
    } else {
      children = p.children.map((child) => validateItem(child, true, report));
      if (children.some((s) => s === undefined)) ok = false;
    }
  }
  if (!ok) return undefined;
  // FilterSerializer.validate: runs once every field (children included) is valid; stops at the first problem.
  if (!objectLevel(p, strings.filter as string, strings.operator as string, report)) return undefined;
  return {
    payload: p,
    filter: strings.filter as string,
    operator: strings.operator as string,
    type: strings.type as string,
    children: children as Saved[],
  };
}

const payloadValue = (p: Payload): unknown => (Object.hasOwn(p.source, "value") ? p.source.value : {});
const isPrimitive = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** The column after `filter:tasks:` and one `-` (`_column_filter_field_name`), or undefined without the prefix. */
function fieldName(column: string): string | undefined {
  if (!column.startsWith(FILTER_PREFIX)) return undefined;
  const name = column.slice(FILTER_PREFIX.length);
  return name.startsWith("-") ? name.slice(1) : name;
}

/** The operators whose value is a list (in_list, not_in_list). */
const LIST_OPERATORS: ReadonlySet<string> = new Set(operatorNames.filter((op) => operators[op].arity === "list"));

function objectLevel(p: Payload, column: string, operator: string, report: Report): boolean {
  const value = payloadValue(p);
  const v = field(p.at, "value");
  const refuse = (at: Cursor, expected: string, found: unknown, detail: string) => (
    report.save(at.path, expected, found, detail, at.drf),
    false
  );
  if (LIST_OPERATORS.has(operator)) {
    if (!Array.isArray(value)) return refuse(v, "a JSON array", value, "`in_list` / `not_in_list` require a JSON array.");
    if (value.length > LIST_MAX_VALUES)
      return refuse(v, `at most ${LIST_MAX_VALUES} values`, value, `List exceeds maximum size of ${LIST_MAX_VALUES}.`);
    if (!value.every(isPrimitive))
      return refuse(v, "a list of strings, numbers or booleans", value, "List elements must be strings or numbers.");
    const name = fieldName(column);
    if (name === undefined || !(name.startsWith(DATA_PREFIX) || (inListColumns as readonly string[]).includes(name))) {
      return refuse(
        field(p.at, "filter", "column"),
        `a column that supports ${operator} (${inListColumns.join(", ")} or data.<key>)`,
        column,
        "`is any of` / `is none of` support Task ID, Inner ID, annotation/prediction counters, and task.data.* fields.",
      );
    }
    return true;
  }
  const name = fieldName(column);
  const allowed = name === undefined ? undefined : userColumns.get(name);
  if (name === undefined || allowed === undefined) return true;
  const opAt = field(p.at, "operator");
  if (Array.isArray(value)) {
    if (!userIdOperators.has(operator)) {
      const ops = [...userIdOperators].sort().join(", ");
      return refuse(opAt, `${ops} for a list of user ids`, operator, `List-valued user filters support only these operators: ${ops}.`);
    }
  } else if (!allowed.includes(operator) && !Object.hasOwn(legacyUserOperators, operator)) {
    const label = [...allowed].sort().join(", ");
    return refuse(
      opAt,
      `an operator of a user filter (${label})`,
      operator,
      `User filter "${name}" does not support operator "${operator}". Allowed: ${label}.`,
    );
  }
  if (userIdOperators.has(operator)) {
    const problem = userIdsProblem(value);
    if (problem !== undefined) return refuse(v, "a user id or a list of user ids", value, problem);
  }
  return true;
}

/** An integer, or a string Python's `int()` reads as one (no float truncated, unlike `int()` itself). */
function integerId(candidate: unknown): number | undefined {
  if (typeof candidate === "number") return Number.isInteger(candidate) ? candidate : undefined;
  return typeof candidate === "string" ? parsePyInt(candidate) : undefined;
}

/** `parse_user_filter_ids`: the server's 400 text, or undefined when every value is an integer id. */
function userIdsProblem(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (Array.isArray(value) && value.length > LIST_MAX_VALUES) return `User filter list exceeds maximum size of ${LIST_MAX_VALUES}.`;
  const raw = Array.isArray(value) ? value : [value];
  return raw.every((v) => typeof v !== "boolean" && integerId(v) !== undefined) ? undefined : "User filter values must be integer ids.";
}

/** `normalize_persisted_user_filter`: how the server reads a stored user filter back. */
function readBackUserFilter(name: string, operator: string, value: JsonValue): { operator: string; value: JsonValue } {
  const allowed = userColumns.get(name) ?? [];
  const noop = { operator: "contains", value: Object.freeze([]) as JsonValue };
  if (operator === "empty") {
    if (!allowed.includes("empty")) return noop;
    let flag: unknown = value;
    if (typeof value === "string") {
      const known = castBoolWord(value);
      if (known === undefined) return noop;
      flag = known;
    }
    if (typeof flag === "boolean") return { operator, value: flag };
    if (flag === 0 || flag === 1) return { operator, value: flag === 1 };
    return noop;
  }
  const normalized = legacyUserOperators[operator] ?? operator;
  if (!userIdOperators.has(normalized)) return noop;
  const ids: number[] = [];
  const collect = (c: unknown): void => {
    if (ids.length >= LIST_MAX_VALUES || c === null || c === undefined || typeof c === "boolean") return;
    if (Array.isArray(c)) {
      for (const item of c) collect(item);
      return;
    }
    if (isPlainObject(c)) {
      if (Array.isArray(c.items)) collect(c.items);
      else if (Object.hasOwn(c, "id")) collect(c.id);
      else if (Object.hasOwn(c, "value")) collect(c.value);
      return;
    }
    const id = integerId(c);
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  };
  collect(value);
  const collection = Array.isArray(value) || (isPlainObject(value) && Array.isArray(value.items));
  return { operator: normalized, value: collection || ids.length === 0 ? Object.freeze(ids) : (ids[0] as number) };
}

/** A saved item as each use of the view reads it: user filters rewritten, then PrepareParams' checks. */
function use(s: Saved, report: Report): RawCondition | undefined {
  const { at } = s.payload;
  const children = s.children.map((c) => use(c, report));
  const stored = payloadValue(s.payload) as JsonValue;
  let operator = s.operator;
  let value = stored;
  const name = fieldName(s.filter);
  if (name !== undefined && userColumns.has(name)) {
    const back = readBackUserFilter(name, operator, stored);
    if (back.operator !== operator || !deepEqual(back.value, stored)) {
      report.soft(
        `${at.path}.operator`,
        "evaluated",
        `a user filter as the server reads it back: ${back.operator} ${JSON.stringify(back.value)} (legacy operators and values are rewritten)`,
        `${operator} ${JSON.stringify(stored)}`,
      );
      ({ operator, value } = back);
    }
  }
  const missing = !Object.hasOwn(s.payload.source, "value");
  const note = missing
    ? " (the server stores {} for a missing value and answers 500 whenever the view is used)"
    : " (the server saves this view but answers 500 whenever it is used)";
  const v = field(at, "value");
  const kept = reportUnion(checkUnion(value, v), v, missing ? undefined : value, report, note);
  if (kept === undefined || children.some((c) => c === undefined)) return undefined;
  return { at, filter: s.filter, operator, type: s.type, value: kept, children: children as RawCondition[] };
}
