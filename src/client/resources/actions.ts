import { ACTIONS_PATH, type ActionRequest } from "../../query/nodes.js";
import type { CustomAction } from "../../query/types.js";
import { isActionId, type ActionId } from "../../vocabulary/actions.js";
import { describeValue } from "../../vocabulary/json.js";
import { ClientConfigError } from "../errors.js";
import { withoutTrailingSlashes, type RequestOptions } from "../options.js";
import { arrayOf, object, string } from "../shape.js";
import type { ChildFiltersGuard } from "../server-release.js";
import type { Send } from "../transport.js";
import type { ActionFormSection, ActionInfo, ActionResponse } from "../types.js";
import { checkId, checkObject, checkReadKeys } from "./common.js";

/** `/api/dm/actions/`: list, forms and performing actions. */
export interface ActionsResource {
  /** The actions the project offers, sorted by `order`: `GET /api/dm/actions/?project=`. */
  list(project: number, options?: RequestOptions): Promise<ActionInfo[]>;
  /** The form of an action's extra fields: `GET /api/dm/actions/{id}/form/?project=`. */
  form(project: number, action: ActionId | CustomAction, options?: RequestOptions): Promise<ActionFormSection[]>;
  /**
   * Sends a request built by `selection(…).toRequest(…)`. The default path `/api/dm/actions/` is
   * replaced by `routes.actions`. `selection(client.project(id)).run()` calls this and types the result.
   * A body with `child_filters` is refused on a server before 1.23, which drops them (docs/client.md).
   */
  perform(request: ActionRequest, options?: RequestOptions): Promise<ActionResponse>;
}

const actionInfo = object<ActionInfo>({ id: string });
const formSection = object<ActionFormSection>();
const actionResponse = object<ActionResponse>();

function actionIdOf(action: unknown): string {
  if (isActionId(action)) return action;
  if (typeof action === "object" && action !== null && typeof (action as CustomAction).customAction === "string") {
    return (action as CustomAction).customAction;
  }
  throw new ClientConfigError("action", 'a known action id or customAction("<id>")', describeValue(action));
}

function checkRequest(request: unknown): ActionRequest {
  checkObject("request", request);
  const { method, query, body } = request as ActionRequest;
  if (method !== "POST") throw new ClientConfigError("request.method", '"POST"', describeValue(method));
  checkObject("request.query", query);
  if (typeof query.id !== "string" || query.id === "") {
    throw new ClientConfigError("request.query.id", "an action id", describeValue(query.id));
  }
  checkId("request.query.project", query.project);
  if (query.view !== undefined) checkId("request.query.view", query.view);
  checkObject("request.body", body);
  checkReadKeys("request.body", body, { action: query.id });
  return request as ActionRequest;
}

export function actionsResource(send: Send, actionsPath: string, guard: ChildFiltersGuard): ActionsResource {
  const formPath = (id: string): string =>
    `${withoutTrailingSlashes(actionsPath)}/${encodeURIComponent(id)}/form${actionsPath.endsWith("/") ? "/" : ""}`;
  return Object.freeze({
    async list(project: number, options?: RequestOptions) {
      const query = { project: checkId("project", project) };
      return send({ method: "GET", path: actionsPath, query, expect: arrayOf(actionInfo) }, options);
    },
    async form(project: number, action: ActionId | CustomAction, options?: RequestOptions) {
      const query = { project: checkId("project", project) };
      return send({ method: "GET", path: formPath(actionIdOf(action)), query, expect: arrayOf(formSection) }, options);
    },
    async perform(request: ActionRequest, options?: RequestOptions) {
      const { path, query, body } = checkRequest(request);
      await guard(body["filters"], options);
      return send(
        {
          method: "POST",
          path: path === ACTIONS_PATH ? actionsPath : path,
          query: { id: query.id, project: query.project, view: query.view },
          body,
          expect: actionResponse,
        },
        options,
      );
    },
  });
}
