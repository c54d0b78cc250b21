import { itemText, relationsIndex, select } from "../engine.js";
import { fieldError, HttpProblem } from "../errors.js";
import { bodyDict, intFromData, intFromQuery, JsonText, ok, pageSize, paginate, param, type Handler } from "../http.js";
import { prepareParams } from "../prepare.js";
import { presentDmTask } from "../present/records.js";
import { projectOr404, viewOr404 } from "./lookup.js";

/**
 * `GET /api/tasks/` — the Data Manager list (docs/reference/resources.md#tasks): project from
 * `project`, else from the view; the query from the view, the `query` parameter or the body; 100
 * tasks per page by default (no maximum, as TASK_API_PAGE_SIZE_MAX is unset); totals over the whole
 * selection.
 */
const PAGE_SIZE = 100;

export const listTasks: Handler = (req, ctx) => {
  // request.data is read only where the query string lacks the key, as the view's `or` does.
  const viewId = intFromQuery(req.query, "view", 0) || intFromData(bodyDict(req, ctx), "view", 0);
  const projectId = intFromQuery(req.query, "project", 0) || intFromData(bodyDict(req, ctx), "project", 0);
  let project;
  if (projectId) project = projectOr404(ctx, projectId);
  else if (viewId) project = projectOr404(ctx, viewOr404(ctx, viewId).project);
  else throw new HttpProblem(404, "Neither project nor view id specified", { raw: true });

  if (ctx.strict && param(req.query, "selectedItems") !== undefined) {
    throw fieldError("selectedItems", "nothing here: the server ignores a selectedItems URL parameter on the task list; put the selection in the query parameter");
  }
  const prepared = prepareParams(req, ctx, project);
  const dataset = ctx.store.dataset(project);
  // Kept per (query, dataset version): paging through a result evaluates and sums it once.
  const evaluation = select(ctx, dataset, prepared.query);
  const { ids } = evaluation;
  const page = paginate(ids, req.query, pageSize(req.query, PAGE_SIZE, undefined));
  const totals = evaluation.totals();
  const all = param(req.query, "fields") === "all";
  const relations = all ? relationsIndex(dataset) : undefined;
  const include = param(req.query, "include")?.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  // Only the page sent is presented.
  const present = (id: number) => {
    const task = ctx.store.find("tasks", id);
    if (!task) throw new Error(`engine: selected task ${id} has no record`);
    return presentDmTask(task, evaluation.derived(id), ctx.store, relations?.get(id) ?? (all ? { annotations: [], predictions: [], drafts: [] } : undefined));
  };
  const head = { total_annotations: totals.total_annotations, total_predictions: totals.total_predictions, total: totals.total };
  if (!all && !(include && include.length > 0)) {
    // A plain item depends on the dataset version and the users (`fields=all` carries `created_ago`, a clock): kept as text.
    const users = ctx.store.versionOf("users");
    const items = page.items.map((id) => itemText(dataset, users, id, () => present(id)));
    return ok(new JsonText(`${JSON.stringify(head).slice(0, -1)},"tasks":[${items.join(",")}]}`));
  }
  const tasks = page.items.map((id) => {
    const item = present(id);
    return include && include.length > 0 ? Object.fromEntries(Object.entries(item).filter(([k]) => k === "id" || include.includes(k))) : item;
  });
  return ok({ ...head, tasks });
};
