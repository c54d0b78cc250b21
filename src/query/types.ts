import type { DataTypeName, dataKindByType } from "../vocabulary/column-kinds.js";
import type { NonEmptyList } from "../vocabulary/value-shapes.js";
import type { Run, ToRequest } from "./action-args.js";
import type { CheckColumn, CheckOrderKey, DataColumn, WhereKey, WhereNext } from "./columns.js";
import type { OfferedColumn, OfferedOrderKey, Untyped } from "./columns.js";
import type { OperatorsByKind, RefusedMembers } from "./generated.js";
import type { ExportedFile, ExportOptions, QueryBody, QueryNode } from "./nodes.js";
import type { ExportType } from "../vocabulary/export-formats.js";
import type { NotAny, NotAnyColumn, Refused, rules } from "./rules.js";
import type { AnyCondition, Condition } from "./condition-value.js";
import type { IsUnion } from "./unions.js";
import type {
  Binding,
  FilterState,
  IdState,
  OrderState,
  SelectionIsKey,
  SelectionState,
  SelectionStateKey,
  Stateful,
  StateWordsPart,
} from "./state.js";

/*
 * The public, type-state view of the builder. One runtime class implements every state (builder.ts);
 * these types decide which members are callable in which state (ts-pattern's approach: precise
 * public types over a simple runtime). A selection is a mapped type: its members and their
 * declarations come from tables of parts, one per state dimension, where a part holds either the
 * allowed member (documented once here) or the refused one (generated.ts: `@deprecated` with its
 * rule); a member's type is computed only when the member is used. Members name their next state;
 * the compiler caches each instantiation, so a long chain re-uses them.
 */

/**
 * `.where(column)` / `.and(column)` / `.or(column)` / `.child(column)`, then an operator method.
 * A mistyped column is refused with the right spelling and does not make the operator fail too.
 * A condition value (`condition(column).equal(…)`, or a plain `{ column, operator, value, type? }`
 * from a UI or a config file, checked at run time) is added as it is.
 */
export interface Where<in out D, out Next, out DataNext = Next, in Accepts = D> {
  <const Arg extends OfferedColumn<D> | AnyCondition | (string & {})>(
    this: NotAnyColumn<Arg>,
    column: CheckColumn<Arg, D, Accepts>,
  ): WhereNext<Arg, D, Next, DataNext>[WhereKey<Arg, D>];
  /** A data key compared as the given type (the filter's `type` drives the server's casting). */
  <T extends DataTypeName>(column: DataColumn<D>, type: T): OperatorsByKind<DataNext, unknown>[(typeof dataKindByType)[T]];
}

type Rules = typeof rules;
type R<M extends keyof RefusedMembers, Rule extends keyof RefusedMembers[M]> = RefusedMembers[M][Rule];

/*
 * Each refused member as an interface of its own (the generated declaration, `@deprecated` with its rule):
 * a state's parts are then named types only, which the compiler does not instantiate again.
 */
