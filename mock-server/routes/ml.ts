import type { MLBackendRecord, ProjectRecord } from "../../src/contract/records.js";
import { isPlainObject, type JsonValue } from "../../src/vocabulary/json.js";
import { mlBackend, mlBackendStates } from "../../src/contract/index.js";
import { newRecordDefaults, type Rendered } from "../../src/contract/field.js";
import { mlBackendDefaults, mlBackendModel } from "../../src/contract/ml-backend.js";
import { render } from "../../src/contract/render.js";
import { pyTruthy } from "../../src/emulation/python-json.js";
import { notFound, pythonException, validationError } from "../errors.js";
import { bodyDict, noContent, ok, param, type Handler, type MockContext, type MockRequest, type Reply } from "../http.js";
import {
  apiOf,
  callbackHost,
  healthcheck,
  predictionRequest,
  serializeTasks,
  setup,
  updateState,
  type BackendLike,
} from "../ml/backend.js";
import { endpointUrl } from "../ml/api.js";
import { presentProject } from "../present/project.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pathId, projectOr404, recordOr404 } from "./lookup.js";
import { inputHas, validateWrite, writeInput, type CustomRules } from "../drf/serializer.js";
import { drfMessages } from "../drf/fields.js";
import { removePredictionsAtOnce } from "../store/prediction-counter.js";

/**
 * ML backends (label_studio/ml/api.py): list and create (`MLBackendListAPI`), get, update and delete
 * (`MLBackendDetailAPI`), `train`, `predict/test`, `interactive-annotating` and `versions`. Every read and
 * write talks to the model server as the server does: a create or update is checked with `GET health` and
 * `POST setup`, and every list and get updates the backends' state first.
 */

const hostnameOf = (req: MockRequest) => callbackHost(req.origin);

export function presentMLBackend(b: MLBackendRecord): Rendered<typeof mlBackend> {
  return render(mlBackend, {
    id: b.id,
    state: b.state,
    readable_state: mlBackendStates[b.state],
    is_interactive: b.is_interactive,
    url: b.url,
    error_message: b.error_message,
    title: b.title,
    auth_method: b.auth_method,
    basic_auth_user: b.basic_auth_user,
    basic_auth_pass_is_set: Boolean(b.basic_auth_pass),
    description: b.description,
    extra_params: b.extra_params,
    model_version: b.model_version,
    timeout: b.timeout,
    created_at: b.created_at,
    updated_at: b.updated_at,
    auto_update: b.auto_update,
    project: b.project,
  });
}

/** The project's backends, each with its state brought up to date (`Project.update_ml_backends_state`). */
export async function liveBackends(ctx: MockContext, req: MockRequest, project: ProjectRecord): Promise<Rendered<typeof mlBackend>[]> {
  const backends = ctx.store.list("ml_backends").filter((b) => b.project === project.id);
  const updated: MLBackendRecord[] = [];
  for (const b of backends) updated.push((await updateState(ctx, b, hostnameOf(req))).backend);
  return updated.map(presentMLBackend);
}

/** `GET /api/ml/?project=<id>`: the project's backends (a missing or unknown project is a 404), `is_interactive` filtering. */
export const listMLBackends: Handler = async (req, ctx) => {
  const raw = param(req.query, "project");
  const id = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  const project = ctx.store.find("projects", id);
  if (!project) throw notFound("Project");
  let backends = await liveBackends(ctx, req, project);
  const interactive = param(req.query, "is_interactive");
  if (interactive !== undefined && interactive !== "") {
    const wanted = ["true", "True", "1"].includes(interactive) ? true : ["false", "False", "0"].includes(interactive) ? false : undefined;
    if (wanted === undefined) throw validationError({ is_interactive: ["Enter a valid boolean."] });
    backends = backends.filter((b) => b.is_interactive === wanted);
  }
  return ok(backends);
};

