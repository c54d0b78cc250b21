/**
 * The special columns (docs/reference/filters.md#special-columns): user lists (annotators,
 * updated_by), annotation and prediction results, annotation ids, prediction model versions.
 */
import type { AnnotationRecord, PredictionRecord } from "../../../src/semantics/records.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";
import type { TaskFacts } from "./facts.js";
import type { Tri } from "./outcome.js";
import { castBool, jsonbEqual, jsonbText } from "./pg.js";
import type { OCondition } from "./query.js";
import {
  contradiction,
  err,
  expr,
  isRange,
  join,
  listEqualCheck,
  pyStr,
  truthy,
  unclear,
  type Ctx,
  type JoinPart,
  type Row,
  type Step,
} from "./steps.js";

/** Integer ids of a user filter (docs/reference/filters.md#user-columns), or the 400 it raises. */
function userIds(v: JsonValue): number[] | "invalid" | "unclear" {
  const raw = Array.isArray(v) ? (v as readonly JsonValue[]) : [v];
  if (raw.length > 5000) return "invalid";
  const ids: number[] = [];
  for (const item of raw) {
    let id: number;
    if (typeof item === "number") {
      if (!Number.isInteger(item)) return "invalid";
      id = item;
    } else if (typeof item === "string") {
      if (/^\s*[+-]?\d+\s*$/.test(item)) id = Number(item.trim());
      else if (/_/.test(item)) return "unclear";
      else return "invalid";
    } else return "invalid";
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** `_annotation_id`: an exact integer, or undefined. */
function annotationId(v: JsonValue): number | undefined | "unclear" {
  if (typeof v === "boolean") return undefined;
  if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
  const s = (typeof v === "string" ? v : v === null ? "None" : JSON.stringify(v)).trim();
  if (/_/.test(s)) return "unclear";
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : Number.isFinite(n) && Number.isInteger(n) ? "unclear" : undefined;
}

export function annotationIds(c: OCondition, ctx: Ctx): Step {
  const { operator: op, value: v } = c;
  const byId = (test: (id: number) => boolean): JoinPart => ({ relation: "annotations", row: (r) => test(r.id), noRow: false });
  const noneOf = (test: (id: number) => boolean) => expr(ctx, (t) => !t.annotations.some((a) => test(a.id)));
  if (op === "contains" || op === "not_contains") {
    const raw: JsonValue[] = Array.isArray(v) ? [...(v as readonly JsonValue[])] : (typeof v === "string" ? v : String(v)).split(/[,;\s]+/);
    const ids: number[] = [];
    let invalid = false;
    for (const r of raw) {
      if ((typeof r === "string" ? r : String(r)).trim() === "") continue;
      const id = annotationId(r);
      if (id === "unclear") return unclear(ctx, `annotation id ${JSON.stringify(r)}`);
      if (id === undefined) invalid = true;
      else ids.push(id);
    }
    if (ids.length === 0 || (op === "not_contains" && invalid)) return contradiction(ctx);
    return op === "contains"
      ? join(
          ctx,
          byId((id) => ids.includes(id)),
        )
      : noneOf((id) => ids.includes(id));
  }
  if (op === "empty") {
    const b = castBool(v);
    if (b === "error") return contradiction(ctx);
    if (typeof b !== "boolean") return unclear(ctx, `annotations_ids empty with ${JSON.stringify(v)}`);
    return join(ctx, { relation: "annotations", row: () => !b, noRow: b });
  }
  if (op === "in" || op === "not_in") {
    if (!isRange(v)) return contradiction(ctx);
    const lo = annotationId(v.min),
      hi = annotationId(v.max);
    if (lo === "unclear" || hi === "unclear") return unclear(ctx, "annotation id range");
    if (lo === undefined || hi === undefined) return contradiction(ctx);
    const inRange = (id: number) => id >= lo && id <= hi;
    return op === "in" ? join(ctx, byId(inRange)) : noneOf(inRange);
  }
  const id = annotationId(v);
  if (id === "unclear") return unclear(ctx, `annotation id ${JSON.stringify(v)}`);
  if (id === undefined) return contradiction(ctx);
  const tests: Record<string, (x: number) => boolean> = {
    equal: (x) => x === id,
    less: (x) => x < id,
    greater: (x) => x > id,
    less_or_equal: (x) => x <= id,
    greater_or_equal: (x) => x >= id,
  };
  if (op === "not_equal") return noneOf((x) => x === id);
  const test = tests[op];
  return test ? join(ctx, byId(test)) : contradiction(ctx);
}

export function userFilter(c: OCondition, ctx: Ctx): Step | undefined {
  const { column, operator: op, value: v } = c;
  const annotators = column === "annotators";
  if (op === "empty") {
    const b = castBool(v);
    if (b === "error") return err(500, `empty on ${column}: ${JSON.stringify(v)} is not a boolean string`);
    if (typeof b !== "boolean") return err(500, `isnull lookup needs True or False, got ${JSON.stringify(v)}`);
    if (annotators)
      return join(ctx, { relation: "annotations", row: (r) => ((r as AnnotationRecord).completed_by === null) === b, noRow: b });
    return expr(ctx, (t) => (t.task.updated_by === null) === b);
  }
  const ids = userIds(v);
  if (ids === "invalid") return err(400, "User filter values must be integer ids.");
  if (ids === "unclear") return unclear(ctx, `user id ${JSON.stringify(v)}`);
  if (ids.length === 0) return { kind: "skipLine" };
  if (op === "contains") {
    if (annotators)
      return join(ctx, { relation: "annotations", row: (r) => ids.includes((r as AnnotationRecord).completed_by as number), noRow: false });
    return expr(ctx, (t) => t.task.updated_by !== null && ids.includes(t.task.updated_by));
  }
  if (op === "not_contains") {
    if (annotators) return expr(ctx, (t) => !t.annotations.some((a) => a.completed_by !== null && ids.includes(a.completed_by)));
    // A nullable foreign key: Django's negation keeps NULL rows (J7).
    return expr(ctx, (t) => t.task.updated_by === null || !ids.includes(t.task.updated_by));
  }
  // Legacy scalar equal / not_equal fall through to the generic path.
  if (annotators) {
    if (ctx.facts.size === 0) return unclear(ctx, "legacy equal on annotators of an empty project");
    return err(400, "Not supported filter type (annotators is a list)");
  }
  if (c.type !== "Number" && typeof v !== "number" && c.type !== "List" && c.type !== "String" && c.type !== "Unknown") {
    return unclear(ctx, `legacy ${op} on updated_by with type ${c.type}`);
  }
  const id = ids[0] as number;
  if (op === "equal") return expr(ctx, (t) => t.task.updated_by === id);
  if (op === "not_equal") return expr(ctx, (t) => t.task.updated_by === null || t.task.updated_by !== id);
  return undefined;
}

export function resultFilter(c: OCondition, ctx: Ctx): Step {
  const { column, operator: op, value: v } = c;
  const annotationsColumn = column === "annotations_results";
  const rows = (t: TaskFacts): readonly Row[] => (annotationsColumn ? t.annotations : t.predictions);
  if (op === "equal" || op === "not_equal") {
    if (typeof v !== "string") return { kind: "exit" };
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(v) as JsonValue;
    } catch {
      return { kind: "exit" };
    }
    const has = (t: TaskFacts): Tri => {
      if (rows(t).some((r) => r.result !== null && jsonbEqual(r.result as JsonValue, parsed))) return true;
      return parsed === null && rows(t).some((r) => r.result === null) ? "either" : false;
    };
    return expr(ctx, (t) => {
      const h = has(t);
      return op === "equal" ? h : h === "either" ? "either" : !h;
    });
  }
  if (op === "contains" || op === "not_contains") {
    const needle = pyStr(v);
    if (needle === undefined) return unclear(ctx, `${column} ${op} with a non-string value`);
    const has = (t: TaskFacts) =>
      rows(t).some(
        (r) =>
          r.result !== null && (!annotationsColumn || r.project === ctx.project.id) && jsonbText(r.result as JsonValue).includes(needle),
      );
    return expr(ctx, (t) => (op === "contains" ? has(t) : !has(t)));
  }
  if (op === "empty") {
    // Both result columns test *annotations* here (a server quirk, docs/reference/filters.md#result-columns).
    const b = castBool(v);
    if (b === "error") return err(500, `empty on ${column}: ${JSON.stringify(v)} is not a boolean string`);
    const isEmpty = (r: Row) => r.result === null || (Array.isArray(r.result) && r.result.length === 0);
    const isEmptyList = (r: Row) => Array.isArray(r.result) && r.result.length === 0;
    if (truthy(b)) return join(ctx, { relation: "annotations", row: isEmpty, noRow: true });
    return join(ctx, { relation: "annotations", row: (r) => r.result !== null, noRow: false }, (t) => !t.annotations.some(isEmptyList));
  }
  const check = listEqualCheck(c, ctx, new Set(["list"]));
  if (check.certain) return err(400, "Not supported filter type (results are lists)");
  return unclear(ctx, `${op} on ${column}`);
}

export function modelVersions(c: OCondition, ctx: Ctx): Step {
  const { operator: op, value: v } = c;
  if (op === "contains" || op === "not_contains") {
    let items: JsonValue[];
    if (Array.isArray(v)) items = [...(v as readonly JsonValue[])];
    else if (typeof v === "string") items = [...v];
    else if (v !== null && typeof v === "object") return unclear(ctx, "model versions with a range value");
    else return err(500, `model versions ${op}: ${JSON.stringify(v)} is not iterable`);
    const needles = items.map(pyStr);
    if (needles.some((n) => n === undefined)) return unclear(ctx, "model version needle that is not a string");
    const ns = needles as string[];
    if (ns.length === 0) return { kind: "dropped" };
    const hit = (r: Row) => {
      const mv = (r as PredictionRecord).model_version;
      return mv !== null && ns.some((n) => mv.includes(n));
    };
    if (op === "contains") return join(ctx, { relation: "predictions", row: hit, noRow: false });
    return expr(ctx, (t) => !t.predictions.some(hit));
  }
  if (op === "empty") {
    const b = castBool(v);
    if (b === "error") return err(500, `empty on predictions_model_versions: ${JSON.stringify(v)}`);
    if (typeof b !== "boolean") return err(500, `isnull lookup needs True or False, got ${JSON.stringify(v)}`);
    return join(ctx, { relation: "predictions", row: (r) => ((r as PredictionRecord).model_version === null) === b, noRow: b });
  }
  const check = listEqualCheck(c, ctx, new Set(["list"]));
  if (check.certain) return err(400, "Not supported filter type (model versions are lists)");
  return unclear(ctx, `${op} on predictions_model_versions`);
}
