import {
  actionIds,
  actions,
  isActionId,
  isDestructive,
  type ActionId,
  type ActionParams,
  type ActionResult,
  type DestructiveActionId,
  type ParamSpecs,
  type RequiredParam,
} from "../vocabulary/actions.js";
import { describeValue, type JsonValue } from "../vocabulary/json.js";
import { didYouMean } from "../vocabulary/nearest.js";
import type { ActionParamsText } from "./generated.js";
import type { ActionRequest, RunOptions } from "./nodes.js";
import { QueryBuildError, rules, type NotAny, type Refused } from "./rules.js";
import type { NoInference } from "./no-infer.js";
import type { SelectionStateKey, Stateful } from "./state.js";

/*
 * `.run()` and `.toRequest()`: one signature over known and custom actions. The action argument
 * carries every check (a destructive action on an unscoped selection, missing, unknown or
 * misplaced params) as a message naming the action's params; the params argument is typed by the
 * action, so a wrong value gets the compiler's own message. The same checks run at run time.
 */

/** Names an action id the vocabulary does not know; its params and result are untyped. */
export interface CustomAction {
  readonly customAction: string;
}

/** The keys of `RunOptions`, for telling options passed as params apart. */
export const runOptionKeys = ["timeoutInSeconds", "maxRetries", "signal"] as const;
export type RunOptionKey = (typeof runOptionKeys)[number];

/** `params { a, b? }` or `no params`: how messages name an action's extra body fields. */
export function paramsText(id: ActionId): string {
  const entries = Object.entries(actions[id].params as Readonly<Record<string, { readonly required: boolean }>>);
  return entries.length === 0 ? "no params" : `params { ${entries.map(([k, p]) => (p.required ? k : `${k}?`)).join(", ")} }`;
}

type Text<A extends ActionId> = ActionParamsText[A];
export type EveryTaskMessage<A extends string> = `${A}: ${typeof rules.everyTask}`;
export type EveryTaskExcludedMessage<A extends string> = `${A}: ${typeof rules.everyTaskExcluded}`;
export type NeedsParamsMessage<A extends ActionId> = `${A} needs ${Text<A>}`;
export type UnknownParamMessage<A extends ActionId, K extends string> = `${A} takes ${Text<A>}; ${K} is not one of them`;
export type OptionAsParamMessage<
  A extends string,
  K extends string,
> = `${A}: ${K} is a request option, not an action param; pass options third: .run(${A}, params or undefined, options)`;
export type UnknownActionMessage<A extends string> = `unknown action id ${A}: for an action dmq does not know, use customAction(${A})`;

const everyTask = <A extends string>(id: A): EveryTaskMessage<A> => `${id}: ${rules.everyTask}`;
const everyTaskExcluded = <A extends string>(id: A): EveryTaskExcludedMessage<A> => `${id}: ${rules.everyTaskExcluded}`;
const needsParams = <A extends ActionId>(id: A): NeedsParamsMessage<A> => `${id} needs ${paramsText(id) as Text<A>}`;
const unknownParam = <A extends ActionId, K extends string>(id: A, key: K): UnknownParamMessage<A, K> =>
  `${id} takes ${paramsText(id) as Text<A>}; ${key} is not one of them`;
const optionAsParam = <A extends string, K extends string>(id: A, key: K): OptionAsParamMessage<A, K> =>
  `${id}: ${key} is a request option, not an action param; pass options third: .run(${id}, params or undefined, options)`;
const unknownAction = <A extends string>(id: A): UnknownActionMessage<A> =>
  `unknown action id ${id}: for an action dmq does not know, use customAction(${id})`;

declare const absent: unique symbol;
/** The params type argument when no params argument is given. */
export interface Absent {
  readonly [absent]: true;
}

/** What an action argument may be: a known id, `customAction(id)`, or any string (refused with a message). */
export type ActionKey = ActionId | CustomAction | (string & {});
type NoParams = { readonly [field: string]: JsonValue };
/** The params argument of an action: its fields; any JSON fields for a custom action. */
export type ParamsOf<A> = A extends ActionId
  ? [keyof ParamSpecs<A>] extends [never]
    ? NoParams
    : ActionParams<A>
  : Record<string, JsonValue>;
/** What `.run(action)` resolves to: the action's result body, `unknown` for a custom action. */
export type ResultOf<A> = A extends ActionId ? ActionResult<A> : unknown;

