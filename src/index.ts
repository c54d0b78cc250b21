/**
 * dmq — correct-by-construction Data Manager queries for Label Studio.
 *
 * - `selection(project)`: the type-state builder (src/query) over an immutable Query value;
 * - `parseQuery` / `parseQueryBody`: any real client's body back into that value (src/wire);
 * - `createClient`: the typed HTTP client (src/client);
 * - the vocabulary tables everything derives from (src/vocabulary).
 * The semantics engine is `dmq/semantics`; the mock server is `dmq/mock-server`.
 *
 * @module dmq
 */
export { selection } from "./selection.js";
export { customAction } from "./query/builder.js";
export { condition, isOrderKey, type Condition, type ConditionFactory } from "./query/condition.js";
export { QueryBuildError, rules, type Refused, type RuleName } from "./query/rules.js";
export type {
  AndSelection,
  AnyOperators,
  AnySelection,
  Binding,
  BoundSelection,
  ColumnArg,
  ColumnOperators,
  CustomAction,
  DataColumn,
  FilterState,
  FreshSelection,
  IdState,
  KnownColumn,
  OperatorMethodName,
  OrderKey,
  OrderState,
  OrSelection,
  ResumedSelection,
  ActionKey,
  Absent,
  ResultOf,
  Run,
  RunOptions,
  Scoped,
  ScopedSelection,
  Selection,
  SelectionState,
  Stateful,
  ToRequest,
  Untyped,
  Where,
} from "./query/types.js";
export type * from "./query/generated.js";
export {
  ACTIONS_PATH,
  FILTER_PREFIX,
  ORDER_PREFIX,
  type ActionRequest,
  type ConditionNode,
  type ExportedFile,
  type ExportOptions,
  type ExportRequest,
  type Conjunction,
  type FilterItemBody,
  type FiltersNode,
  type OrderingNode,
  type ProjectHandle,
  type QueryBody,
  type QueryNode,
  type SelectedItemsNode,
} from "./query/nodes.js";
export { toBody, toActionRequest } from "./wire/serialize.js";
export {
  parseQuery,
  parseQueryBody,
  type ParseContext,
  type ParseEndpoint,
  type ParseOptions,
  type ParseResult,
  type ServerAnswer,
} from "./wire/parse.js";
export { QueryParseError } from "./wire/errors.js";
export type { IssueEffect, ParseIssue } from "./wire/issues.js";
export * from "./client/index.js";
export {
  actions,
  actionIds,
  exportFormats,
  exportTypes,
  isExportType,
  isDestructive,
  columnKinds,
  columns,
  columnNames,
  dataKindByType,
  inListColumns,
  isNonEmpty,
  kindOf,
  operatorAliases,
  operatorNames,
  operators,
  valueShapes,
  valueTypes,
  type ActionId,
  type ActionParams,
  type ActionResult,
  type ActionResults,
  type DestructiveActionId,
  type ExportType,
  type ColumnKindName,
  type ColumnName,
  type DataTypeName,
  type DatetimeInput,
  type IsoDateString,
  type JsonValue,
  type EmptyListRefused,
  type NonEmpty,
  type NonEmptyList,
  type OperatorName,
  type ShapeInput,
  type ShapeName,
  type ValueTypeName,
} from "./vocabulary/index.js";
