import type { ColumnKindName, columnKinds } from "../vocabulary/column-kinds.js";
import type { ColumnKindOf, ColumnName } from "../vocabulary/columns.js";
import type { operatorAliases, operators } from "../vocabulary/operators.js";
import type { OperatorsByKind } from "./generated.js";
import type { NoInference } from "./no-infer.js";
import type { IsUnion } from "./unions.js";
import type { AnyCondition, Condition } from "./condition-value.js";
import type { Refused } from "./rules.js";

/*
 * Column arguments, their operator methods (generated.ts, from the vocabulary) and the suggestion
 * for a mistyped column.
 */

declare const untyped: unique symbol;
/**
 * The default task-data type: any `tasks:data.<key>`, offering text and number operators; the wire
 * type follows the value (numbers -> Number, booleans -> Boolean, else String) unless given.
 */
export interface Untyped {
  readonly [untyped]: true;
}

/** `tasks:<column>` for every known column. */
export type KnownColumn = `tasks:${ColumnName}`;
type KnownColumnKinds = { readonly [K in KnownColumn]: K extends `tasks:${infer C extends ColumnName}` ? ColumnKindOf<C> : never };
/** `tasks:data.<key>`: any key, or the keys of the task-data type when one is given. */
export type DataColumn<D> = [D] extends [Untyped] ? `tasks:data.${string}` : `tasks:data.${keyof D & string}`;
/** A column a condition can name: a known `tasks:<column>` or a `tasks:data.<key>`. */
export type ColumnArg<D> = KnownColumn | DataColumn<D>;
/** An ordering key on a known column, whatever the task data. */
type KnownOrderKey = KnownColumn | `-${KnownColumn}`;
/** An ordering key: a column with an optional leading `-` for descending. */
export type OrderKey<D> = ColumnArg<D> | `-${ColumnArg<D>}`;
/**
 * The columns an editor offers after `where("` (the known ones, and the keys of a task-data type when
 * one is given): string literals only. A parameter constrained by a pattern such as
 * `tasks:data.${string}` is instantiated again on every call, which made each condition cost more.
 */
export type OfferedColumn<D> = KnownColumn | ([D] extends [Untyped] ? never : DataColumn<D>);
/** The ordering keys an editor offers after `orderBy("`. */
export type OfferedOrderKey<D> = OfferedColumn<D> | `-${OfferedColumn<D>}`;

type Aliases = typeof operatorAliases;
type MethodOf<Op> = Op extends keyof typeof operators ? (typeof operators)[Op]["method"] : never;
/** Every operator method name, aliases included. */
export type OperatorMethodName = MethodOf<keyof typeof operators> | keyof Aliases;

/** After a column that does not type-check: every method, any value, so one mistake gives one error. */
export type AnyOperators<Next> = { readonly [M in OperatorMethodName]: (value: unknown) => Next };

type DataKindOfValue<V> = [V] extends [number]
  ? "dataNumber"
  : [V] extends [string]
    ? "dataText"
    : [V] extends [boolean]
      ? "dataBoolean"
      : "dataAny";

/**
 * The operator methods after `(column)`. Distributive: a union of columns gives a union of method
 * sets, so only common methods are offered, and calling one checks the value against each column
 * (the compiler intersects the parameter types of a union of methods).
 */
export type ColumnOperators<Col, D, Next, DataNext = Next> = Col extends KnownColumn
  ? KnownOperators<Col, Next>
  : Col extends `tasks:data.${infer K}`
    ? [D] extends [Untyped]
      ? OperatorsByKind<DataNext, unknown>["dataAny"]
      : K extends keyof D
        ? OperatorsByKind<DataNext, D[K] & {}>[DataKindOfValue<D[K] & {}>]
        : OperatorsByKind<DataNext, unknown>["dataAny"]
    : never;

/**
 * The operator methods after known columns (the task data plays no part). A union of columns of one
 * kind has that kind's methods; of several kinds, the methods they share, each refused with its own
 * message where the kinds take different values (`greater` on tasks:id takes a number, on
 * tasks:created_at a datetime: no value suits both).
 */
export type KnownOperators<Col extends KnownColumn, Next> = [KnownColumnKinds[Col]] extends [infer K extends ColumnKindName]
  ? IsUnion<K> extends true
    ? MixedOperators<K, Next>
    : OperatorsByKind<Next, unknown>[K]
  : never;

/**
 * What `where(arg)` leads to, by `WhereKey<Arg, D>`: a known column's operators (by its kind), those of
 * a union of known columns of several kinds, of a data column, of anything else a column may be (a
 * typed data column, a union of known and data columns), every method after a column that does not
 * type-check (one mistake, one error), or the next state after a condition. A lookup rather than a
 * conditional type: the key depends on the argument and the task data only, so the compiler works it
 * out once per column, and each selection state adds only the lookup.
 */
export interface WhereNext<Arg, D, Next, DataNext> extends OperatorsByKind<Next, unknown> {
  mixed: KnownOperators<Arg & KnownColumn, Next>;
  untypedData: OperatorsByKind<DataNext, unknown>["dataAny"];
  columns: ColumnOperators<Arg, D, Next, DataNext>;
  other: AnyOperators<Next>;
  condition: Next;
}
/** The entry of `WhereNext` for an argument (tested as a whole: a union of columns is one key). */
export type WhereKey<Arg, D> = [Arg] extends [KnownColumn]
  ? KnownKind<Arg & KnownColumn>
  : [Arg] extends [string]
    ? [Arg] extends [ColumnArg<D>]
      ? [D] extends [Untyped]
        ? [Arg] extends [`tasks:data.${string}`]
          ? "untypedData"
          : "columns"
        : "columns"
      : "other"
    : "condition";
