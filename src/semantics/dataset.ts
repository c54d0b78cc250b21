import type { JsonValue } from "../vocabulary/json.js";
import type { AnnotationRecord, Dataset, PredictionRecord, ProjectRecord, TaskRecord } from "./records.js";

/**
 * A dataset indexed for evaluation: the project's tasks in id order, annotations and predictions
 * grouped by task, and each computed column built once, on first use, as a flat array. Building
 * is lazy so a query pays only for the columns it filters or orders on.
 */
export class PreparedDataset {
  readonly project: ProjectRecord;
  /** The project's tasks, ascending by id (pipeline step 1: restrict to the project). */
  readonly tasks: readonly TaskRecord[];
  /** Ids are consecutive (the usual case): an id's index is `id - firstId`, no map needed. */
  readonly #firstId: number;
  readonly #consecutive: boolean;
  readonly source: Dataset;
  readonly #memo = new Map<string, unknown>();

  constructor(dataset: Dataset) {
    this.source = dataset;
    this.project = dataset.project;
    const projectId = dataset.project.id;
    const all = dataset.tasks;
    // The usual input (the mock's, a seed's) is one project's tasks in id order: keep that array.
    let reuse = true;
    for (let i = 0; i < all.length; i++) {
      const t = all[i] as TaskRecord;
      if (t.project !== projectId || (i > 0 && (all[i - 1] as TaskRecord).id >= t.id)) {
        reuse = false;
        break;
      }
    }
    let tasks: readonly TaskRecord[] = all;
    if (!reuse) {
      const mine: TaskRecord[] = [];
      for (const t of all) if (t.project === projectId) mine.push(t);
      mine.sort((a, b) => a.id - b.id);
      tasks = mine;
    }
    this.tasks = tasks;
    this.#firstId = tasks[0]?.id ?? 0;
    this.#consecutive = tasks.length === 0 || (tasks[tasks.length - 1] as TaskRecord).id - this.#firstId === tasks.length - 1;
  }

  /** The index of the task with this id, or undefined when it is not a task of the project. */
  indexOf(id: number): number | undefined {
    if (this.#consecutive) {
      const i = id - this.#firstId;
      return i >= 0 && i < this.tasks.length && Number.isInteger(i) ? i : undefined;
    }
    return this.#byId.get(id);
  }

  /** The id of the task at an index (consecutive ids: no need to read the record). */
  idAt(i: number): number {
    return this.#consecutive ? this.#firstId + i : (this.tasks[i] as TaskRecord).id;
  }

  /** Task id -> index in `tasks` (a map built on first use; `indexOf` avoids it for consecutive ids). */
  get indexById(): ReadonlyMap<number, number> {
    return this.#byId;
  }

