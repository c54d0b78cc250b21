import { SelectionBuilder } from "./query/builder.js";
import type { ProjectHandle } from "./query/nodes.js";
import { QueryBuildError } from "./query/rules.js";
import type { Selection, Untyped } from "./query/types.js";
import { describeValue } from "./vocabulary/json.js";
import { wireCompiler } from "./wire/serialize.js";

/**
 * Start a Data Manager selection of one project's tasks.
 *
 * ```ts
 * selection(1).where("tasks:completed_at").greater(new Date("2024-01-01T00:00:00Z"))
 *   .orderBy("-tasks:created_at").excluding([1, 2])
 * ```
 * @param project a project id, or `client.project(id)` to be able to `.run()` actions
 * @typeParam D the task-data type; types the `tasks:data.<key>` columns
 */
export function selection<D = Untyped>(project: number): Selection<D>;
export function selection<D = Untyped>(project: ProjectHandle): Selection<D, "none", "none", false, true>;
export function selection(project: number | ProjectHandle): unknown {
  const id = typeof project === "number" ? project : project?.id;
  if (!Number.isSafeInteger(id) || (id as number) <= 0) {
    throw new QueryBuildError(
      `project: expected a positive integer project id or a client project handle, found ${describeValue(project)}`,
      "project",
      "a positive integer project id or client.project(id)",
      describeValue(project),
    );
  }
  return new SelectionBuilder({
    project,
    view: undefined,
    query: Object.freeze({}),
    filterState: "none",
    compiler: wireCompiler,
  });
}