/** `MLBackendSerializer.validate_basic_auth_pass` and `validate_url` (local URLs are allowed: ML_BLOCK_LOCAL_IP is off). */
function rules(instance: MLBackendRecord | undefined): CustomRules {
  return {
    basic_auth_pass: (v) => {
      if (pyTruthy(v)) return { value: v };
      if (!instance?.basic_auth_pass) return { errors: ["Authentication password is required for Basic Authentication."] };
      return { value: instance.basic_auth_pass };
    },
    url: (v) => {
      const text = String(v);
      try {
        const url = new URL(text);
        if (url.protocol === "http:" || url.protocol === "https:") return { value: text };
      } catch {
        // refused below
      }
      return { errors: ["Invalid URL"] };
    },
  };
}

/**
 * `MLBackendSerializer.validate`: basic auth needs a user and a password; then the model server must answer
 * `GET health` and `POST setup` (the server builds both from the written fields only, so an update that does not
 * write `url` fails with the server's 500).
 */
async function validateBackend(
  ctx: MockContext,
  req: MockRequest,
  attrs: Record<string, unknown>,
  instance: MLBackendRecord | undefined,
): Promise<void> {
  if (attrs["auth_method"] === "BASIC_AUTH" && (!("basic_auth_user" in attrs) || !("basic_auth_pass" in attrs))) {
    throw validationError({ non_field_errors: ["Authentication username and password is required for Basic Authentication."] });
  }
  if (attrs["url"] === undefined)
    throw pythonException("TypeError", "MLBackend.healthcheck_() missing 1 required positional argument: 'url'");
  const settings: BackendLike = {
    url: attrs["url"] as string,
    timeout: mlBackendDefaults.timeout,
    basic_auth_user: (attrs["basic_auth_user"] as string | undefined) ?? null,
    basic_auth_pass: (attrs["basic_auth_pass"] as string | undefined) ?? null,
    extra_params: (attrs["extra_params"] as JsonValue | undefined) ?? null,
  };
  const health = await healthcheck(ctx, settings);
  if (health.error !== undefined) {
    throw validationError({
      non_field_errors: [
        health.status === 401
          ? "Able to connect to ML Server, but authentication parameters were either not provided or are incorrect."
          : `Can't connect to ML backend ${settings.url}, health check failed. Make sure it is up and your firewall is properly configured. ` +
            `<a href="https://labelstud.io/guide/ml.html">Learn more</a> about how to set up an ML backend. Additional info: ${health.error}`,
      ],
    });
  }
  if (attrs["project"] === undefined)
    throw pythonException("TypeError", "MLBackend.setup_() missing 1 required positional argument: 'project'");
  const project = projectOr404(ctx, (attrs["project"] as number | undefined) ?? instance?.project ?? 0);
  const answer = await setup(ctx, settings, project, hostnameOf(req));
  if (answer.error !== undefined) {
    throw validationError({
      non_field_errors: [
        `Successfully connected to ${settings.url} but it doesn't look like a valid ML backend. Reason: ${answer.error}.\n` +
          "Check the ML backend server console logs to check the status." +
          "There might be something wrong with your model or it might be incompatible with the current labeling configuration.",
      ],
    });
  }
}

/** The validated fields of a create or update, after the model server accepted them. */
async function backendWrite(req: MockRequest, ctx: MockContext, instance: MLBackendRecord | undefined): Promise<Record<string, unknown>> {
  const input = writeInput(req.body);
  const attrs: Record<string, unknown> = {
    ...validateWrite(mlBackend, input, {
      partial: req.method === "PATCH",
      strict: ctx.strict,
      store: ctx.store,
      rules: rules(instance),
    }),
  };
  // validate_basic_auth_pass runs only for a written password.
  if (!inputHas(input, "basic_auth_pass")) delete attrs["basic_auth_pass"];
  await validateBackend(ctx, req, attrs, instance);
  return attrs;
}

