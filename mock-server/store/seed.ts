import { isColumnName } from "../../src/vocabulary/columns.js";
import { describeValue, type JsonValue } from "../../src/vocabulary/json.js";
import { serverTimestamp } from "../time.js";
import { collectionNames, emptyState, type CollectionName, type StoreState } from "./state.js";

/**
 * Seed data (docs/mock-server.md#seed-data): validated record by record, defaults filled in, so the
 * store only ever holds well-formed records. Every refusal names the record and the field, says
 * what was expected and what was found.
 */
export class SeedError extends Error {
  override readonly name = "SeedError";
  constructor(
    /** e.g. `tasks[3].project` */
    readonly path: string,
    readonly expected: string,
    readonly found: string,
    where = path,
  ) {
    super(`invalid seed data at ${where}: expected ${expected}, found ${found}`);
  }
}

type Check = (value: unknown) => boolean;
interface Field {
  readonly check: Check;
  readonly expected: string;
  /** Absent field: the default, or `required` to refuse the record. */
  readonly fallback: "required" | "optional" | ((record: Record<string, unknown>, now: string) => unknown);
  /** Another collection this field refers to by id (null allowed when `check` allows it). */
  readonly ref?: CollectionName;
  readonly normalise?: (value: unknown) => unknown;
  /** `check` without its JSON-value walk, for input fresh from JSON.parse (which holds nothing else). */
  readonly parsedCheck?: Check;
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const positiveInt: Check = (v) => isInt(v) && v > 0;
const str: Check = (v) => typeof v === "string";
const nonEmptyStr: Check = (v) => typeof v === "string" && v.length > 0;
const bool: Check = (v) => typeof v === "boolean";
const orNull = (c: Check): Check => (v) => v === null || c(v);
const finite: Check = (v) => typeof v === "number" && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isJson = (v: unknown): boolean => {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  return isObject(v) && Object.values(v).every(isJson);
};
const jsonObject: Check = (v) => isObject(v) && isJson(v);
const resultList: Check = (v) => v === null || (Array.isArray(v) && v.every(isJson));
const resultArray: Check = (v) => v === null || Array.isArray(v);
const timestamp: Check = (v) => serverTimestamp(v) !== undefined;
const TIMESTAMP = "an ISO-8601 date-time with a zone, e.g. 2024-01-01T00:00:00Z";

const orNullTimestamp = (v: unknown): unknown => (v === null ? null : serverTimestamp(v));

const id: Field = { check: positiveInt, expected: "a positive integer id", fallback: "required" };
const now = (): Field => ({
  check: timestamp,
  expected: TIMESTAMP,
  fallback: (_r, t) => t,
  normalise: serverTimestamp,
});
const ref = (collection: CollectionName, nullable: boolean, fallback: Field["fallback"]): Field => ({
  check: nullable ? orNull(positiveInt) : positiveInt,
  expected: `the id of a record in "${collection}"${nullable ? " or null" : ""}`,
  fallback,
  ref: collection,
});
const constant = (value: unknown) => () => value;

const specs: { readonly [C in CollectionName]: { readonly [field: string]: Field } } = {
  users: {
    id,
    username: { check: nonEmptyStr, expected: "a non-empty string", fallback: "required" },
    email: { check: str, expected: "a string", fallback: constant("") },
    first_name: { check: str, expected: "a string", fallback: constant("") },
    last_name: { check: str, expected: "a string", fallback: constant("") },
    token: { check: nonEmptyStr, expected: "a non-empty legacy API key", fallback: "optional" },
    date_joined: now(),
    last_activity: { ...now(), fallback: (r, t) => (timestamp(r["date_joined"]) ? r["date_joined"] : t) },
    phone: { check: str, expected: "a string", fallback: "optional" },
    allow_newsletters: { check: orNull(bool), expected: "a boolean or null", fallback: "optional" },
    custom_hotkeys: { check: orNull(jsonObject), expected: "a JSON object or null", fallback: "optional" },
  },
  projects: {
    id,
    title: { check: str, expected: "a string", fallback: constant("") },
    description: { check: str, expected: "a string", fallback: constant("") },
    label_config: { check: str, expected: "a labeling config string", fallback: constant("<View></View>") },
    model_version: { check: orNull(str), expected: "a string or null", fallback: constant(null) },
    show_skip_button: { check: bool, expected: "a boolean", fallback: constant(true) },
    created_by: ref("users", true, constant(null)),
    created_at: now(),
  },
  tasks: {
    id,
    project: ref("projects", false, "required"),
    data: { check: jsonObject, parsedCheck: isObject, expected: "a JSON object", fallback: "required" },
    meta: { check: jsonObject, parsedCheck: isObject, expected: "a JSON object", fallback: constant({}) },
    created_at: now(),
    updated_at: { ...now(), fallback: (r, t) => (timestamp(r["created_at"]) ? r["created_at"] : t) },
    updated_by: ref("users", true, constant(null)),
    file_upload: { check: orNull(str), expected: "a string or null", fallback: constant(null) },
    storage_filename: { check: orNull(str), expected: "a string or null", fallback: constant(null) },
    inner_id: { check: positiveInt, expected: "a positive integer", fallback: "optional" },
    overlap: { check: positiveInt, expected: "a positive integer", fallback: constant(1) },
    unresolved_comment_count: {
      check: (v) => isInt(v) && v >= 0,
      expected: "a non-negative integer",
      fallback: constant(0),
    },
  },
  predictions: {
    id,
    task: ref("tasks", false, "required"),
    project: ref("projects", false, "optional"),
    result: { check: resultList, parsedCheck: resultArray, expected: "an array of JSON values or null", fallback: constant([]) },
    score: { check: orNull(finite), expected: "a finite number or null", fallback: constant(null) },
    model_version: { check: orNull(str), expected: "a string or null", fallback: constant("") },
    created_at: now(),
    updated_at: { ...now(), fallback: (r, t) => (timestamp(r["created_at"]) ? r["created_at"] : t) },
    cluster: { check: orNull(isInt), expected: "an integer or null", fallback: "optional" },
    neighbors: { check: isJson, expected: "a JSON value", fallback: "optional" },
    mislabeling: { check: finite, expected: "a finite number", fallback: "optional" },
    model: { check: orNull(positiveInt), expected: "an ML backend id or null", fallback: "optional" },
    model_run: { check: orNull(positiveInt), expected: "a model run id or null", fallback: "optional" },
  },
  annotations: {
    id,
    task: ref("tasks", false, "required"),
    project: ref("projects", false, "optional"),
    result: { check: resultList, parsedCheck: resultArray, expected: "an array of JSON values or null", fallback: constant([]) },
    completed_by: ref("users", true, constant(null)),
    was_cancelled: { check: bool, expected: "a boolean", fallback: constant(false) },
    ground_truth: { check: bool, expected: "a boolean", fallback: constant(false) },
    lead_time: { check: orNull(finite), expected: "a finite number or null", fallback: constant(null) },
    created_at: now(),
    updated_at: { ...now(), fallback: (r, t) => (timestamp(r["created_at"]) ? r["created_at"] : t) },
    parent_prediction: ref("predictions", true, constant(null)),
    updated_by: ref("users", true, "optional"),
    draft_created_at: { check: orNull(timestamp), expected: `${TIMESTAMP} or null`, fallback: "optional", normalise: orNullTimestamp },
    import_id: { check: orNull(isInt), expected: "an integer or null", fallback: "optional" },
    last_action: { check: orNull(str), expected: "a string or null", fallback: "optional" },
    bulk_created: { check: orNull(bool), expected: "a boolean or null", fallback: "optional" },
    // The annotations' own ids are not known while they are read: any positive id.
    parent_annotation: { check: orNull(positiveInt), expected: "an annotation id or null", fallback: "optional" },
    last_created_by: ref("users", true, "optional"),
  },
  drafts: {
    id,
    task: ref("tasks", false, "required"),
    user: ref("users", false, "required"),
    result: { check: resultList, parsedCheck: resultArray, expected: "an array of JSON values or null", fallback: constant([]) },
    created_at: now(),
    updated_at: { ...now(), fallback: (r, t) => (timestamp(r["created_at"]) ? r["created_at"] : t) },
    lead_time: { check: orNull(finite), expected: "a finite number or null", fallback: "optional" },
    was_postponed: { check: bool, expected: "a boolean", fallback: "optional" },
    import_id: { check: orNull(isInt), expected: "an integer or null", fallback: "optional" },
    annotation: ref("annotations", true, "optional"),
  },
  views: {
    id,
    project: ref("projects", false, "required"),
    user: ref("users", true, constant(null)),
    order: { check: (v) => isInt(v) && v >= 0, expected: "a non-negative integer", fallback: "optional" },
    data: { check: jsonObject, parsedCheck: isObject, expected: "a JSON object", fallback: constant({}) },
    is_locked: { check: bool, expected: "a boolean", fallback: "optional" },
    locked_by: ref("users", true, "optional"),
    locked_at: { check: orNull(timestamp), expected: `${TIMESTAMP} or null`, fallback: "optional", normalise: orNullTimestamp },
  },
};

/** Task columns the store keeps; every other column is computed by the engine. */
const storedTaskFields = new Set(Object.keys(specs.tasks));

function label(collection: string, index: number, record: unknown): string {
  const rid = isObject(record) && positiveInt(record["id"]) ? ` (id ${record["id"] as number})` : "";
  return `${collection}[${index}]${rid}`;
}

export interface LoadOptions {
  /**
   * The input is fresh from `JSON.parse` and nobody else holds it (a seed or persist file): its
   * values are JSON by construction and are adopted as they are, not walked and copied field by field.
   */
  readonly parsed?: boolean;
}

/**
 * Validate a seed object (docs/mock-server.md#seed-data) and return a fresh store state. Missing
 * collections are empty, missing timestamps default to `now`, `inner_id` is numbered per project by
 * id.
 */
export function loadSeed(input: unknown, now: string, options: LoadOptions = {}): StoreState {
  if (!isObject(input)) throw new SeedError("(seed)", "an object with collections users, projects, tasks, …", describeValue(input));
  for (const key of Object.keys(input)) {
    if (!(collectionNames as readonly string[]).includes(key)) {
      throw new SeedError(key, `one of the collections ${collectionNames.join(", ")}`, `an unknown key "${key}"`);
    }
  }
  const state = emptyState();
  const ids = new Map<CollectionName, Set<number>>();
  for (const collection of collectionNames) {
    const raw = input[collection];
    if (raw === undefined) {
      ids.set(collection, new Set());
      continue;
    }
    if (!Array.isArray(raw)) throw new SeedError(collection, "an array of records", describeValue(raw));
    const seen = new Set<number>();
    const out: Record<string, unknown>[] = [];
    raw.forEach((record, index) => {
      if (!isObject(record)) throw new SeedError(`${collection}[${index}]`, "a record object", describeValue(record));
      const at: At = { collection, index, record };
      const clean = checkRecord(at, now, ids, options.parsed === true);
      const rid = clean["id"] as number;
      if (seen.has(rid)) throw refusal(at, "id", `an id unique in "${collection}"`, `a second record with id ${rid}`);
      seen.add(rid);
      out.push(clean);
    });
    ids.set(collection, seen);
    (state[collection] as unknown[]) = out;
  }
  crossCheck(state);
  return state;
}

/** Where a record sits in the seed; its labels are built only for an error (loading stays lean). */
interface At {
  readonly collection: CollectionName;
  readonly index: number;
  readonly record: Record<string, unknown>;
}

function refusal(at: At, field: string, expected: string, found: string): SeedError {
  return new SeedError(`${at.collection}[${at.index}].${field}`, expected, found, `${label(at.collection, at.index, at.record)}.${field}`);
}

/** Each collection's fields as entries, built once. */
const specEntries = Object.fromEntries(collectionNames.map((c) => [c, Object.entries(specs[c])])) as unknown as {
  readonly [C in CollectionName]: readonly [string, Field][];
};

function checkRecord(
  at: At,
  now: string,
  ids: Map<CollectionName, Set<number>>,
  parsed: boolean,
): Record<string, unknown> {
  const { collection, record } = at;
  const spec = specs[collection];
  const extraAllowed = collection === "projects";
  for (const key in record) {
    if (!Object.hasOwn(record, key) || Object.hasOwn(spec, key)) continue;
    if (collection === "tasks" && isColumnName(key) && !storedTaskFields.has(key)) {
      throw refusal(at, key, "no derived column (the mock computes it from annotations and predictions)", `field "${key}"`);
    }
    if (!extraAllowed) throw refusal(at, key, `only the fields ${Object.keys(spec).join(", ")}`, `an unknown field "${key}"`);
    if (!parsed && !isJson(record[key])) throw refusal(at, key, "a JSON value", describeValue(record[key]));
  }
  // A parsed record holds only its fields by now and is ours: it is completed in place.
  const clean: Record<string, unknown> = extraAllowed ? { ...record } : parsed ? record : {};
  for (const [field, rule] of specEntries[collection]) {
    let value = record[field];
    let own = parsed; // a default is a value of ours: always copied
    if (value === undefined) {
      own = false;
      if (rule.fallback === "required") {
        throw refusal(at, field, rule.expected, "nothing (the field is required)");
      }
      if (rule.fallback === "optional") continue;
      value = rule.fallback(record, now);
    } else if (!(parsed ? (rule.parsedCheck ?? rule.check) : rule.check)(value)) {
      throw refusal(at, field, rule.expected, describeValue(value));
    }
    if (rule.ref && value !== null && !ids.get(rule.ref)?.has(value as number)) {
      throw refusal(at, field, rule.expected, `${describeValue(value)}, which is not in "${rule.ref}"`);
    }
    const kept = rule.normalise ? rule.normalise(value) : own || typeof value !== "object" || value === null ? value : structuredClone(value as JsonValue);
    if (clean[field] !== kept) clean[field] = kept;
  }
  return clean;
}

/** Rules across records: project of an annotation/prediction is its task's; tokens and inner ids unique. */
function crossCheck(state: StoreState): void {
  const taskProject = new Map(state.tasks.map((t) => [t.id, t.project]));
  for (const collection of ["annotations", "predictions"] as const) {
    state[collection].forEach((record, index) => {
      const expected = taskProject.get(record.task) as number;
      const mutable = record as { project?: number };
      if (mutable.project === undefined) mutable.project = expected;
      else if (mutable.project !== expected) {
        throw new SeedError(`${collection}[${index}].project`, `the project of task ${record.task} (${expected})`, `number ${mutable.project}`, `${label(collection, index, record)}.project`);
      }
    });
  }
  const tokens = new Set<string>();
  state.users.forEach((user, index) => {
    if (user.token === undefined) return;
    if (tokens.has(user.token)) {
      // The key itself is a secret: name the record, never the value.
      throw new SeedError(`users[${index}].token`, "a legacy key no other user has", "a key already used by another user", `${label("users", index, user)}.token`);
    }
    tokens.add(user.token);
  });
  assignInnerIds(state);
  const viewOrder = new Map<number, number>();
  for (const view of state.views) {
    const mutable = view as { order?: number };
    const next = viewOrder.get(view.project) ?? 0;
    if (mutable.order === undefined) mutable.order = next;
    viewOrder.set(view.project, Math.max(next, mutable.order + 1));
  }
}

function assignInnerIds(state: StoreState): void {
  const byProject = new Map<number, Set<number>>();
  state.tasks.forEach((task, index) => {
    if (task.inner_id === undefined) return;
    const used = byProject.get(task.project) ?? new Set<number>();
    if (used.has(task.inner_id)) {
      throw new SeedError(`tasks[${index}].inner_id`, `an inner_id unique in project ${task.project}`, `a second task with inner_id ${task.inner_id}`, `${label("tasks", index, task)}.inner_id`);
    }
    used.add(task.inner_id);
    byProject.set(task.project, used);
  });
  const next = new Map<number, number>();
  for (const [project, used] of byProject) next.set(project, Math.max(0, ...used) + 1);
  const order = [...state.tasks].sort((a, b) => a.id - b.id);
  for (const task of order) {
    if (task.inner_id !== undefined) continue;
    const n = next.get(task.project) ?? 1;
    (task as { inner_id?: number }).inner_id = n;
    next.set(task.project, n + 1);
  }
}