interface NoAllExcludingAfterIncluding extends R<"all", "excludingAfterIncluding"> {}
interface NoAllViewIgnoresBody extends R<"all", "viewIgnoresBody"> {}
interface NoAndConditionFirst extends R<"and", "conditionFirst"> {}
interface NoAndMixedAndAfterOr extends R<"and", "mixedAndAfterOr"> {}
interface NoAndViewIgnoresBody extends R<"and", "viewIgnoresBody"> {}
interface NoChildConditionFirst extends R<"child", "conditionFirst"> {}
interface NoChildViewIgnoresBody extends R<"child", "viewIgnoresBody"> {}
interface NoExcludingExcludingAfterIncluding extends R<"excluding", "excludingAfterIncluding"> {}
interface NoExcludingViewIgnoresBody extends R<"excluding", "viewIgnoresBody"> {}
interface NoExportExportNotBound extends R<"export", "exportNotBound"> {}
interface NoFromViewFromViewFresh extends R<"fromView", "fromViewFresh"> {}
interface NoIncludingIncludingAfterExcluding extends R<"including", "includingAfterExcluding"> {}
interface NoIncludingViewIgnoresBody extends R<"including", "viewIgnoresBody"> {}
interface NoOrConditionFirst extends R<"or", "conditionFirst"> {}
interface NoOrMixedOrAfterAnd extends R<"or", "mixedOrAfterAnd"> {}
interface NoOrViewIgnoresBody extends R<"or", "viewIgnoresBody"> {}
interface NoOrderByOrderedTwice extends R<"orderBy", "orderedTwice"> {}
interface NoOrderByViewIgnoresBody extends R<"orderBy", "viewIgnoresBody"> {}
interface NoRunNotBound extends R<"run", "notBound"> {}
interface NoWhereViewIgnoresBody extends R<"where", "viewIgnoresBody"> {}
interface NoWhereWhereTwice extends R<"where", "whereTwice"> {}
interface NoWhereAllViewIgnoresBody extends R<"whereAll", "viewIgnoresBody"> {}
interface NoWhereAllWhereTwice extends R<"whereAll", "whereTwice"> {}
interface NoWhereAnyViewIgnoresBody extends R<"whereAny", "viewIgnoresBody"> {}
interface NoWhereAnyWhereTwice extends R<"whereAny", "whereTwice"> {}
interface WhereMember<in out D, out Next> {
  /**
   * Start the filter set with a condition on `column`: `.where("tasks:total_annotations").equal(0)`.
   * Takes a condition value too: `condition(…)` or `{ column, operator, value, type? }` (checked at run time).
   */
  readonly where: Where<D, Next>;
}
/** What a list of optional conditions skips: what `flag && condition(…)` gives when the flag is falsy. */
export type Skipped = false | null | undefined | 0 | "";
interface WhereListMember<in out D, out I extends IdState, out O extends OrderState, out B extends Binding> {
  /**
   * Start the filter set with every condition of the list that is present, AND-ed: entries that are
   * `false`, `null`, `undefined`, `0` or `""` are skipped (`flag && condition(…)`), so filters from a
   * form need no `if`s. The compiler counts what is surely present: one or more gives an
   * `AndSelection`; none for sure leaves the set maybe empty, and destructive actions need `.all()`.
   */
  whereAll<const L extends readonly (Condition<D> | Skipped)[]>(
    this: NotAny<L, "whereList">,
    conditions: L,
  ): Selection<D, I, ListState<L, "and">, O, B>;
  /** Start the filter set with every condition of the list that is present, OR-ed (skipped entries as in `whereAll`). */
  whereAny<const L extends readonly (Condition<D> | Skipped)[]>(
    this: NotAny<L, "whereList">,
    conditions: L,
  ): Selection<D, I, ListState<L, "or">, O, B>;
}
/** The filter state after a list: how many conditions it surely holds (`Sure`) and may hold more (`Maybe`), up to 2. */
type ListState<L, J extends "and" | "or", Sure extends 0 | 1 | 2 = 0, Maybe extends 0 | 1 | 2 = 0> = L extends readonly [
  infer H,
  ...infer T,
]
  ? [Exclude<H, Skipped>] extends [never]
    ? ListState<T, J, Sure, Maybe>
    : [Extract<H, Skipped>] extends [never]
      ? ListState<T, J, Sure extends 0 ? 1 : 2, Maybe>
      : ListState<T, J, Sure, Maybe extends 0 ? 1 : 2>
  : L extends readonly []
    ? CountStates<J>[`${Sure}${Maybe}`]
    : [Exclude<L[number & keyof L], Skipped>] extends [never]
      ? CountStates<J>[`${Sure}${Maybe}`]
      : CountStates<J>[`${Sure}2`];
/**
 * The filter states a list may leave, by how many conditions it surely holds and may hold more (up to 2);
 * without `"first"` beside `J`, as `OneFilterState` leaves a union.
 */
interface CountStates<J> {
  "00": "none";
  "01": "none" | "first";
  "02": "none" | J;
  "10": "first";
  "11": J;
  "12": J;
  "20": J;
  "21": J;
  "22": J;
}

