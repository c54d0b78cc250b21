/**
 * The builder's rules, each with the message shown both by the compiler (as a branded error type
 * on the member you may not use) and at run time (thrown by the same member, for JavaScript
 * callers and casts). One table so the two never drift apart.
 */
export const rules = {
  whereTwice: "where() starts the filter set once; add more conditions with .and(column) or .or(column)",
  conditionFirst: "start the filter set with .where(column) before .and(), .or() or .child()",
  mixedAndAfterOr:
    "one conjunction per filter set: this chain uses .or(); the server combines every line with one conjunction, so .and() cannot follow .or() — use .child(column) for an AND inside a line",
  mixedOrAfterAnd:
    "one conjunction per filter set: this chain uses .and(); the server combines every line with one conjunction, so .or() cannot follow .and()",
  includingAfterExcluding:
    "including() selects {all: false, included}; this selection already selects all tasks (.all() / .excluding()): the server uses only one of the two lists",
  excludingAfterIncluding:
    "excluding() and all() select {all: true, excluded}; this selection already uses .including(): the server would ignore the excluded ids",
  orderedTwice: "orderBy() once: the server orders by the first key only and ignores the rest",
  viewIgnoresBody:
    "a selection taken from a saved view cannot add filters, ordering or task ids: the server ignores them when ?view= is given",
  fromViewFresh: "fromView() must come first: the server ignores body filters, ordering and task ids when ?view= is given",
  notBound: "run() needs a client-bound project: selection(client.project(id)); use toRequest() to get the request instead",
  exportNotBound: "export() needs a client-bound project: selection(client.project(id)); the export runs on the server",
  emptyIncluding:
    "including() needs at least one id: the server reads {all: false, included: []} as 'no restriction' and would act on every task",
  everyTask:
    "this selection has no filters, no task ids and no view, so the server would act on every task of the project: add a condition or ids, or say .all() to mean every task",
  everyTaskExcluded:
    "this selection only excludes task ids and has no filters and no view, so the server would act on every other task of the project: add a condition or .including(ids), or say .all() to mean every task but the excluded",
} as const;

/** The name of one of the builder's rules (each compile-time refusal names one). */
export type RuleName = keyof typeof rules;

/**
 * Which rules refuse which member, in which states (see types.ts). The compiler marks a refused
 * member `@deprecated` with its rule (generated into generated.ts), so editors sort it last and
 * strike it through.
 */
export const refusals = {
  where: ["whereTwice", "viewIgnoresBody"],
  whereAll: ["whereTwice", "viewIgnoresBody"],
  whereAny: ["whereTwice", "viewIgnoresBody"],
  and: ["conditionFirst", "mixedAndAfterOr", "viewIgnoresBody"],
  or: ["conditionFirst", "mixedOrAfterAnd", "viewIgnoresBody"],
  child: ["conditionFirst", "viewIgnoresBody"],
  orderBy: ["orderedTwice", "viewIgnoresBody"],
  including: ["includingAfterExcluding", "viewIgnoresBody"],
  excluding: ["excludingAfterIncluding", "viewIgnoresBody"],
  all: ["excludingAfterIncluding", "viewIgnoresBody"],
  fromView: ["fromViewFresh"],
  run: ["notBound"],
  export: ["exportNotBound"],
} as const satisfies Record<string, readonly RuleName[]>;

declare const dmqRule: unique symbol;
/**
 * The type of a member you may not use in the current state. It has no call signature, so the
 * compiler says "This expression is not callable. Type 'Refused<"…why…">' has no call signatures".
 */
export interface Refused<out Why extends string> {
  readonly [dmqRule]: Why;
}

/**
 * Thrown at run time when a value breaks a builder rule the types could not see (for example an id
 * list that is empty only at run time); `path`, `expected` and `found` say where and what.
 *
 * @example
 * ```ts
 * const ids: number[] = [];
 * try {
 *   selection(1).including(ids as unknown as [number]);
 * } catch (e) {
 *   if (e instanceof QueryBuildError) console.log(e.path); // selectedItems.included
 * }
 * ```
 */
export class QueryBuildError extends TypeError {
  override readonly name = "QueryBuildError";
  constructor(
    message: string,
    /** Where in the documented body the problem is, e.g. `filters.items[2].value`. */
    readonly path: string,
    readonly expected?: string,
    readonly found?: string,
  ) {
    super(message);
  }
}

/**
 * Why an `any` is refused where it would make the rest of a chain unchecked (an unscoped
 * `delete_tasks` would compile): one message per entry point.
 */
export const anyRefusals = {
  where:
    "the column or condition is `any` (JSON.parse?), so the compiler can check neither it nor what follows: give it a type (a Condition is checked at run time)",
  whereList:
    "the list is `any` (JSON.parse?), so the compiler can check neither it nor what follows: type it as Condition[] (checked at run time)",
  $if: "$if's callback returns `any`, so the compiler cannot tell the state after it: return the selection, without a cast",
  $call: "$call's step returns `any`, so the compiler can check nothing after it: return the selection, or give the result a type",
  action: "the action id is `any`, so the compiler cannot check it: pass a known action id, or customAction(id) (checked at run time)",
} as const;
type AnyRefusals = typeof anyRefusals;
/** `Self` unless `X` is `any`: then the refusal `Why`, put where the compiler checks `this` (so at the call). */
export type NotAny<X, Why extends keyof AnyRefusals, Self = unknown> = 0 extends 1 & X ? Refused<AnyRefusals[Why]> : Self;
/**
 * `NotAny<X, "where">` with its refusal written out: every selection state's `where`/`and`/`or`/`child`
 * clones it with its own signature, so fewer type parameters make each state cheaper. `any` is the one
 * type for which `X extends never` gives both branches; `X` is not in the test's `extends` type, so
 * the compiler infers nothing for `X` from a `this` that is itself a conditional type (a selection
 * generic over its task data), where `0 extends 1 & X` gave `X` a stray candidate.
 */
export type NotAnyColumn<X> = boolean extends (X extends never ? true : false) ? Refused<AnyRefusals["where"]> : unknown;

export function refuse(rule: RuleName, path = ""): never {
  throw new QueryBuildError(path ? `${path}: ${rules[rule]}` : rules[rule], path);
}
