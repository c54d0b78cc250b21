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

/** Filter states that limit the tasks (a view limits them by its own filters and ids). */
type ScopingFilters = "first" | "and" | "or" | "view" | "unknown";
/** Id states that limit the tasks, or say "every task" deliberately (`.all()`). */
type ScopingIds = "included" | "all" | "unknown";

/**
 * Whether a destructive action may run: the selection has filters, included ids or a view, or said
 * `.all()`. Distributive, so a union of states gives `boolean` and only a sure `true` lets it run.
 */
export type Scoped<I, F> = F extends ScopingFilters ? true : I extends ScopingIds ? true : false;

declare const selectionState: unique symbol;
/** Compile-time only: where the state of a selection is read from (no such property exists at run time). */
export type SelectionStateKey = typeof selectionState;

/** The state of a selection, as the compiler reads it (`Stateful`). */
export interface SelectionState<I, F, O> {
  readonly ids: I;
  readonly filters: F;
  readonly order: O;
  readonly scoped: Scoped<I, F>;
}

/** Anything with a selection state: what `.run()`, `.toRequest()` and `$if` read it from. */
export interface Stateful {
  readonly [selectionState]: SelectionState<IdState, FilterState, OrderState>;
}
