/*
 * The type-state of a selection, one self-describing literal per dimension. "unknown" is the state
 * of a selection resumed from a body at run time (`selection.from`): every step is allowed by the
 * compiler and checked at run time, and the steps after it are typed again.
 */

/** Which task ids a selection names: none, `.including()`, `.excluding()` alone, `.all()` (with or without excluded ids). */
export type IdState = "none" | "included" | "excluded" | "all" | "unknown";
/** The filter set: no condition, one condition, an AND chain, an OR chain, a saved view's, or unknown. */
export type FilterState = "none" | "first" | "and" | "or" | "view" | "unknown";
/** Whether `.orderBy()` was called. */
export type OrderState = "unordered" | "ordered" | "unknown";
/** Whether `.run()` can perform actions: `selection(client.project(id))` is bound, `selection(id)` is not. */
export type Binding = "unbound" | "bound";

/** Whether the ids limit the tasks, or say "every task" deliberately (`.all()`). */
interface ScopedByIds {
  none: false;
  included: true;
  excluded: false;
  all: true;
  unknown: true;
}
/** Whether the filter set limits the tasks (a view limits them by its own filters and ids); if not, the ids decide. */
interface ScopedByFilter<I extends IdState> {
  none: ScopedByIds[I];
  first: true;
  and: true;
  or: true;
  view: true;
  unknown: true;
}

/**
 * Whether a destructive action may run: the selection has filters, included ids or a view, or said
 * `.all()`. A union of states gives `boolean`, and only a sure `true` lets it run. (Lookups, not
 * conditional types: the compiler resolves them with fewer instantiations.)
 */
export type Scoped<I extends IdState, F extends FilterState> = ScopedByFilter<I>[F];

declare const selectionState: unique symbol;
/** Compile-time only: where the state of a selection is read from (no such property exists at run time). */
export type SelectionStateKey = typeof selectionState;

/**
 * The state of a selection, as the compiler reads it (`Stateful`): its ids, filter set and order,
 * whether a destructive action may run, and the task-data type and binding it was made with.
 */
export interface SelectionState<
  out I extends IdState,
  out F extends FilterState,
  out O,
  out D = unknown,
  out B = Binding,
  out S = Scoped<I, F>,
> {
  readonly ids: I;
  readonly filters: F;
  readonly order: O;
  readonly scoped: S;
  readonly data: D;
  readonly binding: B;
}

/**
 * Anything with a selection state: what `.run()`, `.toRequest()` and `$if` read it from; `$if` asks
 * for a selection of the same task data and binding.
 */
export interface Stateful<out D = unknown, out B extends Binding = Binding> {
  readonly [selectionState]: SelectionState<IdState, FilterState, OrderState, D, B>;
}

// A mismatch is explained by the first member that differs. TypeScript 6 compares them in the order their key types were
// made (types.ts, `Parts`); TypeScript 7 in the order of their declarations' files and positions, and generated.ts (the
// refusals) names this file first, so `[selectionIs]` comes first there too.
declare const selectionIs: unique symbol;
/** Compile-time only: where a state mismatch is put into words (no such property exists at run time). */
export type SelectionIsKey = typeof selectionIs;

/**
 * The words of each state. A selection that does not fit a variable's or a parameter's type is
 * explained by these first (`Type '"an AND chain …"' is not assignable to type '"one condition …:
 * … declare it as AndSelection …"'`), rather than by whichever member differs first.
 */
export const stateWords = {
  filters: {
    none: "no filters, a fresh selection: to add a condition only sometimes, use $if",
    first: "one condition, .where(): to hold one with more conditions too, declare it as AndSelection or OrSelection, or use $if",
    and: "an AND chain, .where().and(): to hold one with a single condition too, declare it as AndSelection, or use $if",
    or: "an OR chain, .where().or(): to hold one with a single condition too, declare it as OrSelection, or use $if",
    view: "a saved view's selection, .fromView()",
    unknown: "filters resumed at run time, selection.from()",
  },
  ids: {
    none: "no task ids: to add ids only sometimes, use $if",
    included: "only the tasks given to .including()",
    excluded: "every task but those given to .excluding()",
    all: "every task, said with .all()",
    unknown: "task ids resumed at run time, selection.from()",
  },
  order: {
    unordered: "not ordered: to order only sometimes, use $if",
    ordered: "ordered, .orderBy()",
    unknown: "an ordering resumed at run time, selection.from()",
  },
  binding: {
    unbound: "not bound to a client, selection(id): the aliases take bound and unbound ones unless their B says",
    bound: "bound to a client, selection(client.project(id))",
  },
} as const satisfies {
  filters: Record<FilterState, string>;
  ids: Record<IdState, string>;
  order: Record<OrderState, string>;
  binding: Record<Binding, string>;
};
type Words = typeof stateWords;

/** The part of a selection that puts its state into words; an object literal type, so that a mismatch is explained member by member. */
export interface StateWordsPart<out D, out I extends IdState, out F extends FilterState, out O extends OrderState, out B extends Binding> {
  /** Compile-time only: the state in words, for compile errors. */
  readonly [selectionIs]: {
    readonly filters: Words["filters"][F];
    readonly ids: Words["ids"][I];
    readonly order: Words["order"][O];
    readonly binding: Words["binding"][B];
    readonly data: D;
  };
}
