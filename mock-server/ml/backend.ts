import type { MLBackendRecord, PredictionRecord, ProjectRecord, TaskRecord } from "../../src/contract/records.js";
import { timestampMicros } from "../../src/vocabulary/timestamps.js";
import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import type { MockContext } from "../http.js";
import { presentTaskSimple } from "../present/tasks.js";
import { derivedOne } from "../engine.js";
import { prepareResult } from "../routes/predictions.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { MLApi, type MLApiResult } from "./api.js";

/**
 * What the server does with a registered ML backend (label_studio/ml/models.py `MLBackend`): check it
 * (`health`, `setup`), keep its state and model version up to date, and ask it for predictions, storing
 * what it answers as `Prediction`s (model version, score) or, when it fails, the error on the backend.
 */

/** The connection settings of a backend, before or after it is stored. */
export type BackendLike = Pick<MLBackendRecord, "url" | "timeout" | "basic_auth_user" | "basic_auth_pass"> & {
  readonly extra_params?: JsonValue;
};

/** The address a model server is told to call back (the server's `settings.HOSTNAME`, else localhost and its port). */
export function callbackHost(origin: string): string {
  return `http://localhost:${new URL(origin).port || "80"}`;
}

/** `MLApi._create_project_uid`: `<project id>.<created_at as a Unix time>`. */
export function projectUid(project: ProjectRecord): string {
  const micros = typeof project["created_at"] === "string" ? timestampMicros(project["created_at"]) : null;
  return `${project.id}.${micros === null ? 0 : Math.floor(micros / 1_000_000)}`;
}

/** The server's client for a backend, on the mock's clock (its time limits). */
export const apiOf = (ctx: Pick<MockContext, "clock">, backend: BackendLike) => new MLApi(backend, ctx.clock);

export function healthcheck(ctx: Pick<MockContext, "clock">, backend: BackendLike): Promise<MLApiResult> {
  return apiOf(ctx, backend).request("health");
}

/**
 * `MLApi.setup`: the project's uid and config, the server's own address, and the project creator's legacy
 * key (`access_token`, for the model server to fetch task data with), plus the backend's `extra_params`.
 */
export function setup(ctx: MockContext, backend: BackendLike, project: ProjectRecord, hostname: string): Promise<MLApiResult> {
  const creator = typeof project["created_by"] === "number" ? ctx.store.find("users", project["created_by"]) : undefined;
  return apiOf(ctx, backend).request("setup", {
    project: projectUid(project),
    schema: project.label_config,
    hostname,
    access_token: creator?.token ?? null,
    extra_params: backend.extra_params ?? null,
  });
}

/** The fields `update_state` sets: connected (and the model server's version), disconnected, or in error. */
export type StateUpdate = Pick<MLBackendRecord, "state" | "error_message"> & Partial<Pick<MLBackendRecord, "model_version">>;

/** `MLBackend.update_state`, without saving: health, then setup. Returns the fields and the version setup answered. */
export async function checkState(
  ctx: MockContext,
  backend: MLBackendRecord,
  hostname: string,
): Promise<{ update: StateUpdate; version: JsonValue | undefined }> {
  const project = ctx.store.find("projects", backend.project);
  if (!project) return { update: { state: "DI", error_message: backend.error_message }, version: undefined };
  if ((await healthcheck(ctx, backend)).error !== undefined)
    return { update: { state: "DI", error_message: backend.error_message }, version: undefined };
  const answer = await setup(ctx, backend, project, hostname);
  if (answer.error !== undefined) return { update: { state: "ER", error_message: answer.error }, version: undefined };
  const version = isPlainObject(answer.response) ? answer.response["model_version"] : undefined;
  const update: StateUpdate = backend.auto_update
    ? { state: "CO", error_message: null, model_version: version === undefined ? null : (version as string | null) }
    : { state: "CO", error_message: null };
  return { update, version: version ?? null };
}

/** `update_state` and save; the backend as it now is, and the version setup answered. */
export async function updateState(
  ctx: MockContext,
  backend: MLBackendRecord,
  hostname: string,
): Promise<{ backend: MLBackendRecord; version: JsonValue | undefined }> {
  const { update, version } = await checkState(ctx, backend, hostname);
  const current = ctx.store.find("ml_backends", backend.id);
  if (!current) return { backend, version };
  return { backend: ctx.store.update("ml_backends", backend.id, { ...update, updated_at: nowTimestamp() }), version };
}