/**
 * `POST /api/ml/`: the new backend, its state updated once more after it is saved; a project that shows
 * predictions and has no model version takes the backend's title as its version.
 */
export const createMLBackend: Handler = async (req, ctx) => {
  const attrs = await backendWrite(req, ctx, undefined);
  const now = nowTimestamp();
  const created = ctx.store.insert("ml_backends", {
    ...newRecordDefaults(mlBackendModel),
    ...(attrs as Partial<MLBackendRecord>),
    url: attrs["url"] as string,
    project: attrs["project"] as number,
    created_at: now,
    updated_at: now,
  });
  const { backend } = await updateState(ctx, created, hostnameOf(req));
  const project = ctx.store.find("projects", backend.project);
  if (project && project["show_collab_predictions"] !== false && !project.model_version) {
    ctx.store.update("projects", project.id, { model_version: backend.title ?? "" });
  }
  return ok(presentMLBackend(backend), 201);
};

const backendOr404 = (req: MockRequest, ctx: MockContext) => recordOr404(ctx, "ml_backends", pathId(req.params));

/** `GET /api/ml/{id}`: the backend, its state updated first (`get_object`). */
export const getMLBackend: Handler = async (req, ctx) => {
  const { backend } = await updateState(ctx, backendOr404(req, ctx), hostnameOf(req));
  return ok(presentMLBackend(backend));
};

/** `PATCH`/`PUT /api/ml/{id}`: a new title the project uses as its version renames the version too. */
export const updateMLBackend: Handler = async (req, ctx) => {
  const found = (await updateState(ctx, backendOr404(req, ctx), hostnameOf(req))).backend;
  const attrs = await backendWrite(req, ctx, found);
  const project = ctx.store.find("projects", found.project);
  if ("title" in attrs && attrs["title"] !== found.title && project && project.model_version === found.title) {
    ctx.store.update("projects", project.id, { model_version: (attrs["title"] as string | null) ?? "" });
  }
  const saved = ctx.store.update("ml_backends", found.id, { ...(attrs as Partial<MLBackendRecord>), updated_at: nowTimestamp() });
  const { backend } = await updateState(ctx, saved, hostnameOf(req));
  return ok(presentMLBackend(backend));
};

/**
 * `DELETE /api/ml/{id}`: a project whose version is the backend's title loses its version (`modify_project_model_version`);
 * the predictions that name the backend as their `model` go with it, in any project (`Prediction.model`, CASCADE).
 */
export const deleteMLBackend: Handler = async (req, ctx) => {
  const { backend } = await updateState(ctx, backendOr404(req, ctx), hostnameOf(req));
  const project = ctx.store.find("projects", backend.project);
  if (project && project.model_version === backend.title) ctx.store.update("projects", project.id, { model_version: "" });
  removePredictionsAtOnce(ctx.store, (p) => p.model === backend.id);
  ctx.store.removeWhere("ml_backends", (b) => b.id === backend.id);
  return noContent();
};

/**
 * `POST /api/ml/{id}/train` (`MLBackend.train`): the `START_TRAINING` webhook event with the project; the
 * backend's state becomes training, or error with the model server's error. Always 200.
 */
export const trainMLBackend: Handler = async (req, ctx) => {
  const found = backendOr404(req, ctx);
  const project = projectOr404(ctx, found.project);
  const answer = await apiOf(ctx, found).request("webhook", {
    action: "START_TRAINING",
    project: presentProject(project, ctx.store, { caller: req.user, counts: true, render: {} }) as unknown as JsonValue,
  });
  ctx.store.update("ml_backends", found.id, {
    ...(answer.error === undefined ? { state: "TR" } : { state: "ER", error_message: answer.error }),
    updated_at: nowTimestamp(),
  });
  return { status: 200 };
};

/**
 * `POST /api/ml/{id}/predict/test?random=true` (`MLBackend._predict`): one random task of the project sent to
 * `predict`, and what went and came back, nothing stored. Without `random`: 501.
 */
