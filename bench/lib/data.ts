/**
 * The benchmarks' data: one project of `n` tasks, deterministic (a seeded LCG), shaped like a text
 * classification project. Every figure that compares two systems feeds both the same records.
 */
import type { AnnotationRecord, Dataset, TaskRecord } from "../../src/semantics/records.js";

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = ["lorem", "ipsum", "dolor", "sit", "amet", "Lorem", "consectetur", "adipiscing", "elit", "sed"];
export const CATEGORIES = 50;
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

export interface DataOptions {
  /** Annotations per task: a fixed count, or "random" (0 to 3, about one in ten cancelled). */
  readonly annotations?: number | "random";
  /** Annotations share two result values (saves memory at 1M tasks; records are never mutated). */
  readonly shareResults?: boolean;
  /**
   * How timestamps are written: as the server stores them (`…:SS.ffffffZ`, the default), or as people
   * write them (`…:SSZ`), which the mock converts while it loads.
   */
  readonly timestamps?: "stored" | "z";
}

const choice = (label: string) => [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: [label] } }];
const SHARED = { Positive: choice("Positive"), Negative: choice("Negative") };

/** Task `id`'s stored created_at: spread over 2024, with microseconds. */
function stamp(r: () => number): string {
  const month = 1 + Math.floor(r() * 12),
    day = 1 + Math.floor(r() * 28);
  const micros = pad(Math.floor(r() * 1e6), 6);
  return `2024-${pad(month)}-${pad(day)}T${pad(Math.floor(r() * 24))}:${pad(Math.floor(r() * 60))}:${pad(Math.floor(r() * 60))}.${micros}Z`;
}
/** `…:SS.ffffffZ` as `…:SSZ`. */
const zForm = (stored: string) => `${stored.slice(0, 19)}Z`;

export function benchDataset(n: number, options: DataOptions = {}): Dataset {
  const r = rng(42);
  const perTask = options.annotations ?? "random";
  const time = options.timestamps === "z" ? zForm : (t: string) => t;
  const tasks: TaskRecord[] = new Array<TaskRecord>(n);
  const annotations: AnnotationRecord[] = [];
  let annotationId = 1;
  for (let id = 1; id <= n; id++) {
    let text = WORDS[Math.floor(r() * WORDS.length)] as string;
    for (let w = 1; w < 8; w++) text += ` ${WORDS[Math.floor(r() * WORDS.length)] as string}`;
    const created = time(stamp(r));
    tasks[id - 1] = {
      id,
      project: 1,
      inner_id: id,
      data: { text, category: `c${Math.floor(r() * CATEGORIES)}`, rank: Math.floor(r() * 100_000), score: Math.round(r() * 100) / 100 },
      meta: {},
      created_at: created,
      updated_at: created,
      updated_by: null,
      file_upload: null,
      storage_filename: null,
      overlap: 1,
      unresolved_comment_count: 0,
    };
    const k = perTask === "random" ? Math.floor(r() * 4) : perTask;
    for (let j = 0; j < k; j++) {
      const cancelled = perTask === "random" && r() < 0.1;
      const label = r() < 0.5 ? "Positive" : "Negative";
      annotations.push({
        id: annotationId++,
        task: id,
        project: 1,
        result: cancelled ? [] : options.shareResults ? SHARED[label] : choice(label),
        completed_by: 1 + Math.floor(r() * 5),
        was_cancelled: cancelled,
        ground_truth: false,
        lead_time: Math.round(r() * 1000) / 100,
        created_at: time(`2025-01-${pad(1 + Math.floor(r() * 28))}T10:00:00.${pad(Math.floor(r() * 1e6), 6)}Z`),
        updated_at: time("2025-01-28T10:00:00.000000Z"),
      });
    }
  }
  return { project: { id: 1, title: "bench", label_config: "<View/>", model_version: null }, tasks, annotations, predictions: [] };
}

/** The users the HTTP benchmarks authenticate as (legacy token of user 1). */
export const BENCH_TOKEN = "bench0000000000000000000000000000000000";
export const benchUsers = [1, 2, 3, 4, 5].map((id) => ({
  id,
  username: `user${id}`,
  email: `user${id}@example.com`,
  first_name: `U${id}`,
  last_name: "Bench",
  ...(id === 1 ? { token: BENCH_TOKEN } : {}),
}));

/** A mock seed (and json-server db) holding the dataset. */
export function benchSeed(n: number, options: DataOptions = {}) {
  const d = benchDataset(n, options);
  return { users: benchUsers, projects: [d.project], tasks: d.tasks, annotations: d.annotations, predictions: [], drafts: [], views: [] };
}
