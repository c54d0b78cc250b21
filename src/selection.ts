import { filterStateOf, SelectionBuilder } from "./query/builder.js";
import type { ProjectHandle, QueryNode } from "./query/nodes.js";
import { QueryBuildError } from "./query/rules.js";
import type { FreshSelection, FromSelection, ResumedSelection, Stateful } from "./query/types.js";
import type { Untyped } from "./query/columns.js";
import { describeValue } from "./vocabulary/json.js";
import { parseQuery, type ParseOptions } from "./wire/parse.js";
import { toBody, wireCompiler } from "./wire/serialize.js";

function checkProject(project: unknown): void {
  const id = typeof project === "number" ? project : (project as ProjectHandle | undefined)?.id;
  if (!Number.isSafeInteger(id) || (id as number) <= 0) {
    throw new QueryBuildError(
      `project: expected a positive integer project id or a client project handle, found ${describeValue(project)}`,
      "project",
      "a positive integer project id or client.project(id)",
      describeValue(project),
    );
  }
}

/**
 * A selection of `query`. A body's `selectedItems: {all: true, excluded: []}` (what `.all()` writes,
 * and what the web UI sends for "select all") reads as `.all()`: a round trip keeps it. With excluded
 * ids it does not: `.excluding(ids)` writes the same body, so resuming it asks for `.all()` again.
 */
function fresh(project: number | ProjectHandle, query: QueryNode): SelectionBuilder {
  return new SelectionBuilder({
    project,
    view: undefined,
    query,
    filterState: filterStateOf(query),
    everyTask: query.selectedItems?.all === true && query.selectedItems.excluded.length === 0,
    compiler: wireCompiler,
  });
}

const NODE_KEYS: readonly string[] = ["filters", "ordering", "selectedItems", "columnsDisplayType"];

const isColumnObject = (v: unknown) => typeof v === "object" && v !== null && "column" in v;

/**
 * A Query value as the builder makes it: items hold `column`, ordering holds `{ column, descending }`.
 * Only a value that shows it (an item or an ordering key of that shape, or a parsed body's
 * `skippedRegex`) and has no key a Query value never has counts: anything else is read as a body,
 * so that a misspelt key next to empty lists (`{ ordering: [], filter: … }`) is reported by the
 * parser rather than dropped by `toBody`, which writes only the keys it knows.
 */
function isQueryNode(source: object): source is QueryNode {
  if (!Object.keys(source).every((k) => NODE_KEYS.includes(k))) return false;
  const s = source as { filters?: { items?: unknown; skippedRegex?: unknown }; ordering?: unknown };
  const items = s.filters?.items;
  const ordering = s.ordering;
  const nodeItems = Array.isArray(items) && items.every(isColumnObject);
  const nodeOrdering = Array.isArray(ordering) && ordering.every(isColumnObject);
  const shown =
    (nodeItems && (items as unknown[]).length > 0) ||
    (nodeOrdering && (ordering as unknown[]).length > 0) ||
    s.filters?.skippedRegex !== undefined;
  return shown && (items === undefined || nodeItems) && (ordering === undefined || nodeOrdering);
}

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
export function selection<D = Untyped>(project: number): FreshSelection<D, "unbound">;
export function selection<D = Untyped>(project: ProjectHandle): FreshSelection<D, "bound">;
export function selection(project: number | ProjectHandle): unknown {
  checkProject(project);
  return fresh(project, Object.freeze({}));
}

/*
 * `source`: a body (any JSON value, read by the parser), a Query value (`parseQuery(…)`), or a
 * selection. `unknown` because the parser checks it all at run time.
 */
function from<S extends Stateful>(project: number, source: S, options?: ParseOptions): FromSelection<S, "unbound">;
function from<S extends Stateful>(project: ProjectHandle, source: S, options?: ParseOptions): FromSelection<S, "bound">;
function from<D = Untyped>(project: number, source: unknown, options?: ParseOptions): ResumedSelection<D, "unbound">;
function from<D = Untyped>(project: ProjectHandle, source: unknown, options?: ParseOptions): ResumedSelection<D, "bound">;
function from(project: number | ProjectHandle, source: unknown, options?: ParseOptions): unknown {
  checkProject(project);
  if (source instanceof SelectionBuilder) return SelectionBuilder.rebind(source, project);
  if (typeof source === "object" && source !== null && isQueryNode(source)) {
    // Re-read through the parser: a hand-made Query value gets the same checks as a body.
    return fresh(project, parseQuery(toBody(source)));
  }
  return fresh(project, parseQuery(source, options));
}

/**
 * Resume the builder from a body (a request body, `parseQuery(…)`'s Query value, a saved view's
 * `data` with `{ context: "view" }`) or another selection (to bind it: `selection.from(client.project(1), s)`).
 * The body is read strictly (`parseQuery`, throws `QueryParseError`); the next step is checked at
 * run time (its state depends on the body), the steps after it by the compiler again. A selection
 * keeps its task data and its state where the compiler knows it exactly; where it may be in several
 * states (an `AnySelection`), the next step is checked at run time too. A body's
 * `selectedItems: {all: true, excluded: []}` reads as `.all()`; with excluded ids, say `.all()` again.
 */
selection.from = from;
