import type { Seeded } from "./refs.js";
import type { Answer } from "./target.js";

/**
 * The comparison engine: pure functions from two answers (the target's and the mock's) and the ids
 * each target assigned to a list of differences. Ids never compare as numbers: each side's ids are
 * first mapped back to the fixture's keys (`t3`, `a1`, `P`, `U`), so the comparison asks "the same
 * records?" and not "the same numbers?". Timestamps compare by presence, the rest by value.
 */
export interface Difference {
  /** Where: `status`, `tasks`, `body.detail`, `t3.annotations[0].ground_truth`, … */
  readonly path: string;
  readonly target: unknown;
  readonly mock: unknown;
}

/** At most this many differences are kept per comparison; the rest are counted. */
export const MAX_DIFFERENCES = 25;

// ---- id mapping --------------------------------------------------------------------------------

type Kind = "task" | "annotation" | "prediction" | "view";

/** Reverse maps of one target: its ids back to fixture keys. */
export class KeyMap {
  readonly #reverse: Record<Kind, Map<number, string>>;
  constructor(readonly seeded: Seeded) {
    const rev = (m: ReadonlyMap<string, number>) => new Map([...m].map(([k, v]) => [v, k]));
    this.#reverse = {
      task: rev(seeded.ids.task),
      annotation: rev(seeded.ids.annotation),
      prediction: rev(seeded.ids.prediction),
      view: rev(seeded.ids.view),
    };
  }
  /** `t3`, or `task?` for an id the fixture did not make (a record an action created). */
  key(kind: Kind | "project" | "user", id: unknown): unknown {
    if (typeof id !== "number") return id;
    if (kind === "project") return id === this.seeded.project ? "P" : "project?";
    if (kind === "user") return id === this.seeded.user ? "U" : "user?";
    return this.#reverse[kind].get(id) ?? `${kind}?`;
  }
}

// ---- JSON types and shapes ---------------------------------------------------------------------

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/**
 * The key sets and value types of two JSON values, recursively. Arrays compare their lengths and
 * their items pairwise; a key present on one side only is a difference, as is a type that differs.
 */
export function shapeDifferences(target: unknown, mock: unknown, path = "body", out: Difference[] = []): Difference[] {
  const tt = jsonType(target),
    mt = jsonType(mock);
  if (tt !== mt) {
    out.push({ path, target: tt, mock: mt });
    return out;
  }
  if (tt === "array") {
    const ta = target as unknown[],
      ma = mock as unknown[];
    if (ta.length !== ma.length) out.push({ path: `${path}.length`, target: ta.length, mock: ma.length });
    for (let i = 0; i < Math.min(ta.length, ma.length); i++) shapeDifferences(ta[i], ma[i], `${path}[${i}]`, out);
  } else if (tt === "object") {
    const to = target as Record<string, unknown>,
      mo = mock as Record<string, unknown>;
    for (const k of Object.keys(to)) {
      if (!Object.hasOwn(mo, k)) out.push({ path: `${path}.${k}`, target: jsonType(to[k]), mock: "absent" });
      else shapeDifferences(to[k], mo[k], `${path}.${k}`, out);
    }
    for (const k of Object.keys(mo)) if (!Object.hasOwn(to, k)) out.push({ path: `${path}.${k}`, target: "absent", mock: jsonType(mo[k]) });
  }
  return out;
}

