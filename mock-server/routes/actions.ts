import { actionForm } from "../actions/forms.js";
import { checkActionFields, effects, keepsOrdering } from "../actions/index.js";
import { actionList, isRegistered, registeredIds } from "../actions/registry.js";
import { select } from "../engine.js";
import type { ServerException } from "../../src/emulation/exceptions.js";
import { HttpProblem, pythonExceptionOrStrict, fieldError } from "../errors.js";
import { bodyDict, intFromQuery, ok, param, type Handler, type MockContext, type MockRequest } from "../http.js";
import { prepareParams } from "../prepare.js";
import { projectOr404 } from "./lookup.js";

/**
 * Data Manager actions (docs/reference/actions-endpoint.md#routes): `GET`/`POST /api/dm/actions/`
 * and the published alias `/api/actions`, and `GET …/{id}/form/`. The POST follows the server's
 * order: project, query (errors here come first), missing id (422, bare body), unknown id (500),
 * then the action.
 */

function unknownAction(ctx: MockContext, id: string): ServerException {
  return pythonExceptionOrStrict(
    ctx,
    "DataManagerException",
    `Can't find '${id}' in registered actions`,
    "id",
    `one of ${registeredIds.join(", ")}; found "${id}"`,
  );
}

const projectOf = (req: MockRequest, ctx: MockContext) => projectOr404(ctx, intFromQuery(req.query, "project", 0));

/** `GET /api/dm/actions/?project=`: the server ignores any other parameter. */
export const listActions: Handler = (req, ctx) => {
  projectOf(req, ctx);
  if (ctx.strict && param(req.query, "id") !== undefined) {
    throw fieldError("id", "nothing: the server's action list ignores id (the published /api/actions narrows by it)");
  }
  return ok(actionList());
};

/** `GET /api/actions?project=[&id=]`: the published interface narrows the list to one action by `id`. */
export const listActionsPublished: Handler = (req, ctx) => {
  projectOf(req, ctx);
  const id = param(req.query, "id");
  const all = actionList();
  return ok(id === undefined ? all : all.filter((a) => a["id"] === id));
};

export const performAction: Handler = (req, ctx) => {
  const project = projectOf(req, ctx);
  const id = param(req.query, "id");
  const prepared = prepareParams(req, ctx, project, id ?? "");
  const { ids } = select(ctx, ctx.store.dataset(project), prepared.query, id !== undefined && keepsOrdering.has(id));
  if (id === undefined) throw new HttpProblem(422, 'No action id "None", use ?id=<action-id>', { raw: true });
  if (!isRegistered(id)) throw unknownAction(ctx, id);
  if (ctx.strict) checkActionFields(id, bodyDict(req, ctx));
  const effect = effects[id];
  if (!effect) throw unknownAction(ctx, id);
  // An action reads request.data only if it takes fields (delete_tasks never does).
  return effect({
    ctx,
    project,
    ids,
    get body() {
      return bodyDict(req, ctx);
    },
    user: req.user,
    prepared,
    origin: req.origin,
  });
};

/** `GET /api/dm/actions/{id}/form/?project=`: the action's form (`[]` when it has none). */
export const getActionForm: Handler = (req, ctx) => {
  const project = projectOf(req, ctx);
  const id = req.params["action"] ?? "";
  if (!isRegistered(id)) throw unknownAction(ctx, id);
  return ok(actionForm(id, project, ctx.store));
};
