import { describeValue, type JsonValue } from "../vocabulary/json.js";
import { checkAction, type CustomAction } from "./action-args.js";
import { ConditionStep, nodeOfCondition, resolveColumn, resolveColumnName, type Condition } from "./condition.js";
import type {
  ActionRequest,
  ConditionNode,
  ExportedFile,
  ExportOptions,
  FiltersNode,
  ProjectHandle,
  QueryBody,
  QueryNode,
  RunOptions,
} from "./nodes.js";
import { exportTypes, isExportType } from "../vocabulary/export-formats.js";
import { QueryBuildError, refuse, rules } from "./rules.js";

/** Turns a Query value into the documented body and requests; the wire layer supplies it. */
export interface QueryCompiler {
  toBody(query: QueryNode): QueryBody;
  toRequest(
    project: number,
    view: number | undefined,
    query: QueryNode,
    actionId: string,
    params: Record<string, JsonValue> | undefined,
  ): ActionRequest;
}

/** The filter set at run time (the compile-time "unknown" is always one of these here). */
type FilterSet = "none" | "first" | "and" | "or" | "view";

export interface Props {
  readonly project: number | ProjectHandle;
  readonly view: number | undefined;
  readonly query: QueryNode;
  readonly filterState: FilterSet;
  /** `.all()` was said: a destructive action may act on every task. */
  readonly everyTask: boolean;
  readonly compiler: QueryCompiler;
}

type Placement = "where" | "and" | "or" | "child";

const freezeNode = <T extends object>(node: T): T => Object.freeze(node);

/** The filter state a Query value is in: what `selection.from()` resumes from. */
export function filterStateOf(query: QueryNode): FilterSet {
  const items = query.filters?.items.length ?? 0;
  return items === 0 ? "none" : items === 1 ? "first" : (query.filters as FiltersNode).conjunction;
}

/** The one runtime class behind every public `Selection<…>` state (see types.ts). */
export class SelectionBuilder {
  readonly #props: Props;

  constructor(props: Props) {
    this.#props = Object.freeze(props);
  }

  /** `source` with another project (its id must match): how `selection.from()` binds a built selection. */
  static rebind(source: SelectionBuilder, project: number | ProjectHandle): SelectionBuilder {
    const id = typeof project === "number" ? project : project.id;
    if (id !== source.project) {
      throw new QueryBuildError(
        `project: the selection is of project ${source.project}, not ${id}`,
        "project",
        String(source.project),
        String(id),
      );
    }
    return source.#with({ project });
  }

  get project(): number {
    const p = this.#props.project;
    return typeof p === "number" ? p : p.id;
  }

  get view(): number | undefined {
    return this.#props.view;
  }