interface AndMember<in out D, out Next> {
  /** Add a filter line; every line of the set is AND-ed. */
  readonly and: Where<D, Next>;
}
interface OrMember<in out D, out Next> {
  /** Add a filter line; every line of the set is OR-ed. */
  readonly or: Where<D, Next>;
}
interface ChildMember<in out D, out Next> {
  /** AND a condition into the current line (the server's `child_filters`). */
  readonly child: Where<D, Next>;
}

/*
 * Which members a state allows, one table per dimension of the state: the member interfaces at
 * placeholder type arguments (`never`), or the refused members (generated.ts). Read for two things: a
 * member's declaration (doc comment, `readonly`, `@deprecated` with the rule of a refused member),
 * and whether it is refused (`Member`). No table has type parameters, so the compiler resolves each
 * entry once, for every task data and state; a selection's own types are in `MemberTypes`.
 */
interface FilterParts {
  none: WhereMember<never, never> &
    WhereListMember<never, never, never, never> &
    NoAndConditionFirst &
    NoOrConditionFirst &
    NoChildConditionFirst;
  first: NoWhereWhereTwice & WhereListRefused & AndMember<never, never> & OrMember<never, never> & ChildMember<never, never>;
  and: NoWhereWhereTwice & WhereListRefused & AndMember<never, never> & NoOrMixedOrAfterAnd & ChildMember<never, never>;
  or: NoWhereWhereTwice & WhereListRefused & NoAndMixedAndAfterOr & OrMember<never, never> & ChildMember<never, never>;
  unknown: WhereMember<never, never> &
    WhereListMember<never, never, never, never> &
    AndMember<never, never> &
    OrMember<never, never> &
    ChildMember<never, never>;
  view: NoWhereViewIgnoresBody &
    NoWhereAllViewIgnoresBody &
    NoWhereAnyViewIgnoresBody &
    NoAndViewIgnoresBody &
    NoOrViewIgnoresBody &
    NoChildViewIgnoresBody;
}
/** A table with one entry for every filter state but a view's, every id state, every order state. */
interface ByFilter<T, View> {
  none: T;
  first: T;
  and: T;
  or: T;
  unknown: T;
  view: View;
}
interface ByIds<T> {
  none: T;
  included: T;
  excluded: T;
  all: T;
  unknown: T;
}
interface ByOrder<T> {
  unordered: T;
  ordered: T;
  unknown: T;
}

interface IncludingMember<in out D, out F extends FilterState, out O extends OrderState, out B extends Binding> {
  /** Act only on these tasks (intersected with the filtered set): `{all: false, included}`. Repeated calls add ids. */
  readonly including: (ids: NonEmptyList<number, Rules["emptyIncluding"]>) => Selection<D, "included", F, O, B>;
}
interface ExcludingMember<in out D, out Next extends IdState, out F extends FilterState, out O extends OrderState, out B extends Binding> {
  /**
   * Act on every filtered task except these: `{all: true, excluded}`. Repeated calls add ids. Without
   * filters this still means "every task but these": destructive actions then need `.all()` too.
   */
  readonly excluding: (ids: readonly number[]) => Selection<D, Next, F, O, B>;
}
interface AllMember<in out D, out F extends FilterState, out O extends OrderState, out B extends Binding> {
  /**
   * Act on every filtered task, deliberately: `{all: true, excluded: []}`. The word that lets a destructive
   * action run on a selection without filters, ids or view.
   */
  readonly all: () => Selection<D, "all", F, O, B>;
}

type WhereListRefused = NoWhereAllWhereTwice & NoWhereAnyWhereTwice;
interface IdParts {
  none: IncludingMember<never, never, never, never> &
    ExcludingMember<never, never, never, never, never> &
    AllMember<never, never, never, never>;
  included: IncludingMember<never, never, never, never> & NoExcludingExcludingAfterIncluding & NoAllExcludingAfterIncluding;
  excluded: NoIncludingIncludingAfterExcluding & ExcludingMember<never, never, never, never, never> & AllMember<never, never, never, never>;
  all: NoIncludingIncludingAfterExcluding & ExcludingMember<never, never, never, never, never> & AllMember<never, never, never, never>;
  unknown: IncludingMember<never, never, never, never> &
    ExcludingMember<never, never, never, never, never> &
    AllMember<never, never, never, never>;
}
type IdsRefusedByView = NoIncludingViewIgnoresBody & NoExcludingViewIgnoresBody & NoAllViewIgnoresBody;
interface IdPartsByFilter extends ByFilter<IdParts, ByIds<IdsRefusedByView>> {}
/** What `.excluding()` leaves, by id state (it keeps `.all()`). */
interface ExcludingNext {
  none: "excluded";
  included: "excluded";
  excluded: "excluded";
  all: "all";
  unknown: "excluded";
}

