import { fixtureLabelConfig, fixtureTasks } from "./fixture.js";
import type { Seeded, TimeField } from "./refs.js";
import type { Answer, Target } from "./target.js";

/**
 * Builds the fixture on a target through its public API only: create the project, import the tasks
 * with their annotations and predictions in one request, read back every id the server assigned,
 * and save the views. The answers of those writes are kept: they are compared too.
 */
export interface SeedResult {
  readonly seeded: Seeded;
  /** The answers of the writes, by step ("create-project", "import", "create-view"). */
  readonly answers: ReadonlyMap<string, Answer>;
}

export class SeedError extends Error {
  override readonly name = "SeedError";
}

/** The view every main project gets (`v1`): the labeled tasks, newest first. */
export const mainViewData = {
  title: "v1",
  filters: {
    conjunction: "and",
    items: [{ filter: "filter:tasks:total_annotations", operator: "greater", type: "Number", value: 0 }],
  },
  ordering: ["-tasks:id"],
};

function expect(answer: Answer, status: number, step: string): Record<string, unknown> {
  if (answer.status !== status || typeof answer.json !== "object" || answer.json === null) {
    throw new SeedError(`${step}: expected ${status} with a JSON body, got ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  return answer.json as Record<string, unknown>;
}

interface Row {
  id: number;
  inner_id: number;
  created_at: string | null;
  updated_at: string | null;
  completed_at: string | null;
  annotations: { id: number }[];
  predictions: { id: number }[];
}

/** Creates a project, registering it in `created` before anything can fail (cleanup deletes it). */
export async function seedFixture(target: Target, title: string, created: (project: number) => void, views = true): Promise<SeedResult> {
  const answers = new Map<string, Answer>();
  const whoami = expect(await target.send({ method: "GET", path: "/api/current-user/whoami" }), 200, "GET whoami");
  const create = await target.send({ method: "POST", path: "/api/projects/", body: { json: { title, label_config: fixtureLabelConfig } } });
  answers.set("create-project", create);
  const project = expect(create, 201, "POST /api/projects/")["id"] as number;
  created(project);

  const body = fixtureTasks.map((t) => ({
    data: t.data,
    annotations: t.annotations.map(({ key: _, ...a }) => a),
    predictions: t.predictions.map(({ key: _, ...p }) => p),
  }));
  const imported = await target.send({
    method: "POST",
    path: `/api/projects/${project}/import`,
    query: { return_task_ids: "true" },
    body: { json: body },
  });
  answers.set("import", imported);
  const taskIds = expect(imported, 201, "POST import")["task_ids"];
  if (!Array.isArray(taskIds) || taskIds.length !== fixtureTasks.length) {
    throw new SeedError(`import: expected ${fixtureTasks.length} task_ids, got ${JSON.stringify(taskIds)}`);
  }

  const listed = expect(
    await target.send({ method: "GET", path: "/api/tasks/", query: { project: String(project), fields: "all", page_size: "1000" } }),
    200,
    "GET /api/tasks/",
  );
  const rows = new Map<number, Row>((listed["tasks"] as Row[]).map((r) => [r.id, r]));
  const ids = { task: new Map<string, number>(), annotation: new Map<string, number>(), prediction: new Map<string, number>(), view: new Map<string, number>() };
  const times = new Map<string, { [F in TimeField]: string | null }>();
  const innerIds = new Map<string, number>();
  fixtureTasks.forEach((t, i) => {
    const id = taskIds[i] as number;
    const row = rows.get(id);
    if (!row) throw new SeedError(`task ${t.key} (id ${id}) is missing from the list`);
    ids.task.set(t.key, id);
    innerIds.set(t.key, row.inner_id);
    times.set(t.key, { created_at: row.created_at, updated_at: row.updated_at, completed_at: row.completed_at });
    const annotations = [...row.annotations].sort((a, b) => a.id - b.id);
    const predictions = [...row.predictions].sort((a, b) => a.id - b.id);
    if (annotations.length !== t.annotations.length || predictions.length !== t.predictions.length) {
      throw new SeedError(`task ${t.key}: expected ${t.annotations.length} annotations and ${t.predictions.length} predictions`);
    }
    t.annotations.forEach((a, j) => ids.annotation.set(a.key, annotations[j]!.id));
    t.predictions.forEach((p, j) => ids.prediction.set(p.key, predictions[j]!.id));
  });

  if (views) {
    const view = await target.send({ method: "POST", path: "/api/dm/views/", body: { json: { project, data: mainViewData } } });
    answers.set("create-view", view);
    ids.view.set("v1", expect(view, 201, "POST /api/dm/views/")["id"] as number);
  }
  return { seeded: { project, user: whoami["id"] as number, ids, times, innerIds }, answers };
}
