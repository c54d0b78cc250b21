import type { ActionId, ActionParamsArgs, ActionResult } from "../vocabulary/actions.js";
import type { ColumnKindName, DataTypeName, dataKindByType, KindOperators } from "../vocabulary/column-kinds.js";
import type { ColumnKindOf, ColumnName } from "../vocabulary/columns.js";
import type { JsonValue } from "../vocabulary/json.js";
import type { operatorAliases, operators } from "../vocabulary/operators.js";
import type { NonEmpty, ShapeInput } from "../vocabulary/value-shapes.js";
import type { ActionRequest, QueryBody, QueryNode } from "./nodes.js";
import type { Refused, rules } from "./rules.js";

type Rules = typeof rules;

/*
 * The public, type-state view of the builder. One runtime class implements every state; these
 * types decide which members are callable in which state (ts-pattern's approach: precise public
 * types over a simple runtime). Every type here is derived from the vocabulary tables.
 * Kept cheap on purpose: states are literal type parameters, members are conditional on them,
 * and operator sets are one mapped type per (kind, next state) pair, so a long chain re-uses
 * cached instantiations.
 */

declare const untyped: unique symbol;
/**
 * The default task-data type: any `tasks:data.<key>`, offering text and number operators; the wire
 * type follows the value (numbers -> Number, booleans -> Boolean, else String) unless given.
 */
export interface Untyped {
  readonly [untyped]: true;
}

type KnownColumnKinds = { readonly [C in ColumnName as `tasks:${C}`]: ColumnKindOf<C> };
/** `tasks:<column>` for every known column. */
export type KnownColumn = keyof KnownColumnKinds;
/** `tasks:data.<key>`: any key, or the keys of the task-data type when one is given. */
export type DataColumn<D> = [D] extends [Untyped] ? `tasks:data.${string}` : `tasks:data.${keyof D & string}`;
/** A column a condition can name: a known `tasks:<column>` or a `tasks:data.<key>`. */
export type ColumnArg<D> = KnownColumn | DataColumn<D>;
/** An ordering key: a column with an optional leading `-` for descending. */
export type OrderKey<D> = ColumnArg<D> | `-${ColumnArg<D>}`;

type DataKindOfValue<V> = [NonNullable<V>] extends [number]
  ? "dataNumber"
  : [NonNullable<V>] extends [string]
    ? "dataText"
    : [NonNullable<V>] extends [boolean]
      ? "dataBoolean"
      : "dataAny";

export type KindOfColumn<Col, D> = Col extends KnownColumn
  ? KnownColumnKinds[Col]
  : Col extends `tasks:data.${infer K}`
    ? [D] extends [Untyped]
      ? "dataAny"
      : K extends keyof D
        ? DataKindOfValue<D[K]>
        : "dataAny"
    : never;

type Aliases = typeof operatorAliases;
type AliasOf<Op> = { [A in keyof Aliases]: Aliases[A] extends Op ? A : never }[keyof Aliases];
type MethodOf<Op> = Op extends keyof typeof operators ? (typeof operators)[Op]["method"] : never;

/** The operator methods of a column kind, each taking its value shape and returning the next state. */
export type Operators<K extends ColumnKindName, Next> = {
  readonly [Op in keyof KindOperators<K> as MethodOf<Op> | AliasOf<Op>]: (
    value: ShapeInput[KindOperators<K>[Op] & keyof ShapeInput],
  ) => Next;
};

/** `.where(column)` / `.and(column)` / `.or(column)` / `.child(column)`. */
export interface Where<D, Next> {
  <Col extends ColumnArg<D>>(column: Col): Operators<KindOfColumn<Col, D>, Next>;
  /** A data key compared as the given type (the filter's `type` drives the server's casting). */
  <T extends DataTypeName>(column: DataColumn<D>, type: T): Operators<(typeof dataKindByType)[T], Next>;
}

/** Names an action id the vocabulary does not know; its params and result are untyped. */
export interface CustomAction {
  readonly customAction: string;
}
/** Per-call options of `.run()`. */
export interface RunOptions {
  timeoutInSeconds?: number;
}

/** `toRequest(action, params?)`: the `POST /api/dm/actions/` request for an action on a selection. */
export interface ToRequest {
  /** A known action: its extra body fields are typed from the vocabulary. */
  <A extends ActionId>(action: A, ...params: ActionParamsArgs<A>): ActionRequest;
  /** An action the vocabulary does not know (`customAction(id)`), with untyped fields. */
  (action: CustomAction, params?: Record<string, JsonValue>): ActionRequest;
}
/** `run(action, params?, options?)`: perform an action on a client-bound selection. */
export interface Run {
  /** A known action: typed fields and a typed result. */
  <A extends ActionId>(action: A, ...args: [...ActionParamsArgs<A>, options?: RunOptions]): Promise<ActionResult<A>>;
  /** An action the vocabulary does not know: untyped fields and result. */
  (action: CustomAction, params?: Record<string, JsonValue>, options?: RunOptions): Promise<unknown>;
}

