import { ORDER_PREFIX, type OrderingNode } from "../query/nodes.js";
import { DATA_PREFIX, isColumnName } from "../vocabulary/columns.js";
import { KNOWN_COLUMN_EXPECTED, traversalName, traversalRefusal, TRAVERSAL_EXPECTED } from "./parse-condition.js";
import { has } from "./parse-cursor.js";
import { pydanticError } from "../emulation/pydantic.js";
import { pyTruthy } from "../emulation/python-json.js";
import type { Report } from "./parse-report.js";

const KEY_EXPECTED = '"tasks:<column>" or "-tasks:<column>"';
const LIST_EXPECTED = `a list of ordering keys, e.g. ["-tasks:created_at"]`;

/**
 * `ordering`: `PrepareParams.ordering: List[str]` (its validator refuses `__` traversal in every
 * key), then `preprocess_field_name` on the first key, the only one the server orders by.
 * Inline, a missing key means no ordering and anything but a list is a 500; a view stores any
 * value and reads a falsy one as no ordering.
 */
export function parseOrdering(
  body: Readonly<Record<string, unknown>>,
  report: Report,
  context: "inline" | "view",
): readonly OrderingNode[] | undefined {
  if (!has(body, "ordering")) return undefined;
  const raw = body.ordering;
  const use = context === "view" ? " (the server saves this view but answers 500 whenever it is used)" : "";
  if (context === "view" && !pyTruthy(raw)) {
    if (raw !== null && !Array.isArray(raw) && typeof raw !== "object") {
      report.soft("ordering", "ignored", `${LIST_EXPECTED} (the server reads this value as no ordering)`, raw);
    }
    return undefined;
  }
  if (!Array.isArray(raw)) {
    report.pydantic("ordering", `${LIST_EXPECTED}${use}`, raw, [pydanticError(["ordering"], "list_type", raw)]);
    return undefined;
  }
  let strings = true;
  raw.forEach((key: unknown, i: number) => {
    if (typeof key !== "string") {
      report.pydantic(`ordering[${i}]`, `${KEY_EXPECTED}${use}`, key, [pydanticError(["ordering", i], "string_type", key)]);
      strings = false;
    }
  });
  if (!strings) return undefined;
  const keys = raw as readonly string[];
  keys.forEach((key, i) => {
    const refusal = traversalRefusal(traversalName(key));
    if (refusal !== undefined) report.refuse("raise", `ordering[${i}]`, TRAVERSAL_EXPECTED, key, refusal);
  });
  const nodes = keys.map((key, i) => {
    const { node, form } = orderingKey(key);
    if (i > 0) report.soft(`ordering[${i}]`, "ignored", "a single ordering key (the server orders by the first key only)", key);
    else checkFirst(node.column, form, key, report);
    return node;
  });
  return nodes.length > 0 ? Object.freeze(nodes) : undefined;
}

type KeyForm = "documented" | "filter-prefixed" | "bare";

/** `preprocess_field_name`: a leading `-`, then `filter:` and `tasks:`, then a `-` unless one came first. */
export function orderingKey(key: string): { node: OrderingNode; form: KeyForm } {
  let name = key;
  let descending = false;
  if (name.startsWith("-")) {
    descending = true;
    name = name.slice(1);
  }
  let form: KeyForm = "bare";
  if (name.startsWith("filter:")) {
    name = name.slice("filter:".length);
    form = "filter-prefixed";
  }
  if (name.startsWith(ORDER_PREFIX)) {
    name = name.slice(ORDER_PREFIX.length);
    if (form === "bare") form = "documented";
  }
  if (!descending && name.startsWith("-")) {
    descending = true;
    name = name.slice(1);
  }
  return { node: Object.freeze({ column: name, descending }), form };
}

function checkFirst(column: string, form: KeyForm, key: string, report: Report): void {
  if (form === "filter-prefixed") {
    report.soft("ordering[0]", "evaluated", `${KEY_EXPECTED} (the server strips a "filter:" prefix too)`, key);
  } else if (form === "bare") {
    report.soft("ordering[0]", "evaluated", `${KEY_EXPECTED} (the server orders by the name without the prefix too)`, key);
  }
  if (column.startsWith(DATA_PREFIX) ? column.length === DATA_PREFIX.length : !isColumnName(column)) {
    report.soft("ordering[0]", "evaluated", KNOWN_COLUMN_EXPECTED, key);
  }
}