/** Deep equality of two normalised values, as differences by path. */
export function valueDifferences(target: unknown, mock: unknown, path: string, out: Difference[] = []): Difference[] {
  const tt = jsonType(target),
    mt = jsonType(mock);
  if (tt !== mt) {
    out.push({ path, target, mock });
  } else if (tt === "array") {
    const ta = target as unknown[],
      ma = mock as unknown[];
    if (ta.length !== ma.length) out.push({ path, target, mock });
    else ta.forEach((v, i) => valueDifferences(v, ma[i], `${path}[${i}]`, out));
  } else if (tt === "object") {
    const to = target as Record<string, unknown>,
      mo = mock as Record<string, unknown>;
    for (const k of new Set([...Object.keys(to), ...Object.keys(mo)])) {
      if (!Object.hasOwn(mo, k)) out.push({ path: `${path}.${k}`, target: to[k], mock: "(absent)" });
      else if (!Object.hasOwn(to, k)) out.push({ path: `${path}.${k}`, target: "(absent)", mock: mo[k] });
      else valueDifferences(to[k], mo[k], `${path}.${k}`, out);
    }
  } else if (!Object.is(target, mock) && !(typeof target === "number" && target === mock)) {
    out.push({ path, target, mock });
  }
  return out;
}

// ---- normalisation of records ------------------------------------------------------------------

/** Fields that hold a point in time, a duration or a random id: compared by presence (a string, or null). */
const VOLATILE = /(_at|_ago|^date_joined|^last_activity|^duration|^unique_lock_id)$/;
const presence = (v: unknown) => (v === null || v === undefined ? v : `<${jsonType(v)}>`);

/** Which id each field of a record of `kind` holds. */
const ID_FIELDS: Record<string, Record<string, Kind | "project" | "user">> = {
  task: { id: "task", project: "project", updated_by: "user", completed_by: "user" },
  annotation: {
    id: "annotation",
    task: "task",
    project: "project",
    completed_by: "user",
    updated_by: "user",
    parent_prediction: "prediction",
    parent_annotation: "annotation",
    last_created_by: "user",
  },
  prediction: { id: "prediction", task: "task", project: "project" },
};

/** A record with its ids mapped to fixture keys and its timestamps reduced to presence. */
export function normaliseRecord(kind: "task" | "annotation" | "prediction", record: unknown, keys: KeyMap): unknown {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return record;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    const idKind = ID_FIELDS[kind]?.[k];
    if (VOLATILE.test(k)) out[k] = presence(v);
    else if (idKind) out[k] = typeof v === "object" && v !== null && "id" in v ? { ...v, id: keys.key(idKind, v.id) } : keys.key(idKind, v);
    else if (kind === "task" && (k === "annotations" || k === "predictions") && Array.isArray(v)) {
      const sub = k === "annotations" ? "annotation" : "prediction";
      out[k] = [...v].sort((a: { id: number }, b: { id: number }) => a.id - b.id).map((r) => normaliseRecord(sub, r, keys));
    } else if (kind === "task" && k === "annotators" && Array.isArray(v)) {
      out[k] = v.map((u) =>
        typeof u === "object" && u !== null && "user_id" in u ? { ...u, user_id: keys.key("user", u.user_id) } : keys.key("user", u),
      );
    } else if (kind === "task" && k === "updated_by" && Array.isArray(v)) {
      out[k] = v.map((u) =>
        typeof u === "object" && u !== null && "user_id" in u ? { ...u, user_id: keys.key("user", u.user_id) } : keys.key("user", u),
      );
    } else if (kind === "task" && k === "annotations_ids" && typeof v === "string") {
      // Joined from an unordered aggregate (a Python set on SQLite): compared in key order.
      out[k] =
        v === ""
          ? v
          : v
              .split(",")
              .map((s) => String(keys.key("annotation", Number(s.trim()))))
              .sort()
              .join(",");
    } else if (kind === "task" && k === "predictions_model_versions" && typeof v === "string") {
      // The server joins a Python set: its order changes between processes (compared as a set).
      const sep = v.includes(", ") ? ", " : ",";
      out[k] = v.split(sep).sort().join(sep);
    } else if (kind === "task" && k === "drafts" && Array.isArray(v)) {
      out[k] = v.length;
    } else out[k] = v;
  }
  return out;
}

// ---- the Data Manager list ---------------------------------------------------------------------

interface ListBody {
  total?: unknown;
  tasks?: unknown;
}