  #with(patch: Partial<Props>): SelectionBuilder {
    return new SelectionBuilder({ ...this.#props, ...patch });
  }

  #guardBody(): void {
    if (this.#props.filterState === "view") refuse("viewIgnoresBody");
  }

  where(column: string, type?: string): ConditionStep<SelectionBuilder>;
  where(condition: Condition): SelectionBuilder;
  where(column: unknown, type?: unknown): unknown {
    this.#guardBody();
    if (this.#props.filterState !== "none") refuse("whereTwice", "filters");
    return this.#step("where", column, type);
  }

  whereAll(conditions: unknown): SelectionBuilder {
    return this.#whereList("whereAll", "and", conditions);
  }

  whereAny(conditions: unknown): SelectionBuilder {
    return this.#whereList("whereAny", "or", conditions);
  }

  /** The present conditions of a list, the first with where, the rest joined; skipped entries are falsy. */
  #whereList(member: string, join: "and" | "or", list: unknown): SelectionBuilder {
    this.#guardBody();
    if (this.#props.filterState !== "none") refuse("whereTwice", "filters");
    if (!Array.isArray(list)) {
      throw new QueryBuildError(
        `filters: ${member}() takes an array of conditions (false, null, undefined, 0 and "" are skipped), found ${describeValue(list)}`,
        "filters",
        "an array of conditions",
        describeValue(list),
      );
    }
    const nodes: ConditionNode[] = [];
    list.forEach((entry: unknown, i) => {
      if (entry === false || entry === null || entry === undefined || entry === 0 || entry === "") return;
      const path = `filters.items[${nodes.length}]`;
      if (typeof entry === "string") {
        throw new QueryBuildError(
          `${path}: ${member}() takes conditions, not columns: entry ${i} is ${describeValue(entry)}; write condition(column).equal(value)`,
          path,
          "a condition",
          describeValue(entry),
        );
      }
      nodes.push(nodeOfCondition(entry, path));
    });
    return nodes.reduce<SelectionBuilder>((s, node, n) => s.#addCondition(n === 0 ? "where" : join, node), this);
  }

  and(column: string, type?: string): ConditionStep<SelectionBuilder>;
  and(condition: Condition): SelectionBuilder;
  and(column: unknown, type?: unknown): unknown {
    this.#guardBody();
    const s = this.#props.filterState;
    if (s === "none") refuse("conditionFirst", "filters");
    if (s === "or") refuse("mixedAndAfterOr", "filters.conjunction");
    return this.#step("and", column, type);
  }

  or(column: string, type?: string): ConditionStep<SelectionBuilder>;
  or(condition: Condition): SelectionBuilder;
  or(column: unknown, type?: unknown): unknown {
    this.#guardBody();
    const s = this.#props.filterState;
    if (s === "none") refuse("conditionFirst", "filters");
    if (s === "and") refuse("mixedOrAfterAnd", "filters.conjunction");
    return this.#step("or", column, type);
  }

  child(column: string, type?: string): ConditionStep<SelectionBuilder>;
  child(condition: Condition): SelectionBuilder;
  child(column: unknown, type?: unknown): unknown {
    this.#guardBody();
    if (this.#props.filterState === "none") refuse("conditionFirst", "filters");
    return this.#step("child", column, type);
  }

  /** A column starts a `ConditionStep`; a condition value is checked and added at once. */
  #step(placement: Placement, column: unknown, type: unknown): unknown {
    const items = this.#props.query.filters?.items ?? [];
    const root = placement === "child" ? items.length - 1 : items.length;
    const path =
      placement === "child" ? `filters.items[${root}].child_filters[${items[root]?.children.length ?? 0}]` : `filters.items[${root}]`;
    if (typeof column === "string") {
      return new ConditionStep(
        (node) => this.#addCondition(placement, node),
        resolveColumn(column, type, path),
        column,
        type as string | undefined,
      );
    }
    if (type !== undefined) {
      throw new QueryBuildError(
        `${path}.type: a condition carries its own type; found a second argument ${describeValue(type)}`,
        `${path}.type`,
      );
    }
    return this.#addCondition(placement, nodeOfCondition(column, path));
  }

  #addCondition(placement: Placement, condition: ConditionNode): SelectionBuilder {
    const previous = this.#props.query.filters;
    const items = previous?.items ?? [];
    let next: readonly ConditionNode[];
    if (placement === "child") {
      const last = items[items.length - 1] as ConditionNode;
      next = [...items.slice(0, -1), freezeNode({ ...last, children: Object.freeze([...last.children, condition]) })];
    } else {
      next = [...items, condition];
    }
    // One line leaves the conjunction open (a resumed body may say "or"); the second line fixes it.
    const conjunction =
      placement === "and" || placement === "or" ? placement : items.length > 1 ? (previous as FiltersNode).conjunction : "and";
    const filters: FiltersNode = freezeNode({ ...previous, conjunction, items: Object.freeze(next) });
    const filterState: FilterSet = placement === "where" ? "first" : placement === "child" ? this.#props.filterState : placement;
    return this.#with({ query: freezeNode({ ...this.#props.query, filters }), filterState });
  }

  orderBy(key: unknown): SelectionBuilder {
    this.#guardBody();
    if (this.#props.query.ordering?.length) refuse("orderedTwice", "ordering");
    if (typeof key !== "string") {
      throw new QueryBuildError(
        `ordering[0]: expected "tasks:<column>" or "-tasks:<column>", found ${describeValue(key)}`,
        "ordering[0]",
        '"tasks:<column>" or "-tasks:<column>"',
        describeValue(key),
      );
    }
    const descending = key.startsWith("-");
    const column = descending ? resolveColumnName(key.slice(1), "ordering[0]", "-") : resolveColumnName(key, "ordering[0]");
    const ordering = Object.freeze([freezeNode({ column, descending })]);
    return this.#with({ query: freezeNode({ ...this.#props.query, ordering }) });
  }

  including(ids: unknown): SelectionBuilder {
    this.#guardBody();
    const current = this.#props.query.selectedItems;
    if (current?.all === true) refuse("includingAfterExcluding", "selectedItems");
    const list = taskIds(ids, "selectedItems.included");
    if (list.length === 0) refuse("emptyIncluding", "selectedItems.included");
    const included = mergeIds(current?.all === false ? current.included : [], list);
    return this.#select(freezeNode({ all: false as const, included }));
  }

  excluding(ids: unknown): SelectionBuilder {
    this.#guardBody();
    const current = this.#props.query.selectedItems;
    if (current?.all === false) refuse("excludingAfterIncluding", "selectedItems");
    const excluded = mergeIds(current?.all === true ? current.excluded : [], taskIds(ids, "selectedItems.excluded"));
    return this.#select(freezeNode({ all: true as const, excluded }));
  }

  all(): SelectionBuilder {
    return this.excluding([]).#with({ everyTask: true });
  }

  #select(selectedItems: QueryNode["selectedItems"] & object): SelectionBuilder {
    return this.#with({ query: freezeNode({ ...this.#props.query, selectedItems }) });
  }

  fromView(view: unknown): SelectionBuilder {
    const q = this.#props.query;
    if (this.#props.filterState !== "none" || q.ordering || q.selectedItems) refuse("fromViewFresh", "view");
    if (!Number.isSafeInteger(view) || (view as number) <= 0) {
      throw new QueryBuildError(
        `view: expected a positive integer view id, found ${describeValue(view)}`,
        "view",
        "a positive integer view id",
        describeValue(view),
      );
    }
    return this.#with({ view: view as number, filterState: "view" });
  }

  toQuery(): QueryNode {
    return this.#props.query;
  }

  toJSON(): QueryBody {
    return this.#props.compiler.toBody(this.#props.query);
  }

  /** Filters, included ids, a view, or `.all()`: what lets a destructive action run. */
  get #scoped(): boolean {
    const { view, query, everyTask } = this.#props;
    return view !== undefined || (query.filters?.items.length ?? 0) > 0 || query.selectedItems?.all === false || everyTask;
  }

  toRequest(action: unknown, params?: Record<string, JsonValue>): ActionRequest {
    const selected = this.#props.query.selectedItems;
    const excludedOnly = selected?.all === true && selected.excluded.length > 0;
    const id = checkAction(action, params, this.#scoped, excludedOnly);
    return this.#props.compiler.toRequest(this.project, this.#props.view, this.#props.query, id, params);
  }

  run(action: unknown, params?: Record<string, JsonValue>, options?: RunOptions): Promise<unknown> {
    const project = this.#props.project;
    if (typeof project === "number") return Promise.reject(new QueryBuildError(rules.notBound, "run"));
    let request: ActionRequest;
    try {
      request = this.toRequest(action, params);
    } catch (error) {
      return Promise.reject(error);
    }
    return project.perform(request, options);
  }

  /** The selection's tasks as a file, through the bound client (`ProjectHandle.exportSelection`). */
  export(format: unknown = "JSON", options?: ExportOptions): Promise<ExportedFile> {
    const project = this.#props.project;
    if (typeof project === "number" || !project.exportSelection) return Promise.reject(new QueryBuildError(rules.exportNotBound, "export"));
    if (!isExportType(format)) {
      return Promise.reject(
        new QueryBuildError(
          `format: expected an export format (${exportTypes.join(", ")}), found ${describeValue(format)}`,
          "format",
          "an export format",
          describeValue(format),
        ),
      );
    }
    const view = this.#props.view;
    return project.exportSelection({ project: this.project, view, query: view === undefined ? this.toJSON() : {}, format }, options);
  }

  $if(condition: unknown, then: unknown): unknown {
    if (typeof then !== "function")
      throw new QueryBuildError(`$if: expected a function (selection) => selection, found ${describeValue(then)}`, "$if");
    if (!condition) return this;
    const result: unknown = then(this);
    // The compiler checks the data type and the binding; the project (and a JavaScript caller) only here.
    const bound = typeof this.#props.project !== "number";
    const expected = `a selection of project ${this.project}, ${bound ? "bound to a client" : "not bound"}`;
    const found =
      result instanceof SelectionBuilder
        ? `a selection of project ${result.project}, ${typeof result.#props.project !== "number" ? "bound to a client" : "not bound"}`
        : result instanceof ConditionStep
          ? `${result.columnArg} without an operator`
          : describeValue(result);
    if (!(result instanceof SelectionBuilder) || result.project !== this.project || (typeof result.#props.project !== "number") !== bound) {
      throw new QueryBuildError(`$if: the callback must return ${expected} (a step of this one), found ${found}`, "$if", expected, found);
    }
    return result;
  }

  $call(fn: unknown): unknown {
    if (typeof fn !== "function")
      throw new QueryBuildError(`$call: expected a function (selection) => result, found ${describeValue(fn)}`, "$call");
    return fn(this);
  }

  /**
   * `console.log(selection)` / `util.inspect`: the project, view and the whole body it sends, at any
   * depth (Node's default of 2 would print a filter item as `[Object]`); never the client.
   */
  [Symbol.for("nodejs.util.inspect.custom")](
    _depth: number,
    options: object,
    inspect: (value: unknown, options: object) => string,
  ): string {
    const { view, project } = this.#props;
    const head = `Selection<project ${this.project}${view === undefined ? "" : `, view ${view}`}${typeof project === "number" ? "" : ", bound"}>`;
    return `${head} ${inspect(this.toJSON(), { ...options, depth: null })}`;
  }
}

/** Build a `CustomAction` for an action id the vocabulary does not know (the explicit escape hatch). */
export function customAction(id: string): CustomAction {
  if (typeof id !== "string" || id.length === 0) {
    throw new QueryBuildError(`action: expected a non-empty action id, found ${describeValue(id)}`, "id");
  }
  return Object.freeze({ customAction: id });
}

function taskIds(ids: unknown, path: string): readonly number[] {
  if (!Array.isArray(ids)) {
    throw new QueryBuildError(
      `${path}: expected an array of task ids, found ${describeValue(ids)}`,
      path,
      "an array of task ids",
      describeValue(ids),
    );
  }
  ids.forEach((id, i) => {
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new QueryBuildError(
        `${path}[${i}]: expected a positive integer task id, found ${describeValue(id)}`,
        `${path}[${i}]`,
        "a positive integer task id",
        describeValue(id),
      );
    }
  });
  return ids as number[];
}

function mergeIds(existing: readonly number[], added: readonly number[]): readonly number[] {
  const seen = new Set(existing);
  const out = [...existing];
  for (const id of added) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return Object.freeze(out);
}

/*
 * `.where(column)` with a column returns a ConditionStep; if the compiler took it for a selection
 * (`where(flag ? "tasks:id" : condition)` under a cast), the next selection member would be a
 * TypeError. Each member the builder has throws a QueryBuildError on a ConditionStep instead.
 */
for (const member of Object.getOwnPropertyNames(SelectionBuilder.prototype)) {
  const own = Object.getOwnPropertyDescriptor(SelectionBuilder.prototype, member);
  if (member === "constructor" || typeof own?.value !== "function" || member in ConditionStep.prototype) continue;
  Object.defineProperty(ConditionStep.prototype, member, {
    value(this: ConditionStep<unknown>) {
      const path = this.target.path || "condition";
      throw new QueryBuildError(
        `${path}: ${this.columnArg} has no operator yet, so .${member}() cannot follow it: write .where(column).equal(value) (or another operator), or pass a condition`,
        this.target.path,
        "an operator method, e.g. .equal(value)",
        `.${member}()`,
      );
    },
    enumerable: false,
  });
}
