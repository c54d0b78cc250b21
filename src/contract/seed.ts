import { match } from "ts-pattern";
import { isColumnName } from "../vocabulary/columns.js";
import { describeValue, isPlainObject } from "../vocabulary/json.js";
import { serverTimestamp } from "../vocabulary/timestamps.js";
import { annotationModel } from "./annotation.js";
import { draftModel, draftOwn } from "./draft.js";
import { convertedFormatModel, convertedFormatOwn, exportModel, exportOwn } from "./export.js";
import { storedTable, type FieldSpec } from "./field.js";
import { predictionModel } from "./prediction.js";
import { projectModel, projectOwn } from "./project.js";
import { mlBackendModel } from "./ml-backend.js";
import { fileUploadModel, fileUploadOwn } from "./file-upload.js";
import { userModel, userOwn } from "./user.js";
import { organizationModel } from "./organization.js";
import { viewModel, viewOwn } from "./view.js";
import { taskModel, taskOwn } from "./task.js";
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
/** A default: computed from the record as completed so far and the load's `now`. */
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
const isJson = (v: unknown): boolean => {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  return isPlainObject(v) && Object.values(v).every(isJson);
};
const anything: Accepts = () => true;
const TIMESTAMP = "an ISO-8601 date-time with a zone, e.g. 2024-01-01T00:00:00Z";

/**
 * What the store keeps for each collection: the model table with the mock's own fields (`storedTable`).
 * Every seed check and default below derives from these tables: a field added to a model is checked
 * and defaulted in a seed by its kind, null-ness and default.
 */
const tables: { readonly [C in CollectionName]: Readonly<Record<string, FieldSpec>> } = {
  users: storedTable(userModel, userOwn),
  organizations: organizationModel,
  projects: storedTable(projectModel, projectOwn),
  file_uploads: storedTable(fileUploadModel, fileUploadOwn),
  tasks: storedTable(taskModel, taskOwn),
  predictions: predictionModel,
  annotations: annotationModel,
  drafts: storedTable(draftModel, draftOwn),
  views: storedTable(viewModel, viewOwn),
  ml_backends: mlBackendModel,
  exports: storedTable(exportModel, exportOwn),
  converted_formats: storedTable(convertedFormatModel, convertedFormatOwn),
};

