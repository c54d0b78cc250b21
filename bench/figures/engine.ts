/**
 * The semantics engine against hand-written loops (issues #12 and #25 "engine"): seven queries, each at
 * 10k, 100k and 1M tasks. "cold" is `evaluate(records, query)`: the engine starts from the raw
 * records and builds whatever it needs; the hand loop starts from the same records. "prepared" is
 * the engine with a PreparedDataset reused across evaluations (as the mock server keeps one per
 * store version), after one warm-up evaluation. Every loop is checked to give the engine's answer.
 * "new shape" is the cold evaluation with V8's compilation cache off: the engine compiles a query's
 * scan to code (src/semantics/fused.ts), which V8 otherwise compiles once per query shape and
 * reuses, so a cold run of a query the process never ran pays that compile as well.
 */
import v8 from "node:v8";
import { evaluate, PreparedDataset } from "../../src/semantics/index.js";
import type { QueryNode } from "../../src/query/nodes.js";
import type { Dataset } from "../../src/semantics/records.js";
import { selection } from "../../src/selection.js";
import { benchDataset } from "../lib/data.js";
import { figure, fmt, RUNS, timeAlternating, type Figure } from "../lib/stats.js";

interface Case {
  readonly name: string;
  readonly what: string;
  readonly query: QueryNode;
  readonly hand: (d: Dataset) => readonly number[];
}

const WANTED = ["c3", "c11", "c19", "c27", "c42"] as const;
const FROM = "2024-03-01T00:00:00.000Z",
  TO = "2024-09-30T00:00:00.000Z";
const micros = (text: string) => Date.parse(text) * 1000 + Number(text.slice(23, 26));

export const cases: readonly Case[] = [
  {
    name: "or_of_equals",
    what: "data.category equal c3 OR … (five values)",
    query: selection(1)
      .where("tasks:data.category")
      .equal(WANTED[0])
      .or("tasks:data.category")
      .equal(WANTED[1])
      .or("tasks:data.category")
      .equal(WANTED[2])
      .or("tasks:data.category")
      .equal(WANTED[3])
      .or("tasks:data.category")
      .equal(WANTED[4])
      .toQuery(),
    hand(d) {
      const want = new Set<string>(WANTED);
      const out: number[] = [];
      for (const t of d.tasks) {
        if (t.project !== 1) continue;
        const c = t.data.category;
        if (typeof c === "string" && want.has(c)) out.push(t.id);
      }
      return out;
    },
  },
  {
    name: "regex_order_by_data",
    what: "data.text regex ^(lorem|ipsum) .*dolor, ordered by data.rank (as text)",
    query: selection(1).where("tasks:data.text").regex("^(lorem|ipsum) .*dolor").orderBy("tasks:data.rank").toQuery(),
    hand(d) {
      const re = /^(lorem|ipsum) .*dolor/;
      const rows: { id: number; key: string }[] = [];
      for (const t of d.tasks) {
        if (t.project !== 1) continue;
        const text = t.data.text;
        if (typeof text === "string" && re.test(text)) rows.push({ id: t.id, key: String(t.data.rank) });
      }
      // The ranks are digits only, where en-US collation and code-point order agree.
      rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
      return rows.map((r) => r.id);
    },
  },
  {
    name: "datetime_counter_contains",
    what: "created_at between two dates AND total_annotations >= 1 AND data.text contains lorem",
    query: selection(1)
      .where("tasks:created_at")
      .between({ min: new Date(FROM), max: new Date(TO) })
      .and("tasks:total_annotations")
      .greaterOrEqual(1)
      .and("tasks:data.text")
      .contains("lorem")
      .toQuery(),
    hand(d) {
      const n = d.tasks.length;
      const total = new Int32Array(n + 2);
      for (const a of d.annotations) if (!a.was_cancelled) total[a.task] = (total[a.task] as number) + 1;
      const lo = Date.parse(FROM) * 1000,
        hi = Date.parse(TO) * 1000;
      const out: number[] = [];
      for (const t of d.tasks) {
        if (t.project !== 1) continue;
        const at = micros(t.created_at);
        if (!(at >= lo && at <= hi)) continue;
        if ((total[t.id] as number) < 1) continue;
        const text = t.data.text;
        if (typeof text === "string" && text.toUpperCase().includes("LOREM")) out.push(t.id);
      }
      return out;
    },
  },
  {
    name: "or_across_columns",
    what: "id = 777 OR inner_id = 4242 OR data.category = c7 OR data.rank = 42 (Number)",
    query: selection(1)
      .where("tasks:id")
      .equal(777)
      .or("tasks:inner_id")
      .equal(4242)
      .or("tasks:data.category")
      .equal("c7")
      .or("tasks:data.rank", "Number")
      .equal(42)
      .toQuery(),
    hand(d) {
      const out: number[] = [];
      for (const t of d.tasks) {
        if (t.project !== 1) continue;
        const rank = t.data.rank;
        if (t.id === 777 || t.inner_id === 4242 || t.data.category === "c7" || (typeof rank === "number" && rank === 42)) out.push(t.id);
      }
      return out;
    },
  },
  {
    name: "numeric_range",
    what: "data.rank (Number) between 1000 and 5000",
    query: selection(1).where("tasks:data.rank", "Number").between({ min: 1000, max: 5000 }).toQuery(),
    hand(d) {
      const out: number[] = [];
      for (const t of d.tasks) {
        if (t.project !== 1) continue;
        const rank = t.data.rank;
        if (typeof rank === "number" && rank >= 1000 && rank <= 5000) out.push(t.id);
      }
      return out;
    },
  },
  {
    name: "results_contains",
    what: 'annotations_results contains "Positive"',
    query: selection(1).where("tasks:annotations_results").contains("Positive").toQuery(),
    hand(d) {
      const hit = new Uint8Array(d.tasks.length + 2);
      for (const a of d.annotations) {
        if (a.project === 1 && a.result !== null && JSON.stringify(a.result).includes("Positive")) hit[a.task] = 1;
      }
      const out: number[] = [];
      for (const t of d.tasks) if (t.project === 1 && hit[t.id] === 1) out.push(t.id);
      return out;
    },
  },
  {
    name: "child_filters",
    what: "annotators contains 2, with the child data.score (Number) > 0.5 on the same line",
    query: selection(1).where("tasks:annotators").contains([2]).child("tasks:data.score", "Number").greater(0.5).toQuery(),
    hand(d) {
      const byTwo = new Uint8Array(d.tasks.length + 2);
      for (const a of d.annotations) if (a.completed_by === 2) byTwo[a.task] = 1;
      const out: number[] = [];
      for (const t of d.tasks) {
        if (t.project !== 1) continue;
        const score = t.data.score;
        if (byTwo[t.id] === 1 && typeof score === "number" && score > 0.5) out.push(t.id);
      }
      return out;
    },
  },
];

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export interface EngineTimes {
  readonly size: number;
  readonly query: string;
  readonly cold: number;
  readonly newShape: number;
  readonly prepared: number;
  readonly hand: number;
  readonly selected: number;
}

