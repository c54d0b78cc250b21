import type { ProjectCreate, QueryInput, ViewDataInput } from "../src/client/index.js";
import { describeValue, isPlainObject, type JsonValue } from "../src/vocabulary/json.js";
import type { SeedIds, SpecId } from "./ids.js";

export type { SpecId } from "./ids.js";

/**
 * A declarative description of one project's data, built on a target only through its public API
 * (docs/testing.md#seed-specs). Records carry spec ids of the test's choosing; the server assigns its
 * own ids, and the seeded project maps one to the other (`SeedIds`).
 *
 * What the public API cannot set is not in the spec: `created_at`/`updated_at` of tasks, annotations
 * and predictions (the server stamps the time of the request), `inner_id` (counted per project in
 * import order), `updated_by` (the caller), and every derived column (`total_annotations`,
 * `completed_at`, `is_labeled`, …), which follow from the records as on any server.
 */
export interface SeedSpec {
  /** The start of the project's title; a unique suffix is appended (titles are at most 50 characters). Default "dmq test". */
  readonly title?: string;
  /** The labeling interface. Default `DEFAULT_LABEL_CONFIG`, which requires no data key. */
  readonly label_config?: string;
  /** Further fields of `POST /api/projects/` (`maximum_annotations`, `model_version`, `description`…). */
  readonly project?: Omit<ProjectCreate, "title" | "label_config">;
  /** Imported in this order, so their ids and `inner_id`s ascend in it. */
  readonly tasks?: readonly TaskSpec[];
  /** Created in this order, after the tasks and their annotations and predictions. */
  readonly views?: readonly ViewSpec[];
}

/** How a record reaches the server: inside the task import (one request for all), or by its own create call. */
export type Via = "import" | "api";

/** One task: its data and meta, and the annotations and predictions it starts with. */
export interface TaskSpec {
  /** Default: the task's index in `tasks`. */
  readonly id?: SpecId;
  /** Sent as is: nulls, nested objects, numbers as strings, unicode… (the label config decides which keys it requires). */
  readonly data: { readonly [key: string]: JsonValue };
  readonly meta?: { readonly [key: string]: JsonValue };
  readonly annotations?: readonly AnnotationSpec[];
  readonly predictions?: readonly PredictionSpec[];
}

/** One annotation of a task. */
export interface AnnotationSpec {
  /** Default: `"<task id>/a<index>"`. */
  readonly id?: SpecId;
  /** Default `[]`. It must fit the label config (the server checks its control tags). */
  readonly result?: readonly JsonValue[];
  readonly was_cancelled?: boolean;
  /**
   * Sent only when given. The server's defaults differ by route: an imported annotation is ground truth
   * unless told otherwise (`TaskSerializerBulk.add_annotations`), one created through the API is not.
   */
  readonly ground_truth?: boolean;
  readonly lead_time?: number;
  /** A user id on the target (default: the caller). `target.user.id` is the caller's; the kit creates no users. */
  readonly completed_by?: number;
  /**
   * "import" (default): inside the project import. "api": `POST /api/tasks/<id>/annotations/`, which also
   * sets `updated_by` and links the prediction of the project's model version, as the labeling UI does.
   */
  readonly via?: Via;
}

/** One prediction of a task. */
export interface PredictionSpec {
  /** Default: `"<task id>/p<index>"`. */
  readonly id?: SpecId;
  readonly result: readonly JsonValue[];
  readonly score?: number;
  readonly model_version?: string;
  /** "import" (default) or "api" (`POST /api/predictions/`). */
  readonly via?: Via;
}

/** One saved Data Manager view (a tab) of the project. */
export interface ViewSpec {
  /** Default: `"v<index>"`. */
  readonly id?: SpecId;
  /** The view's tab title (`data.title`). */
  readonly title?: string;
  /** More keys of the view's `data` (`hiddenColumns`, `columnsWidth`…). */
  readonly data?: ViewDataInput;
  /**
   * Filters, ordering and selected ids: a body or a selection, or a function of the server ids
   * (for filters on `tasks:id`, on annotators, or a selection of seeded tasks).
   */
  readonly query?: QueryInput | ((ids: SeedIds) => QueryInput);
}

/**
 * A label config that requires no task data key (its text is a constant), so tasks may hold any data,
 * with a single-choice control `label` over `text` (choices `pos`, `neg`, `neutral`) for results such as
 * `choice("pos")`.
 */
export const DEFAULT_LABEL_CONFIG =
  '<View><Text name="text" value="seeded by dmq"/><Choices name="label" toName="text" choice="single">' +
  '<Choice value="pos"/><Choice value="neg"/><Choice value="neutral"/></Choices></View>';

/** A result of `DEFAULT_LABEL_CONFIG`'s control: `[{ from_name: "label", to_name: "text", type: "choices", value: { choices: [value] } }]`. */
export function choice(value: string): JsonValue[] {
  return [{ from_name: "label", to_name: "text", type: "choices", value: { choices: [value] } }];
}

