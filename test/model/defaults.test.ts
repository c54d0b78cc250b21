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
async function load() {
  const { loadSeed } = await import("../../src/contract/seed.js");
  const { presentTask } = await import("../../mock-server/present/tasks.js");
  const { taskDefaults, taskModel } = await import("../../src/contract/task.js");
  const stored = loadSeed(seed, NOW).tasks[0] as unknown as Record<string, unknown>;
  const rendered = presentTask(stored as never, undefined) as Record<string, unknown>;
  /** The defaulted fields the store keeps on every task (not computed, sparse or owned); inner_id is numbered per project. */
  const kept = Object.entries(taskModel as Record<string, { default?: unknown; stored?: string; owner?: true }>)
    .filter(([field, spec]) => spec.default !== undefined && spec.stored === undefined && spec.owner !== true && field !== "inner_id")
    .map(([field]) => field);
  return { stored, rendered, taskDefaults: taskDefaults as Record<string, unknown>, kept };
}

afterEach(() => {
  vi.doUnmock("../../src/contract/task.js");
  vi.resetModules();
});

describe("a task default is written once, in the model", () => {
  test("every default the model declares is what the seed loader stores and the presenter renders", async () => {
    const { stored, rendered, taskDefaults, kept } = await load();
    expect(taskDefaults["overlap"]).toBe(1);
    expect(kept).toEqual(expect.arrayContaining(["meta", "overlap", "unresolved_comment_count", "updated_by", "file_upload"]));
    for (const field of kept) expect(stored[field], field).toEqual(taskDefaults[field]);
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

    // The routes that create a task start from the same table: `POST /api/tasks/` and the project import.
    const { startMockServer } = await import("../../mock-server/index.js");
    const key = "model-defaults-key";
    const mock = await startMockServer({ data: { users: [{ id: 1, username: "u", token: key }], projects: [{ id: 1 }] } });
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${mock.url}${path}`, {
          method: "POST",
          headers: { Authorization: `Token ${key}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      const created = (await (await post("/api/tasks/", { project: 1, data: { text: "b" } })).json()) as Record<string, unknown>;
      expect([created["meta"], created["unresolved_comment_count"], created["overlap"]]).toEqual([{ source: "model" }, 2, 3]);
      expect((await post("/api/projects/1/import", [{ text: "c" }])).status).toBe(201);
      const imported = mock.data().tasks.find((t) => t.data["text"] === "c");
      // An import's overlap is the project's maximum_annotations (TaskSerializerBulk), not the task model's.
      expect([imported?.unresolved_comment_count, imported?.storage_filename, imported?.file_upload]).toEqual([2, null, null]);
    } finally {
      await mock.close();
    }
  });
});

describe("a field added to the task model is checked and defaulted by the seed loader", () => {
  test("its kind gives the check and the refusal's text, its default the stored value", async () => {
    vi.resetModules();
    vi.doMock("../../src/contract/task.js", async (importOriginal) => {
      const original = await importOriginal<typeof import("../../src/contract/task.js")>();
      const { defaultsOf, int32 } = await import("../../src/contract/field.js");
      const reviews = { kind: "integer", nullable: false, access: "read-write", default: 2, checks: int32 } as const;
      const taskModel = { ...original.taskModel, reviews };
      return { ...original, taskModel, taskDefaults: defaultsOf(taskModel) };
    });
    const { loadSeed, SeedError } = await import("../../src/contract/seed.js");
    expect((loadSeed(seed, NOW).tasks[0] as unknown as Record<string, unknown>)["reviews"]).toBe(2);
    const refused = () => loadSeed({ ...seed, tasks: [{ ...seed.tasks[0], reviews: "many" }] }, NOW);
    expect(refused).toThrow(SeedError);
    expect(refused).toThrow(
      'invalid seed data at tasks[0] (id 1).reviews: expected an integer from -2147483648 to 2147483647, found string "many"',
    );
  });
});

/*
 * The child records' models (annotations, predictions, drafts): a field the store keeps on every record
 * takes the model's default in the seed loader; a `sparse` one stays out of the record and the presenter
 * renders the model's default. Changing the model changes both.
 */
const children = {
  annotation: {
    module: "../../src/contract/annotation.js",
    model: "annotationModel",
    defaults: "annotationDefaults",
    collection: "annotations",
    record: { id: 1, task: 1 },
    /** A kept field and a sparse one, with the values the changed model gives them. */
    kept: ["lead_time", 7.5],
    sparse: ["bulk_created", true],
  },
  prediction: {
    module: "../../src/contract/prediction.js",
    model: "predictionModel",
    defaults: "predictionDefaults",
    collection: "predictions",
    record: { id: 1, task: 1 },
    kept: ["model_version", "from-the-model"],
    sparse: ["mislabeling", 0.5],
  },
  draft: {
    module: "../../src/contract/draft.js",
    model: "draftModel",
    defaults: "draftDefaults",
    collection: "drafts",
    record: { id: 1, task: 1, user: 1 },
    kept: undefined,
    sparse: ["was_postponed", true],
  },
  user: {
    module: "../../src/contract/user.js",
    model: "userModel",
    defaults: "userDefaults",
    collection: "users",
    record: { id: 2, username: "bo" },
    kept: ["last_name", "from-the-model"],
    sparse: ["phone", "+1 555"],
  },
  view: {
    module: "../../src/contract/view.js",
    model: "viewModel",
    defaults: "viewDefaults",
    collection: "views",
    record: { id: 1, project: 1 },
    kept: ["user", 1],
    sparse: ["is_locked", true],
  },
  project: {
    module: "../../src/contract/project.js",
    model: "projectModel",
    defaults: "projectDefaults",
    collection: "projects",
    record: { id: 2 },
    kept: ["description", "from-the-model"],
    sparse: ["maximum_annotations", 3],
  },
  mlBackend: {
    module: "../../src/contract/ml-backend.js",
    model: "mlBackendModel",
    defaults: "mlBackendDefaults",
    collection: "ml_backends",
    record: { id: 1, project: 1, url: "http://127.0.0.1:9" },
    kept: ["timeout", 7],
    sparse: undefined,
  },
} as const;

