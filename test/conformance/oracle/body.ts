/**
 * A raw request body read the way the server reads it
 * (docs/reference/request.md#where-the-query-comes-from), independently of src/wire/parse.ts:
 * selectedItems decoding and defaults, the pydantic shape (500 on a bad shape), the `__` traversal
 * guard (400), prefix stripping, `child_filter`, ordering[0].
 */
import type { Dataset } from "../../../src/semantics/records.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import { oracleQuery } from "./evaluate.js";
import { factsOf } from "./facts.js";
import type { Outcome, PossibleError } from "./outcome.js";
import type { OCondition, OLine, OOrdering, OQuery } from "./query.js";

type Json = JsonValue | undefined;
const isObject = (v: Json): v is { readonly [k: string]: JsonValue } => typeof v === "object" && v !== null && !Array.isArray(v);

class BodyProblem extends Error {
  constructor(
    readonly status: 400 | 500 | "unclear",
    message: string,
  ) {
    super(message);
  }
}
const fail = (status: BodyProblem["status"], message: string): never => {
  throw new BodyProblem(status, message);
};

const TRAVERSAL_ALLOWED = new Set(["updated_by__active_organization", "annotations__completed_by"]);

/** `preprocess_field_name`: strip `-`, then `filter:` and `tasks:` at the start, then a `-` (once). */
export function preprocessName(raw: string): { column: string; descending: boolean } {
  let name = raw;
  let descending = false;
  if (name.startsWith("-")) {
    descending = true;
    name = name.slice(1);
  }
  for (const prefix of ["filter:", "tasks:"]) if (name.startsWith(prefix)) name = name.slice(prefix.length);
  if (!descending && name.startsWith("-")) {
    descending = true;
    name = name.slice(1);
  }
  return { column: name, descending };
}

/**
 * Collects what PrepareParams (pydantic v2) finds. Shape errors are collected and answered as 500
 * at the end; the `__` traversal guard raises a DRF error from inside a validator, which pydantic
 * does not collect, so any traversal it reaches is the answer (400).
 */
class Reader {
  readonly problems: BodyProblem[] = [];
  traversal: string | undefined;
  allowListed: string | undefined;

  problem(status: 500 | "unclear", message: string): void {
    this.problems.push(new BodyProblem(status, message));
  }

  guard(raw: string): void {
    const { column } = preprocessName(raw);
    if (!column.includes("__") || column.startsWith("data.")) return;
    if (TRAVERSAL_ALLOWED.has(column)) this.allowListed ??= column;
    else this.traversal ??= `"__" is not generally allowed in filters (${column})`;
  }

  ids(v: Json, path: string): number[] {
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      this.problem(500, `${path}: not a list`);
      return [];
    }
    return (v as readonly JsonValue[]).flatMap((x, i) => {
      if (typeof x === "number" && Number.isInteger(x)) return [x];
      if (typeof x === "string" || typeof x === "boolean")
        this.problem("unclear", `${path}[${i}]: pydantic may coerce ${JSON.stringify(x)}`);
      else this.problem(500, `${path}[${i}]: not an integer`);
      return [];
    });
  }

  selection(sel: { readonly [k: string]: JsonValue }): { all: boolean; ids: number[] } | undefined {
    const all = sel.all;
    let flag: boolean | undefined;
    if (typeof all === "boolean") flag = all;
    else if (all === 0 || all === 1) flag = all === 1;
    else if (typeof all === "string") this.problem("unclear", `selectedItems.all: pydantic may coerce ${JSON.stringify(all)}`);
    else this.problem(500, "selectedItems.all: a boolean is required");
    const included = this.ids(sel.included, "selectedItems.included");
    const excluded = this.ids(sel.excluded, "selectedItems.excluded");
    return flag === undefined ? undefined : { all: flag, ids: flag ? excluded : included };
  }

  /** One Filter model: child_filters, filter, operator, type, value (pydantic's field order). */
  condition(item: Json, path: string, depth: number): (OCondition & { children: OCondition[] }) | undefined {
    if (!isObject(item)) {
      this.problem(500, `${path}: not an object`);
      return undefined;
    }
    let children: OCondition[] = [];
    const hasPlural = Object.hasOwn(item, "child_filters");
    const rawChildren = hasPlural
      ? item.child_filters
      : Object.hasOwn(item, "child_filter")
        ? item.child_filter === null
          ? []
          : [item.child_filter as JsonValue]
        : [];
    if (!Array.isArray(rawChildren)) this.problem(500, `${path}.child_filters: a list is required`);
    else {
      children = (rawChildren as readonly JsonValue[]).flatMap((c, i) => {
        const child = this.condition(c, `${path}.child_filters[${i}]`, depth + 1);
        if (!child) return [];
        if (child.children.length > 0) this.problem(500, `${path}: child filters cannot contain nested child filters`);
        const { children: _, ...rest } = child;
        return [rest];
      });
    }
    let ok = true;
    if (typeof item.filter === "string") {
      if (item.filter.startsWith("filter:tasks:")) this.guard(item.filter);
    } else {
      this.problem(500, `${path}.filter: a string is required`);
      ok = false;
    }
    for (const key of ["operator", "type"] as const) {
      if (typeof item[key] !== "string") {
        this.problem(500, `${path}.${key}: a string is required`);
        ok = false;
      }
    }
    const value = item.value;
    if (value === undefined || value === null) {
      this.problem(500, `${path}.value: a value is required (not null)`);
      ok = false;
    } else if (isObject(value)) {
      const ends = [value.min, value.max];
      if (!ends.every((e) => typeof e === "number" || typeof e === "string")) {
        this.problem(500, `${path}.value: {min, max} of numbers or strings is required`);
        ok = false;
      }
    }
    if (!ok) return undefined;
    const filter = item.filter as string;
    const skipped = !filter.startsWith("filter:tasks:");
    const v = isObject(value as Json)
      ? { min: (value as { min: JsonValue }).min, max: (value as { max: JsonValue }).max }
      : (value as JsonValue);
    return {
      column: preprocessName(filter).column,
      operator: item.operator as string,
      type: item.type as string,
      value: v,
      children,
      ...(skipped ? { skipped: true as const } : {}),
    };
  }
}