/** A seed spec that is not what the kit expects: names the field, what was expected and what was found. */
export class SeedSpecError extends TypeError {
  override readonly name: string = "SeedSpecError";
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${field}: expected ${expected}, found ${found}`);
  }
}

/** A record of the checked spec: its id given or defaulted. */
export type WithId<T> = Omit<T, "id"> & { readonly id: SpecId };
/** An annotation of the checked spec. */
export type CheckedAnnotation = WithId<AnnotationSpec> & { readonly via: Via };
/** A prediction of the checked spec. */
export type CheckedPrediction = WithId<PredictionSpec> & { readonly via: Via };
/** A task of the checked spec. */
export type CheckedTask = Omit<WithId<TaskSpec>, "annotations" | "predictions"> & {
  readonly annotations: readonly CheckedAnnotation[];
  readonly predictions: readonly CheckedPrediction[];
};

/** A spec whose every record has its id. */
export interface CheckedSpec {
  readonly title: string;
  readonly label_config: string;
  readonly project: Omit<ProjectCreate, "title" | "label_config">;
  readonly tasks: readonly CheckedTask[];
  readonly views: readonly WithId<ViewSpec>[];
}

const isSpecId = (v: unknown): v is SpecId => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

function list<T>(field: string, value: readonly T[] | undefined): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new SeedSpecError(field, "an array", describeValue(value));
  return value;
}

function object(field: string, value: unknown, optional = false): void {
  if (optional && value === undefined) return;
  if (!isPlainObject(value)) throw new SeedSpecError(field, "an object", describeValue(value));
}

function optional(field: string, value: unknown, type: "boolean" | "number" | "string"): void {
  if (value === undefined || typeof value === type) return;
  throw new SeedSpecError(field, `a ${type} or nothing`, describeValue(value));
}

/** Checks the spec and gives every record its id; a duplicate id within a kind is refused. */
export function checkSpec(spec: SeedSpec): CheckedSpec {
  object("spec", spec);
  optional("spec.title", spec.title, "string");
  optional("spec.label_config", spec.label_config, "string");
  object("spec.project", spec.project, true);
  const seen = { tasks: new Set<SpecId>(), annotations: new Set<SpecId>(), predictions: new Set<SpecId>(), views: new Set<SpecId>() };
  const unique = (kind: keyof typeof seen, field: string, id: unknown): SpecId => {
    if (!isSpecId(id)) throw new SeedSpecError(field, "a string or a finite number", describeValue(id));
    if (seen[kind].has(id)) throw new SeedSpecError(field, `an id no other ${kind.slice(0, -1)} has`, JSON.stringify(id));
    seen[kind].add(id);
    return id;
  };
  const via = (field: string, value: unknown): Via => {
    if (value === undefined) return "import";
    if (value !== "import" && value !== "api") throw new SeedSpecError(field, '"import", "api" or nothing', describeValue(value));
    return value;
  };

  const tasks = list("spec.tasks", spec.tasks).map((task, t) => {
    const at = `spec.tasks[${t}]`;
    object(at, task);
    const id = unique("tasks", `${at}.id`, task.id === undefined ? t : task.id);
    object(`${at}.data`, task.data);
    object(`${at}.meta`, task.meta, true);
    const annotations = list(`${at}.annotations`, task.annotations).map((a, i) => {
      const field = `${at}.annotations[${i}]`;
      object(field, a);
      if (a.result !== undefined && !Array.isArray(a.result))
        throw new SeedSpecError(`${field}.result`, "an array", describeValue(a.result));
      optional(`${field}.was_cancelled`, a.was_cancelled, "boolean");
      optional(`${field}.ground_truth`, a.ground_truth, "boolean");
      optional(`${field}.lead_time`, a.lead_time, "number");
      if (a.completed_by !== undefined && !(Number.isSafeInteger(a.completed_by) && a.completed_by > 0)) {
        throw new SeedSpecError(`${field}.completed_by`, "a user id (a positive integer) or nothing", describeValue(a.completed_by));
      }
      return { ...a, id: unique("annotations", `${field}.id`, a.id === undefined ? `${id}/a${i}` : a.id), via: via(`${field}.via`, a.via) };
    });
    const predictions = list(`${at}.predictions`, task.predictions).map((p, i) => {
      const field = `${at}.predictions[${i}]`;
      object(field, p);
      if (!Array.isArray(p.result)) throw new SeedSpecError(`${field}.result`, "an array", describeValue(p.result));
      optional(`${field}.score`, p.score, "number");
      optional(`${field}.model_version`, p.model_version, "string");
      return { ...p, id: unique("predictions", `${field}.id`, p.id === undefined ? `${id}/p${i}` : p.id), via: via(`${field}.via`, p.via) };
    });
    return { ...task, id, annotations, predictions };
  });

  const views = list("spec.views", spec.views).map((view, v) => {
    const at = `spec.views[${v}]`;
    object(at, view);
    optional(`${at}.title`, view.title, "string");
    object(`${at}.data`, view.data, true);
    if (view.query !== undefined && typeof view.query !== "function") object(`${at}.query`, view.query);
    return { ...view, id: unique("views", `${at}.id`, view.id === undefined ? `v${v}` : view.id) };
  });

  return {
    title: spec.title ?? "dmq test",
    label_config: spec.label_config ?? DEFAULT_LABEL_CONFIG,
    project: spec.project ?? {},
    tasks,
    views,
  };
}