type ParamCheck<A extends ActionId, P> = [P] extends [Absent | undefined]
  ? [RequiredParam<A>] extends [never]
    ? A
    : NoInference<Refused<NeedsParamsMessage<A>>>
  : Exclude<keyof P, keyof ParamSpecs<A>> extends infer X
    ? [X] extends [never]
      ? A
      : [X] extends [RunOptionKey]
        ? NoInference<Refused<OptionAsParamMessage<A, X & string>>>
        : NoInference<Refused<UnknownParamMessage<A, X & string>>>
    : never;

/** The refusal of a destructive action on an unscoped selection: one that only excludes ids is told so. */
type EveryTaskRefusal<A extends string, Ids> = [Ids] extends ["excluded"] ? EveryTaskExcludedMessage<A> : EveryTaskMessage<A>;

/** The action argument as written when it may be sent; else a refusal naming the rule. */
export type ActionCheck<A, P, Scoped, Ids = unknown> = A extends CustomAction
  ? A
  : A extends ActionId
    ? A extends DestructiveActionId
      ? [Scoped] extends [true]
        ? ParamCheck<A, P>
        : NoInference<Refused<EveryTaskRefusal<A, Ids>>>
      : ParamCheck<A, P>
    : A extends string
      ? NoInference<Refused<UnknownActionMessage<A>>>
      : A;

type ScopedOf<Self extends Stateful> = Self[SelectionStateKey]["scoped"];
type IdsOf<Self extends Stateful> = Self[SelectionStateKey]["ids"];

/**
 * Every known action id while the argument is still being typed (the compiler then sees the whole
 * `ActionKey`), so that an editor offers them all after `.run("`: the ones this selection may not
 * run, or that need params, are refused with their message once chosen.
 */
type Offered<A> = [CustomAction] extends [A] ? ActionId : never;
/**
 * The params argument: the params inferred as written (`P`), and the action's params, so that an
 * editor offers the remaining fields inside a params object that is already valid.
 */
type ParamsArg<A, P> = P & ([A] extends [ActionId] ? Partial<ParamsOf<A>> : unknown);

/** `.toRequest(action, params?)`: the `POST /api/dm/actions/` request for an action on this selection. */
export type ToRequest = <Self extends Stateful, const A extends ActionKey, const P extends ParamsOf<A> | undefined | Absent = Absent>(
  this: NotAny<A, "action", Self>,
  action: ActionCheck<A, P, ScopedOf<Self>, IdsOf<Self>> | Offered<A>,
  params?: ParamsArg<A, P>,
) => ActionRequest;

/** `.run(action, params?, options?)`: perform an action through the client the project handle came from. */
export type Run = <Self extends Stateful, const A extends ActionKey, const P extends ParamsOf<A> | undefined | Absent = Absent>(
  this: NotAny<A, "action", Self>,
  action: ActionCheck<A, P, ScopedOf<Self>, IdsOf<Self>> | Offered<A>,
  params?: ParamsArg<A, P>,
  options?: RunOptions,
) => Promise<ResultOf<A>>;

/**
 * The run-time side of `ActionCheck`, for JavaScript callers and casts: the action id, with the
 * same messages. `scoped`: the selection limits the tasks or said `.all()`; `excludedOnly`: its only ids are excluded ones. A known id wrapped in
 * `customAction()` (how code with a run-time action id gets past the compiler) gets every check.
 */
export function checkAction(action: unknown, params: unknown, scoped: boolean, excludedOnly = false): string {
  if (typeof action === "object" && action !== null && "customAction" in action) {
    const id = (action as CustomAction).customAction;
    return isActionId(id) ? checkAction(id, params, scoped, excludedOnly) : id;
  }
  if (!isActionId(action)) {
    const found = typeof action === "string" ? action : describeValue(action);
    // The compiler's words, and at run time the known id a misspelt one is near.
    const near = typeof action === "string" ? didYouMean(action, actionIds) : "";
    throw new QueryBuildError(`${unknownAction(found)}${near}`, "id", "a known action id or customAction(id)", describeValue(action));
  }
  if (isDestructive(action) && !scoped) throw new QueryBuildError((excludedOnly ? everyTaskExcluded : everyTask)(action), "selectedItems");
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    throw new QueryBuildError(`${action}: expected params as an object of body fields, found ${describeValue(params)}`, "params");
  }
  const specs = actions[action].params as Readonly<Record<string, { readonly required: boolean }>>;
  const given = (params ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (Object.hasOwn(specs, key)) continue;
    const message = (runOptionKeys as readonly string[]).includes(key) ? optionAsParam(action, key) : unknownParam(action, key);
    throw new QueryBuildError(message, `params.${key}`);
  }
  if (Object.entries(specs).some(([key, spec]) => spec.required && given[key] === undefined)) {
    throw new QueryBuildError(needsParams(action), "params");
  }
  return action;
}
