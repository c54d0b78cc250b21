import { afterEach, describe, expect, test, vi } from "vitest";

/*
 * The task model (src/contract/task.ts) is the one place a task field's default is written: the seed
 * loader, the presenter (and the routes that create tasks) read it there, and the client's task
 * types are the model's rendered form (test/types/model-defaults.test-d.ts). These tests change the
 * model and watch the seed loader and the presenter follow.
 */

const NOW = "2024-01-01T00:00:00.000000Z";
/** A seed task that leaves every defaulted field out. */
const seed = { projects: [{ id: 1 }], tasks: [{ id: 1, project: 1, data: { text: "a" } }] };
/** The fields the store keeps (the rest are computed, or kept by nothing the mock serves). */
const STORED = ["meta", "overlap", "unresolved_comment_count", "updated_by", "file_upload"] as const;

async function load() {
  const { loadSeed } = await import("../../src/contract/seed.js");
  const { presentTask } = await import("../../mock-server/present/tasks.js");
  const { taskDefaults } = await import("../../src/contract/task.js");
  const stored = loadSeed(seed, NOW).tasks[0] as unknown as Record<string, unknown>;
  const rendered = presentTask(stored as never, undefined) as Record<string, unknown>;
  return { stored, rendered, taskDefaults: taskDefaults as Record<string, unknown> };
}

afterEach(() => {
  vi.doUnmock("../../src/contract/task.js");
  vi.resetModules();
});

describe("a task default is written once, in the model", () => {
  test("every default the model declares is what the seed loader stores and the presenter renders", async () => {
    const { stored, rendered, taskDefaults } = await load();
    expect(taskDefaults["overlap"]).toBe(1);
    for (const field of STORED) expect(stored[field], field).toEqual(taskDefaults[field]);
    for (const [field, value] of Object.entries(taskDefaults)) {
      if (field === "inner_id") continue; // numbered per project, as the server's import does
      expect(rendered[field], field).toEqual(value);
    }
  });

  test("a default changed in the model changes the seed loader and the presenter together", async () => {
    vi.resetModules();
    vi.doMock("../../src/contract/task.js", async (importOriginal) => {
      const original = await importOriginal<typeof import("../../src/contract/task.js")>();
      const { defaultsOf } = await import("../../src/contract/field.js");
      const taskModel = {
        ...original.taskModel,
        overlap: { ...original.taskModel.overlap, default: 3 },
        meta: { ...original.taskModel.meta, default: { source: "model" } },
        unresolved_comment_count: { ...original.taskModel.unresolved_comment_count, default: 2 },
      };
      return { ...original, taskModel, taskDefaults: defaultsOf(taskModel) };
    });
    const { stored, rendered } = await load();
    expect([stored["overlap"], stored["meta"], stored["unresolved_comment_count"]]).toEqual([3, { source: "model" }, 2]);
    expect([rendered["overlap"], rendered["meta"], rendered["unresolved_comment_count"]]).toEqual([3, { source: "model" }, 2]);
  });
});