interface OrderByMember<in out D, out I extends IdState, out F extends FilterState, out B extends Binding> {
  /** Order by one column; a leading `-` sorts descending. NULLs come last either way. */
  orderBy<const K extends OfferedOrderKey<D> | (string & {})>(key: CheckOrderKey<K, D>): Selection<D, I, F, "ordered", B>;
}
interface OrderParts {
  unordered: OrderByMember<never, never, never, never>;
  ordered: NoOrderByOrderedTwice;
  unknown: OrderByMember<never, never, never, never>;
}
interface OrderPartsByFilter extends ByFilter<OrderParts, ByOrder<NoOrderByViewIgnoresBody>> {}

interface FromViewMember<in out D, out B extends Binding> {
  /** Take filters, ordering and selected ids from a saved view (`?view=`); the body is then ignored. */
  readonly fromView: (view: number) => Selection<D, "none", "view", "unordered", B>;
}
/** `.fromView()` only on a fresh selection: no filters, no ids, no ordering. */
interface FromViewByIds {
  none: FromViewByOrder;
  included: ByOrder<NoFromViewFromViewFresh>;
  excluded: ByOrder<NoFromViewFromViewFresh>;
  all: ByOrder<NoFromViewFromViewFresh>;
  unknown: FromViewByOrder;
}
interface FromViewByOrder {
  unordered: FromViewMember<never, never>;
  ordered: NoFromViewFromViewFresh;
  unknown: FromViewMember<never, never>;
}
type NotFresh = ByIds<ByOrder<NoFromViewFromViewFresh>>;
interface FromViewParts {
  none: FromViewByIds;
  first: NotFresh;
  and: NotFresh;
  or: NotFresh;
  unknown: FromViewByIds;
  view: NotFresh;
}

interface RunMember {
  /**
   * Perform an action on this selection through the client the project handle came from:
   * `.run(action, params?, options?)`. Destructive actions need filters, ids, a view or `.all()`.
   */
  readonly run: Run;
}
interface ExportMember {
  /**
   * Export exactly the tasks this selection selects, through the server's own mechanism: a snapshot
   * of a saved view (the selection's view, or one made for it and removed afterwards), downloaded in
   * `format` (default "JSON"). `.export(format?, options?)`; see docs/exports.md.
   */
  export(format?: ExportType, options?: ExportOptions): Promise<ExportedFile>;
}
interface BindingMembers {
  bound: RunMember & ExportMember;
  unbound: NoRunNotBound & NoExportExportNotBound;
}

/** The members of every selection whose types do not depend on its state. */
interface SelectionBasics {
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
}
interface SelectionCore<in out D, out I extends IdState, out F extends FilterState, out O extends OrderState, out B extends Binding>
  extends SelectionBasics {
  /** Compile-time only: the state this selection is in. */
  readonly [selectionState]: SelectionState<I, F, O, D, B>;
  /**
   * `then(this)` when `condition` holds, else this selection (Kysely's `$if`). The result's state is
   * either outcome, so a step is offered next only if both allow it.
   */
  $if<Then extends Stateful<D, B>>(
    this: NotAny<Then, "$if">,
    condition: boolean,
    then: (selection: Selection<D, I, F, O, B>) => Then,
  ): Selection<
    D,
    I | Then[SelectionStateKey]["ids"],
    OneFilterState<F | Then[SelectionStateKey]["filters"]>,
    O | Then[SelectionStateKey]["order"],
    B
  >;
  /** `fn(this)`: run a reusable step inside a chain (Kysely's `$call`). */
  $call<T>(this: NotAny<T, "$call">, fn: (selection: Selection<D, I, F, O, B>) => T): T;
}
declare const selectionState: SelectionStateKey;
/**
 * A union of filter states without the states it adds nothing to: `"first"` takes every step that
 * `"and"` or `"or"` takes and leads to the same states, so `"first" | "and"` is `"and"`. Keeps the
 * states fewer (cheaper to check) and the types shorter to read.
 */
