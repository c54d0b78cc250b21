import { describe, expect, test } from "vitest";
import { loadSeed, SeedError } from "../../../src/contract/seed.js";

const NOW = "2024-05-01T12:00:00.000000Z";
const base = {
  users: [{ id: 1, username: "ada", token: "secret-key-1" }],
  projects: [{ id: 1, title: "P" }],
};

function refusal(seed: unknown): SeedError {
  try {
    loadSeed(seed, NOW);
  } catch (error) {
    if (error instanceof SeedError) return error;
    throw error;
  }
  throw new Error("the seed was accepted");
}

describe("seed defaults", () => {
  test("missing collections are empty and missing fields get the server's defaults", () => {
    const state = loadSeed({ ...base, tasks: [{ id: 5, project: 1, data: { text: "a" } }] }, NOW);
    expect(state.annotations).toEqual([]);
    expect(state.views).toEqual([]);
    expect(state.users[0]).toEqual({
      id: 1,
      username: "ada",
      email: "",
      first_name: "",
      last_name: "",
      token: "secret-key-1",
      date_joined: NOW,
      last_activity: NOW,
    });
    expect(state.tasks[0]).toMatchObject({
      id: 5,
      meta: {},
      created_at: NOW,
      updated_at: NOW,
      updated_by: null,
      file_upload: null,
      storage_filename: null,
      inner_id: 1,
      overlap: 1,
    });
    expect(state.projects[0]).toMatchObject({ label_config: "<View></View>", model_version: null, created_at: NOW });
  });

  test("timestamps are normalised to UTC with microseconds", () => {
    const state = loadSeed({ ...base, tasks: [{ id: 1, project: 1, data: {}, created_at: "2024-01-01T02:00:00+02:00" }] }, NOW);
    expect(state.tasks[0]?.created_at).toBe("2024-01-01T00:00:00.000000Z");
    expect(state.tasks[0]?.updated_at).toBe("2024-01-01T00:00:00.000000Z");
  });

  test("inner ids are numbered per project in id order, after the ones given", () => {
    const state = loadSeed(
      {
        ...base,
        projects: [{ id: 1 }, { id: 2 }],
        tasks: [
          { id: 9, project: 1, data: {} },
          { id: 3, project: 1, data: {}, inner_id: 4 },
          { id: 4, project: 2, data: {} },
          { id: 2, project: 1, data: {} },
        ],
      },
      NOW,
    );
    const inner = Object.fromEntries(state.tasks.map((t) => [t.id, t.inner_id]));
    expect(inner).toEqual({ 2: 5, 3: 4, 9: 6, 4: 1 });
  });

  test("annotations and predictions take their task's project", () => {
    const state = loadSeed(
      { ...base, tasks: [{ id: 1, project: 1, data: {} }], annotations: [{ id: 1, task: 1 }], predictions: [{ id: 1, task: 1 }] },
      NOW,
    );
    expect(state.annotations[0]).toMatchObject({ project: 1, result: [], completed_by: null, was_cancelled: false });
    expect(state.predictions[0]).toMatchObject({ project: 1, model_version: "", score: null });
  });

  test("timestamps written as people write them are stored as the server stores them, parsed or not", () => {
    const written = ["2024-01-01T00:00:00Z", "2024-01-01", "2024-01-01T00:00:00.5+01:00", "2024-01-01 00:00:00,25z"];
    const midnight = "2024-01-01T00:00:00.000000Z";
    const stored = [midnight, midnight, "2023-12-31T23:00:00.500000Z", "2024-01-01T00:00:00.250000Z"];
    const tasks = written.map((created_at, i) => ({ id: i + 1, project: 1, data: {}, created_at }));
    for (const parsed of [false, true]) {
      const state = loadSeed(structuredClone({ ...base, tasks }), NOW, { parsed });
      expect(state.tasks.map((t) => t.created_at)).toEqual(stored);
      expect(state.tasks.map((t) => t.updated_at)).toEqual(stored);
    }
  });

  test("the input is not modified", () => {
    const seed = { ...base, tasks: [{ id: 1, project: 1, data: { a: 1 } }] };
    const copy = structuredClone(seed);
    loadSeed(seed, NOW);
    expect(seed).toEqual(copy);
  });
});