  get #byId(): ReadonlyMap<number, number> {
    return this.memo("byId", () => new Map(this.tasks.map((t, i) => [t.id, i] as const)));
  }

  get size(): number {
    return this.tasks.length;
  }

  /** Memoise a per-dataset structure under a key (columns, groupings, casts). */
  memo<T>(key: string, build: () => T): T {
    if (this.#memo.has(key)) return this.#memo.get(key) as T;
    const value = build();
    this.#memo.set(key, value);
    return value;
  }

  readonly #asked = new Set<string>();

  /**
   * An index (a lookup table, a sort order) over this dataset, built the second time a query asks
   * for it: an index costs more than the scan it saves once, so a dataset evaluated once (a cold
   * `evaluate(records, query)`) never pays for one, while a reused dataset (the mock's) gets it.
   * Undefined: scan instead.
   */
  index<T>(key: string, build: () => T): T | undefined {
    const memoKey = `index:${key}`;
    if (this.#memo.has(memoKey)) return this.#memo.get(memoKey) as T;
    if (!this.#asked.has(key)) {
      this.#asked.add(key);
      return undefined;
    }
    return this.memo(memoKey, build);
  }

  /** Each task's annotations, ascending by id. */
  get annotations(): readonly (readonly AnnotationRecord[])[] {
    return this.memo("annotations", () => group(this.source.annotations, this, this.size));
  }

  /** Each task's predictions, ascending by id. */
  get predictions(): readonly (readonly PredictionRecord[])[] {
    return this.memo("predictions", () => group(this.source.predictions, this, this.size));
  }

  /** Does the task have a draft? */
  get draftExists(): Uint8Array {
    return this.memo("drafts", () => {
      const out = new Uint8Array(this.size);
      for (const d of this.source.drafts ?? []) {
        const i = this.indexOf(d.task);
        if (i !== undefined) out[i] = 1;
      }
      return out;
    });
  }
}

const NONE: readonly unknown[] = Object.freeze([]);

function group<R extends { readonly id: number; readonly task: number }>(
  records: readonly R[],
  index: { indexOf(id: number): number | undefined },
  size: number,
): R[][] {
  // Tasks without rows share one empty list: most projects have many unannotated tasks.
  const none = NONE as unknown as R[];
  const out: R[][] = new Array<R[]>(size).fill(none);
  let sorted = true;
  for (const r of records) {
    const i = index.indexOf(r.task);
    if (i === undefined) continue;
    const list = out[i] as R[];
    if (list === none) {
      out[i] = [r];
      continue;
    }
    if ((list[list.length - 1] as R).id > r.id) sorted = false;
    list.push(r);
  }
  if (!sorted) for (const list of out) if (list !== none) list.sort((a, b) => a.id - b.id);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Timestamps of stored records

const RECORD_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Microseconds since the epoch of a stored timestamp (ISO 8601; without a zone it is UTC, as the
 * server's naive datetimes are), or null when it does not parse.
 */
export function recordMicros(text: string | null | undefined): number | null {
  if (typeof text !== "string") return null;
  // Fast path for the stored form YYYY-MM-DDTHH:MM:SS.ffffffZ: Date.parse reads it to the millisecond.
  if (text.length === 27 && text.charCodeAt(26) === 90 && text.charCodeAt(19) === 46 && text.charCodeAt(10) === 84) {
    const exact = storedMicros(text);
    if (exact !== undefined) return exact;
    const ms = Date.parse(text);
    const micro = Number(text.slice(23, 26));
    if (!Number.isNaN(ms) && !Number.isNaN(micro)) return ms * 1000 + micro;
  }
  const m = RECORD_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  let ms = date.getTime();
  if (Number.isNaN(ms)) return null;
  if (zone && zone !== "Z" && zone !== "z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0")) * 60_000;
  }
  return ms * 1000 + Number(frac.slice(0, 6).padEnd(6, "0"));
}

/** Digits at [from, to) of `s` as a number, or -1 when one is not a digit. */
function digitsAt(s: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const d = s.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The stored form `YYYY-MM-DDTHH:MM:SS.ffffffZ` read digit by digit (no Date.parse: it runs once per
 * task in a cold query), for in-range fields only; anything else (Feb 30, hour 24) is left to
 * Date.parse, whose lenient answers the engine keeps.
 */
function storedMicros(s: string): number | undefined {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const y = digitsAt(s, 0, 4),
    mo = digitsAt(s, 5, 7),
    d = digitsAt(s, 8, 10);
  const h = digitsAt(s, 11, 13),
    mi = digitsAt(s, 14, 16),
    sec = digitsAt(s, 17, 19),
    frac = digitsAt(s, 20, 26);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || frac < 0) return undefined;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (DAYS_IN_MONTH[mo - 1] as number) + (mo === 2 && leap ? 1 : 0)) return undefined;
  // Days from 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse, era-based).
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  // Milliseconds (exact for any 4-digit year), then the sub-millisecond digits: the same two
  // operations as Date.parse(text) * 1000 + micro, so far years round alike too.
  const ms = ((days * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + Math.floor(frac / 1000);
  return ms * 1000 + (frac % 1000);
}

// ---------------------------------------------------------------------------------------------
// Computed columns (docs/reference/columns.md#task-columns; tasks/models.py, data_manager/managers.py)

export interface ComputedColumns {
  readonly totalAnnotations: Int32Array;
  readonly cancelledAnnotations: Int32Array;
  readonly totalPredictions: Int32Array;
  readonly isLabeled: Uint8Array;
  /** The newest annotation's created_at (by id), only for labeled tasks; NaN when NULL. */
  /** Microseconds, parsed on first use (NaN when NULL). */
  completedAt(i: number): number;
  readonly completedAtText: readonly (string | null)[];
  /** NaN when NULL. */
  readonly predictionsScore: Float64Array;
  readonly avgLeadTime: Float64Array;
  readonly innerId: Float64Array;
  readonly createdAt: Float64Array;
  readonly updatedAt: Float64Array;
}

/** The project's `skip_queue`: with IGNORE_SKIPPED, skipped annotations also complete a task. */
function countsSkipped(project: ProjectRecord): boolean {
  return project.skip_queue === "IGNORE_SKIPPED";
}

/** The computed columns of a dataset, each group built on first use. */
export function computed(ds: PreparedDataset): ComputedColumns {
  return ds.memo("computed", () => {
    const counts = () => ds.memo("computed:counts", () => annotationCounts(ds));
    const annotations = () => ds.memo("computed:annotations", () => annotationStats(ds));
    const predictions = () => ds.memo("computed:predictions", () => predictionStats(ds));
    return {
      get totalAnnotations() {
        return counts().total;
      },
      get cancelledAnnotations() {
        return counts().cancelled;
      },
      get isLabeled() {
        return annotations().labeled;
      },
      completedAt(i: number) {
        const a = annotations();
        if (a.parsed[i] === 0) {
          a.parsed[i] = 1;
          a.completedAt[i] = recordMicros(a.completedAtText[i]) ?? NaN;
        }
        return a.completedAt[i] as number;
      },
      get completedAtText() {
        return annotations().completedAtText;
      },
      get avgLeadTime() {
        return annotations().lead;
      },
      get totalPredictions() {
        return predictions().count;
      },
      get predictionsScore() {
        return predictions().score;
      },
      get createdAt() {
        return ds.memo("computed:created", () => micros(ds.tasks, (t) => t.created_at));
      },
      get updatedAt() {
        return ds.memo("computed:updated", () => micros(ds.tasks, (t) => t.updated_at));
      },
      get innerId() {
        return ds.memo("computed:inner", () => Float64Array.from(ds.tasks, (t, i) => t.inner_id ?? i + 1));
      },
    };
  });
}

function micros(tasks: readonly TaskRecord[], at: (t: TaskRecord) => string): Float64Array {
  const out = new Float64Array(tasks.length);
  for (let i = 0; i < tasks.length; i++) out[i] = recordMicros(at(tasks[i] as TaskRecord)) ?? NaN;
  return out;
}

/** Whether the records are in ascending id order (then a flat pass visits each task's in id order). */
function idOrdered(records: readonly { readonly id: number }[]): boolean {
  for (let k = 1; k < records.length; k++) if ((records[k] as { id: number }).id < (records[k - 1] as { id: number }).id) return false;
  return true;
}

/** total_annotations and cancelled_annotations in one pass over the flat annotation list. */
function annotationCounts(ds: PreparedDataset) {
  const total = new Int32Array(ds.size),
    cancelled = new Int32Array(ds.size);
  for (const a of ds.source.annotations) {
    const i = ds.indexOf(a.task);
    if (i === undefined) continue;
    if (a.was_cancelled) cancelled[i] = (cancelled[i] as number) + 1;
    else total[i] = (total[i] as number) + 1;
  }
  return { total, cancelled };
}

/**
 * is_labeled, completed_at and avg_lead_time in one pass over the flat annotation list (no
 * per-task lists): finished counts, lead-time sums and the newest annotation by id. Sums run in id
 * order per task, as over the grouped lists; an input not in id order takes the grouped path.
 */
function annotationStats(ds: PreparedDataset) {
  const n = ds.size;
  const labeled = new Uint8Array(n),
    finished = new Int32Array(n);
  const completedAt = new Float64Array(n),
    parsed = new Uint8Array(n),
    lead = new Float64Array(n).fill(NaN);
  const leadSum = new Float64Array(n),
    leadCount = new Int32Array(n),
    newestId = new Float64Array(n).fill(-Infinity);
  const newestAt: (string | null)[] = new Array<string | null>(n).fill(null);
  const skipped = countsSkipped(ds.project);
  const visit = (i: number, a: AnnotationRecord) => {
    // Task.completed_annotations: not cancelled and with a result (all of them with IGNORE_SKIPPED).
    if (skipped || (!a.was_cancelled && a.result !== null)) finished[i] = (finished[i] as number) + 1;
    if (typeof a.lead_time === "number") {
      leadSum[i] = (leadSum[i] as number) + a.lead_time;
      leadCount[i] = (leadCount[i] as number) + 1;
    }
    if (a.id > (newestId[i] as number)) {
      newestId[i] = a.id;
      newestAt[i] = a.created_at;
    }
  };
  const source = ds.source.annotations;
  if (idOrdered(source)) {
    for (const a of source) {
      const i = ds.indexOf(a.task);
      if (i !== undefined) visit(i, a);
    }
  } else {
    const anns = ds.annotations;
    for (let i = 0; i < n; i++) for (const a of anns[i] as readonly AnnotationRecord[]) visit(i, a);
  }
  const completedAtText: (string | null)[] = new Array<string | null>(n).fill(null);
  for (let i = 0; i < n; i++) {
    // _get_is_labeled_value: completed annotations >= overlap (tasks/mixins.py; overlap defaults to 1).
    // The community mixin counts annotations, not distinct annotators (a later flag-gated variant
    // counts distinct completed_by); cancelled ones count only with IGNORE_SKIPPED.
    const stored = (ds.tasks[i] as TaskRecord).is_labeled;
    if (stored ?? (finished[i] as number) >= ((ds.tasks[i] as TaskRecord).overlap ?? 1)) labeled[i] = 1;
    // base_annotate_completed_at: the newest annotation by id (cancelled ones too), only when labeled.
    if (labeled[i]) completedAtText[i] = newestAt[i] as string | null;
    if ((leadCount[i] as number) > 0) lead[i] = (leadSum[i] as number) / (leadCount[i] as number);
  }
  return { labeled, completedAt, parsed, completedAtText, lead };
}

function predictionStats(ds: PreparedDataset) {
  const n = ds.size;
  const count = new Int32Array(n),
    score = new Float64Array(n).fill(NaN);
  const preds = ds.predictions;
  const modelVersion = ds.project.model_version;
  for (let i = 0; i < n; i++) {
    const list = preds[i] as readonly PredictionRecord[];
    count[i] = list.length;
    // annotate_predictions_score: Avg(score), only the project's model_version when it is set.
    let sum = 0,
      k = 0;
    for (const p of list) {
      if (modelVersion !== null && modelVersion !== undefined && p.model_version !== modelVersion) continue;
      if (typeof p.score === "number") {
        sum += p.score;
        k++;
      }
    }
    if (k > 0) score[i] = sum / k;
  }
  return { count, score };
}

/** A task's `data` value at a path of keys (an object key, or an index into a list). */
export function dataAt(data: { readonly [key: string]: JsonValue }, path: readonly PathStep[]): JsonValue | undefined {
  let cur: JsonValue | undefined = data as JsonValue;
  for (const step of path) {
    if (cur === undefined || cur === null || typeof cur !== "object") return undefined;
    if (Array.isArray(cur)) {
      if (step.index === undefined) return undefined;
      const at: number = step.index < 0 ? cur.length + step.index : step.index;
      cur = cur[at];
    } else {
      if (step.key === undefined) return undefined;
      cur = Object.hasOwn(cur, step.key) ? (cur as { readonly [k: string]: JsonValue })[step.key] : undefined;
    }
  }
  return cur;
}

/** One step of a jsonb path: `->'key'`, `->0`, or a `#>` text step that works on both. */
export interface PathStep {
  readonly key: string | undefined;
  readonly index: number | undefined;
}