/** The task keys of a list answer, in order. */
export function listKeys(body: unknown, keys: KeyMap): unknown[] {
  const tasks = (body as ListBody | undefined)?.tasks;
  return Array.isArray(tasks) ? tasks.map((t: { id?: unknown }) => keys.key("task", t.id)) : [];
}

/**
 * What the database sorts a row by: a column's value; for a data key the text `->>` gives (or its
 * float cast), in which the number 1 and the string "1" are the same key.
 */
function sortValue(row: Record<string, unknown>, column: string): string {
  if (!column.startsWith("data.")) return JSON.stringify(row[column] ?? null);
  const v = (row["data"] as Record<string, unknown> | undefined)?.[column.slice(5)];
  if (v === undefined || v === null) return "null";
  return JSON.stringify(typeof v === "object" ? JSON.stringify(v) : String(v));
}

/**
 * The list as groups of tasks that tie on the ordering column (each side grouped by the values it
 * renders): the server leaves the order within a tie to the database, so only the groups and their
 * order are compared.
 */
export function tieGroups(body: unknown, keys: KeyMap, column: string): string[] {
  const tasks = (body as ListBody | undefined)?.tasks;
  if (!Array.isArray(tasks)) return [];
  const groups: string[][] = [];
  let last: string | undefined;
  for (const row of tasks as Record<string, unknown>[]) {
    const v = sortValue(row, column);
    if (groups.length === 0 || v !== last) groups.push([]);
    groups[groups.length - 1]!.push(String(keys.key("task", row["id"])));
    last = v;
  }
  return groups.map((g) => (g.length === 1 ? g[0]! : `{${g.sort().join(",")}}`));
}

export interface ListSides {
  readonly target: Answer;
  readonly mock: Answer;
  readonly targetKeys: KeyMap;
  readonly mockKeys: KeyMap;
}

/** Status; then, for two successes, the total and the tasks (or their tie groups); for two failures, the error bodies. */
export function compareList(sides: ListSides, orderedBy?: string): Difference[] {
  const { target, mock } = sides;
  if (target.status !== mock.status) return [statusDifference(target, mock)];
  if (target.status !== 200) return compareError(target, mock);
  const out: Difference[] = [];
  const tb = target.json as ListBody,
    mb = mock.json as ListBody;
  if (tb?.total !== mb?.total) out.push({ path: "total", target: tb?.total, mock: mb?.total });
  const tk = orderedBy ? tieGroups(tb, sides.targetKeys, orderedBy) : listKeys(tb, sides.targetKeys);
  const mk = orderedBy ? tieGroups(mb, sides.mockKeys, orderedBy) : listKeys(mb, sides.mockKeys);
  if (JSON.stringify(tk) !== JSON.stringify(mk)) out.push({ path: "tasks", target: tk.join(" "), mock: mk.join(" ") });
  return out;
}

export function statusDifference(target: Answer, mock: Answer): Difference {
  return { path: "status", target: `${target.status} ${brief(target)}`, mock: `${mock.status} ${brief(mock)}` };
}

