import { actions, isActionId } from "../vocabulary/actions.js";
import { columnKinds, inferDataType, type ColumnKindName } from "../vocabulary/column-kinds.js";
import { DATA_PREFIX, kindOf } from "../vocabulary/columns.js";
import { describeValue, type JsonValue } from "../vocabulary/json.js";
import { operatorByMethod, type OperatorName } from "../vocabulary/operators.js";
import { valueShapes, type ShapeName } from "../vocabulary/value-shapes.js";
import type { ActionRequest, ConditionNode, FiltersNode, ProjectHandle, QueryBody, QueryNode } from "./nodes.js";
import { ORDER_PREFIX } from "./nodes.js";
import { QueryBuildError, refuse, rules } from "./rules.js";
import type { CustomAction, FilterState, RunOptions } from "./types.js";

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

interface Props {
  readonly project: number | ProjectHandle;
  readonly view: number | undefined;
  readonly query: QueryNode;
  readonly filterState: FilterState;
  readonly compiler: QueryCompiler;
}

type Placement = "where" | "and" | "or" | "child";

const freezeNode = <T extends object>(node: T): T => Object.freeze(node);

/** The one runtime class behind every public `Selection<…>` state (see types.ts). */
export class SelectionBuilder {
  readonly #props: Props;

  constructor(props: Props) {
    this.#props = Object.freeze(props);
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

  where(column: unknown, type?: unknown): ConditionStep {
    this.#guardBody();
    if (this.#props.filterState !== "none") refuse("whereTwice", "filters");
    return this.#step("where", column, type);
  }

  and(column: unknown, type?: unknown): ConditionStep {
    this.#guardBody();
    const s = this.#props.filterState;
    if (s === "none") refuse("conditionFirst", "filters");
    if (s === "or") refuse("mixedAndAfterOr", "filters.conjunction");
    return this.#step("and", column, type);
  }

  or(column: unknown, type?: unknown): ConditionStep {
    this.#guardBody();
    const s = this.#props.filterState;
    if (s === "none") refuse("conditionFirst", "filters");
    if (s === "and") refuse("mixedOrAfterAnd", "filters.conjunction");
    return this.#step("or", column, type);
  }

  child(column: unknown, type?: unknown): ConditionStep {
    this.#guardBody();
    if (this.#props.filterState === "none") refuse("conditionFirst", "filters");
    return this.#step("child", column, type);
  }

  #step(placement: Placement, column: unknown, type: unknown): ConditionStep {
    const items = this.#props.query.filters?.items ?? [];
    const root = placement === "child" ? items.length - 1 : items.length;
    const path =
      placement === "child"
        ? `filters.items[${root}].child_filters[${items[root]?.children.length ?? 0}]`
        : `filters.items[${root}]`;
    const target = resolveColumn(column, type, path);
    return new ConditionStep((condition) => this.#addCondition(placement, condition), target);
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
    const filterState: FilterState = placement === "where" ? "first" : placement === "child" ? this.#props.filterState : placement;
    const conjunction = placement === "or" || previous?.conjunction === "or" ? "or" : "and";
    const filters: FiltersNode = freezeNode({ conjunction, items: Object.freeze(next) });
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
    const name = descending ? key.slice(1) : key;
    const column = resolveColumnName(name, "ordering[0]");
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
    return this.excluding([]);
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

  toRequest(action: unknown, params?: Record<string, JsonValue>): ActionRequest {
    const id = actionIdOf(action);
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
}

/** Build a `CustomAction` for an action id the vocabulary does not know (the explicit escape hatch). */
export function customAction(id: string): CustomAction {
  if (typeof id !== "string" || id.length === 0) {
    throw new QueryBuildError(`action: expected a non-empty action id, found ${describeValue(id)}`, "id");
  }
  return Object.freeze({ customAction: id });
}

function actionIdOf(action: unknown): string {
  if (typeof action === "object" && action !== null && "customAction" in action) {
    return (action as CustomAction).customAction;
  }
  if (isActionId(action)) return action;
  throw new QueryBuildError(
    `id: expected a known action id (${Object.keys(actions).join(", ")}) or customAction("<id>"), found ${describeValue(action)}`,
    "id",
    "a known action id or customAction(id)",
    describeValue(action),
  );
}

interface Target {
  readonly column: string;
  readonly kind: ColumnKindName;
  readonly path: string;
}

function resolveColumnName(name: string, path: string): string {
  if (name.startsWith(ORDER_PREFIX)) {
    const column = name.slice(ORDER_PREFIX.length);
    if (column.startsWith(DATA_PREFIX) ? column.length > DATA_PREFIX.length : kindOf(column) !== undefined) {
      return column;
    }
  }
  throw new QueryBuildError(
    `${path}: expected a known column "tasks:<column>" or "tasks:data.<key>", found ${describeValue(name)}`,
    path,
    '"tasks:<column>" or "tasks:data.<key>"',
    describeValue(name),
  );
}

function resolveColumn(column: unknown, type: unknown, path: string): Target {
  if (typeof column !== "string") resolveColumnName(String(column), `${path}.filter`);
  const name = resolveColumnName(column as string, `${path}.filter`);
  const isData = name.startsWith(DATA_PREFIX);
  if (!isData && type !== undefined) {
    throw new QueryBuildError(
      `${path}.type: only tasks:data.<key> columns take a type; ${String(column)} is always ${columnKinds[kindOf(name) as ColumnKindName].type}`,
      `${path}.type`,
    );
  }
  const kind = kindOf(name, type as string | undefined);
  if (kind === undefined) {
    throw new QueryBuildError(
      `${path}.type: expected a data column type (Number, String, Unknown, Boolean, Image, Audio, AudioPlus, Video), found ${describeValue(type)}`,
      `${path}.type`,
      "Number, String, Unknown, Boolean, Image, Audio, AudioPlus or Video",
      describeValue(type),
    );
  }
  return { column: name, kind, path };
}

function taskIds(ids: unknown, path: string): readonly number[] {
  if (!Array.isArray(ids)) {
    throw new QueryBuildError(`${path}: expected an array of task ids, found ${describeValue(ids)}`, path, "an array of task ids", describeValue(ids));
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
  for (const id of added) if (!seen.has(id)) (seen.add(id), out.push(id));
  return Object.freeze(out);
}

/** The pending `.where(column)`: every operator method exists at run time and checks the kind's table. */
export class ConditionStep {
  constructor(
    readonly complete: (condition: ConditionNode) => SelectionBuilder,
    readonly target: Target,
  ) {}

  apply(operator: OperatorName, value: unknown): SelectionBuilder {
    const { column, kind, path } = this.target;
    const spec = columnKinds[kind];
    const shape = (spec.operators as Partial<Record<OperatorName, ShapeName>>)[operator];
    if (shape === undefined) {
      const allowed = Object.keys(spec.operators).join(", ");
      throw new QueryBuildError(
        `${path}.operator: ${operator} is not allowed on tasks:${column} (${kind} column); allowed: ${allowed}`,
        `${path}.operator`,
        allowed,
        operator,
      );
    }
    const encoded = valueShapes[shape].encode(value);
    if (!encoded.ok) {
      throw new QueryBuildError(
        `${path}.value: ${operator} on tasks:${column} expects ${encoded.expected}, found ${describeValue(value)}`,
        `${path}.value`,
        encoded.expected,
        describeValue(value),
      );
    }
    const node: ConditionNode = freezeNode({
      column,
      operator,
      type: kind === "dataAny" ? inferDataType(operator, encoded.value) : spec.type,
      value: encoded.value as JsonValue,
      children: Object.freeze([]),
    });
    return this.complete(node);
  }
}

// Operator methods (and aliases) derived from the vocabulary table.
for (const [method, operator] of Object.entries(operatorByMethod)) {
  Object.defineProperty(ConditionStep.prototype, method, {
    value(this: ConditionStep, value: unknown) {
      return this.apply(operator, value);
    },
    enumerable: false,
  });
}
