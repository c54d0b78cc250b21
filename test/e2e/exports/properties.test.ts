import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockSeed, type MockServer } from "../../../mock-server/index.js";
import { parseDelimited } from "../../../src/cli/csv.js";
import { createClient, type Client } from "../../../src/client/index.js";
import { evaluate, EvaluationError } from "../../../src/semantics/index.js";
import type { Dataset } from "../../../src/semantics/records.js";
import { datasetArb, PROJECT } from "../../conformance/generators/datasets.js";
import { buildQuery, buildSelection, querySpecArb } from "../../conformance/generators/queries.js";

/**
 * Random projects and random selections, exported through the builder (`selection(…).export()`):
 * - the JSON file holds exactly the tasks the selection selects (as the semantics engine evaluates
 *   it), each with all of its annotations and predictions;
 * - JSON_MIN, CSV and TSV of the same snapshot agree with the JSON row for row: one row per task
 *   without annotations, one per annotation that was not skipped (newest first), none for a task
 *   whose annotations were all skipped; the task id, annotation id and data in each row.
 */
const KEY = "property000000000000000000000000000000001";
const CONFIG =
  '<View><Text name="text" value="$text"/><Choices name="label" toName="text"><Choice value="Positive"/><Choice value="Negative"/></Choices></View>';
const RUNS = 25;

let mock: MockServer;
let client: Client;
beforeAll(async () => {
  mock = await startMockServer();
  client = createClient({ baseUrl: mock.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(() => mock.close());

/** The dataset as a seed; a result the model left null becomes [] (the converter cannot read null: docs/exports.md). */
function seedOf(dataset: Dataset): MockSeed {
  return {
    users: [1, 2, 3, 4].map((id) => ({ id, username: `u${id}`, email: `u${id}@example.com`, ...(id === 1 ? { token: KEY } : {}) })),
    projects: [
      { ...dataset.project, label_config: CONFIG },
      { id: 2, title: "Other", label_config: CONFIG },
    ],
    tasks: dataset.tasks as MockSeed["tasks"],
    annotations: dataset.annotations.map((a) => ({ ...a, result: a.result ?? [] })) as MockSeed["annotations"],
    predictions: dataset.predictions as MockSeed["predictions"],
    drafts: (dataset.drafts ?? []) as MockSeed["drafts"],
  } as MockSeed;
}

interface ExportedTask {
  readonly id: number;
  readonly data: Record<string, unknown>;
  readonly annotations: { id: number; result: unknown; was_cancelled: boolean; created_at: string }[];
  readonly predictions: { id: number; result: unknown; score: number | null; model_version: string | null }[];
}

/** The converter's rows of an exported JSON file, from the rule (not from the code under test): [task id, annotation id]. */
function expectedRows(tasks: readonly ExportedTask[]): [number, number | null][] {
  const rows: [number, number | null][] = [];
  for (const task of tasks) {
    if (task.annotations.length === 0) rows.push([task.id, null]);
    const kept = task.annotations.filter((a) => !a.was_cancelled);
    const newestFirst = kept
      .map((a, i) => ({ a, i }))
      .sort((x, y) => (x.a.created_at < y.a.created_at ? 1 : x.a.created_at > y.a.created_at ? -1 : x.i - y.i));
    for (const { a } of newestFirst) rows.push([task.id, a.id]);
  }
  return rows;
}

const text = async (file: { bytes(): Promise<Uint8Array> }) => new TextDecoder().decode(await file.bytes());
const numberOrNull = (s: string | undefined) => (s === undefined || s === "" ? null : Number(s));

describe("exports of random selections", () => {
  test("JSON holds exactly the selected tasks with all their annotations and predictions; JSON_MIN, CSV and TSV agree with it row for row", async () => {
    let exported = 0;
    await fc.assert(
      fc.asyncProperty(datasetArb({ maxTasks: 8 }), querySpecArb({ maxLines: 2 }), async (dataset, spec) => {
        let selected: readonly number[];
        try {
          buildSelection(spec);
          selected = evaluate(dataset, buildQuery(spec)).ids;
        } catch (error) {
          // A selection the builder refuses, or one the server answers with an error, exports nothing to compare.
          if (error instanceof EvaluationError || (error as Error).name === "QueryBuildError") return;
          throw error;
        }
        await mock.reset(seedOf(dataset));
        const file = await buildSelection(spec, client.project(PROJECT) as unknown as number).export("JSON", { keep: true });
        const tasks = JSON.parse(await text(file)) as ExportedTask[];
        exported += 1;

        // Exactly the selected tasks (the file is in id order; the selection's order does not matter to an export).
        expect(tasks.map((t) => t.id)).toEqual([...selected].sort((a, b) => a - b));
        for (const task of tasks) {
          const annotations = dataset.annotations.filter((a) => a.task === task.id).sort((a, b) => a.id - b.id);
          const predictions = dataset.predictions.filter((p) => p.task === task.id).sort((a, b) => a.id - b.id);
          expect(task.annotations.map((a) => [a.id, a.was_cancelled, a.result])).toEqual(
            annotations.map((a) => [a.id, a.was_cancelled, a.result ?? []]),
          );
          expect(task.predictions.map((p) => [p.id, p.result, p.score, p.model_version])).toEqual(
            predictions.map((p) => [p.id, p.result, p.score, p.model_version]),
          );
        }

        // The same snapshot in the converter's formats: row for row.
        const snapshot = (await client.projects.exports.list(PROJECT))[0]?.id as number;
        const rows = expectedRows(tasks);
        const min = JSON.parse(
          await text(await client.projects.exports.download(PROJECT, snapshot, { export_type: "JSON_MIN" })),
        ) as Record<string, unknown>[];
        expect(min.map((r) => [r["id"], r["annotation_id"]])).toEqual(rows);
        const byId = new Map(tasks.map((t) => [t.id, t]));
        for (const record of min) {
          const task = byId.get(record["id"] as number) as ExportedTask;
          for (const [key, value] of Object.entries(task.data)) if (key !== "id") expect(record[key]).toEqual(value);
        }
        for (const [type, separator] of [
          ["CSV", ","],
          ["TSV", "\t"],
        ] as const) {
          const table = parseDelimited(
            await text(await client.projects.exports.download(PROJECT, snapshot, { export_type: type })),
            separator,
          );
          expect(table.map((r) => [Number(r["id"]), numberOrNull(r["annotation_id"])])).toEqual(rows);
          for (const row of table) {
            const task = byId.get(Number(row["id"])) as ExportedTask;
            const value = task.data["text"];
            // A text value is written as it is; a number bare; null and a missing key as an empty field.
            if (typeof value === "string") expect(row["text"]).toBe(value);
            if (value === null || value === undefined) expect(row["text"]).toBe("");
          }
        }
        await client.projects.exports.delete(PROJECT, snapshot);
      }),
      { numRuns: RUNS, seed: 20 },
    );
    expect(exported).toBeGreaterThan(RUNS / 2);
  }, 300_000);
});