type OneFilterState<F extends FilterState> = "first" extends F ? ([Extract<F, "and" | "or">] extends [never] ? F : Exclude<F, "first">) : F;

/**
 * A Data Manager selection of one project's tasks. Immutable: every call returns a new selection.
 * @typeParam D task-data type for `tasks:data.<key>` columns
 * @typeParam I which task ids it names (`IdState`)
 * @typeParam F its filter set (`FilterState`)
 * @typeParam O whether it is ordered (`OrderState`)
 * @typeParam B whether `.run()` is available (`Binding`)
 */
export type Selection<
  in out D = Untyped,
  out I extends IdState = "none",
  out F extends FilterState = "none",
  out O extends OrderState = "unordered",
  out B extends Binding = "unbound",
> = SelectionOf<D, I, F, O, B, MemberName>;
/** Every member name: the same in every state (a state refuses a member, it does not remove it). */
type MemberName = keyof Parts<"none", "none", "unordered", "unbound">;
/**
 * What `Parts` holds whatever the state: any key. Its index signatures of type `any` make the check of a
 * state's parts against it trivial (no member is read), and they are all a selection generic over its state
 * has of its parts (see there).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- `any`, not `unknown`: the relation check skips an `any` index signature
type AnyKeys = { [key: string]: any; [key: symbol]: any };
/*
 * The mapped type of `Selection`. Its keys are `P`, a fixed list (`MemberName`), not `keyof Parts<I, F, O, B>`:
 * for a selection generic over `I`, `O` or `B` (a helper's parameter), those keys would be read from the
 * constraint of every part. `P`'s constraint `keyof Parts<I, F, O, B>` still gives each member its declaration
 * (docs, readonly, @deprecated) from the state's parts.
 */
type SelectionOf<
  D,
  I extends IdState,
  F extends FilterState,
  O extends OrderState,
  B extends Binding,
  P extends keyof Parts<I, F, O, B>,
> = {
  // The members whose types depend on the state through `MemberTypes`; the members every state has alike, and the
  // state itself, need no member table (nor its refusal check): comparing a selection with an alias such as
  // `AnySelection` reads only those. (Testing the state's members first measured fewer instantiations.)
  [K in P]: K extends keyof MemberTypes<D, I, F, O, B>
    ? MemberTypes<D, I, F, O, B>[K]
    : K extends keyof SelectionBasics
      ? SelectionBasics[K]
      : K extends SelectionStateKey
        ? SelectionState<I, F, O, D, B>
        : never;
};

/**
 * The members of a selection in a state, for their declarations; a union of states gives the
 * members they share. The state in words comes first, so that a mismatch is explained by it.
 * A conditional type that never holds, so that the compiler keeps one intersection per state: the
 * mapped type reads `Parts` twice (its keys and its modifiers), and an intersection alias is built
 * again at each instantiation, where a conditional one is cached by its type arguments. The test is a
 * union, not a tuple (fewer instantiations, and no tuple comparison per state); `F` is in it as a whole
 * (not naked: a union of filter states is one `Parts`), and `FilterState` is named in the test so
 * that its literals exist before the member names that are the same words (`"and"`, `"or"`): a union
 * of filter states then prints in declaration order (`"first" | "and"`). `SelectionIsKey` is named first
 * for the same reason: `MemberName` is a union, whose members (and so a selection's) are listed in the
 * order the compiler made their key types, and a mismatch is explained by the first member that differs:
 * the state in words must come before `"and"`, `"or"`, `"all"` (also state literals) and the rest. That
 * is TypeScript 6, and only when it meets these names in dmq's declarations first: with `skipLibCheck:
 * false` lib.dom.d.ts's `"all"` comes earlier (docs/builder.md; `stableTypeOrdering` gives 7's order).
 * TypeScript 7 orders members by their declarations' files and positions instead (state.ts).
 * The intersection then goes through `infer X extends AnyKeys`, for a selection generic over its state (a
 * helper's parameter, `AndSelection<D, B, I, O>`): there the inner test is deferred, and the compiler reads
 * the members' declarations from its constraint, which is `X`'s, `AnyKeys` (no member to read), instead
 * of the parts of every state the selection may be in (a union of intersections: a generic selection's
 * first member access cost hundreds of property merges). A concrete state's parts pass the test as they
 * are. Its parts are named interfaces only (`never` rather than an alias as placeholder argument, refusals
 * as `No…` interfaces): the test instantiates them again, which costs nothing for a type that cannot
 * hold a type variable. (Measured on the mixed bench file: the four helpers 17.5 -> 9.9 ms warm, the
 * whole file 94 -> 87 ms.)
 */
