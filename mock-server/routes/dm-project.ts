import { dmProjectState } from "../../src/contract/index.js";
import type { Values } from "../../src/contract/render.js";
import { render } from "../../src/contract/render.js";
import { intFromQuery, ok, type Handler, type MockContext, type MockRequest } from "../http.js";
import { presentColumns } from "../present/columns.js";
import { presentProject } from "../present/project.js";
import { projectOr404 } from "./lookup.js";
import { modelVersionCounts } from "./model-versions.js";

/**
 * The Data Manager's own project routes (label_studio/data_manager/api.py `ProjectColumnsAPI`,
 * `ProjectStateAPI`): the project is the query's `project`, **1** when it is missing
 * (`int_from_request(request.GET, 'project', 1)`), a 400 when it is not a number, a 404 when it does not exist.
 */
const queried = (req: MockRequest, ctx: MockContext) => projectOr404(ctx, intFromQuery(req.query, "project", 1));

/** `GET /api/dm/columns/`: `{"columns": [...]}` (mock-server/present/columns.ts). */
export const getColumns: Handler = (req, ctx) => {
  const project = queried(req, ctx);
  return ok(presentColumns(project, ctx.store, Object.keys(modelVersionCounts(project, ctx.store))));
};

/** `GET /api/dm/project/`: the project without its counters, and what the Data Manager UI reads besides. */
export const getProjectState: Handler = (req, ctx) => {
  const project = queried(req, ctx);
  const { tasks, annotations } = ctx.store.dataset(project);
  const base = presentProject(project, ctx.store, { caller: req.user, counts: false, render: {} });
  return ok(
    render(dmProjectState, {
      ...base,
      can_delete_tasks: true,
      can_manage_annotations: true,
      can_manage_tasks: true,
      source_syncing: false,
      target_syncing: false,
      task_count: tasks.length,
      annotation_count: annotations.length,
    } as Values<typeof dmProjectState>),
  );
};
