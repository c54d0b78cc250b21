import { isPlainObject } from "../../src/vocabulary/json.js";
import { evaluatedColumns } from "../../src/contract/index.js";
import { pyTruthy, pyType } from "../../src/emulation/python-json.js";
import type { RenderContext } from "../../src/contract/render.js";
import { itemText, relationsIndex, select } from "../engine.js";
import { fieldError, HttpProblem, pythonException } from "../errors.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import {
  bodyDict,
  holdsLineSeparator,
  intFromData,
  intFromQuery,
  JsonText,
  ok,
  pageSize,
  paginate,
  param,
  type Handler,
  type MockContext,
  type MockRequest,
  type Reply,
} from "../http.js";
import { callbackHost, predictTasks } from "../ml/backend.js";
import { prepareParams, type Prepared } from "../prepare.js";
import { presentDmTask } from "../present/tasks.js";
import { projectOr404, viewOr404 } from "./lookup.js";
import { sparseFields } from "../drf/flex-fields.js";

/**
 * `GET /api/tasks/` — the Data Manager list (`TaskListAPI.get`, label_studio/data_manager/api.py):
 * project from `project`, else from the view; the query from the view, the `query` parameter or
 * the body; 100 tasks per page by default (no maximum, as TASK_API_PAGE_SIZE_MAX is unset); totals
 * over the whole selection. `fields=all` evaluates every column and adds annotations, predictions
 * and the caller's drafts; otherwise only the columns the filters, the ordering and the shown
 * columns (`hiddenColumns`) need are evaluated (`get_fields_for_evaluation`).
 */
const PAGE_SIZE = 100;
const EMPTY = { annotations: [], predictions: [], drafts: [] } as const;

/** `get_fields_for_evaluation` (label_studio/data_manager/managers.py) for the columns this list renders. */
function evaluated(prepared: Prepared): ReadonlySet<string> {
  const columns = new Set<string>();
  const first = prepared.query.ordering?.[0];
  if (first) columns.add(first.column);
  for (const item of prepared.query.filters?.items ?? []) columns.add(item.column);
  const hidden = prepared.data["hiddenColumns"];
  if (pyTruthy(hidden)) {
    // `set(fields['explore']) & set(fields['labeling'])`: what Python raises on other shapes.
    if (Array.isArray(hidden)) throw pythonException("TypeError", "list indices must be integers or slices, not str");
    if (typeof hidden === "string") throw pythonException("TypeError", "string indices must be integers, not 'str'");
    if (!isPlainObject(hidden)) throw pythonException("TypeError", `'${pyType(hidden)}' object is not subscriptable`);
    for (const mode of ["explore", "labeling"]) if (!Object.hasOwn(hidden, mode)) throw pythonException("KeyError", `'${mode}'`);
    const both = (mode: string) => new Set((Array.isArray(hidden[mode]) ? hidden[mode] : []) as unknown[]);
    const [explore, labeling] = [both("explore"), both("labeling")];
    for (const column of evaluatedColumns) if (!(explore.has(`tasks:${column}`) && labeling.has(`tasks:${column}`))) columns.add(column);
  }
  return columns;
}

/**
 * `GET /api/tasks/`. A project with `evaluate_predictions_automatically` first has its ML backend predict the
 * page's tasks that have no prediction (`TaskListAPI.get`, `evaluate_predictions`), then lists them.
 */
export const listTasks: Handler = (req, ctx) => {
  const project = listedProject(req, ctx);
  const backend =
    project["evaluate_predictions_automatically"] === true
      ? ctx.store.list("ml_backends").find((b) => b.project === project.id)
      : undefined;
  if (!backend) return listPage(req, ctx, project);
  const prepared = prepareParams(req, ctx, project);
  const { rows } = select(ctx, ctx.store.dataset(project), prepared.query);
  const page = paginate(rows, req.query, pageSize(req.query, PAGE_SIZE, undefined));
  const bare = page.items.flatMap((id) => {
    const task = ctx.store.find("tasks", id);
    return task && ctx.store.ofTask("predictions", id).length === 0 ? [task] : [];
  });
  return predictTasks(ctx, backend, bare, callbackHost(req.origin)).then(() => listPage(req, ctx, project));
};

function listedProject(req: MockRequest, ctx: MockContext): ProjectRecord {
  // request.data is read only where the query string lacks the key, as the view's `or` does.
  const viewId = intFromQuery(req.query, "view", 0) || intFromData(bodyDict(req, ctx), "view", 0);
  const projectId = intFromQuery(req.query, "project", 0) || intFromData(bodyDict(req, ctx), "project", 0);
  let project: ReturnType<typeof projectOr404>;
  if (projectId) project = projectOr404(ctx, projectId);
  else if (viewId) project = projectOr404(ctx, viewOr404(ctx, viewId).project);
  else throw new HttpProblem(404, "Neither project nor view id specified", { raw: true });
  return project;
}

function listPage(req: MockRequest, ctx: MockContext, project: ProjectRecord): Reply {
  if (ctx.strict && param(req.query, "selectedItems") !== undefined) {
    throw fieldError(
      "selectedItems",
      "nothing here: the server ignores a selectedItems URL parameter on the task list; put the selection in the query parameter",
    );
  }
  const prepared = prepareParams(req, ctx, project);
  const dataset = ctx.store.dataset(project);
  // Kept per (query, dataset version): paging through a result evaluates and sums it once.
  const evaluation = select(ctx, dataset, prepared.query);
  // The SQL's rows: a task the query gives two rows is listed (and counted) twice, as on the server.
  const page = paginate(evaluation.rows, req.query, pageSize(req.query, PAGE_SIZE, undefined));
  const totals = evaluation.totals();
  const all = param(req.query, "fields") === "all";
  const relations = all ? relationsIndex(dataset) : undefined;
  const render: RenderContext = {
    context: all ? new Set(["annotations", "predictions", "drafts"]) : undefined,
    evaluated: all ? "all" : evaluated(prepared),
    sparse: sparseFields(req.query),
  };
  // Only the page sent is presented.
  const present = (id: number) => {
    const task = ctx.store.find("tasks", id);
    if (!task) throw new Error(`engine: selected task ${id} has no record`);
    return presentDmTask(task, evaluation.derived(id), relations?.get(id) ?? EMPTY, req.user, ctx.store, render);
  };
  const head = { total_annotations: totals.total_annotations, total_predictions: totals.total_predictions, total: totals.total };
  if (!all && render.sparse === undefined) {
    // A plain item depends on the dataset version, the users (its annotators) and the evaluated
    // columns (`fields=all` carries `created_ago`, a clock, and the caller's drafts): kept as text.
    const also = `${ctx.store.versionOf("users")}:${[...(render.evaluated as ReadonlySet<string>)].sort().join(",")}`;
    const items = page.items.map((id) => itemText(dataset, also, id, () => present(id)));
    // Each item is a flat string, mostly of one-byte characters, where looking for U+2028 / U+2029 costs nothing;
    // the page is a joined string, which a search would first copy flat.
    const separators = items.some(holdsLineSeparator);
    return ok(new JsonText(`${JSON.stringify(head).slice(0, -1)},"tasks":[${items.join(",")}]}`, separators));
  }
  const tasks = page.items.map(present);
  return ok({ ...head, tasks });
}
