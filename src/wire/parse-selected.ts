import { isPlainObject } from "../vocabulary/json.js";
import type { SelectedItemsNode } from "../query/nodes.js";
import { field, has, item, keyPath, rootCursor, type Cursor } from "./parse-cursor.js";
import { modelTypeError, pydanticError, type PydanticError } from "../emulation/pydantic.js";
import { pyClass, pyStr, pyTruthy } from "../emulation/python-json.js";
import { ujsonLoads } from "../emulation/ujson.js";
import type { Report } from "./parse-report.js";

const SHAPE = '{"all": [true|false], "excluded | included": [...task_ids...]}';
const EXPECTED = '{ "all": true, "excluded": [ids] } or { "all": false, "included": [ids] }';

/**
 * `selectedItems`. Inline (`get_prepare_params`): missing means every task; a string is decoded as
 * JSON; anything but a dict then fails before the model (DataManagerException → 500). A view's
 * stored selection applies only when truthy and goes straight to the model. Both end in pydantic's
 * `SelectedItems(all: bool, included: List[int] = [], excluded: List[int] = [])`, which coerces
 * lax booleans and integers.
 */
export function parseSelectedItems(
  body: Readonly<Record<string, unknown>>,
  report: Report,
  context: "inline" | "view",
): SelectedItemsNode | undefined {
  if (!has(body, "selectedItems")) return undefined;
  let raw = body.selectedItems;
  if (context === "view") {
    if (!pyTruthy(raw)) {
      if (raw !== null && !isPlainObject(raw))
        report.soft("selectedItems", "ignored", `${EXPECTED} (the server reads this value as no selection)`, raw);
      return undefined;
    }
    return validate(raw, report, " (the server saves this view but answers 500 whenever it is used)");
  }
  if (typeof raw === "string") {
    try {
      raw = ujsonLoads(raw);
    } catch {
      report.refuse(
        "precheck",
        "selectedItems",
        `${EXPECTED} or a JSON string of one`,
        raw,
        `selectedItems must be JSON encoded string for dict: ${SHAPE}. Found: ${raw as string}`,
      );
      return undefined;
    }
    if (raw === null) {
      report.soft("selectedItems", "evaluated", `${EXPECTED} (a JSON string holding null selects every task)`, body.selectedItems);
      return undefined;
    }
  } else if (!isPlainObject(raw)) {
    report.refuse(
      "precheck",
      "selectedItems",
      `${EXPECTED} or a JSON string of one`,
      raw,
      `selectedItems must be dict: ${SHAPE}. Found type: ${pyClass(raw)} with value: ${pyStr(raw)}`,
    );
    return undefined;
  }
  return validate(raw, report, "");
}

const BOOL_TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
const BOOL_FALSE = new Set(["0", "off", "f", "false", "n", "no"]);
const INT_TEXT = /^\s*[+-]?\d+\s*$/;

type Lax<T> = { ok: true; value: T; coerced: boolean } | { ok: false; error: PydanticError };

/** pydantic's lax `bool`. */
function laxBool(v: unknown, loc: readonly (string | number)[]): Lax<boolean> {
  if (typeof v === "boolean") return { ok: true, value: v, coerced: false };
  if (v === 0 || v === 1) return { ok: true, value: v === 1, coerced: true };
  if (typeof v === "string") {
    const lower = v.toLowerCase();
    if (BOOL_TRUE.has(lower) || BOOL_FALSE.has(lower)) return { ok: true, value: BOOL_TRUE.has(lower), coerced: true };
  }
  const parsing = typeof v === "string" || typeof v === "number";
  return { ok: false, error: pydanticError(loc, parsing ? "bool_parsing" : "bool_type", v) };
}

