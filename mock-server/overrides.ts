import { STATUS_CODES, type IncomingHttpHeaders } from "node:http";
import { apiError, errorAnswer, type ServerError } from "../src/emulation/error-answer.js";
import type { JsonValue } from "../src/vocabulary/json.js";
import type { Query } from "./query.js";
import type { DeclaredReplies } from "./routes/replies.js";
import type { RouteKey } from "./routes/keys.js";

/**
 * Answers a test puts in front of the mock's own, in the manner of MSW's `use()`: `mock.use(route,
 * handler)` makes `route` answer what `handler` gives (a declared reply, a fault, or the mock's own
 * answer), until `reset()`. It answers before the server's own handling of the request (its
 * authentication included): `passthrough()` hands the request on to it. The newest override of a route answers first; one given `{ times: n }`
 * steps aside after n requests.
 */

/** The body a route's answer declares (src/contract), or any JSON for a route without a declaration. */
export type ReplyOf<R extends RouteKey> = R extends keyof DeclaredReplies ? DeclaredReplies[R] : JsonValue;

/** The `{name}` segments of a route's path. */
type ParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamsOf<Rest> : never;

/** A request as an override sees it: before anything the server does (authentication included) but routing. */
export interface OverrideRequest<R extends RouteKey = RouteKey> {
  readonly method: string;
  /** The path as sent (no query). */
  readonly path: string;
  /** The route's parameters, by the names its path gives them (`{pk}`, `{action_id}`, …). */
  readonly params: { readonly [K in ParamsOf<R>]: string };
  readonly query: Query;
  /** As sent, credentials included (the journal, `mock.requests`, keeps them redacted). */
  readonly headers: IncomingHttpHeaders;
  /** DRF's `request.data`: the decoded JSON, a form's fields, or `{}`; reading a body the server refuses throws its error. */
  readonly body: unknown;
  /** How many requests this override has answered before this one (0 for the first). */
  readonly call: number;
}

/** What the app does with an answer. */
export type Action =
  | { readonly kind: "reply"; readonly status: number; readonly body: unknown; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: "raw"; readonly status: number; readonly text: string; readonly contentType: string; readonly stall: boolean }
  | { readonly kind: "drop" }
  | { readonly kind: "delay"; readonly ms: number; readonly then: MockAnswer | undefined }
  | { readonly kind: "passthrough" };

/** An answer other than the route's declared reply: made by `faults`, `reply` and `passthrough`. */
export class MockAnswer {
  /** @internal */
  readonly action: Action;
  /** @internal */
  constructor(action: Action) {
    this.action = action;
  }
}

/** What an override answers: the route's declared reply (with the route's success status), or a `MockAnswer`. */
export type Answer<R extends RouteKey> = ReplyOf<R> | MockAnswer;

/** An answer for every request, or a function of the request (it may be async). */
export type OverrideHandler<R extends RouteKey> = Answer<R> | ((request: OverrideRequest<R>) => Answer<R> | Promise<Answer<R>>);

/** Options of `mock.use`. */
export interface UseOptions {
  /** Answer this many requests, then step aside (the next override, or the mock's own answer). Default: every request. */
  readonly times?: number;
}

/** Any status, body and headers: an answer no declaration types (a 204, an odd body the server never sends). */
export function reply(status: number, body?: JsonValue, headers: Readonly<Record<string, string>> = {}): MockAnswer {
  return new MockAnswer({ kind: "reply", status, body, headers });
}

/** The mock's own answer, as if no override were there: for an override that fails only some requests. */
export function passthrough(): MockAnswer {
  return new MockAnswer({ kind: "passthrough" });
}

const faultAnswer = (error: ServerError): MockAnswer => {
  const answer = errorAnswer(error, { id: "00000000-0000-4000-8000-000000000000", version: "mock-fault" });
  return new MockAnswer({ kind: "reply", status: answer.status, body: answer.body as JsonValue, headers: answer.headers });
};

