/**
 * One condition as a value: a column, an operator (wire name `greater_or_equal` or method name
 * `greaterOrEqual`), its value and, for `tasks:data.<key>`, an optional type. `condition(column)`
 * builds one with the compiler's checks; one read from a UI or a config file is checked at run time
 * when `.where()`, `.and()`, `.or()` or `.child()` adds it.
 */
export interface Condition<in D = unknown> {
  readonly column: string;
  readonly operator: string;
  readonly value: unknown;
  readonly type?: string | undefined;
  /**
   * Compile-time only (no such property exists at run time): the task data a condition on a
   * `tasks:data.<key>` column was built for (`condition.of<D>()`), so that it fits only selections
   * of that data. A condition on a known column, or one read from a UI, fits every selection.
   */
  readonly [builtFor]?: TaskData<D> | undefined;
}
declare const builtFor: unique symbol;
/** Compile-time only: the task data of a `Condition`; a selection of `D` takes `Condition<D>`. */
export interface TaskData<in D> {
  (data: D): void;
}
/** Every condition, whatever task data it was built for. */
export type AnyCondition = Condition<never>;
