import { createAuth, type AuthMode } from "./auth.js";
import { projectHandle, type ClientProject } from "./project-handle.js";
import { resolveOptions, type ClientOptions } from "./options.js";
import { actionsResource, type ActionsResource } from "./resources/actions.js";
import { annotationsResource, type AnnotationsResource } from "./resources/annotations.js";
import { draftsResource, type DraftsResource } from "./resources/drafts.js";
import { mlResource, type MLResource } from "./resources/ml.js";
import { predictionsResource, type PredictionsResource } from "./resources/predictions.js";
import { projectsResource, type ProjectsResource } from "./resources/projects.js";
import { filesResource, type FilesResource } from "./resources/files.js";
import { tasksResource, type TasksResource } from "./resources/tasks.js";
import { refreshCall, tokensResource, type TokensResource } from "./resources/tokens.js";
import { usersResource, type UsersResource } from "./resources/users.js";
import { viewsResource, type ViewsResource } from "./resources/views.js";
import { Secrets } from "./secrets.js";
import { childFiltersGuard } from "./server-release.js";
import { createTransport } from "./transport.js";

/**
 * A typed client for one Label Studio server: a resource per route family, and `project(id)` for selections.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl: "https://label.example.com", apiKey: "<legacy token or personal access token>" });
 * const result = await selection(client.project(1)).where("tasks:total_annotations").equal(0).run("delete_tasks");
 * ```
 */
export interface Client {
  /** As given (or read from `LABEL_STUDIO_URL`). */
  readonly baseUrl: string;
  /** How the key authenticates: `Token <key>`, or exchanged for `Bearer <access>`. */
  readonly authMode: AuthMode;
  readonly users: UsersResource;
  readonly projects: ProjectsResource;
  /** Uploaded files a multipart import kept (`client.files` in the official SDK). */
  readonly files: FilesResource;
  readonly tasks: TasksResource;
  readonly annotations: AnnotationsResource;
  readonly predictions: PredictionsResource;
  readonly drafts: DraftsResource;
  /** ML backends: model servers registered with a project (`client.ml` in the official SDK). */
  readonly ml: MLResource;
  readonly views: ViewsResource;
  readonly actions: ActionsResource;
  readonly tokens: TokensResource;
  /** A handle for `selection(client.project(id))` and per-project shortcuts. */
  project(id: number): ClientProject;
}

const inspectSymbol = Symbol.for("nodejs.util.inspect.custom");

/**
 * A typed client of the labeling server's HTTP API. The options and the environment are read
 * once, here; a personal access token is checked here too (expired or without `exp` → error).
 */
export function createClient(options: ClientOptions = {}): Client {
  const config = resolveOptions(options);
  const secrets = new Secrets();
  const bind = createTransport(config, secrets);
  const anonymous = bind(undefined);
  const exchange = async (refresh: string) => (await anonymous(refreshCall(refresh))).access;
  const auth = createAuth(config.apiKey, secrets, exchange, () => config.clock.now());
  const send = bind(auth);

  // Read the server's release once, and only for a body that holds child_filters (server-release.ts).
  const guard = childFiltersGuard(anonymous);
  const projects = projectsResource(send);
  const tasks = tasksResource(send, guard);
  const views = viewsResource(send, guard);
  const actions = actionsResource(send, config.actionsPath, guard);
  const summary = { baseUrl: config.baseUrl, authMode: auth.mode };

  return Object.freeze({
    baseUrl: config.baseUrl,
    authMode: auth.mode,
    users: usersResource(send, (token) => secrets.add(token)),
    projects,
    files: filesResource(send),
    tasks,
    annotations: annotationsResource(send),
    predictions: predictionsResource(send),
    drafts: draftsResource(send),
    ml: mlResource(send),
    views,
    actions,
    tokens: tokensResource(send, (token) => secrets.add(token)),
    project: (id: number) => projectHandle(id, { projects, tasks, views, actions }),
    toJSON: () => summary,
    [inspectSymbol]: () => `Client ${JSON.stringify(summary)}`,
  });
}