/** The kind of the known columns `Col`, or `"mixed"` for a union of columns of several kinds. */
type KnownKind<Col extends KnownColumn> = [KnownColumnKinds[Col]] extends [infer K extends ColumnKindName]
  ? IsUnion<K> extends true
    ? "mixed"
    : K
  : never;

/** The wire operator of a method (aliases included). */
type OperatorOf<M> =
  | { [O in keyof typeof operators]: (typeof operators)[O]["method"] extends M ? O : never }[keyof typeof operators]
  | (M extends keyof Aliases ? Aliases[M] : never);
/** The value shapes a method takes on the kinds `K` (a union when they differ). */
type ShapesOf<K extends ColumnKindName, M> = {
  [k in K]: (typeof columnKinds)[k]["operators"][OperatorOf<M> & keyof (typeof columnKinds)[k]["operators"]];
}[K];
type MixedOperators<K extends ColumnKindName, Next> = {
  readonly [M in keyof OperatorsByKind<Next, unknown>[K]]: IsUnion<ShapesOf<K, M>> extends true
    ? Refused<`${M & string}: the columns of this union take different kinds of value, and no value suits them all; call it per column (with $if)`>
    : OperatorsByKind<Next, unknown>[K][M];
};

/** Lower-case, without underscores: `created_at`, `createdAt` and `CreatedAt` meet. */
type Squash<S extends string> = S extends `${infer A}_${infer B}` ? Squash<`${A}${B}`> : Lowercase<S>;
type Bare<S extends string> = S extends `filter:${infer R}`
  ? Bare<R>
  : S extends `-${infer R}`
    ? Bare<R>
    : S extends `tasks:${string}`
      ? S
      : `tasks:${S}`;
type BySquash<D> = { [C in OfferedColumn<D> as Squash<C>]: C };

/**
 * What a mistyped column should have been: the same column without the `filter:`/`-` prefix or
 * with `tasks:` added, a spelling that differs in case or underscores, or the columns it starts;
 * else a refusal naming where the columns are listed. Only computed for a column that is wrong.
 */
export type ColumnSuggestion<S extends string, D> = string extends S
  ? Refused<"a column held in a string is only known at run time: pass a condition { column, operator, value } instead; it is checked at run time">
  : Bare<S> extends infer B extends string
    ? B extends OfferedColumn<D>
      ? B
      : Squash<B> extends infer Q extends keyof BySquash<D>
        ? BySquash<D>[Q]
        : Extract<OfferedColumn<D>, `${B}${string}`> extends infer P
          ? [P] extends [never]
            ? Refused<`unknown column ${S}: use tasks:<column> (dmq columns lists them) or tasks:data.<key>`>
            : P
          : never
    : never;

/*
 * The checks below are parameter types. They test the argument as a whole (`[Arg] extends …`, not
 * distributive): the compiler resolves a parameter's constraint to keep a literal argument literal,
 * and a distributive check would be instantiated for each of the ~35 offered columns. Known columns
 * are tested first, without the task data, so that code generic over `D` resolves them.
 */
/**
 * The column argument as written, or (for a wrong one, not inferred from) the suggestion. Only the
 * first branch is inferred from: the rest is behind `NoInference`, so that inferring `Arg` at a
 * call does not instantiate every branch for each selection state the call is made on.
 *
 * The test pairs `Arg` with a constant (`[Arg, 0]`, not `[Arg]`): a one-element tuple test gives `Arg`
 * in the first branch the implied constraint `KnownColumn`, and the compiler, which takes the base
 * constraint of the parameter type to decide whether a literal argument stays literal, then
 * intersected `Arg`'s constraint (every offered column) with every known column, once per selection
 * state (each state's `where` has its own `Arg`).
 */
export type CheckColumn<Arg, D, Accepts = D> = [Arg, 0] extends [KnownColumn, 0] ? Arg : NoInference<CheckOtherColumn<Arg, D, Accepts>>;
type CheckOtherColumn<Arg, D, Accepts> = [Arg] extends [string]
  ? [Arg] extends [NoKey]
    ? Refused<NoKeyRule>
    : [Arg] extends [ColumnArg<D>]
      ? Arg
      : ColumnSuggestion<Arg, D>
  : [Arg] extends [AnyCondition]
    ? Condition<Accepts>
    : Refused<"a column or a condition, not a union of both: write each branch as a condition (condition(column).equal(value)), or branch with $if">;
/** `tasks:data.` without a key: refused (the server would read a key named ""). */
type NoKey = "tasks:data." | "-tasks:data.";
type NoKeyRule = "tasks:data. needs a key: tasks:data.<key>";
/** The ordering key as written, or the suggestion (keeping a leading `-`); inferred from and tested as `CheckColumn`. */
export type CheckOrderKey<K, D> = [K, 0] extends [KnownOrderKey, 0] ? K : NoInference<CheckOtherOrderKey<K, D>>;
type CheckOtherOrderKey<K, D> = [K] extends [NoKey] ? Refused<NoKeyRule> : [K] extends [OrderKey<D>] ? K : OrderKeySuggestion<K, D>;
type OrderKeySuggestion<K, D> = K extends string
  ? string extends K
    ? Refused<"an ordering key held in a string is only known at run time: narrow it with isOrderKey(key) first">
    : K extends `-${infer C}`
      ? ColumnSuggestion<C, D> extends infer S extends string
        ? `-${S}`
        : ColumnSuggestion<C, D>
      : ColumnSuggestion<K, D>
  : K;
