import { isColumnName } from "../vocabulary/columns.js";
import { describeValue, isPlainObject } from "../vocabulary/json.js";
import { serverTimestamp } from "../vocabulary/timestamps.js";
import { annotationModel } from "./annotation.js";
import { draftModel } from "./draft.js";
import { convertedFormatModel, exportModel, exportStatusChoices } from "./export.js";
import { emptyResult, type FieldSpec } from "./field.js";
import { predictionModel } from "./prediction.js";
import { projectModel } from "./project.js";
import { mlBackendModel } from "./ml-backend.js";
import { userModel } from "./user.js";
import { viewModel } from "./view.js";
import { taskDefaults } from "./task.js";
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

type Accepts = (value: unknown) => boolean;
/** A default: computed from the record as completed so far (its fields in table order) and the load's `now`. */
type Fallback = (record: Readonly<Record<string, unknown>>, now: string) => unknown;
interface Common {
  readonly expected: string;
  /** Absent field: the default, or `required` to refuse the record. */
  readonly fallback: "required" | "optional" | Fallback;
  /** Another collection this field refers to by id (null allowed when `check` allows it). */
  readonly ref?: CollectionName;
}
type Field = Common &
  (
    | {
        readonly check: Accepts;
        /** `check` without its JSON-value walk, for input fresh from JSON.parse (which holds nothing else). */
        readonly parsedCheck?: Accepts;
        readonly timestamp?: undefined;
      }
    | {
        /** Stored in the server's timestamp form (`serverTimestamp`, whose parse is the check); `nullable` also takes null. */
        readonly timestamp: "required" | "nullable";
      }
  );

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const positiveInt: Accepts = (v) => isInt(v) && v > 0;
const str: Accepts = (v) => typeof v === "string";
const nonEmptyStr: Accepts = (v) => typeof v === "string" && v.length > 0;
const bool: Accepts = (v) => typeof v === "boolean";
const orNull =
  (c: Accepts): Accepts =>
  (v) =>
    v === null || c(v);
const finite: Accepts = (v) => typeof v === "number" && Number.isFinite(v);
const isJson = (v: unknown): boolean => {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  return isPlainObject(v) && Object.values(v).every(isJson);
};
const jsonObject: Accepts = (v) => isPlainObject(v) && isJson(v);
const resultList: Accepts = (v) => v === null || (Array.isArray(v) && v.every(isJson));
const resultArray: Accepts = (v) => v === null || Array.isArray(v);
/** One of a choice field's choices. */
const choiceOf =
  (spec: FieldSpec): Accepts =>
  (v) =>
    typeof v === "string" && (spec.choices ?? []).includes(v);
const exportStatus = choiceOf(exportModel.status);
const EXPORT_STATUS = `one of ${exportStatusChoices.map((c) => JSON.stringify(c)).join(", ")}`;
const TIMESTAMP = "an ISO-8601 date-time with a zone, e.g. 2024-01-01T00:00:00Z";

const id: Field = { check: positiveInt, expected: "a positive integer id", fallback: "required" };
const now = (fallback: Fallback = (_r, t) => t): Field => ({ expected: TIMESTAMP, fallback, timestamp: "required" });
/** `updated_at` (and `last_activity`) default to the record's own creation time. */
const sameAs = (field: string) => now((r) => r[field]);
const ref = (collection: CollectionName, nullable: boolean, fallback: Field["fallback"]): Field => ({
  check: nullable ? orNull(positiveInt) : positiveInt,
  expected: `the id of a record in "${collection}"${nullable ? " or null" : ""}`,
  fallback,
  ref: collection,
});
const constant = (value: unknown) => () => value;
/**
 * A field's fallback as its model table declares it: an owned reference and a field without a default
 * are required, a `sparse` one stays absent, any other takes the model's default.
 */
