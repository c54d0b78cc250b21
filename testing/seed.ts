import { ApiError, type Client, type ClientProject, type ImportTask, type JsonObject } from "../src/client/index.js";
import type { JsonValue } from "../src/vocabulary/json.js";
import { IdMapBuilder, type SeedIds } from "./ids.js";
import { uniqueTitle } from "./names.js";
import { checkSpec, type CheckedAnnotation, type CheckedPrediction, type CheckedSpec, type CheckedTask, type SeedSpec } from "./spec.js";

/** A project built from a seed spec on one server. */
export interface SeededProject {
  readonly id: number;
  /** Unique to this project: the kit deletes a project only while its title is still this one. */
  readonly title: string;
  /** `client.project(id)`: for `selection(seeded.project)…run()` and the per-project shortcuts. */
  readonly project: ClientProject;
  /** Spec ids to server ids, and back. */
  readonly ids: SeedIds;
  /** Delete the project and everything in it; once deleted (or gone), a no-op. */
  delete(): Promise<void>;
}

/** How `seedProject` sends the spec. */
export interface SeedOptions {
  /** Tasks per import request. Default 500. */
  readonly importBatchSize?: number;
  /** Called with the project id as soon as the server created it (the target tracks it for clean-up). */
  readonly onCreated?: (project: { readonly id: number; readonly title: string }) => void;
}