/** Which ids a selection names: none yet, `{all: false, included}`, or `{all: true, excluded}`. */
export type IdState = "none" | "included" | "all";
/** Filter-set state: no condition, one condition (conjunction open), an AND chain, an OR chain, or a view. */
export type FilterState = "none" | "first" | "and" | "or" | "view";

/**
 * A Data Manager selection of one project's tasks. Immutable: every call returns a new selection.
 * @typeParam D task-data type for `tasks:data.<key>` columns
 */
export interface Selection<
  D = Untyped,
  S extends IdState = "none",
  C extends FilterState = "none",
  O extends boolean = false,
  B extends boolean = false,
> {
  /** Start the filter set with a condition on `column`. */
  readonly where: C extends "none"
    ? Where<D, Selection<D, S, "first", O, B>>
    : C extends "view"
      ? Refused<Rules["viewIgnoresBody"]>
      : Refused<Rules["whereTwice"]>;
  /** Add a filter line; lines are AND-ed. */
  readonly and: C extends "first" | "and"
    ? Where<D, Selection<D, S, "and", O, B>>
    : C extends "or"
      ? Refused<Rules["mixedAndAfterOr"]>
      : C extends "view"
        ? Refused<Rules["viewIgnoresBody"]>
        : Refused<Rules["conditionFirst"]>;
  /** Add a filter line; lines are OR-ed. */
  readonly or: C extends "first" | "or"
    ? Where<D, Selection<D, S, "or", O, B>>
    : C extends "and"
      ? Refused<Rules["mixedOrAfterAnd"]>
      : C extends "view"
        ? Refused<Rules["viewIgnoresBody"]>
        : Refused<Rules["conditionFirst"]>;
  /** AND a condition into the current line (the server's `child_filters`). */
  readonly child: C extends "first" | "and" | "or"
    ? Where<D, Selection<D, S, C, O, B>>
    : C extends "view"
      ? Refused<Rules["viewIgnoresBody"]>
      : Refused<Rules["conditionFirst"]>;
  /** Order by one column; a leading `-` sorts descending. NULLs come last either way. */
  readonly orderBy: C extends "view"
    ? Refused<Rules["viewIgnoresBody"]>
    : O extends true
      ? Refused<Rules["orderedTwice"]>
      : (key: OrderKey<D>) => Selection<D, S, C, true, B>;
  /** Act only on these tasks (intersected with the filtered set): `{all: false, included}`. */
  readonly including: C extends "view"
    ? Refused<Rules["viewIgnoresBody"]>
    : S extends "all"
      ? Refused<Rules["includingAfterExcluding"]>
      : (ids: NonEmpty<number>) => Selection<D, "included", C, O, B>;
  /** Act on every filtered task except these: `{all: true, excluded}`. */
  readonly excluding: C extends "view"
    ? Refused<Rules["viewIgnoresBody"]>
    : S extends "included"
      ? Refused<Rules["excludingAfterIncluding"]>
      : (ids: readonly number[]) => Selection<D, "all", C, O, B>;
  /** Act on every filtered task: `{all: true, excluded: []}`. */
  readonly all: C extends "view"
    ? Refused<Rules["viewIgnoresBody"]>
    : S extends "included"
      ? Refused<Rules["excludingAfterIncluding"]>
      : () => Selection<D, "all", C, O, B>;
  /** Take filters, ordering and selected ids from a saved view (`?view=`); the body is then ignored. */
  readonly fromView: C extends "none"
    ? S extends "none"
      ? O extends false
        ? (view: number) => Selection<D, "none", "view", false, B>
        : Refused<Rules["fromViewFresh"]>
      : Refused<Rules["fromViewFresh"]>
    : Refused<Rules["fromViewFresh"]>;
  /** The documented body `{ filters?, ordering?, selectedItems? }`; `JSON.stringify(selection)` uses it. */
  toJSON(): QueryBody;
  /** The plain Query value behind this selection. */
  toQuery(): QueryNode;
  /** The `POST /api/dm/actions/` request for an action on this selection. */
  readonly toRequest: ToRequest;
  /** Perform an action on this selection through the client the project handle came from. */
  readonly run: B extends true ? Run : Refused<Rules["notBound"]>;
  readonly project: number;
  readonly view: number | undefined;
}