/** `TaskSimpleSerializer(tasks, many=True).data`: what a model server gets for each task. */
export function serializeTasks(ctx: MockContext, tasks: readonly TaskRecord[]): JsonValue[] {
  return tasks.map((task) => {
    const relations = {
      annotations: ctx.store.ofTask("annotations", task.id),
      predictions: ctx.store.ofTask("predictions", task.id),
      drafts: ctx.store.ofTask("drafts", task.id),
    };
    const project = ctx.store.find("projects", task.project) as ProjectRecord;
    return presentTaskSimple(task, derivedOne(ctx.store.dataset(project), task.id), relations, ctx.store) as unknown as JsonValue;
  });
}

/** `MLApi._prep_prediction_req`: the tasks, the project's uid and config, its data credentials and a context. */
export function predictionRequest(project: ProjectRecord, tasks: readonly JsonValue[], context: JsonValue = null): JsonValue {
  return {
    tasks: [...tasks],
    project: projectUid(project),
    label_config: project.label_config,
    params: {
      login: (project["task_data_login"] as JsonValue | undefined) ?? null,
      password: (project["task_data_password"] as JsonValue | undefined) ?? null,
      context,
    },
  };
}

/** A prediction the model server made, before it is stored. */
interface Made {
  readonly task: number;
  readonly project: number;
  readonly result: JsonValue;
  readonly score: JsonValue;
  readonly model_version: JsonValue;
}

/**
 * `_get_predictions_from_ml_backend`: one `results` item per task (a dict, or a list of dicts each with a
 * `result`); a backend that answers one item for several tasks is asked again task by task; anything else
 * makes no prediction (the server logs it).
 */
async function predictionsFrom(
  ctx: Pick<MockContext, "clock">,
  backend: MLBackendRecord,
  project: ProjectRecord,
  serialized: readonly JsonValue[],
): Promise<Made[]> {
  const answer = await apiOf(ctx, backend).request("predict", predictionRequest(project, serialized));
  if (answer.error !== undefined || !isPlainObject(answer.response)) return [];
  const results = answer.response["results"];
  if (!Array.isArray(results) || results.length === 0) return [];
  if (results.length !== serialized.length) {
    if (results.length !== 1) return [];
    const one: Made[] = [];
    for (const task of serialized) one.push(...(await predictionsFrom(ctx, backend, project, [task])));
    return one;
  }
  return serialized.flatMap((task, i) => {
    const item = results[i];
    const responses = Array.isArray(item) ? item : [item];
    const t = task as { id: number; project: number };
    return responses.flatMap((r) =>
      isPlainObject(r) && "result" in r
        ? [
            {
              task: t.id,
              project: t.project,
              result: r["result"] as JsonValue,
              score: (r["score"] as JsonValue | undefined) ?? null,
              model_version: (r["model_version"] as JsonValue | undefined) ?? backend.model_version,
            },
          ]
        : [],
    );
  });
}

/**
 * `MLBackend.predict_tasks`: update the state; a backend that is not ready predicts nothing; tasks that already
 * have a prediction of the version setup answered are skipped; the rest go to `predict` in one batch and every
 * prediction it answers is stored (`PredictionSerializer`: the result as `POST /api/predictions/` takes it).
 */
export async function predictTasks(
  ctx: MockContext,
  backend: MLBackendRecord,
  tasks: readonly TaskRecord[],
  hostname: string,
): Promise<PredictionRecord[]> {
  const { backend: updated, version } = await updateState(ctx, backend, hostname);
  if (updated.state === "DI" || updated.state === "ER") return [];
  const todo = tasks.filter((t) => !ctx.store.ofTask("predictions", t.id).some((p) => p.model_version === version));
  if (todo.length === 0) return [];
  const project = ctx.store.find("projects", updated.project) as ProjectRecord;
  const made = await predictionsFrom(ctx, updated, project, serializeTasks(ctx, todo));
  const now = nowTimestamp();
  return made.map((m) =>
    ctx.store.insert("predictions", {
      task: m.task,
      project: m.project,
      result: prepareResult(m.result, project),
      score: typeof m.score === "number" ? m.score : null,
      model_version: m.model_version === null ? null : String(m.model_version),
      created_at: now,
      updated_at: now,
    }),
  );
}
