import { match, P } from "ts-pattern";
import { toWireDatetime, wireDatetimeMicros } from "../../vocabulary/datetime.js";

/**
 * Scenarios are written once for both targets, but each server assigns its own ids and timestamps.
 * A scenario names them symbolically (`{ $ref: "task", key: "t3" }`); each target resolves the
 * reference against the state it built (`Seeded`), so the same request means the same thing on both.
 */
export type Ref =
  | { readonly $ref: "project" }
  | { readonly $ref: "user" }
  | { readonly $ref: "task" | "annotation" | "prediction" | "view"; readonly key: string }
  /** A task's timestamp, moved by `shiftMicros` (so `<`/`<=` can straddle it), in the filter wire format. */
  | { readonly $ref: "time"; readonly key: string; readonly field: TimeField; readonly shiftMicros?: number }
  | { readonly $ref: "inner_id"; readonly key: string }
  /** What an earlier step of a write scenario made (its answer's `id`, or the field it captured). */
  | { readonly $ref: "made"; readonly key: string }
  /** A value of the run: `nonce` (unique per run), `modelServer` (the URL of the model server the run started). */
  | { readonly $ref: "context"; readonly key: string };

export type TimeField = "created_at" | "updated_at" | "completed_at";

/** What a target built: every fixture key's id there, and each task's timestamps and inner id as it renders them. */
export interface Seeded {
  readonly project: number;
  readonly user: number;
  readonly ids: {
    readonly task: ReadonlyMap<string, number>;
    readonly annotation: ReadonlyMap<string, number>;
    readonly prediction: ReadonlyMap<string, number>;
    readonly view: ReadonlyMap<string, number>;
  };
  readonly times: ReadonlyMap<string, { readonly [F in TimeField]: string | null }>;
  readonly innerIds: ReadonlyMap<string, number>;
  /** What the steps of a write scenario made so far, by the names they captured it under. */
  readonly made?: ReadonlyMap<string, unknown>;
  /** Values of the run (see the `context` reference). */
  readonly context?: Readonly<Record<string, string>>;
}

export function isRef(value: unknown): value is Ref {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { $ref?: unknown }).$ref === "string";
}

export class UnresolvedRef extends Error {
  override readonly name = "UnresolvedRef";
}

/** A reference's value on one target. */
export function resolveRef(ref: Ref, seeded: Seeded): string | number {
  return (
    match(ref)
      .with({ $ref: "project" }, () => seeded.project)
      .with({ $ref: "user" }, () => seeded.user)
      .with({ $ref: "inner_id" }, (r) => need(seeded.innerIds.get(r.key), r))
      .with({ $ref: "time" }, (r) => shiftDatetime(need(seeded.times.get(r.key)?.[r.field], r), r.shiftMicros ?? 0))
      .with({ $ref: P.union("task", "annotation", "prediction", "view") }, (r) => need(seeded.ids[r.$ref].get(r.key), r))
      // What a step captured may be any JSON (the caller's hotkeys, to put back): sent as it was read.
      .with({ $ref: "made" }, (r) => need(seeded.made?.get(r.key), r) as string | number)
      .with({ $ref: "context" }, (r) => need(seeded.context?.[r.key], r))
      .exhaustive()
  );
}

function need<T>(value: T | undefined | null, ref: Ref): T {
  if (value === undefined || value === null) throw new UnresolvedRef(`the target has no ${JSON.stringify(ref)}`);
  return value;
}

/** Every reference inside a JSON-like value replaced by its value on one target. */
export function resolveDeep(value: unknown, seeded: Seeded): unknown {
  if (isRef(value)) return resolveRef(value, seeded);
  if (typeof value === "string" && RUN_TEMPLATE.test(value)) return fillRunTemplates(value, seeded);
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, seeded));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveDeep(v, seeded)]));
  }
  return value;
}

/** `{made:<key>}` and `{context:<key>}` inside a text (a path, an email): what a step made, a value of the run. */
const RUN_TEMPLATE = /\{(made|context):([\w-]+)\}/;
const RUN_TEMPLATES = /\{(made|context):([\w-]+)\}/g;

export function fillRunTemplates(text: string, seeded: Seeded): string {
  return text.replace(RUN_TEMPLATES, (_, kind: "made" | "context", key: string) => String(resolveRef({ $ref: kind, key }, seeded)));
}

/** A rendered timestamp moved by some microseconds, written as the filter's `%Y-%m-%dT%H:%M:%S.%fZ`. */
export function shiftDatetime(rendered: string, shiftMicros: number): string {
  const wire = toWireDatetime(rendered);
  if (!wire.ok) throw new UnresolvedRef(`not a timestamp: ${rendered}`);
  const micros = wireDatetimeMicros(wire.value);
  if (micros === undefined) throw new UnresolvedRef(`not a timestamp: ${rendered}`);
  const total = micros + shiftMicros;
  const ms = Math.floor(total / 1000);
  const sub = total - ms * 1000;
  const iso = new Date(ms).toISOString(); // …SS.mmmZ
  return `${iso.slice(0, -1)}${String(sub).padStart(3, "0")}Z`;
}

export const ref = {
  project: (): Ref => ({ $ref: "project" }),
  user: (): Ref => ({ $ref: "user" }),
  task: (key: string): Ref => ({ $ref: "task", key }),
  annotation: (key: string): Ref => ({ $ref: "annotation", key }),
  prediction: (key: string): Ref => ({ $ref: "prediction", key }),
  view: (key: string): Ref => ({ $ref: "view", key }),
  time: (key: string, field: TimeField, shiftMicros = 0): Ref => ({ $ref: "time", key, field, shiftMicros }),
  innerId: (key: string): Ref => ({ $ref: "inner_id", key }),
  made: (key: string): Ref => ({ $ref: "made", key }),
  context: (key: string): Ref => ({ $ref: "context", key }),
};