/** pydantic's lax `int`. */
function laxInt(v: unknown, loc: readonly (string | number)[]): Lax<number> {
  if (typeof v === "number" && Number.isFinite(v)) {
    return Number.isInteger(v) ? { ok: true, value: v, coerced: false } : { ok: false, error: pydanticError(loc, "int_from_float", v) };
  }
  if (typeof v === "boolean") return { ok: true, value: v ? 1 : 0, coerced: true };
  if (typeof v === "string") {
    return INT_TEXT.test(v)
      ? { ok: true, value: Number(v.trim()), coerced: true }
      : { ok: false, error: pydanticError(loc, "int_parsing", v) };
  }
  return { ok: false, error: pydanticError(loc, "int_type", v) };
}

/** Every member a JSON integer (hot over a million ids: indexes, no callback). */
function plainIds(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const id = list[i];
    if (typeof id !== "number" || !Number.isInteger(id)) return false;
  }
  return true;
}

function validate(raw: unknown, report: Report, note: string): SelectedItemsNode | undefined {
  const at = rootCursor("selectedItems");
  if (!isPlainObject(raw)) {
    report.pydantic(at.path, `${EXPECTED}${note}`, raw, [modelTypeError(at.loc, "SelectedItems", raw)]);
    return undefined;
  }
  let ok = true;
  let all: boolean | undefined;
  const allAt = field(at, "all");
  if (!has(raw, "all")) {
    report.pydantic(allAt.path, `true or false${note}`, undefined, [pydanticError(allAt.loc, "missing", raw)]);
    ok = false;
  } else {
    const r = laxBool(raw.all, allAt.loc);
    if (!r.ok) {
      report.pydantic(allAt.path, `true or false${note}`, raw.all, [r.error]);
      ok = false;
    } else {
      all = r.value;
      if (r.coerced) report.soft(allAt.path, "evaluated", `true or false (the server reads this as ${r.value})`, raw.all);
    }
  }
  const lists: Record<"included" | "excluded", number[]> = { included: [], excluded: [] };
  for (const key of ["included", "excluded"] as const) {
    if (!has(raw, key)) continue;
    const listAt = field(at, key);
    const value = raw[key];
    if (!Array.isArray(value)) {
      report.pydantic(listAt.path, `a list of task ids${note}`, value, [pydanticError(listAt.loc, "list_type", value)]);
      ok = false;
      continue;
    }
    // Plain integer ids (every id of a well-formed body) need no cursor: locations are built only
    // for an id that is reported, so a body of a million ids costs what reading them costs.
    if (plainIds(value)) {
      lists[key] = value.slice() as number[];
      continue;
    }
    const ids = lists[key];
    for (let i = 0; i < value.length; i++) {
      const id: unknown = value[i];
      if (typeof id === "number" && Number.isInteger(id)) {
        ids.push(id);
        continue;
      }
      const idAt: Cursor = item(listAt, i);
      const r = laxInt(id, idAt.loc);
      if (!r.ok) {
        report.pydantic(idAt.path, `an integer task id${note}`, id, [r.error]);
        ok = false;
        continue;
      }
      if (r.coerced) report.soft(idAt.path, "evaluated", `an integer task id (the server reads this as ${r.value})`, id);
      ids.push(r.value);
    }
  }
  for (const key of Object.keys(raw)) {
    if (key !== "all" && key !== "included" && key !== "excluded") {
      report.soft(keyPath("selectedItems", key), "ignored", "only all, included and excluded in selectedItems", raw[key]);
    }
  }
  if (!ok || all === undefined) return undefined;
  // TaskQuerySet.prepared: all=true excludes `excluded`; all=false keeps `included` — when it is non-empty.
  const [used, unused] = all ? (["excluded", "included"] as const) : (["included", "excluded"] as const);
  if (lists[unused].length > 0) {
    report.soft(`selectedItems.${unused}`, "ignored", `no ${unused} ids when all is ${all} (the server uses only ${used})`, raw[unused]);
  }
  if (!all && lists.included.length === 0) {
    report.soft(
      "selectedItems.included",
      "evaluated",
      "at least one task id (the server reads {all: false, included: []} as every task)",
      raw.included,
    );
  }
  return all
    ? Object.freeze({ all: true as const, excluded: Object.freeze(lists.excluded) })
    : Object.freeze({ all: false as const, included: Object.freeze(lists.included) });
}