/** A short account of an answer for a status difference: its detail, or the start of its text. */
function brief(a: Answer): string {
  const detail = (a.json as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === "string" ? detail : a.json === undefined ? a.text : JSON.stringify(a.json);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** Two error answers: the kind of body, its keys and value types, then `detail` and `validation_errors` by value. */
export function compareError(target: Answer, mock: Answer): Difference[] {
  if (target.status !== mock.status) return [statusDifference(target, mock)];
  const tj = target.json !== undefined,
    mj = mock.json !== undefined;
  if (tj !== mj) return [{ path: "body", target: tj ? "JSON" : mediaType(target), mock: mj ? "JSON" : mediaType(mock) }];
  if (!tj) return mediaType(target) === mediaType(mock) ? [] : [{ path: "content-type", target: mediaType(target), mock: mediaType(mock) }];
  const out = shapeDifferences(target.json, mock.json);
  const tb = target.json as Record<string, unknown>,
    mb = mock.json as Record<string, unknown>;
  for (const field of ["detail", "validation_errors"]) {
    if (typeof tb === "object" && tb !== null && typeof mb === "object" && mb !== null && field in tb && field in mb) {
      valueDifferences(tb[field], mb[field], `body.${field}`, out);
    }
  }
  return out;
}

const mediaType = (a: Answer) => a.contentType.split(";")[0]?.trim() ?? "";

/** Two answers of a read: status, then the keys and value types of the bodies. */
export function compareShape(target: Answer, mock: Answer): Difference[] {
  if (target.status !== mock.status) return [statusDifference(target, mock)];
  if (target.status >= 400) return compareError(target, mock);
  return shapeDifferences(target.json, mock.json);
}

/** Two answers by value: status, then the bodies with their ids and timestamps normalised (normaliseAnswer). */
export function compareValues(target: Answer, mock: Answer, targetKeys: KeyMap, mockKeys: KeyMap, unordered?: RegExp): Difference[] {
  if (target.status !== mock.status) return [statusDifference(target, mock)];
  if (target.status >= 400) return compareError(target, mock);
  if ((target.json === undefined) !== (mock.json === undefined)) return compareError(target, mock);
  if (target.json === undefined) return target.text === mock.text ? [] : [{ path: "body", target: target.text, mock: mock.text }];
  const side = (json: unknown, keys: KeyMap) => asSets(normaliseAnswer(json, keys), "body", unordered);
  return valueDifferences(side(target.json, targetKeys), side(mock.json, mockKeys), "body");
}

/** Arrays at the paths `unordered` matches, sorted by their JSON (so they compare as sets). */
function asSets(value: unknown, path: string, unordered: RegExp | undefined): unknown {
  if (unordered === undefined) return value;
  if (Array.isArray(value)) {
    const items = value.map((v, i) => asSets(v, `${path}[${i}]`, unordered));
    return unordered.test(path) ? items.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : items;
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asSets(v, `${path}.${k}`, unordered)]));
  }
  return value;
}

/** An answer with the matches of `mask` (every one, for a global pattern) replaced in the strings of its JSON body. */
export function masked(answer: Answer, mask: RegExp | undefined): Answer {
  if (mask === undefined || answer.json === undefined) return answer;
  const walk = (v: unknown): unknown =>
    typeof v === "string"
      ? v.replace(mask, "…")
      : Array.isArray(v)
        ? v.map(walk)
        : typeof v === "object" && v !== null
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return { ...answer, json: walk(answer.json) };
}

/** Fields of any answer that name a record of the fixture (mapped to its key), whatever the resource. */
const REFERENCES: Readonly<Record<string, Kind | "project" | "user">> = {
  project: "project",
  task: "task",
  annotation: "annotation",
  prediction: "prediction",
  parent_prediction: "prediction",
  parent_annotation: "annotation",
  // An export's task lists its predictions by id.
  predictions: "prediction",
  annotations: "annotation",
  user: "user",
  completed_by: "user",
  created_by: "user",
  updated_by: "user",
};
/**
 * Fields whose value each server makes up: its own ids of records the fixture did not make (a prediction's
 * `model` is an ML backend the run registered), and secrets.
 */
const MADE_UP = /^(id|model|.*_id|.*_pk|token|access|refresh|jti|exp|iat)$/;

/**
 * Any answer with the ids and timestamps each server made up reduced to what they are: references
 * to the fixture's records become their keys (`t3`, `P`, `U`), other ids, tokens and points in time
 * their JSON type (`<number>`), and Label Studio's text of a timestamp likewise.
 */