function modelled(spec: FieldSpec): { readonly fallback: Field["fallback"] } {
  if (spec.owner === true || (spec.default === undefined && spec.stored === undefined)) return { fallback: "required" };
  if (spec.stored === "sparse" || spec.default === undefined) return { fallback: "optional" };
  return { fallback: constant(spec.default) };
}
/** A model table's reference field (its `ref`, null-ness and default). */
function refOf(spec: FieldSpec): Field {
  if (spec.ref === undefined) throw new Error("refOf: the field refers to no collection");
  return ref(spec.ref, spec.nullable && spec.owner !== true, modelled(spec).fallback);
}
/** A record's `result` in a seed: a list of JSON values or null, no regions when left out. */
const result: Field = {
  check: resultList,
  parsedCheck: resultArray,
  expected: "an array of JSON values or null",
  fallback: constant(emptyResult),
};
/** The task model's default for a field (src/contract/task.ts): written there once. */
const taskDefault = (field: keyof typeof taskDefaults) => constant(taskDefaults[field]);

const specs: { readonly [C in CollectionName]: { readonly [field: string]: Field } } = {
  users: {
    id,
    username: { check: nonEmptyStr, expected: "a non-empty string", ...modelled(userModel.username) },
    email: { check: str, expected: "a string", ...modelled(userModel.email) },
    first_name: { check: str, expected: "a string", ...modelled(userModel.first_name) },
    last_name: { check: str, expected: "a string", ...modelled(userModel.last_name) },
    // Not a model field: the server keeps the legacy key in authtoken's Token (one is generated for the first user).
    token: { check: nonEmptyStr, expected: "a non-empty legacy API key", fallback: "optional" },
    date_joined: now(),
    last_activity: sameAs("date_joined"),
    phone: { check: str, expected: "a string", ...modelled(userModel.phone) },
    allow_newsletters: { check: orNull(bool), expected: "a boolean or null", ...modelled(userModel.allow_newsletters) },
    custom_hotkeys: { check: orNull(jsonObject), expected: "a JSON object or null", ...modelled(userModel.custom_hotkeys) },
    // null: a user added to the organization but never switched into it (a persisted `POST /api/users/`).
    active_organization: {
      check: (v) => v === null,
      expected: "null (absent: the mock's one organization)",
      ...modelled(userModel.active_organization),
    },
  },
  projects: {
    id,
    title: { check: str, expected: "a string", ...modelled(projectModel.title) },
    description: { check: str, expected: "a string", ...modelled(projectModel.description) },
    label_config: { check: str, expected: "a labeling config string", ...modelled(projectModel.label_config) },
    // The seed format's own default, not the model's "": a seeded project has no model version, so every
    // prediction counts for predictions_score (the engine filters by a version that is not None).
    model_version: { check: orNull(str), expected: "a string or null", fallback: constant(null) },
    show_skip_button: { check: bool, expected: "a boolean", ...modelled(projectModel.show_skip_button) },
    created_by: refOf(projectModel.created_by),
    created_at: now(),
  },
  tasks: {
    id,
    project: ref("projects", false, "required"),
    data: { check: jsonObject, parsedCheck: isPlainObject, expected: "a JSON object", fallback: "required" },
    meta: { check: jsonObject, parsedCheck: isPlainObject, expected: "a JSON object", fallback: taskDefault("meta") },
    created_at: now(),
    updated_at: sameAs("created_at"),
    updated_by: ref("users", true, taskDefault("updated_by")),
    file_upload: { check: orNull(str), expected: "a string or null", fallback: taskDefault("file_upload") },
    storage_filename: { check: orNull(str), expected: "a string or null", fallback: constant(null) },
    inner_id: { check: positiveInt, expected: "a positive integer", fallback: "optional" },
    overlap: { check: positiveInt, expected: "a positive integer", fallback: taskDefault("overlap") },
    unresolved_comment_count: {
      check: (v) => isInt(v) && v >= 0,
      expected: "a non-negative integer",
      fallback: taskDefault("unresolved_comment_count"),
    },
    is_labeled: { check: bool, expected: "a boolean", fallback: "optional" },
  },
  predictions: {
    id,
    task: refOf(predictionModel.task),
    // The task's project: taken from the task when left out (ownProject).
    project: { ...refOf(predictionModel.project), fallback: "optional" },
    result,
    score: { check: orNull(finite), expected: "a finite number or null", ...modelled(predictionModel.score) },
    model_version: { check: orNull(str), expected: "a string or null", ...modelled(predictionModel.model_version) },
    created_at: now(),
    updated_at: sameAs("created_at"),
    cluster: { check: orNull(isInt), expected: "an integer or null", ...modelled(predictionModel.cluster) },
    neighbors: { check: isJson, expected: "a JSON value", ...modelled(predictionModel.neighbors) },
    mislabeling: { check: finite, expected: "a finite number", ...modelled(predictionModel.mislabeling) },
    model: { check: orNull(positiveInt), expected: "an ML backend id or null", ...modelled(predictionModel.model) },
    model_run: { check: orNull(positiveInt), expected: "a model run id or null", ...modelled(predictionModel.model_run) },
  },
  annotations: {
    id,
    task: refOf(annotationModel.task),
    // The task's project: taken from the task when left out (ownProject).
    project: { ...refOf(annotationModel.project), fallback: "optional" },
    result,
    completed_by: refOf(annotationModel.completed_by),
    was_cancelled: { check: bool, expected: "a boolean", ...modelled(annotationModel.was_cancelled) },
    ground_truth: { check: bool, expected: "a boolean", ...modelled(annotationModel.ground_truth) },
    lead_time: { check: orNull(finite), expected: "a finite number or null", ...modelled(annotationModel.lead_time) },
    created_at: now(),
    updated_at: sameAs("created_at"),
    parent_prediction: refOf(annotationModel.parent_prediction),
    updated_by: refOf(annotationModel.updated_by),
    draft_created_at: { expected: `${TIMESTAMP} or null`, ...modelled(annotationModel.draft_created_at), timestamp: "nullable" },
    import_id: { check: orNull(isInt), expected: "an integer or null", ...modelled(annotationModel.import_id) },
    last_action: { check: orNull(str), expected: "a string or null", ...modelled(annotationModel.last_action) },
    bulk_created: { check: orNull(bool), expected: "a boolean or null", ...modelled(annotationModel.bulk_created) },
    // The annotations' own ids are not known while they are read: any positive id.
    parent_annotation: {
      check: orNull(positiveInt),
      expected: "an annotation id or null",
      ...modelled(annotationModel.parent_annotation),
    },
    last_created_by: refOf(annotationModel.last_created_by),
    unique_id: { check: nonEmptyStr, expected: "a UUID string", ...modelled(annotationModel.unique_id) },
    prediction: {
      check: orNull(jsonObject),
      parsedCheck: orNull(isPlainObject),
      expected: "a JSON object or null",
      ...modelled(annotationModel.prediction),
    },
    result_count: { check: (v) => isInt(v) && v >= 0, expected: "a non-negative integer", ...modelled(annotationModel.result_count) },
  },
  drafts: {
    id,
    task: refOf(draftModel.task),
    user: refOf(draftModel.user),
    result,
    created_at: now(),
    updated_at: sameAs("created_at"),
    lead_time: { check: orNull(finite), expected: "a finite number or null", ...modelled(draftModel.lead_time) },
    was_postponed: { check: bool, expected: "a boolean", ...modelled(draftModel.was_postponed) },
    import_id: { check: orNull(isInt), expected: "an integer or null", ...modelled(draftModel.import_id) },
    annotation: refOf(draftModel.annotation),
  },
  views: {
    id,
    project: refOf(viewModel.project),
    user: refOf(viewModel.user),
    // Numbered per project after the load (crossCheck), as the server numbers a new view: the model's default is not taken.
    order: { check: (v) => isInt(v) && v >= 0, expected: "a non-negative integer", fallback: "optional" },
    data: { check: jsonObject, parsedCheck: isPlainObject, expected: "a JSON object", ...modelled(viewModel.data) },
    is_locked: { check: bool, expected: "a boolean", ...modelled(viewModel.is_locked) },
    locked_by: refOf(viewModel.locked_by),
    locked_at: { expected: `${TIMESTAMP} or null`, ...modelled(viewModel.locked_at), timestamp: "nullable" },
  },
  ml_backends: {
    id,
    project: refOf(mlBackendModel.project),
    url: { check: nonEmptyStr, expected: "the model server's URL", ...modelled(mlBackendModel.url) },
    title: { check: orNull(str), expected: "a string or null", ...modelled(mlBackendModel.title) },
    description: { check: orNull(str), expected: "a string or null", ...modelled(mlBackendModel.description) },
    state: {
      check: choiceOf(mlBackendModel.state),
      expected: `one of ${mlBackendModel.state.choices.join(", ")}`,
      ...modelled(mlBackendModel.state),
    },
    is_interactive: { check: bool, expected: "a boolean", ...modelled(mlBackendModel.is_interactive) },
    error_message: { check: orNull(str), expected: "a string or null", ...modelled(mlBackendModel.error_message) },
    auth_method: {
      check: choiceOf(mlBackendModel.auth_method),
      expected: mlBackendModel.auth_method.choices.join(" or "),
      ...modelled(mlBackendModel.auth_method),
    },
    basic_auth_user: { check: orNull(str), expected: "a string or null", ...modelled(mlBackendModel.basic_auth_user) },
    basic_auth_pass: { check: orNull(str), expected: "a string or null", ...modelled(mlBackendModel.basic_auth_pass) },
    extra_params: { check: isJson, expected: "any JSON value", ...modelled(mlBackendModel.extra_params) },
    model_version: { check: orNull(str), expected: "a string or null", ...modelled(mlBackendModel.model_version) },
    timeout: { check: finite, expected: "a number of seconds", ...modelled(mlBackendModel.timeout) },
    auto_update: { check: bool, expected: "a boolean", ...modelled(mlBackendModel.auto_update) },
    created_at: now(),
    updated_at: sameAs("created_at"),
  },
  exports: {
    id,
    project: refOf(exportModel.project),
    title: { check: str, expected: "a string", ...modelled(exportModel.title) },
    created_at: now(),
    created_by: refOf(exportModel.created_by),
    finished_at: { expected: `${TIMESTAMP} or null`, ...modelled(exportModel.finished_at), timestamp: "nullable" },
    status: { check: exportStatus, expected: EXPORT_STATUS, ...modelled(exportModel.status) },
    md5: { check: str, expected: "a string", ...modelled(exportModel.md5) },
    counters: { check: jsonObject, parsedCheck: isPlainObject, expected: "a JSON object", ...modelled(exportModel.counters) },
    file: { check: orNull(str), expected: "a string or null", ...modelled(exportModel.file) },
    // Not a model field: the file's text, kept with the record (null until written).
    content: { check: orNull(str), expected: "a string or null", fallback: constant(null) },
  },
  converted_formats: {
    id,
    export: refOf(convertedFormatModel.export),
    project: refOf(convertedFormatModel.project),
    export_type: { check: nonEmptyStr, expected: "an export format name", ...modelled(convertedFormatModel.export_type) },
    status: { check: exportStatus, expected: EXPORT_STATUS, ...modelled(convertedFormatModel.status) },
    traceback: { check: orNull(str), expected: "a string or null", ...modelled(convertedFormatModel.traceback) },
    created_at: now(),
  },
};