async function loadChild(kind: keyof typeof children) {
  const c = children[kind];
  const { loadSeed } = await import("../../src/contract/seed.js");
  const { presentAnnotation, presentDraft } = await import("../../mock-server/present/annotations.js");
  const { presentPrediction } = await import("../../mock-server/present/predictions.js");
  const { presentUser } = await import("../../mock-server/present/users.js");
  const { presentView } = await import("../../mock-server/present/views.js");
  const { presentMLBackend } = await import("../../mock-server/routes/ml.js");
  const { presentProject } = await import("../../mock-server/present/project.js");
  const { Store } = await import("../../mock-server/store/store.js");
  const users = [{ id: 1, username: "ada" }];
  const seed = { users, projects: [{ id: 1 }], tasks: [{ id: 1, project: 1, data: {} }] };
  // Users and projects: the record is a second one, after the seed's own.
  const second = c.collection === "users" || c.collection === "projects";
  const state = loadSeed({ ...seed, [c.collection]: second ? [...seed[c.collection], c.record] : [c.record] }, NOW);
  const stored = state[c.collection][second ? 1 : 0] as unknown as Record<string, unknown>;
  const store = {
    find: (c: string, id: number) => (c === "users" ? state.users.find((u) => u.id === id) : undefined),
    list: (c: string) => (c === "users" ? state.users : []),
  } as never;
  const presenters = {
    annotation: () => presentAnnotation(stored as never, store),
    prediction: () => presentPrediction(stored as never),
    draft: () => presentDraft(stored as never, store),
    user: () => presentUser(stored as never, store, stored as never),
    view: () => presentView(stored as never, store),
    mlBackend: () => presentMLBackend(stored as never),
    project: () => presentProject(stored as never, new Store(state), { caller: state.users[0] as never, counts: false }),
  };
  return { stored, rendered: presenters[kind]() as Record<string, unknown> };
}

describe.each(Object.keys(children) as (keyof typeof children)[])("the %s model's defaults", (kind) => {
  const c = children[kind];

  test("the seed loader keeps what the model keeps, and the presenter renders every default the model declares", async () => {
    type Spec = { default?: unknown; stored?: string; owner?: true; seedDefault?: unknown };
    const mod = (await import(c.module)) as Record<string, Record<string, Spec>>;
    const model = mod[c.model] as Record<string, Spec>;
    const { stored, rendered } = await loadChild(kind);
    for (const [field, spec] of Object.entries(model)) {
      // The seed format's own default, stated at the model (a seeded result holds no regions, a seeded project no model version).
      if (spec.seedDefault !== undefined) {
        expect(stored[field], `${field}: the seed's own default`).toEqual(spec.seedDefault);
        continue;
      }
      if (spec.default === undefined || spec.owner === true) continue;
      // Written only to the model server (a write-only secret): stored, never rendered.
      if (field === "basic_auth_pass") continue;
      if (spec.stored === "sparse") expect(Object.hasOwn(stored, field), `${field} is sparse: not stored`).toBe(false);
      else expect(stored[field], field).toEqual(spec.default);
      if (field in rendered) expect(rendered[field], field).toEqual(spec.default);
    }
  });

  test("a default changed in the model changes the seed loader and the presenter together", async () => {
    vi.resetModules();
    vi.doMock(c.module, async (importOriginal) => {
      const original = await importOriginal<Record<string, Record<string, object>>>();
      const { defaultsOf } = await import("../../src/contract/field.js");
      const base = original[c.model] as Record<string, object>;
      const model = { ...base };
      for (const change of [c.kept, c.sparse]) if (change !== undefined) model[change[0]] = { ...base[change[0]], default: change[1] };
      return { ...original, [c.model]: model, [c.defaults]: defaultsOf(model as never) };
    });
    const { stored, rendered } = await loadChild(kind);
    vi.doUnmock(c.module);
    if (c.kept) {
      const [field, value] = c.kept;
      expect(stored[field], `stored ${field}`).toEqual(value);
      expect(rendered[field], `rendered ${field}`).toEqual(value);
    }
    if (c.sparse) {
      const [field, value] = c.sparse;
      expect(Object.hasOwn(stored, field), `${field} stays sparse`).toBe(false);
      expect(rendered[field], `rendered ${field}`).toEqual(value);
    }
  });
});
