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