/** Task columns the store keeps; every other column is computed by the engine. */
const storedTaskFields = new Set(Object.keys(specs.tasks));

function label(collection: string, index: number, record: unknown): string {
  const rid = isPlainObject(record) && positiveInt(record["id"]) ? ` (id ${record["id"] as number})` : "";
  return `${collection}[${index}]${rid}`;
}

export interface LoadOptions {
  /**
   * The input is fresh from `JSON.parse` and nobody else holds it (a seed or persist file): its
   * values are JSON by construction and are adopted as they are, not walked and copied field by field.
   */
  readonly parsed?: boolean;
}

/** What a field's value is refused with. */
const REFUSED = Symbol("refused");

/**
 * A collection's fields compiled for one load: one rule per field, found by name while a record's own
 * keys are walked once. A rule's `accept` checks a value and returns what the store keeps (REFUSED
 * otherwise).
 */
interface Rule {
  readonly name: string;
  readonly field: Field;
  readonly accept: (value: unknown) => unknown;
  /** The ids of the collection the field refers to. */
  readonly refs: IdSet | undefined;
  /** This rule's bit in a record's mask of present fields. */
  readonly bit: number;
}
interface IdSet {
  has(id: number): boolean;
}
interface Compiled {
  readonly byName: Map<string, Rule>;
  /** Every rule's bit. */
  readonly all: number;
  /** The rules to default (or refuse) for a mask of present fields; records of one seed share a few masks. */
  readonly absent: (mask: number) => readonly Rule[];
}

