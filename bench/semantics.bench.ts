/**
 * Semantics engine throughput: 100k tasks, a 3-line filter, an ordering and a selection, through
 * `evaluate()` and through a hand-written loop that answers the same query directly. Prints both
 * times (median of several runs, after a warm-up) and the ratio; the target is a ratio <= 2.
 *
 *   npx tsx bench/semantics.bench.ts [tasks]
 *
 * The query: data.score (Number) > 0.3 AND data.text contains "lorem" AND total_annotations >= 1,
 * ordered by -completed_at, excluding 1,000 ids. Both sides start from the raw records, so the
 * engine's indexes (annotations by task, casts, computed columns) are part of its time.
 */
import { evaluate, PreparedDataset } from "../src/semantics/index.js";
import type { AnnotationRecord, Dataset, TaskRecord } from "../src/semantics/records.js";
import { selection } from "../src/selection.js";

const N = Number(process.argv[2] ?? 100_000);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function dataset(n: number): Dataset {
  const r = rng(42);
  const words = ["lorem", "ipsum", "dolor", "sit", "amet", "Lorem", "consectetur"];
  const tasks: TaskRecord[] = [];
  const annotations: AnnotationRecord[] = [];
  let annotationId = 1;
  for (let id = 1; id <= n; id++) {
    const text = Array.from({ length: 6 }, () => words[Math.floor(r() * words.length)]).join(" ");
    const score = r() < 0.1 ? undefined : r() < 0.2 ? String(Math.round(r() * 100) / 100) : Math.round(r() * 100) / 100;
    tasks.push({
      id,
      project: 1,
      inner_id: id,
      data: score === undefined ? { text } : { text, score },
      created_at: "2024-01-01T00:00:00.000000Z",
      updated_at: "2024-01-01T00:00:00.000000Z",
      updated_by: null,
      file_upload: null,
      storage_filename: null,
    });
    const k = Math.floor(r() * 3);
    for (let j = 0; j < k; j++) {
      const day = String(1 + Math.floor(r() * 28)).padStart(2, "0");
      annotations.push({
        id: annotationId++,
        task: id,
        project: 1,
        result: [],
        completed_by: 1 + Math.floor(r() * 5),
        was_cancelled: r() < 0.1,
        ground_truth: false,
        lead_time: r() * 10,
        created_at: `2024-02-${day}T10:00:00.${String(Math.floor(r() * 1e6)).padStart(6, "0")}Z`,
        updated_at: `2024-02-${day}T10:00:00.000000Z`,
      });
    }
  }
  return { project: { id: 1, title: "bench", label_config: "<View/>", model_version: null }, tasks, annotations, predictions: [] };
}

const excluded = Array.from({ length: 1000 }, (_, i) => i * 97 + 5);
const query = selection(1)
  .where("tasks:data.score", "Number").greater(0.3)
  .and("tasks:data.text").contains("lorem")
  .and("tasks:total_annotations").greaterOrEqual(1)
  .orderBy("-tasks:completed_at")
  .excluding(excluded)
  .toQuery();

/** The same query, written by hand for this data. */
function handWritten(data: Dataset): number[] {
  const byTask = new Map<number, { total: number; finished: number; newest: AnnotationRecord | undefined }>();
  for (const a of data.annotations) {
    let s = byTask.get(a.task);
    if (!s) byTask.set(a.task, (s = { total: 0, finished: 0, newest: undefined }));
    if (!a.was_cancelled) s.total++;
    if (!a.was_cancelled && a.result !== null) s.finished++;
    if (!s.newest || s.newest.id < a.id) s.newest = a;
  }
  const rows: { id: number; at: number | null }[] = [];
  for (const t of data.tasks) {
    if (t.project !== 1) continue;
    const raw = t.data.score;
    if (raw === undefined || raw === null) continue;
    const score = typeof raw === "number" ? raw : Number(raw);
    if (!(score > 0.3)) continue;
    const text = t.data.text;
    if (typeof text !== "string" || !text.toUpperCase().includes("LOREM")) continue;
    const s = byTask.get(t.id);
    if (!s || s.total < 1) continue;
    const labeled = s.finished >= (t.overlap ?? 1);
    rows.push({ id: t.id, at: labeled && s.newest ? Date.parse(s.newest.created_at) * 1000 + Number(s.newest.created_at.slice(23, 26)) : null });
  }
  rows.sort((a, b) => (a.at === null || b.at === null ? (a.at === b.at ? a.id - b.id : a.at === null ? 1 : -1) : b.at - a.at || a.id - b.id));
  const drop = new Set(excluded);
  return rows.filter((r) => !drop.has(r.id)).map((r) => r.id);
}

function time(run: () => unknown, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const data = dataset(N);
const engineIds = evaluate(data, query).ids;
const handIds = handWritten(data);
if (engineIds.length !== handIds.length || engineIds.some((id, i) => id !== handIds[i])) {
  throw new Error(`the engine and the hand-written loop disagree (${engineIds.length} vs ${handIds.length} ids)`);
}
for (let i = 0; i < 3; i++) (evaluate(data, query), handWritten(data)); // warm-up
const engineMs = time(() => evaluate(data, query), 9);
const handMs = time(() => handWritten(data), 9);
const prepared = new PreparedDataset(data);
evaluate(prepared, query);
const preparedMs = time(() => evaluate(prepared, query), 9);
const ratio = engineMs / handMs;
console.log(`semantics: ${N} tasks, ${data.annotations.length} annotations, ${engineIds.length} ids selected`);
console.log(`  engine        ${engineMs.toFixed(1)} ms (median of 9)`);
console.log(`  hand-written  ${handMs.toFixed(1)} ms (median of 9)`);
console.log(`  engine, PreparedDataset reused  ${preparedMs.toFixed(1)} ms (indexes built once, as the mock does per dataset)`);
console.log(`  ratio         ${ratio.toFixed(2)} (target <= 2)`);
if (ratio > 2) process.exitCode = 1;
