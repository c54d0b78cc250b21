import type { DataTypeName, dataKindByType } from "../vocabulary/column-kinds.js";
import type { NonEmptyList } from "../vocabulary/value-shapes.js";
import type { Run, ToRequest } from "./action-args.js";
import type { AnyOperators, CheckColumn, CheckOrderKey, ColumnArg, ColumnOperators, DataColumn } from "./columns.js";
import type { OfferedColumn, OfferedOrderKey, Untyped } from "./columns.js";
import type { OperatorsByKind, RefusedMembers } from "./generated.js";
import type { QueryBody, QueryNode } from "./nodes.js";
import type { rules } from "./rules.js";
import type { Binding, FilterState, IdState, OrderState, SelectionState, SelectionStateKey, Stateful } from "./state.js";

/*
 * The public, type-state view of the builder. One runtime class implements every state (builder.ts);
 * these types decide which members are callable in which state (ts-pattern's approach: precise
 * public types over a simple runtime). A selection is an intersection of parts, one per state
 * dimension; a part holds either the allowed member (documented once here) or the refused one
 * (generated.ts: `@deprecated` with its rule). Members name their next state; the compiler caches
 * each instantiation, so a long chain re-uses them.
 */

/**
 * One condition as a value: a column, an operator (wire name `greater_or_equal` or method name
 * `greaterOrEqual`), its value and, for `tasks:data.<key>`, an optional type. `condition(column)`
 * builds one with the compiler's checks; one read from a UI or a config file is checked at run time
 * when `.where()`, `.and()`, `.or()` or `.child()` adds it.
 */
export interface Condition {
  readonly column: string;
  readonly operator: string;
  readonly value: unknown;
  readonly type?: string | undefined;
}

/**
 * `.where(column)` / `.and(column)` / `.or(column)` / `.child(column)`, then an operator method.
 * A mistyped column is refused with the right spelling and does not make the operator fail too.
 * A condition value (`condition(column).equal(…)`, or a plain `{ column, operator, value, type? }`
 * from a UI or a config file, checked at run time) is added as it is.
 */
export interface Where<D, Next> {
  <const Arg extends OfferedColumn<D> | Condition | (string & {})>(
    column: CheckColumn<Arg, D>,
  ): [Arg] extends [string] ? ([Arg] extends [ColumnArg<D>] ? ColumnOperators<Arg, D, Next> : AnyOperators<Next>) : Next;
  /** A data key compared as the given type (the filter's `type` drives the server's casting). */
  <T extends DataTypeName>(column: DataColumn<D>, type: T): OperatorsByKind<Next, unknown>[(typeof dataKindByType)[T]];
}

type Rules = typeof rules;
type R<M extends keyof RefusedMembers, Rule extends keyof RefusedMembers[M]> = RefusedMembers[M][Rule];

interface WhereMember<D, I extends IdState, O extends OrderState, B extends Binding> {
  /**
   * Start the filter set with a condition on `column`: `.where("tasks:total_annotations").equal(0)`.
   * Takes a condition value too: `condition(…)` or `{ column, operator, value, type? }` (checked at run time).
   */
  readonly where: Where<D, Selection<D, I, "first", O, B>>;
}
interface AndMember<D, I extends IdState, O extends OrderState, B extends Binding> {
  /** Add a filter line; every line of the set is AND-ed. */
  readonly and: Where<D, Selection<D, I, "and", O, B>>;
}
interface OrMember<D, I extends IdState, O extends OrderState, B extends Binding> {
  /** Add a filter line; every line of the set is OR-ed. */
  readonly or: Where<D, Selection<D, I, "or", O, B>>;
}
interface ChildMember<D, I extends IdState, F extends FilterState, O extends OrderState, B extends Binding> {
  /** AND a condition into the current line (the server's `child_filters`). */
  readonly child: Where<D, Selection<D, I, F, O, B>>;
}

interface FilterMembers<D, I extends IdState, O extends OrderState, B extends Binding> {
  none: WhereMember<D, I, O, B> & R<"and", "conditionFirst"> & R<"or", "conditionFirst"> & R<"child", "conditionFirst">;
  first: R<"where", "whereTwice"> & AndMember<D, I, O, B> & OrMember<D, I, O, B> & ChildMember<D, I, "first", O, B>;
  and: R<"where", "whereTwice"> & AndMember<D, I, O, B> & R<"or", "mixedOrAfterAnd"> & ChildMember<D, I, "and", O, B>;
  or: R<"where", "whereTwice"> & R<"and", "mixedAndAfterOr"> & OrMember<D, I, O, B> & ChildMember<D, I, "or", O, B>;
  unknown: WhereMember<D, I, O, B> & AndMember<D, I, O, B> & OrMember<D, I, O, B> & ChildMember<D, I, "unknown", O, B>;
}