function compile(collection: CollectionName, parsed: boolean, ids: ReadonlyMap<CollectionName, IdSet>): Compiled {
  const rules = Object.entries(specs[collection]).map(
    ([name, field], i): Rule => ({
      name,
      field,
      accept: acceptor(field, parsed),
      refs: field.ref === undefined ? undefined : ids.get(field.ref),
      bit: 1 << i,
    }),
  );
  const byMask = new Map<number, readonly Rule[]>();
  const absent = (mask: number) => {
    let list = byMask.get(mask);
    if (list === undefined) byMask.set(mask, (list = rules.filter((r) => (mask & r.bit) === 0 && r.field.fallback !== "optional")));
    return list;
  };
  return { byName: new Map(rules.map((r) => [r.name, r])), all: (1 << rules.length) - 1, absent };
}

function acceptor(field: Field, parsed: boolean): (value: unknown) => unknown {
  if (field.timestamp !== undefined) {
    // Seeds repeat timestamps (a constant updated_at, runs of equal times): the last one stored is
    // kept for an equal text, so the store holds one string for the run.
    let lastIn: unknown, lastOut: unknown;
    const nullable = field.timestamp === "nullable";
    return (value) => {
      if (value === lastIn) return lastOut;
      if (value === null && nullable) return null;
      const stored = serverTimestamp(value);
      if (stored === undefined) return REFUSED;
      if (typeof value === "string") {
        lastIn = value;
        lastOut = stored;
      }
      return stored;
    };
  }
  const check = parsed ? (field.parsedCheck ?? field.check) : field.check;
  // Parsed input is ours to keep; anything else is copied, so the caller's objects stay theirs.
  if (parsed) return (value) => (check(value) ? value : REFUSED);
  return (value) => (!check(value) ? REFUSED : typeof value === "object" && value !== null ? structuredClone(value) : value);
}