export const predictTest: Handler = async (req, ctx) => {
  const found = backendOr404(req, ctx);
  if (!pyTruthy(param(req.query, "random") ?? false)) {
    return { status: 501, body: { error: "Not implemented - you must provide random=true query parameter" } };
  }
  const project = projectOr404(ctx, found.project);
  const tasks = ctx.store.dataset(project).tasks;
  if (tasks.length === 0) {
    return { status: 500, body: { detail: "Project has no tasks to run prediction on, import at least 1 task to run prediction" } };
  }
  const task = tasks[Math.floor(Math.random() * tasks.length)]!;
  const [serialized] = serializeTasks(ctx, [task]);
  const request = predictionRequest(project, [serialized as JsonValue]);
  const answer = await apiOf(ctx, found).request("predict", request);
  if (answer.error !== undefined) {
    return { status: 500, body: { detail: "ML backend did not return any predictions, check ML backend logs for more details" } };
  }
  const results = isPlainObject(answer.response) ? ((answer.response["results"] as JsonValue | undefined) ?? null) : null;
  return ok({
    status: answer.status,
    error_message: null,
    url: endpointUrl(found.url, "predict"),
    task: serialized as JsonValue,
    request,
    response: results,
  });
};

/**
 * `POST /api/ml/{id}/interactive-annotating` (`MLInteractiveAnnotatingRequest`: `task`, `context`): the task
 * with its annotations, predictions and drafts sent to `predict` with the context; `{"data": <first result>}`
 * or `{"errors": [...]}`, always 200.
 */
export const interactiveAnnotating: Handler = async (req, ctx): Promise<Reply> => {
  const found = backendOr404(req, ctx);
  const body = bodyDict(req, ctx);
  if (!("task" in body)) throw validationError({ task: ["This field is required."] });
  const taskId = body["task"];
  if (typeof taskId !== "number" && !(typeof taskId === "string" && /^\d+$/.test(taskId)))
    throw validationError({ task: ["A valid integer is required."] });
  const context = body["context"] === undefined ? {} : body["context"];
  if (!isPlainObject(context)) throw validationError({ context: [drfMessages.notADictField(context)] });
  const task = ctx.store.find("tasks", Number(taskId));
  if (!task || task.project !== found.project) throw notFound("Task");
  if (!found.is_interactive) return ok({ errors: ["Model is not set to be used for interactive preannotations"] });
  const project = projectOr404(ctx, found.project);
  const answer = await apiOf(ctx, found).request("predict", predictionRequest(project, serializeTasks(ctx, [task]), context as JsonValue));
  if (answer.error !== undefined) return ok({ errors: [answer.error] });
  if (!isPlainObject(answer.response) || !("results" in answer.response)) {
    return ok({ errors: ["Incorrect response from ML service: ML backend returns an incorrect response, it must be a dict."] });
  }
  const results = answer.response["results"];
  if (!Array.isArray(results) || results.length < 1) {
    return ok({ errors: ["Incorrect response from ML service: ML backend has to return list with more than 1 result."] });
  }
  return ok({ data: results[0] as JsonValue });
};

/**
 * `GET /api/ml/{id}/versions`: the model server's `versions`; one that has no such endpoint (404) gets the
 * backend's own version and a hint; any other error is passed on with its status (0 as 500).
 */
export const listMLVersions: Handler = async (req, ctx) => {
  const found = backendOr404(req, ctx);
  const answer = await apiOf(ctx, found).request("versions");
  if (answer.error === undefined) {
    const versions = isPlainObject(answer.response) ? ((answer.response["versions"] as JsonValue | undefined) ?? []) : [];
    return ok({ versions });
  }
  if (answer.status === 404) return ok({ versions: [found.model_version], message: "Upgrade your ML backend version to latest." });
  return { status: answer.status > 0 ? answer.status : 500, body: { error: answer.error } };
};