/** The usual ways a server or the network fails, as answers for `mock.use`. */
export const faults = {
  /**
   * `status` with the server's error body (`{id, status_code, version, detail, exc_info}`), `detail`
   * by default the status's reason phrase ("Service Unavailable").
   */
  status(status: number, options: { readonly detail?: string; readonly headers?: Readonly<Record<string, string>> } = {}): MockAnswer {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`faults.status: expected an error status from 400 to 599, found ${String(status)}`);
    }
    return faultAnswer(apiError(status, options.detail ?? STATUS_CODES[status] ?? `Status ${status}`, options.headers));
  },
  /** A 429 as DRF's throttling answers it: `Retry-After: <seconds>` and "Request was throttled. Expected available in …". */
  rateLimited(retryAfterSeconds = 1): MockAnswer {
    if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
      throw new RangeError(`faults.rateLimited: expected whole seconds ≥ 0, found ${String(retryAfterSeconds)}`);
    }
    const unit = retryAfterSeconds === 1 ? "second" : "seconds";
    const detail = `Request was throttled. Expected available in ${retryAfterSeconds} ${unit}.`;
    return faultAnswer(apiError(429, detail, { "Retry-After": String(retryAfterSeconds) }));
  },
  /** The connection closed with no answer, after the request arrived. */
  drop(): MockAnswer {
    return new MockAnswer({ kind: "drop" });
  },
  /** A 200 whose body is not what it says: JSON cut short, by default; `contentType` and `text` as given. */
  malformed(options: { readonly text?: string; readonly contentType?: string; readonly status?: number } = {}): MockAnswer {
    return new MockAnswer({
      kind: "raw",
      status: options.status ?? 200,
      text: options.text ?? '{"id": 1, "detail": "cut sh',
      contentType: options.contentType ?? "application/json",
      stall: false,
    });
  },
  /**
   * A 200 that starts and never ends: the headers and the start of a JSON body, then nothing (a
   * server or a proxy stalled mid-answer), until the client gives up or the mock closes.
   */
  stall(text = '{"id": 1, '): MockAnswer {
    return new MockAnswer({ kind: "raw", status: 200, text, contentType: "application/json", stall: true });
  },
  /**
   * `ms` milliseconds on the mock's clock (the `clock` option), then `then` — by default the mock's own
   * answer. `Infinity`: no answer at all, until the client gives up or the mock closes.
   */
  delay(ms: number, then?: MockAnswer): MockAnswer {
    if (!(ms >= 0)) throw new RangeError(`faults.delay: expected milliseconds ≥ 0 (or Infinity), found ${String(ms)}`);
    return new MockAnswer({ kind: "delay", ms, then });
  },
} as const;

interface Entry {
  readonly handler: OverrideHandler<RouteKey>;
  /** Requests still to answer (Infinity: every one). */
  left: number;
  calls: number;
}

/** The overrides of one mock server, by route. */
export class Overrides {
  private readonly byRoute = new Map<string, Entry[]>();

  use(route: RouteKey, handler: OverrideHandler<RouteKey>, options: UseOptions = {}): void {
    const times = options.times ?? Infinity;
    if (!(times === Infinity || (Number.isInteger(times) && times > 0))) {
      throw new RangeError(`mock.use: options.times: expected a whole number ≥ 1, found ${String(times)}`);
    }
    const list = this.byRoute.get(route) ?? [];
    list.unshift({ handler, left: times, calls: 0 });
    this.byRoute.set(route, list);
  }

  /** The override that answers the next request of `route` (its call counted), if any. */
  take(route: string): { readonly handler: OverrideHandler<RouteKey>; readonly call: number } | undefined {
    const list = this.byRoute.get(route);
    const entry = list?.[0];
    if (list === undefined || entry === undefined) return undefined;
    const call = entry.calls++;
    if (--entry.left <= 0) list.shift();
    return { handler: entry.handler, call };
  }

  clear(): void {
    this.byRoute.clear();
  }
}

/** An override's answer as an action; a declared reply is answered with `status`. */
export function resolve(answer: unknown, status: number): Action {
  return answer instanceof MockAnswer ? answer.action : { kind: "reply", status, body: answer, headers: {} };
}