/**
 * Validate a seed object (docs/mock-server.md#seed-data) and return a fresh store state. Missing
 * collections are empty, missing timestamps default to `now`, `inner_id` is numbered per project by
 * id. One pass over each record's own keys checks, normalises and refers each value; the record's
 * missing fields get their defaults after.
 */
export function loadSeed(input: unknown, now: string, options: LoadOptions = {}): StoreState {
  if (!isPlainObject(input)) throw new SeedError("(seed)", "an object with collections users, projects, tasks, …", describeValue(input));
  for (const key of Object.keys(input)) {
    if (!(collectionNames as readonly string[]).includes(key)) {
      throw new SeedError(key, `one of the collections ${collectionNames.join(", ")}`, `an unknown key "${key}"`);
    }
  }
  const parsed = options.parsed === true;
  const state = emptyState();
  const ids = new Map<CollectionName, IdSet>();
  /** Task id -> its project: the tasks' ids, and the project an annotation or prediction must have. */
  const taskProject = new Map<number, number>();
  for (const collection of collectionNames) {
    const raw = input[collection];
    const seen: Set<number> | Map<number, number> = collection === "tasks" ? taskProject : new Set<number>();
    ids.set(collection, seen);
    if (raw === undefined) continue;
    if (!Array.isArray(raw)) throw new SeedError(collection, "an array of records", describeValue(raw));
    const compiled = compile(collection, parsed, ids);
    const out: Record<string, unknown>[] = new Array(raw.length);
    for (let index = 0; index < raw.length; index++) {
      const record: unknown = raw[index];
      if (!isPlainObject(record)) throw new SeedError(`${collection}[${index}]`, "a record object", describeValue(record));
      const at: At = { collection, index, record };
      const clean = checkRecord(at, now, compiled, parsed);
      const rid = clean["id"] as number;
      if (seen.has(rid)) throw refusal(at, "id", `an id unique in "${collection}"`, `a second record with id ${rid}`);
      if (seen instanceof Map) seen.set(rid, clean["project"] as number);
      else seen.add(rid);
      if (collection === "annotations" || collection === "predictions") ownProject(at, clean, taskProject);
      out[index] = clean;
    }
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

function checkRecord(at: At, now: string, compiled: Compiled, parsed: boolean): Record<string, unknown> {
  const { collection, record } = at;
  const extraAllowed = collection === "projects";
  // A parsed record is ours: it is completed in place.
  const clean: Record<string, unknown> = extraAllowed ? { ...record } : parsed ? record : {};
  let mask = 0;
  for (const key in record) {
    if (!parsed && !Object.hasOwn(record, key)) continue;
    const value = record[key];
    const rule = compiled.byName.get(key);
    if (rule === undefined) {
      unknownField(at, key, parsed);
      continue;
    }
    if (value === undefined) continue; // absent: defaulted below
    mask |= rule.bit;
    const kept = rule.accept(value);
    if (kept === REFUSED) throw refusal(at, key, rule.field.expected, describeValue(value));
    if (rule.refs !== undefined && kept !== null && !rule.refs.has(kept as number)) {
      throw refusal(at, key, rule.field.expected, `${describeValue(value)}, which is not in "${rule.field.ref as string}"`);
    }
    if (clean !== record || kept !== value) clean[key] = kept;
  }
  if (mask === compiled.all) return clean;
  // Plain loops from here on: this runs for most records of a seed, often before the JIT has warmed up.
  const absent = compiled.absent(mask);
  for (let i = 0; i < absent.length; i++) {
    const { name, field, refs } = absent[i] as Rule;
    const { fallback } = field;
    if (fallback === "required") throw refusal(at, name, field.expected, "nothing (the field is required)");
    if (fallback === "optional") continue;
    const value = fallback(clean, now);
    if (refs !== undefined && value !== null && !refs.has(value as number)) {
      throw refusal(at, name, field.expected, `${describeValue(value)}, which is not in "${field.ref as string}"`);
    }
    // A default is a value of ours, fresh for each record.
    clean[name] = typeof value === "object" && value !== null ? structuredClone(value) : value;
  }
  return clean;
}

function unknownField(at: At, key: string, parsed: boolean): void {
  const { collection, record } = at;
  if (collection === "tasks" && isColumnName(key) && !storedTaskFields.has(key)) {
    throw refusal(at, key, "no derived column (the mock computes it from annotations and predictions)", `field "${key}"`);
  }
  if (collection !== "projects") {
    throw refusal(at, key, `only the fields ${Object.keys(specs[collection]).join(", ")}`, `an unknown field "${key}"`);
  }
  if (!parsed && !isJson(record[key])) throw refusal(at, key, "a JSON value", describeValue(record[key]));
}

/** An annotation's or prediction's project is its task's: taken when absent, refused when another. */
function ownProject(at: At, clean: Record<string, unknown>, taskProject: ReadonlyMap<number, number>): void {
  const task = clean["task"] as number;
  const expected = taskProject.get(task) as number;
  const project = clean["project"];
  if (project === undefined) clean["project"] = expected;
  else if (project !== expected) throw refusal(at, "project", `the project of task ${task} (${expected})`, `number ${project as number}`);
}

/** Rules across records: tokens and inner ids unique, views ordered. */
function crossCheck(state: StoreState): void {
  const tokens = new Set<string>();
  state.users.forEach((user, index) => {
    if (user.token === undefined) return;
    if (tokens.has(user.token)) {
      // The key itself is a secret: name the record, never the value.
      throw new SeedError(
        `users[${index}].token`,
        "a legacy key no other user has",
        "a key already used by another user",
        `${label("users", index, user)}.token`,
      );
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
  const used = new Map<number, Set<number>>();
  const next = new Map<number, number>(); // per project: one more than the highest inner id given
  const missing: { id: number; project: number; inner_id?: number }[] = [];
  state.tasks.forEach((task, index) => {
    if (task.inner_id === undefined) {
      missing.push(task);
      return;
    }
    let taken = used.get(task.project);
    if (!taken) used.set(task.project, (taken = new Set()));
    if (taken.has(task.inner_id)) {
      throw new SeedError(
        `tasks[${index}].inner_id`,
        `an inner_id unique in project ${task.project}`,
        `a second task with inner_id ${task.inner_id}`,
        `${label("tasks", index, task)}.inner_id`,
      );
    }
    taken.add(task.inner_id);
    if (task.inner_id >= (next.get(task.project) ?? 1)) next.set(task.project, task.inner_id + 1);
  });
  // The rest are numbered in id order (seeds list tasks by id: sorted only when they are not).
  if (missing.some((t, i) => i > 0 && (missing[i - 1] as { id: number }).id > t.id)) missing.sort((a, b) => a.id - b.id);
  for (const task of missing) {
    const n = next.get(task.project) ?? 1;
    task.inner_id = n;
    next.set(task.project, n + 1);
  }
}
