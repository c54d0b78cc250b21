/**
 * A raw request body read the way the server reads it (server-semantics §2.2, §3.1, §3.3, §4, §5),
 * independently of src/wire/parse.ts: selectedItems decoding and defaults, the pydantic shape
 * (500 on a bad shape), the `__` traversal guard (400), prefix stripping, `child_filter`, ordering[0].
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
  constructor(readonly status: 400 | 500 | "unclear", message: string) {
    super(message);
  }
}
const fail = (status: 400 | 500 | "unclear", message: string): never => {
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

/** The pydantic traversal guard (400), for filters that start with `filter:tasks:` and for ordering keys. */
function traversalProblem(raw: string): string | undefined {
  const { column } = preprocessName(raw);
  if (!column.includes("__") || column.startsWith("data.")) return undefined;
  if (TRAVERSAL_ALLOWED.has(column)) return `unclear:${column}`;
  return `"__" is not generally allowed in filters (${column})`;
}

function readIds(v: Json, path: string): number[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return fail(500, `${path}: not a list`);
  return (v as readonly JsonValue[]).map((x, i) => {
    if (typeof x === "number" && Number.isInteger(x)) return x;
    if (typeof x === "string" || typeof x === "number" || typeof x === "boolean") return fail("unclear", `${path}[${i}]: pydantic may coerce ${JSON.stringify(x)}`);
    return fail(500, `${path}[${i}]: not an integer`);
  });
}

/** selectedItems after `get_prepare_params` (§5.4): undefined = absent (all tasks); may be a JSON string. */
function decodeSelection(body: { readonly [k: string]: JsonValue }): { readonly [k: string]: JsonValue } | undefined {
  if (!Object.hasOwn(body, "selectedItems")) return undefined;
  let sel: Json = body.selectedItems;
  if (typeof sel === "string") {
    try {
      sel = JSON.parse(sel) as JsonValue;
    } catch {
      return fail(500, "selectedItems must be JSON encoded string for dict");
    }
  }
  if (!isObject(sel)) return fail(500, "selectedItems must be dict");
  return sel;
}

function validateSelection(sel: { readonly [k: string]: JsonValue }): { all: boolean; ids: number[] } {
  if (!Object.hasOwn(sel, "all") || sel.all === null || typeof sel.all === "object") return fail(500, "selectedItems.all: field required (a boolean)");
  if (typeof sel.all !== "boolean") return fail("unclear", `selectedItems.all: pydantic may coerce ${JSON.stringify(sel.all)}`);
  const included = readIds(sel.included, "selectedItems.included");
  const excluded = readIds(sel.excluded, "selectedItems.excluded");
  return { all: sel.all, ids: sel.all ? excluded : included };
}

function readCondition(item: Json, path: string, depth: number, traversal: string[]): OCondition & { children: OCondition[] } {
  if (!isObject(item)) return fail(500, `${path}: not an object`);
  for (const key of ["filter", "operator", "type"] as const) {
    const v = item[key];
    if (v === undefined || v === null || typeof v === "object") fail(500, `${path}.${key}: field required (a string)`);
    if (typeof v !== "string") fail("unclear", `${path}.${key}: pydantic may coerce ${JSON.stringify(v)}`);
  }
  const filter = item.filter as string;
  if (filter.startsWith("filter:tasks:")) {
    const problem = traversalProblem(filter);
    if (problem) traversal.push(problem);
  }
  if (!Object.hasOwn(item, "value") || item.value === null) fail(500, `${path}.value: none is not an allowed value`);
  const value = item.value as JsonValue;
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (!keys.includes("min") || !keys.includes("max")) fail(500, `${path}.value: {min, max} required`);
    if (keys.length !== 2) fail("unclear", `${path}.value: extra keys next to min/max`);
    for (const end of [value.min, value.max]) if (typeof end !== "number" && typeof end !== "string") fail(500, `${path}.value: min/max must be numbers or strings`);
  }
  let children: OCondition[] = [];
  const plural = item.child_filters, singular = item.child_filter;
  if (plural !== undefined && plural !== null) {
    if (!Array.isArray(plural)) fail(500, `${path}.child_filters: not a list`);
    children = (plural as readonly JsonValue[]).map((c, i) => readCondition(c, `${path}.child_filters[${i}]`, depth + 1, traversal));
  } else if (singular !== undefined && singular !== null) {
    children = [readCondition(singular, `${path}.child_filter`, depth + 1, traversal)];
  }
  if (depth > 0 && children.length > 0) fail(500, `${path}: only one nesting level is allowed`);
  const skipped = !filter.startsWith("filter:tasks:");
  const { column } = preprocessName(filter);
  return {
    column,
    operator: item.operator as string,
    type: item.type as string,
    value,
    children,
    ...(skipped ? { skipped: true as const } : {}),
  };
}

/** The body as the server reads it: an OQuery, or the status it answers. */
export function readBody(body: unknown): OQuery {
  if (!isObject(body as Json)) return fail(500, "the body is not an object");
  const b = body as { readonly [k: string]: JsonValue };
  const rawSel = decodeSelection(b);
  const traversal: string[] = [];
  const shapeProblems: BodyProblem[] = [];
  const attempt = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (e) {
      if (e instanceof BodyProblem) {
        shapeProblems.push(e);
        return undefined;
      }
      throw e;
    }
  };
  const selection = rawSel ? attempt(() => validateSelection(rawSel)) : { all: true, ids: [] };

  let lines: OLine[] = [];
  let conjunction: "and" | "or" = "and";
  const filters = b.filters;
  if (filters !== undefined && filters !== null) {
    attempt(() => {
      if (!isObject(filters)) fail(500, "filters: not an object");
      const f = filters as { readonly [k: string]: JsonValue };
      if (f.conjunction !== "and" && f.conjunction !== "or") fail(500, "filters.conjunction: 'and' or 'or' required");
      conjunction = f.conjunction as "and" | "or";
      if (!Array.isArray(f.items)) fail(500, "filters.items: a list is required");
      lines = (f.items as readonly JsonValue[]).map((item, i) => {
        const c = readCondition(item, `filters.items[${i}]`, 0, traversal);
        const { children, ...root } = c;
        return { root, children };
      });
    });
  }

  let ordering: OOrdering | undefined;
  if (Object.hasOwn(b, "ordering")) {
    attempt(() => {
      const o = b.ordering;
      if (!Array.isArray(o)) return fail(500, "ordering: a list of strings is required");
      for (const [i, key] of (o as readonly JsonValue[]).entries()) {
        if (typeof key !== "string") fail(key === null || typeof key === "object" ? 500 : "unclear", `ordering[${i}]: a string is required`);
        const problem = traversalProblem(key as string);
        if (problem) traversal.push(problem);
      }
      const first = o[0];
      if (typeof first === "string") {
        const { column, descending } = preprocessName(first);
        ordering = { column, descending, displayKey: first.replace(/^[-+]+/, "") };
      }
    });
  }

  // The traversal guard raises a DRF error out of pydantic: it wins over shape errors.
  const definite = traversal.find((t) => !t.startsWith("unclear:"));
  if (definite) fail(400, definite);
  if (traversal.length) fail("unclear", `allow-listed traversal ${traversal[0]}`);
  const hard = shapeProblems.find((p) => p.status === 500);
  if (hard) throw hard;
  if (shapeProblems.length) throw shapeProblems[0];

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