export function measureEngine(sizes: readonly number[], log: (line: string) => void): EngineTimes[] {
  const out: EngineTimes[] = [];
  for (const size of sizes) {
    let data: Dataset | undefined = benchDataset(size, { shareResults: true });
    for (const c of cases) {
      const d = data;
      const engineIds = evaluate(d, c.query).ids;
      if (!same(engineIds, c.hand(d))) throw new Error(`engine: ${c.name} at ${size} tasks: the engine and the hand loop disagree`);
      const prepared = new PreparedDataset(d);
      evaluate(prepared, c.query);
      // More rounds where they are cheap: the median settles (at 1M, the five).
      const t = timeAlternating(
        {
          cold: () => evaluate(d, c.query),
          newShape: () => {
            v8.setFlagsFromString("--no-compilation-cache");
            try {
              return evaluate(d, c.query);
            } finally {
              v8.setFlagsFromString("--compilation-cache");
            }
          },
          prepared: () => evaluate(prepared, c.query),
          hand: () => c.hand(d),
        },
        size >= 1_000_000 ? RUNS : 3 * RUNS,
      );
      out.push({
        size,
        query: c.name,
        cold: t.cold as number,
        newShape: t.newShape as number,
        prepared: t.prepared as number,
        hand: t.hand as number,
        selected: engineIds.length,
      });
      log(
        `  engine ${c.name} @${size}: cold ${fmt(t.cold as number)} ms (new shape ${fmt(t.newShape as number)}), prepared ${fmt(t.prepared as number)} ms, hand ${fmt(t.hand as number)} ms (${engineIds.length} ids)`,
      );
    }
    data = undefined;
  }
  return out;
}

export function engineFigures(times: readonly EngineTimes[], at = 100_000): Figure[] {
  const main = times.filter((t) => t.size === at);
  const worst = (key: "cold" | "newShape" | "prepared") => main.reduce((w, t) => (t[key] / t.hand > w[key] / w.hand ? t : w));
  const cold = worst("cold"),
    newShape = worst("newShape"),
    prepared = worst("prepared");
  const figures: Figure[] = [
    figure(
      "engine.vs_handloop",
      cold.cold / cold.hand,
      "×",
      2,
      "lower",
      `worst of ${main.length} at ${at / 1000}k: ${cold.query} ${fmt(cold.cold)} ms vs hand ${fmt(cold.hand)} ms`,
    ),
    figure(
      "engine.new_shape_vs_handloop",
      newShape.newShape / newShape.hand,
      "×",
      null,
      "lower",
      `worst of ${main.length} at ${at / 1000}k, V8's compilation cache off: ${newShape.query} ${fmt(newShape.newShape)} ms vs hand ${fmt(newShape.hand)} ms`,
    ),
    figure(
      "engine.prepared_vs_handloop",
      prepared.prepared / prepared.hand,
      "×",
      1,
      "lower",
      `worst of ${main.length} at ${at / 1000}k: ${prepared.query} ${fmt(prepared.prepared)} ms vs hand ${fmt(prepared.hand)} ms`,
    ),
  ];
  for (const t of times) {
    const k = t.size >= 1_000_000 ? `${t.size / 1_000_000}m` : `${t.size / 1000}k`;
    figures.push(
      figure(
        `engine.${t.query}.${k}.cold_ms`,
        t.cold,
        "ms",
        null,
        "lower",
        `hand loop ${fmt(t.hand)} ms (${fmt(t.cold / t.hand)}×), ${t.selected} ids`,
      ),
    );
    figures.push(
      figure(`engine.${t.query}.${k}.prepared_ms`, t.prepared, "ms", null, "lower", `${fmt(t.prepared / t.hand)}× the hand loop`),
    );
  }
  return figures;
}