/** Seeding stopped at `step`; the project it had created is deleted again (`leftBehind` names it when that failed too). */
export class SeedError extends Error {
  override readonly name: string = "SeedError";
  constructor(
    readonly step: string,
    override readonly cause: unknown,
    readonly leftBehind?: { readonly id: number; readonly title: string; readonly error: unknown },
  ) {
    super(
      `seeding failed at ${step}: ${cause instanceof Error ? cause.message : String(cause)}` +
        (leftBehind ? `; the project ${leftBehind.id} "${leftBehind.title}" could not be deleted: ${messageOf(leftBehind.error)}` : ""),
    );
  }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Builds `spec` on the server behind `client`, only through its public API: the project, one import
 * per batch of tasks (with their "import" annotations and predictions), then each "api" annotation
 * and prediction, then the views. When a step fails, the project is deleted before the error is
 * thrown, so a failed seed leaves nothing behind.
 */
export async function seedProject(client: Client, spec: SeedSpec, options: SeedOptions = {}): Promise<SeededProject> {
  const checked = checkSpec(spec);
  const title = uniqueTitle(checked.title);
  const id = await createProject(client, checked, title);
  options.onCreated?.({ id, title });
  const remove = () => deleteOwnProject(client, id, title);
  let step = "the project's import";
  try {
    const ids = await fill(client, id, checked, options.importBatchSize ?? 500, (s) => (step = s));
    let deleted = false;
    return Object.freeze({
      id,
      title,
      project: client.project(id),
      ids,
      async delete() {
        if (deleted) return;
        await remove();
        deleted = true;
      },
    });
  } catch (error) {
    try {
      await remove();
    } catch (cleanup) {
      throw new SeedError(step, error, { id, title, error: cleanup });
    }
    throw new SeedError(step, error);
  }
}

async function createProject(client: Client, spec: CheckedSpec, title: string): Promise<number> {
  try {
    const created = await client.projects.create({ ...spec.project, title, label_config: spec.label_config });
    return created.id;
  } catch (error) {
    // A refusal (4xx) created nothing; after a timeout or a 5xx the server may have: find it by its unique title.
    if (!(error instanceof ApiError && error.statusCode < 500)) await deleteByTitle(client, title).catch(() => undefined);
    throw new SeedError("the project create", error);
  }
}

async function deleteByTitle(client: Client, title: string): Promise<void> {
  for await (const project of client.projects.list({ title, page_size: 100 })) {
    if (project.title === title) await client.projects.delete(project.id);
  }
}

/**
 * Deletes a project the kit created, after checking that it still has the kit's title (a 404 means it
 * is already gone). A project that now has another title is left alone: it is not the kit's any more.
 */
export async function deleteOwnProject(client: Client, id: number, title: string): Promise<void> {
  try {
    const current = await client.projects.get(id);
    if (current.title !== title) return;
    await client.projects.delete(id);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return;
    throw error;
  }
}

async function fill(client: Client, project: number, spec: CheckedSpec, batchSize: number, at: (step: string) => void): Promise<SeedIds> {
  const ids = {
    project,
    tasks: new IdMapBuilder("tasks"),
    annotations: new IdMapBuilder("annotations"),
    predictions: new IdMapBuilder("predictions"),
    views: new IdMapBuilder("views"),
  };
  for (let start = 0; start < spec.tasks.length; start += batchSize) {
    const batch = spec.tasks.slice(start, start + batchSize);
    at(`the import of tasks ${start}–${start + batch.length - 1}`);
    const answer = await client.projects.importTasks(project, batch.map(importItem), { return_task_ids: true });
    const taskIds =
      answer.task_ids?.length === batch.length ? answer.task_ids : await newestTasks(client, project, ids.tasks.size, batch.length);
    batch.forEach((task, i) => ids.tasks.add(task.id, taskIds[i]!));
  }

  if (spec.tasks.some((t) => t.annotations.some((a) => a.via === "import") || t.predictions.some((p) => p.via === "import"))) {
    at("reading back the imported annotations and predictions");
    await mapImported(client, project, spec, ids);
  }

  for (const task of spec.tasks) {
    const taskId = ids.tasks.get(task.id);
    for (const [i, a] of task.annotations.entries()) {
      if (a.via !== "api") continue;
      at(`the annotation create of tasks[${JSON.stringify(task.id)}].annotations[${i}]`);
      const created = await client.annotations.create(taskId, { ...annotationFields(a), result: a.result ?? [] });
      ids.annotations.add(a.id, created.id);
    }
    for (const [i, p] of task.predictions.entries()) {
      if (p.via !== "api") continue;
      at(`the prediction create of tasks[${JSON.stringify(task.id)}].predictions[${i}]`);
      const created = await client.predictions.create({ task: taskId, ...predictionFields(p) });
      ids.predictions.add(p.id, created.id);
    }
  }

  for (const view of spec.views) {
    at(`the view create of views[${JSON.stringify(view.id)}]`);
    const query = typeof view.query === "function" ? view.query(ids) : view.query;
    const data = { ...view.data, ...(view.title === undefined ? {} : { title: view.title }) };
    const created = await client.views.create({ project, data, ...(query === undefined ? {} : { query }) });
    ids.views.add(view.id, created.id);
  }
  return ids;
}

/** Only the fields the spec gives: the server's own defaults apply to the rest. */
function annotationFields(a: CheckedAnnotation): { [key: string]: JsonValue } {
  const { id: _id, via: _via, result, ...fields } = a;
  return { ...(fields as { [key: string]: JsonValue }), ...(result === undefined ? {} : { result }) };
}

function predictionFields(p: CheckedPrediction): { result: readonly JsonValue[]; [key: string]: JsonValue } {
  const { id: _id, via: _via, ...fields } = p;
  return fields as { result: readonly JsonValue[]; [key: string]: JsonValue };
}

function importItem(task: CheckedTask): ImportTask {
  const annotations = task.annotations.filter((a) => a.via === "import").map((a) => ({ result: [], ...annotationFields(a) }));
  const predictions = task.predictions.filter((p) => p.via === "import").map(predictionFields);
  return {
    data: task.data as JsonObject,
    ...(task.meta === undefined ? {} : { meta: task.meta as JsonObject }),
    ...(annotations.length ? { annotations } : {}),
    ...(predictions.length ? { predictions } : {}),
  };
}

/** Every task of the project, by ascending id. */
function tasksById(client: Client, project: number, all: boolean) {
  return client.tasks.list({ project, page_size: 100, query: { ordering: ["tasks:id"] }, ...(all ? { fields: "all" as const } : {}) });
}

/**
 * A server that imports in the background (`{ import: <id> }` instead of `task_ids`, as Label Studio
 * Enterprise does): wait until the project holds the new tasks, then take them by ascending id.
 */
async function newestTasks(client: Client, project: number, before: number, count: number): Promise<number[]> {
  const deadline = Date.now() + 120_000;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    const ids = (await tasksById(client, project, false).toArray()).map((t) => t.id);
    if (ids.length >= before + count) return ids.slice(before, before + count);
    if (Date.now() > deadline) throw new Error(`the project holds ${ids.length} tasks 120 s after the import, expected ${before + count}`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * The server ids of imported annotations and predictions: the import answers only counts, so read the
 * tasks back (`fields=all`) and pair each task's records, by ascending id, with the spec's in order
 * (the import creates them in the order it is given).
 */
async function mapImported(
  client: Client,
  project: number,
  spec: CheckedSpec,
  ids: SeedIds & { [K in "annotations" | "predictions"]: IdMapBuilder },
) {
  const byServerId = new Map(spec.tasks.map((t) => [ids.tasks.get(t.id), t] as const));
  for await (const item of tasksById(client, project, true)) {
    const task = byServerId.get(item.id);
    if (task === undefined) continue;
    const pair = (
      kind: "annotations" | "predictions",
      wanted: readonly { id: string | number }[],
      got: readonly { id: number }[] | undefined,
    ) => {
      const found = [...(got ?? [])].map((r) => r.id).sort((a, b) => a - b);
      if (found.length !== wanted.length) {
        throw new Error(
          `task ${JSON.stringify(task.id)} (server id ${item.id}) holds ${found.length} ${kind} after the import, expected ${wanted.length}`,
        );
      }
      wanted.forEach((w, i) => ids[kind].add(w.id, found[i]!));
    };
    pair(
      "annotations",
      task.annotations.filter((a) => a.via === "import"),
      item.annotations,
    );
    pair(
      "predictions",
      task.predictions.filter((p) => p.via === "import"),
      item.predictions,
    );
  }
}