describe("seed refusals name the record and the field", () => {
  test("a reference to a missing record", () => {
    const e = refusal({ ...base, tasks: [{ id: 7, project: 99, data: {} }] });
    expect(e.path).toBe("tasks[0].project");
    expect(e.message).toContain("tasks[0] (id 7).project");
    expect(e.message).toContain('the id of a record in "projects"');
    expect(e.message).toContain("number 99");
  });

  test("a missing required field", () => {
    const e = refusal({ ...base, tasks: [{ id: 1, project: 1 }] });
    expect(e.path).toBe("tasks[0].data");
    expect(e.found).toContain("required");
  });

  test("a derived column is refused with the reason", () => {
    const e = refusal({ ...base, tasks: [{ id: 1, project: 1, data: {}, total_annotations: 3 }] });
    expect(e.path).toBe("tasks[0].total_annotations");
    expect(e.expected).toContain("derived");
  });

  test("an unknown field lists the known ones", () => {
    const e = refusal({ ...base, annotations: [], tasks: [{ id: 1, project: 1, data: {}, colour: "red" }] });
    expect(e.path).toBe("tasks[0].colour");
    expect(e.expected).toContain("storage_filename");
  });

  test("a duplicate id", () => {
    const e = refusal({ ...base, projects: [{ id: 1 }, { id: 1 }] });
    expect(e.path).toBe("projects[1].id");
  });

  test("a wrong type", () => {
    const e = refusal({ ...base, tasks: [{ id: 1, project: 1, data: "text" }] });
    expect(e.message).toContain('expected a JSON object, found string "text"');
  });

  test("an annotation whose project is not its task's", () => {
    const e = refusal({
      ...base,
      projects: [{ id: 1 }, { id: 2 }],
      tasks: [{ id: 1, project: 1, data: {} }],
      annotations: [{ id: 1, task: 1, project: 2 }],
    });
    expect(e.path).toBe("annotations[0].project");
  });

  test("a shared legacy key is refused without showing the key", () => {
    const e = refusal({
      users: [
        { id: 1, username: "a", token: "dup-secret" },
        { id: 2, username: "b", token: "dup-secret" },
      ],
    });
    expect(e.path).toBe("users[1].token");
    expect(e.message).not.toContain("dup-secret");
  });

  test("an unknown collection and a non-object seed", () => {
    expect(refusal({ tasks: [], labels: [] }).path).toBe("labels");
    expect(refusal([1, 2]).path).toBe("(seed)");
  });

  test("a timestamp that is no date names the field, the form expected and the text found", () => {
    for (const [text, parsed] of [
      ["2024-02-30T00:00:00Z", false],
      ["2024-01-01T25:00:00+01:00", true],
      ["yesterday", true],
    ] as const) {
      const seed = {
        ...base,
        tasks: [
          { id: 1, project: 1, data: {} },
          { id: 2, project: 1, data: {}, updated_at: text },
        ],
      };
      let error: unknown;
      try {
        loadSeed(structuredClone(seed), NOW, { parsed });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SeedError);
      expect((error as SeedError).path).toBe("tasks[1].updated_at");
      expect((error as SeedError).message).toBe(
        `invalid seed data at tasks[1] (id 2).updated_at: expected an ISO-8601 date-time with a zone, e.g. 2024-01-01T00:00:00Z, found string "${text}"`,
      );
    }
  });

  test("a timestamp without a zone", () => {
    const e = refusal({ ...base, tasks: [{ id: 1, project: 1, data: {}, created_at: "2024-01-01T00:00:00" }] });
    expect(e.path).toBe("tasks[0].created_at");
  });
});
