import type { JsonValue } from "../vocabulary/json.js";
import type { QueryCompiler } from "../query/builder.js";
import {
  ACTIONS_PATH,
  FILTER_PREFIX,
  ORDER_PREFIX,
  type ActionRequest,
  type ConditionNode,
  type FilterItemBody,
  type OrderingNode,
  type QueryBody,
  type QueryNode,
} from "../query/nodes.js";

/** One condition as the documented filter item; children only when there are any. */
export function conditionToItem(node: ConditionNode): FilterItemBody {
  const item: FilterItemBody = {
    filter: `${FILTER_PREFIX}${node.column}`,
    operator: node.operator,
    type: node.type,
    value: node.value,
  };
  // One child goes as `child_filter`, which every server reads (1.22 reads nothing else; newer ones take it as
  // the legacy form of `child_filters`); several need `child_filters`, which a 1.22 server drops unread.
  const [only, ...more] = node.children;
  if (only !== undefined && more.length === 0) item.child_filter = conditionToItem(only);
  else if (only !== undefined) item.child_filters = node.children.map(conditionToItem);
  return item;
}

export function orderingToKey(node: OrderingNode): string {
  return `${node.descending ? "-" : ""}${ORDER_PREFIX}${node.column}`;
}

/** The documented body `{ filters?, ordering?, selectedItems? }` of a Query value. */
export function toBody(query: QueryNode): QueryBody {
  const body: QueryBody = {};
  if (query.filters) {
    body.filters = { conjunction: query.filters.conjunction, items: query.filters.items.map(conditionToItem) };
  }
  if (query.ordering?.length) body.ordering = query.ordering.map(orderingToKey);
  const sel = query.selectedItems;
  if (sel) body.selectedItems = sel.all ? { all: true, excluded: [...sel.excluded] } : { all: false, included: [...sel.included] };
  if (query.columnsDisplayType) body.columnsDisplayType = { ...query.columnsDisplayType };
  return body;
}

/**
 * The `POST /api/dm/actions/?id=&project=[&view=]` request. With a view the server ignores the
 * body's filters, ordering and selection, so only the action's own fields are sent.
 */
export function toActionRequest(
  project: number,
  view: number | undefined,
  query: QueryNode,
  actionId: string,
  params: Record<string, JsonValue> | undefined,
): ActionRequest {
  const base = view === undefined ? (toBody(query) as Record<string, JsonValue>) : {};
  const body: Record<string, JsonValue> = { ...params, ...base };
  return Object.freeze({
    method: "POST" as const,
    path: ACTIONS_PATH,
    query: Object.freeze(view === undefined ? { id: actionId, project } : { id: actionId, project, view }),
    body,
  });
}

export const wireCompiler: QueryCompiler = Object.freeze({ toBody, toRequest: toActionRequest });
