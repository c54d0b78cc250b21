import { pyTruthy } from "../../src/emulation/python-json.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import type { Store } from "../store/store.js";
import { modelVersionExtended } from "../../src/contract/index.js";
import { render } from "../../src/contract/render.js";
import { validationError } from "../errors.js";
import { bodyDict, ok, param, type Handler, type MockContext } from "../http.js";
import { pathId, projectOr404 } from "./lookup.js";
import { liveBackends } from "./ml.js";
import { removePredictionsAtOnce } from "../store/prediction-counter.js";

/**
 * `/api/projects/{id}/model-versions/` (label_studio/projects/api.py `ProjectModelVersions`,
 * `Project.get_model_versions`, `Project.delete_predictions`).
 */

/** Python's `json.dumps` of a dict key: None is "null". */
const versionKey = (v: string | null) => (v === null ? "null" : v);

/**
 * GET: `{version: predictions}` over the project's predictions (the project's own `model_version` with 0
 * when no prediction has it; the server's order is its database's grouping, the mock's first use). With
 * `extended` (any non-empty value: the view tests its truth), `{"static": [{model_version, count, latest}],
 * "live": null}`, newest prediction first; `include_live_models` makes `live` the project's ML backends.
 */
export const getModelVersions: Handler = async (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const predictions = ctx.store.dataset(project).predictions;
  if (pyTruthy(param(req.query, "extended") ?? false)) {
    const groups = new Map<string | null, { count: number; latest: string }>();
    for (const p of predictions) {
      const group = groups.get(p.model_version);
      if (!group) groups.set(p.model_version, { count: 1, latest: p.created_at });
      else groups.set(p.model_version, { count: group.count + 1, latest: p.created_at > group.latest ? p.created_at : group.latest });
    }
    const rows = [...groups]
      .sort(([, a], [, b]) => (a.latest < b.latest ? 1 : a.latest > b.latest ? -1 : 0))
      .map(([version, g]) => render(modelVersionExtended, { model_version: version ?? "", count: g.count, latest: g.latest }));
    const live = pyTruthy(param(req.query, "include_live_models") ?? false) ? await liveBackends(ctx, req, project) : null;
    return ok({ static: rows, live });
  }
  return ok(modelVersionCounts(project, ctx.store));
};

/** `Project.get_model_versions(with_counters=True)`: predictions per version, the project's own version at least 0. */
export function modelVersionCounts(project: ProjectRecord, store: Store): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of store.dataset(project).predictions) counts[versionKey(p.model_version)] = (counts[versionKey(p.model_version)] ?? 0) + 1;
  if (project.model_version && !Object.hasOwn(counts, project.model_version)) counts[project.model_version] = 0;
  return counts;
}

/** DELETE: the project's predictions of the body's `model_version` (required), as `{"deleted_predictions": n}`. */
export const deleteModelVersion: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const version = bodyDict(req, ctx)["model_version"];
  if (!pyTruthy(version)) throw validationError({ non_field_errors: ["model_version param is required"] });
  // should_none_model_version: deleting the project's own version (or one an ML backend of the project is titled) clears it.
  const own = project.model_version === version || mlBackendTitled(ctx, project.id, project.model_version);
  if (project.model_version && own) ctx.store.update("projects", project.id, { model_version: null });
  const deleted = removePredictionsAtOnce(ctx.store, (p) => p.project === project.id && p.model_version === version);
  return ok({ deleted_predictions: deleted.length });
};

/** `Project.ml_backend_in_model_version`: an ML backend of the project is titled as the project's model version. */
function mlBackendTitled(ctx: MockContext, project: number, version: string | null | undefined): boolean {
  return Boolean(version) && ctx.store.list("ml_backends").some((b) => b.project === project && b.title === version);
}