interface IncludingMember<D, F extends FilterState, O extends OrderState, B extends Binding> {
  /** Act only on these tasks (intersected with the filtered set): `{all: false, included}`. Repeated calls add ids. */
  readonly including: (ids: NonEmptyList<number, Rules["emptyIncluding"]>) => Selection<D, "included", F, O, B>;
}
interface ExcludingMember<D, Next extends IdState, F extends FilterState, O extends OrderState, B extends Binding> {
  /**
   * Act on every filtered task except these: `{all: true, excluded}`. Repeated calls add ids. Without
   * filters this still means "every task but these": destructive actions then need `.all()` too.
   */
  readonly excluding: (ids: readonly number[]) => Selection<D, Next, F, O, B>;
}
interface AllMember<D, F extends FilterState, O extends OrderState, B extends Binding> {
  /**
   * Act on every filtered task, deliberately: `{all: true, excluded: []}`. The word that lets a destructive
   * action run on a selection without filters, ids or view.
   */
  readonly all: () => Selection<D, "all", F, O, B>;
}

interface IdMembers<D, F extends FilterState, O extends OrderState, B extends Binding> {
  none: IncludingMember<D, F, O, B> & ExcludingMember<D, "excluded", F, O, B> & AllMember<D, F, O, B>;
  included: IncludingMember<D, F, O, B> & R<"excluding", "excludingAfterIncluding"> & R<"all", "excludingAfterIncluding">;
  excluded: R<"including", "includingAfterExcluding"> & ExcludingMember<D, "excluded", F, O, B> & AllMember<D, F, O, B>;
  all: R<"including", "includingAfterExcluding"> & ExcludingMember<D, "all", F, O, B> & AllMember<D, F, O, B>;
  unknown: IncludingMember<D, F, O, B> & ExcludingMember<D, "excluded", F, O, B> & AllMember<D, F, O, B>;
}

interface OrderByMember<D, I extends IdState, F extends FilterState, B extends Binding> {
  /** Order by one column; a leading `-` sorts descending. NULLs come last either way. */
  orderBy<const K extends OfferedOrderKey<D> | (string & {})>(key: CheckOrderKey<K, D>): Selection<D, I, F, "ordered", B>;
}
interface OrderMembers<D, I extends IdState, F extends FilterState, B extends Binding> {
  unordered: OrderByMember<D, I, F, B>;
  ordered: R<"orderBy", "orderedTwice">;
  unknown: OrderByMember<D, I, F, B>;
}

type ViewBody = R<"where", "viewIgnoresBody"> &
  R<"and", "viewIgnoresBody"> &
  R<"or", "viewIgnoresBody"> &
  R<"child", "viewIgnoresBody"> &
  R<"orderBy", "viewIgnoresBody"> &
  R<"including", "viewIgnoresBody"> &
  R<"excluding", "viewIgnoresBody"> &
  R<"all", "viewIgnoresBody">;

type Body<D, I extends IdState, F extends FilterState, O extends OrderState, B extends Binding> = F extends "view"
  ? ViewBody
  : FilterMembers<D, I, O, B>[Exclude<F, "view">] & IdMembers<D, F, O, B>[I] & OrderMembers<D, I, F, B>[O];

interface FromViewMember<D, B extends Binding> {
  /** Take filters, ordering and selected ids from a saved view (`?view=`); the body is then ignored. */
  readonly fromView: (view: number) => Selection<D, "none", "view", "unordered", B>;
}
/** Distributive over each dimension, so a union of states gets a union of members. */
type FromViewPart<D, I, F, O, B extends Binding> = F extends "none" | "unknown"
  ? I extends "none" | "unknown"
    ? O extends "unordered" | "unknown"
      ? FromViewMember<D, B>
      : R<"fromView", "fromViewFresh">
    : R<"fromView", "fromViewFresh">
  : R<"fromView", "fromViewFresh">;

interface RunMember {
  /**
   * Perform an action on this selection through the client the project handle came from:
   * `.run(action, params?, options?)`. Destructive actions need filters, ids, a view or `.all()`.
   */
  readonly run: Run;
}
interface BindingMembers {
  bound: RunMember;
  unbound: R<"run", "notBound">;
}

