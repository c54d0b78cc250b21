import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { raw, startFixture } from "./fixture.js";

/*
 * Imported tasks checked against the config's data keys, and the tasks' overlap following the project's
 * `maximum_annotations` and `overlap_cohort_percentage` (so `is_labeled`), as a server (1.22) does it.
 * Fixture project 1 reads `$text`; task 1 has one annotation, task 2 one finished and one cancelled.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("import: every item through TaskValidator", () => {
  test("one entry per item, {} for a good one, the server's message and the item as Python prints it", async () => {
    const bare = await raw(server, "POST", "/api/projects/1/import", { body: [{ text: "ok" }, { txt: "missing" }] });
    expect(bare.status).toBe(400);
    expect(bare.body.validation_errors).toEqual({
      non_field_errors: [
        {},
        "Error at item 1: \"text\" key is expected in task data [assume: item as is = task root with values]  :: {'txt': 'missing'}",
      ],
    });
    const wrapped = await raw(server, "POST", "/api/projects/1/import", { body: [{ data: { txt: "missing" } }] });
    expect(wrapped.body.validation_errors).toEqual({
      non_field_errors: [
        "Error at item 0: \"text\" key is expected in task data [assume: item[\"data\"] = task root with values] :: {'data': {'txt': 'missing'}}",
      ],
    });
    expect(server.data().tasks).toHaveLength(7);
  });
});

describe("import with preannotated_from_fields", () => {
  test("a named field of the data becomes a prediction under the control of that name (score 1, version preannotated)", async () => {
    const answer = await raw(server, "POST", "/api/projects/1/import?preannotated_from_fields=sentiment&return_task_ids=true", {
      body: [{ text: "pre", sentiment: "Pos" }, { text: "none" }],
    });
    expect([answer.status, answer.body.prediction_count]).toEqual([201, 1]);
    const [first, second] = answer.body.task_ids as number[];
    const made = server.data().predictions.filter((p) => p.task === first || p.task === second);
    expect(made.map((p) => [p.task, p.score, p.model_version, p.result])).toEqual([
      [first, 1, "preannotated", [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: ["Pos"] } }]],
    ]);
    expect(server.data().tasks.find((t) => t.id === first)!.data).toEqual({ text: "pre", sentiment: "Pos" });
  });
});

describe("overlap and is_labeled", () => {
  const labeled = async (id: number) => (await raw(server, "GET", `/api/tasks/${id}/`)).body.is_labeled as boolean;

  test("maximum_annotations 2: every task needs two finished annotations; back to 1 restores them", async () => {
    expect(await labeled(1)).toBe(true);
    await raw(server, "PATCH", "/api/projects/1/", { body: { maximum_annotations: 2 } });
    expect(
      server
        .data()
        .tasks.filter((t) => t.project === 1)
        .map((t) => t.overlap),
    ).toEqual([2, 2, 2, 2, 2, 2]);
    expect(await labeled(1)).toBe(false);
    await raw(server, "PATCH", "/api/projects/1/", { body: { maximum_annotations: 1 } });
    expect(await labeled(1)).toBe(true);
  });

  test("a 50% cohort: the most annotated half needs maximum_annotations, the rest 1", async () => {
    await raw(server, "PATCH", "/api/projects/1/", { body: { maximum_annotations: 2, overlap_cohort_percentage: 50 } });
    const overlap = Object.fromEntries(
      server
        .data()
        .tasks.filter((t) => t.project === 1)
        .map((t) => [t.id, t.overlap]),
    );
    // Tasks 2 (two annotations), then 1, 4, 6 (one each, by id) fill the three places.
    expect(overlap).toEqual({ 1: 2, 2: 2, 3: 1, 4: 2, 5: 1, 6: 1 });
    expect(await labeled(3)).toBe(false);
  });

  test("imported tasks take the project's maximum_annotations", async () => {
    await raw(server, "PATCH", "/api/projects/2/", { body: { maximum_annotations: 3 } });
    await raw(server, "POST", "/api/projects/2/import", { body: [{ text: "new" }] });
    expect(server.data().tasks.at(-1)!.overlap).toBe(3);
  });
});