type Parts<I extends IdState, F extends FilterState, O extends OrderState, B extends Binding> =
  | SelectionIsKey
  | F
  | FilterState extends never
  ? never
  : StateWordsPart<never, never, never, never, never> &
        FilterParts[F] &
        FromViewParts[F][I][O] &
        IdPartsByFilter[F][I] &
        OrderPartsByFilter[F][O] &
        BindingMembers[B] &
        SelectionCore<never, never, never, never, never> extends infer X extends AnyKeys
    ? X
    : never;

/** A member refused by its part of the state is that refusal; an allowed one has its own type `T`. */
type Member<Part, T> = Part extends Refused<string> ? Part : T;

declare const selectionIs: SelectionIsKey;
/**
 * The type of each member of a selection, read only when the member is used: its part of the state
 * says whether it is refused, its member interface gives its type at the selection's type arguments.
 */
interface MemberTypes<in out D, out I extends IdState, out F extends FilterState, out O extends OrderState, out B extends Binding> {
  [selectionIs]: StateWordsPart<D, I, F, O, B>[SelectionIsKey];
  where: Member<FilterParts[F]["where"], WhereMember<D, Selection<D, I, "first", O, B>>["where"]>;
  whereAll: Member<FilterParts[F]["whereAll"], WhereListMember<D, I, O, B>["whereAll"]>;
  whereAny: Member<FilterParts[F]["whereAny"], WhereListMember<D, I, O, B>["whereAny"]>;
  and: Member<FilterParts[F]["and"], AndMember<D, Selection<D, I, "and", O, B>>["and"]>;
  or: Member<FilterParts[F]["or"], OrMember<D, Selection<D, I, "or", O, B>>["or"]>;
  child: Member<FilterParts[F]["child"], ChildMember<D, Selection<D, I, F, O, B>>["child"]>;
  fromView: Member<FromViewParts[F][I][O]["fromView"], FromViewMember<D, B>["fromView"]>;
  including: Member<IdPartsByFilter[F][I]["including"], IncludingMember<D, F, O, B>["including"]>;
  excluding: Member<IdPartsByFilter[F][I]["excluding"], ExcludingMember<D, ExcludingNext[I], F, O, B>["excluding"]>;
  all: Member<IdPartsByFilter[F][I]["all"], AllMember<D, F, O, B>["all"]>;
  orderBy: Member<OrderPartsByFilter[F][O]["orderBy"], OrderByMember<D, I, F, B>["orderBy"]>;
  run: BindingMembers[B]["run"];
  export: BindingMembers[B]["export"];
  $if: SelectionCore<D, I, F, O, B>["$if"];
  $call: SelectionCore<D, I, F, O, B>["$call"];
}

/*
 * The aliases below that hold selections of any state are small structural interfaces: checking a
 * selection against one compares a few members, not every member of every state.
 */

/**
 * Any selection, in any state, of any task data (or of `D`), bound or not: a parameter type for code
 * that reads or serialises one. Non-destructive actions only (`toRequest`); `selection.from` resumes it.
 */