interface SelectionCore<D, I extends IdState, F extends FilterState, O extends OrderState, B extends Binding> {
  /** Compile-time only: the state this selection is in. */
  readonly [selectionState]: SelectionState<I, F, O>;
  /** The documented body `{ filters?, ordering?, selectedItems? }`; `JSON.stringify(selection)` uses it. */
  toJSON(): QueryBody;
  /** The plain Query value behind this selection. */
  toQuery(): QueryNode;
  /**
   * The `POST /api/dm/actions/` request for an action on this selection: `.toRequest(action, params?)`.
   * Destructive actions need filters, ids, a view or `.all()`.
   */
  readonly toRequest: ToRequest;
  readonly project: number;
  readonly view: number | undefined;
  /**
   * `then(this)` when `condition` holds, else this selection (Kysely's `$if`). The result's state is
   * either outcome, so a step is offered next only if both allow it.
   */
  $if<Then extends Stateful>(
    condition: boolean,
    then: (selection: this) => Then,
  ): Selection<D, I | Then[SelectionStateKey]["ids"], F | Then[SelectionStateKey]["filters"], O | Then[SelectionStateKey]["order"], B>;
  /** `fn(this)`: run a reusable step inside a chain (Kysely's `$call`). */
  $call<T>(fn: (selection: this) => T): T;
}
declare const selectionState: SelectionStateKey;

/**
 * A Data Manager selection of one project's tasks. Immutable: every call returns a new selection.
 * @typeParam D task-data type for `tasks:data.<key>` columns
 * @typeParam I which task ids it names (`IdState`)
 * @typeParam F its filter set (`FilterState`)
 * @typeParam O whether it is ordered (`OrderState`)
 * @typeParam B whether `.run()` is available (`Binding`)
 */
export type Selection<
  D = Untyped,
  I extends IdState = "none",
  F extends FilterState = "none",
  O extends OrderState = "unordered",
  B extends Binding = "unbound",
> = Body<D, I, F, O, B> & FromViewPart<D, I, F, O, B> & BindingMembers[B] & SelectionCore<D, I, F, O, B>;

/** Any selection, in any state: a parameter type for code that only reads or serialises one. */
export type AnySelection<D = Untyped> = Selection<D, IdState, FilterState, OrderState, Binding>;
/** Any client-bound selection: `.run()` takes every action but the destructive ones. */
export type BoundSelection<D = Untyped> = Selection<D, IdState, FilterState, OrderState, "bound">;
/** A selection limited by filters, included ids or a view, or that said `.all()`: destructive actions may run on it. */
export type ScopedSelection<D = Untyped, B extends Binding = Binding> =
  | Selection<D, IdState, "first" | "and" | "or" | "view" | "unknown", OrderState, B>
  | Selection<D, "included" | "all" | "unknown", FilterState, OrderState, B>;
/** A selection as `selection(project)` returns it. */
export type FreshSelection<D = Untyped, B extends Binding = "unbound"> = Selection<D, "none", "none", "unordered", B>;
/** A filter set that takes `.and()` next (after `.where()` or `.and()`): the type to fold conditions into. */
export type AndSelection<
  D = Untyped,
  B extends Binding = "unbound",
  I extends IdState = "none",
  O extends OrderState = "unordered",
> = Selection<D, I, "first" | "and", O, B>;
/** A filter set that takes `.or()` next (after `.where()` or `.or()`). */
export type OrSelection<
  D = Untyped,
  B extends Binding = "unbound",
  I extends IdState = "none",
  O extends OrderState = "unordered",
> = Selection<D, I, "first" | "or", O, B>;
/** A selection resumed at run time (`selection.from`): each next step is checked at run time, then typed again. */
export type ResumedSelection<D = Untyped, B extends Binding = "unbound"> = Selection<D, "unknown", "unknown", "unknown", B>;

export type { Binding, FilterState, IdState, OrderState, Scoped, SelectionState, Stateful } from "./state.js";
export type { ColumnArg, DataColumn, KnownColumn, OrderKey, Untyped } from "./columns.js";
export type { AnyOperators, ColumnOperators, OperatorMethodName } from "./columns.js";
export type { Absent, ActionKey, CustomAction, ResultOf, Run, ToRequest } from "./action-args.js";
export type { RunOptions } from "./nodes.js";