/** The value a kind accepts (before null-ness), what a refusal says was expected, and the check for parsed JSON. */
function kindCheck(spec: FieldSpec): { check: Accepts; expected: string; parsedCheck?: Accepts } {
  return (
    match(spec.kind)
      .with("integer", () => integerCheck(spec))
      .with("float", () => ({ check: (v: unknown) => typeof v === "number" && Number.isFinite(v), expected: "a finite number" }))
      .with("pk", () => ({ check: positiveInt, expected: "a positive integer id" }))
      .with("boolean", () => ({ check: (v: unknown) => typeof v === "boolean", expected: "a boolean" }))
      .with("string", () =>
        // DRF's CharField refuses "" unless the model field is blank=True.
        spec.blank === true
          ? { check: (v: unknown) => typeof v === "string", expected: "a string" }
          : { check: (v: unknown) => typeof v === "string" && v.length > 0, expected: "a non-empty string" },
      )
      .with("choice", () => {
        const choices: readonly string[] = spec.choices ?? [];
        return {
          check: (v: unknown) => typeof v === "string" && choices.includes(v),
          expected: `one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`,
        };
      })
      .with("json", () => ({ check: isJson, parsedCheck: anything, expected: "a JSON value" }))
      .with("dict", () => ({ check: (v: unknown) => isPlainObject(v) && isJson(v), parsedCheck: isPlainObject, expected: "a JSON object" }))
      .with("list", () => ({
        check: (v: unknown) => Array.isArray(v) && v.every(isJson),
        parsedCheck: Array.isArray,
        expected: "an array of JSON values",
      }))
      .with("pks", "integers", () => ({ check: (v: unknown) => Array.isArray(v) && v.every(isInt), expected: "an array of integers" }))
      .with("strings", () => ({
        check: (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string"),
        expected: "an array of strings",
      }))
      // A stamp is checked by its parse (seedField); the others are never stored.
      .with("datetime", "string-or-strings", "nested", "nested-list", (kind) => {
        throw new Error(`seed: a stored field of kind ${kind} has no value check`);
      })
      .exhaustive()
  );
}

/** An integer within the field's min/max validators (those a double can hold exactly; a safe integer is within the others). */
function integerCheck(spec: FieldSpec): { check: Accepts; expected: string } {
  const limit = (rule: "min-value" | "max-value") =>
    spec.checks?.flatMap((c) => (c.rule === rule && Number.isSafeInteger(c.limit) ? [c.limit] : []))[0];
  const min = limit("min-value") ?? -Infinity;
  const max = limit("max-value") ?? Infinity;
  const expected =
    min > -Infinity && max < Infinity
      ? `an integer from ${min} to ${max}`
      : min > -Infinity
        ? `an integer of at least ${min}`
        : max < Infinity
          ? `an integer of at most ${max}`
          : "an integer";
  return { check: (v) => isInt(v) && v >= min && v <= max, expected };
}

/** A record's creation time: the `now` of a creation stamp, and what its other stamps (`updated_at`, `last_activity`) start as. */
const CREATED = ["created_at", "date_joined"];
const constant = (value: unknown) => () => value;

/**
 * A field's fallback as its table declares it: an owned reference and a field without a default are
 * required, a `sparse` or `numbered` one stays absent (numbered after the load), any other takes the
 * seed format's default where the field has one, else the model's; a stamp without one is the load's
 * time, or the record's creation time.
 */
function fallbackOf(name: string, spec: FieldSpec): Field["fallback"] {
  if (spec.owner === true) return "required";
  if (spec.stored === "sparse" || spec.stored === "numbered") return "optional";
  if (spec.seedDefault !== undefined) return constant(spec.seedDefault);
  if (spec.default !== undefined) return constant(spec.default);
  if (spec.kind !== "datetime") return "required";
  return CREATED.includes(name) ? (_r, t) => t : (r, t) => CREATED.map((c) => r[c]).find((v) => v !== undefined) ?? t;
}

/** A field's seed check and default, from its kind, null-ness, reference and default. */
function seedField(collection: CollectionName, name: string, spec: FieldSpec): Field {
  const fallback = fallbackOf(name, spec);
  // An owned reference is never null in the store; null is JSON.
  const nullable = spec.nullable && spec.owner !== true && spec.kind !== "json";
  const orNullText = nullable ? " or null" : "";
  if (spec.kind === "datetime") return { expected: `${TIMESTAMP}${orNullText}`, fallback, timestamp: nullable ? "nullable" : "required" };
  if (name === "id") return { check: positiveInt, expected: "a positive integer id", fallback: "required" };
  const kind = spec.ref === undefined ? kindCheck(spec) : { check: positiveInt, expected: `the id of a record in "${spec.ref}"` };
  const orNull = (c: Accepts): Accepts => (nullable ? (v) => v === null || c(v) : c);
  return {
    check: orNull(kind.check),
    ...(kind.parsedCheck === undefined ? {} : { parsedCheck: orNull(kind.parsedCheck) }),
    expected: `${kind.expected}${orNullText}`,
    fallback,
    // A collection's own ids are not all known while it is read: any positive id.
    ...(spec.ref === undefined || spec.ref === collection ? {} : { ref: spec.ref }),
  };
}

/**
 * The seed's own rules, over what the tables give: a child's project is its task's (taken when left
 * out, see ownProject); the mock has one organization.
 */
const seedRules: { readonly [C in CollectionName]?: { readonly [field: string]: (derived: Field) => Field } } = {
  users: {
    // null: a user added to the organization but never switched into it (a persisted `POST /api/users/`).
    active_organization: () => ({ check: (v) => v === null, expected: "null (absent: the mock's one organization)", fallback: "optional" }),
  },
  annotations: { project: (f) => ({ ...f, fallback: "optional" }) },
  predictions: { project: (f) => ({ ...f, fallback: "optional" }) },
};

const specs = Object.fromEntries(
  collectionNames.map((collection) => [
    collection,
    Object.fromEntries(
      Object.entries(tables[collection]).flatMap(([name, spec]): [string, Field][] => {
        if (spec.stored === "computed") return [];
        const derived = seedField(collection, name, spec);
        return [[name, seedRules[collection]?.[name]?.(derived) ?? derived]];
      }),
    ),
  ]),
) as { readonly [C in CollectionName]: { readonly [field: string]: Field } };

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