export interface AnySelection<out D = unknown> {
  /** Compile-time only: the state this selection may be in. */
  readonly [selectionState]: SelectionState<IdState, FilterState, OrderState, D, Binding>;
  /** The documented body `{ filters?, ordering?, selectedItems? }`. */
  toJSON(): QueryBody;
  /** The plain Query value behind this selection. */
  toQuery(): QueryNode;
  /** The request for an action on this selection; destructive actions need a `ScopedSelection`. */
  readonly toRequest: ToRequest;
  readonly project: number;
  readonly view: number | undefined;
}
/** Any client-bound selection: `.run()` takes every action but the destructive ones. */
export interface BoundSelection<out D = unknown> extends AnySelection<D> {
  readonly [selectionState]: SelectionState<IdState, FilterState, OrderState, D, "bound">;
  /** Perform a non-destructive action; destructive ones need a `ScopedSelection<D, "bound">`. */
  readonly run: Run;
}
/**
 * A selection limited by filters, included ids or a view, or that said `.all()`: destructive actions
 * may run on it (`.run()` when `B` is `"bound"`).
 */
export interface ScopedSelection<out D = unknown, out B extends Binding = Binding> extends AnySelection<D> {
  readonly [selectionState]: SelectionState<IdState, FilterState, OrderState, D, B, true>;
  /** Perform an action, destructive ones included (on a bound selection). */
  readonly run: BindingMembers[B]["run"];
}
/*
 * `Generic<D, T>` is `T`. Written as a conditional on `D`, it stays unresolved while `D` is a type
 * parameter, so the compiler infers a generic helper's `D` and `B` from `Selection`'s own type
 * arguments (an alias of an alias would hide them behind its own name).
 */
type Generic<D, T> = [D] extends [unknown] ? T : never;

/** A selection as `selection(project)` returns it (bound or not unless `B` says). */
export type FreshSelection<D = Untyped, B extends Binding = Binding> = Generic<D, Selection<D, "none", "none", "unordered", B>>;
/**
 * A filter set that takes `.and()` and `.child()` next (after `.where()` or `.and()`): the type to fold
 * conditions into. Bound or not unless `B` says (`AndSelection<D, "bound">` keeps `.run()`).
 */
export type AndSelection<
  D = Untyped,
  B extends Binding = Binding,
  I extends IdState = "none",
  O extends OrderState = "unordered",
> = Generic<D, Selection<D, I, "first" | "and", O, B>>;
/** A filter set that takes `.or()` and `.child()` next (after `.where()` or `.or()`). */
export type OrSelection<D = Untyped, B extends Binding = Binding, I extends IdState = "none", O extends OrderState = "unordered"> = Generic<
  D,
  Selection<D, I, "first" | "or", O, B>
>;
/**
 * What `selection.from(project, s)` returns for a selection `s`: its task data and state where the
 * compiler knows them exactly, `"unknown"` (each next step checked at run time) where `s` may be in
 * several states (an `AnySelection`, a `$if` result).
 */
export type FromSelection<S extends Stateful, B extends Binding> = 0 extends 1 & S
  ? ResumedSelection<Untyped, B>
  : Selection<
      unknown extends S[SelectionStateKey]["data"] ? Untyped : S[SelectionStateKey]["data"],
      Exact<S[SelectionStateKey]["ids"]>,
      Exact<S[SelectionStateKey]["filters"]>,
      Exact<S[SelectionStateKey]["order"]>,
      B
    >;
type Exact<T> = IsUnion<T> extends true ? "unknown" : T;

/** A selection resumed at run time (`selection.from`): each next step is checked at run time, then typed again. */
export type ResumedSelection<D = Untyped, B extends Binding = Binding> = Generic<D, Selection<D, "unknown", "unknown", "unknown", B>>;

export type { Binding, FilterState, IdState, OrderState, Scoped, SelectionState, Stateful } from "./state.js";
export type { ColumnArg, DataColumn, KnownColumn, OrderKey, Untyped } from "./columns.js";
export type { AnyOperators, ColumnOperators, OperatorMethodName } from "./columns.js";
export type { Absent, ActionKey, CustomAction, ResultOf, Run, ToRequest } from "./action-args.js";
export type { ExportedFile, ExportOptions, RunOptions } from "./nodes.js";