export function normaliseAnswer(value: unknown, keys: KeyMap, field = ""): unknown {
  if (Array.isArray(value)) {
    // Records the server lists with no ORDER BY (an export's tasks): both servers number them in the same order.
    const byId = value.every((v) => typeof (v as { id?: unknown } | null)?.id === "number");
    const items = byId ? [...value].sort((a: { id: number }, b: { id: number }) => a.id - b.id) : value;
    return items.map((v) => normaliseAnswer(v, keys, field));
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseAnswer(v, keys, k)]));
  }
  if (value === null || value === undefined) return value;
  if (VOLATILE.test(field) || MADE_UP.test(field)) return presence(value);
  const kind = REFERENCES[field];
  if (kind) return keys.key(kind, value);
  return value;
}

/** The Data Manager list with fields=all: one comparison per task and column, values normalised. */
export function compareRows(sides: ListSides): Map<string, Difference[]> {
  const out = new Map<string, Difference[]>();
  const rows = (a: Answer, keys: KeyMap) =>
    new Map(
      (((a.json as ListBody | undefined)?.tasks ?? []) as Record<string, unknown>[]).map((r) => [
        String(keys.key("task", r["id"])),
        normaliseRecord("task", r, keys) as Record<string, unknown>,
      ]),
    );
  const t = rows(sides.target, sides.targetKeys),
    m = rows(sides.mock, sides.mockKeys);
  for (const key of new Set([...t.keys(), ...m.keys()])) {
    const tr = t.get(key),
      mr = m.get(key);
    if (!tr || !mr) {
      out.set(`${key}`, [{ path: key, target: tr ? "present" : "absent", mock: mr ? "present" : "absent" }]);
      continue;
    }
    for (const column of new Set([...Object.keys(tr), ...Object.keys(mr)])) {
      const at = (row: Record<string, unknown>) => (Object.hasOwn(row, column) ? row[column] : "(absent)");
      out.set(`${key}.${column}`, valueDifferences(at(tr), at(mr), `${key}.${column}`));
    }
  }
  return out;
}

/** A JSON value with every object's keys in sorted order. */
const sortedKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortedKeys)
    : typeof v === "object" && v !== null
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortedKeys((v as Record<string, unknown>)[k])]),
        )
      : v;

/** A project's state after an action: its tasks (by key) with their data, annotations and predictions. */
export function snapshot(list: Answer, keys: KeyMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of ((list.json as ListBody | undefined)?.tasks ?? []) as Record<string, unknown>[]) {
    const n = normaliseRecord("task", r, keys) as Record<string, unknown>;
    const pick = (o: unknown, fields: readonly string[]) =>
      Object.fromEntries(
        fields.filter((f) => typeof o === "object" && o !== null && f in o).map((f) => [f, (o as Record<string, unknown>)[f]]),
      );
    // A task the run created has no fixture key: it is known by its data, keys sorted (PostgreSQL's jsonb orders an
    // object's keys its own way, the mock keeps them as written: the order means nothing in JSON).
    const key = n["id"] === "task?" ? `new ${JSON.stringify(sortedKeys(n["data"]))}` : String(n["id"]);
    out[key] = {
      data: n["data"],
      meta: n["meta"],
      total_annotations: n["total_annotations"],
      cancelled_annotations: n["cancelled_annotations"],
      total_predictions: n["total_predictions"],
      is_labeled: n["is_labeled"],
      updated_by: n["updated_by"],
      annotations: (n["annotations"] as unknown[] | undefined)?.map((a) =>
        pick(a, ["id", "result", "was_cancelled", "ground_truth", "completed_by", "lead_time", "parent_prediction"]),
      ),
      predictions: (n["predictions"] as unknown[] | undefined)?.map((p) => pick(p, ["id", "result", "model_version", "score"])),
    };
  }
  return out;
}

/** Cap a list of differences, saying how many were left out. */
export function capped(diffs: Difference[]): Difference[] {
  if (diffs.length <= MAX_DIFFERENCES) return diffs;
  return [...diffs.slice(0, MAX_DIFFERENCES), { path: "…", target: `${diffs.length - MAX_DIFFERENCES} more`, mock: "" }];
}