/**
 * selectedItems after `get_prepare_params` (docs/reference/selection.md#invalid-shapes): a
 * non-dict, non-string is refused (500) before PrepareParams; a string is JSON-decoded
 * (undecodable: 500) and handed on whatever it decodes to, so pydantic judges it. Returns "absent"
 * (all tasks) or the value for pydantic.
 */
function decodeSelection(body: { readonly [k: string]: JsonValue }): JsonValue | "absent" {
  if (!Object.hasOwn(body, "selectedItems")) return "absent";
  const sel = body.selectedItems as JsonValue;
  if (isObject(sel)) return sel;
  if (typeof sel !== "string") return fail(500, "selectedItems must be dict");
  try {
    return JSON.parse(sel) as JsonValue;
  } catch {
    return fail(500, "selectedItems must be JSON encoded string for dict");
  }
}

/** The body as the server reads it: an OQuery, or the status it answers (thrown). */
export function readBody(body: unknown): OQuery {
  if (!isObject(body as Json)) return fail(500, "the body is not an object");
  const b = body as { readonly [k: string]: JsonValue };
  const rawSel = decodeSelection(b); // get_prepare_params, before PrepareParams
  const r = new Reader();

  // PrepareParams field order: ordering, selectedItems, filters.
  let ordering: OOrdering | undefined;
  if (Object.hasOwn(b, "ordering")) {
    const o = b.ordering;
    if (!Array.isArray(o)) r.problem(500, "ordering: a list of strings is required");
    else if (!o.every((k) => typeof k === "string")) r.problem(500, "ordering: every key must be a string");
    else {
      for (const key of o as string[]) r.guard(key);
      const first = o[0] as string | undefined;
      if (first !== undefined) {
        const { column, descending } = preprocessName(first);
        ordering = { column, descending, displayKey: first.replace(/^[-+]+/, "") };
      }
    }
  }
  let selection: { all: boolean; ids: number[] } | undefined = { all: true, ids: [] };
  if (rawSel === null)
    selection = undefined; // Optional[SelectedItems]: None selects everything
  else if (rawSel !== "absent") {
    if (isObject(rawSel)) selection = r.selection(rawSel);
    else r.problem(500, "selectedItems: a dict is required");
  }

  let lines: OLine[] = [];
  let conjunction: "and" | "or" = "and";
  const filters = b.filters;
  if (filters !== undefined && filters !== null) {
    if (!isObject(filters)) r.problem(500, "filters: an object is required");
    else {
      if (filters.conjunction === "and" || filters.conjunction === "or") conjunction = filters.conjunction;
      else r.problem(500, "filters.conjunction: 'and' or 'or' is required");
      if (!Array.isArray(filters.items)) r.problem(500, "filters.items: a list is required");
      else {
        lines = (filters.items as readonly JsonValue[]).flatMap((item, i) => {
          const c = r.condition(item, `filters.items[${i}]`, 0);
          if (!c) return [];
          const { children, ...root } = c;
          return [{ root, children }];
        });
      }
    }
  }

  if (r.traversal) fail(400, r.traversal);
  const hard = r.problems.find((p) => p.status === 500);
  if (hard) throw hard;
  if (r.problems[0]) throw r.problems[0];
  if (r.allowListed) fail("unclear", `the allow-listed traversal ${r.allowListed}`);

  const cdt = b.columnsDisplayType;
  return {
    conjunction,
    lines,
    ...(ordering ? { ordering } : {}),
    ...(selection ? { selection } : {}),
    ...(isObject(cdt) ? { columnsDisplayType: cdt } : {}),
  };
}

/** What the server answers for this raw body (filters, ordering and selectedItems from the body). */
export function oracleBody(dataset: Dataset, body: unknown): Outcome {
  try {
    return oracleQuery(dataset, readBody(body));
  } catch (e) {
    if (!(e instanceof BodyProblem)) throw e;
    if (e.status !== "unclear") return { errors: [{ status: e.status, reason: e.message }], result: null };
    const open: PossibleError[] = [
      { status: 400, reason: `unspecified: ${e.message}` },
      { status: 500, reason: `unspecified: ${e.message}` },
    ];
    const members = new Map([...factsOf(dataset).keys()].map((id) => [id, "either" as const]));
    return { errors: open, result: { members, compare: () => 0, notes: [`unspecified: ${e.message}`] } };
  }
}
