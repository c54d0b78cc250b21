import type { Application, NextFunction, Request, Response } from "express";
import jsonServer from "json-server";
import { randomUUID } from "node:crypto";
import { match } from "ts-pattern";
import { apiError, errorAnswer, pythonFailure, type ServerError } from "../src/emulation/error-answer.js";
import { ServerException } from "../src/emulation/exceptions.js";
import type { Clock } from "../src/vocabulary/clock.js";
import { authenticate, isNotProvided, type Authenticated } from "./auth.js";
import { lazyData, readBody, type LazyData } from "./body.js";
import type { RequestBody } from "../src/emulation/request-data.js";
import { cors } from "./cors.js";
import { fieldError, HttpProblem, SERVER_VERSION } from "./errors.js";
import { sendNotFoundPage, timeLimitProblem } from "./guards.js";
import { allowHeader, sendJson, serverHeaders } from "./headers.js";
import { FileBody, type Handler, type MockContext, type MockRequest, type Query, type Reply } from "./http.js";
import { redactHeaders, type Journal, type JournalEntry } from "./journal.js";
import { playground } from "./playground.js";
import { resolve, type Action, type OverrideRequest, type Overrides } from "./overrides.js";
import { nameOf, routes, type Method, type Route } from "./routes/index.js";
import { CREATED } from "./routes/replies.js";
import { Transaction } from "./store/store.js";
import type { UserRecord } from "../src/contract/records.js";
import { newRecordDefaults } from "../src/contract/field.js";
import { userModel } from "../src/contract/user.js";
import { timestampFromMs } from "../src/vocabulary/timestamps.js";

/** The request's user before authentication has found one (no handler answers for it). */
const NOBODY: UserRecord = Object.freeze({
  ...newRecordDefaults(userModel),
  id: 0,
  username: "",
  date_joined: timestampFromMs(0),
  last_activity: timestampFromMs(0),
});

/**
 * The Express app: json-server's app with the server's headers (headers.ts) and CORS answers, then, as on the server, the URL
 * decides first: a path no route serves gets the server's 404 page whatever the method or the
 * credentials. Only then come authentication (every route but the token refresh), the body and the
 * route's handler. json-server's generic routes (`/db`, `/tasks?…`) are not served: the server has
 * none, and their filters ran backtracking regular expressions over the store.
 *
 * Every request has a time budget (`timeLimitMs` on `clock`). Past it while the request is still
 * arriving or waiting, it is answered 503 and never handled; a handler that returns past it has its
 * changes undone and is answered 503 too. So a 503 always means "not done", and a client may resend.
 * A handler's changes are kept only when it answers below 400: they are then appended to the
 * write-ahead log (when the store persists) before the answer leaves.
 */
export interface AppOptions {
  readonly journal: Journal;
  readonly log: ((line: string) => void) | undefined;
  readonly clock: Clock;
  readonly timeLimitMs: number;
  /** Bytes of a request body the mock reads into memory (the server's DATA_UPLOAD_MAX_MEMORY_SIZE). */
  readonly maxBodySize: number;
  /** Answers a test put in front of the routes' own (`mock.use`). */
  readonly overrides?: Overrides;
}

interface Locals {
  entry?: JournalEntry;
  auth?: Authenticated;
  data?: LazyData;
  /** The route this path belongs to; unset for a path the server does not serve. */
  route?: Route;
  /** The route's path segments (`{id}`, `{action}`). */
  params?: Record<string, string>;
  /** The body, read once (`bodyOf`). */
  body?: Promise<RequestBody>;
  started: number;
  /** The handler is running (an async one may be waiting): the budget timer leaves it alone. */
  handling?: boolean;
  /** The DRF view's `Allow`: set on every answer of a server route, errors included. */
  allow?: string;
}

export function createApp(ctx: MockContext, options: AppOptions): Application {
  const { clock, journal } = options;
  const app = jsonServer.create();
  app.set("json spaces", 0);
  app.set("query parser", "simple");
  // The server installs no ConditionalGetMiddleware (core/settings/base.py MIDDLEWARE): no ETag,
  // and none to hash out of every body.
  app.set("etag", false);
  // Django matches paths case-sensitively: `/API/projects/` is not a route.
  app.set("case sensitive routing", true);
  app.disable("x-powered-by");

  app.use((req, res, next) => {
    const started = clock.now();
    const entry: JournalEntry = {
      method: req.method,
      path: req.path,
      query: { ...(req.query as Record<string, string | string[]>) },
      headers: redactHeaders(req.headers),
      body: undefined,
      status: undefined,
    };
    journal.add(entry);
    const locals = res.locals as Locals;
    locals.entry = entry;
    locals.started = started;
    const timer = clock.setTimeout(() => {
      if (res.headersSent || locals.handling) return;
      // Close the connection: a body still arriving is not read any further.
      res.setHeader("Connection", "close");
      answerProblem(req, res, timeLimitProblem().error);
    }, options.timeLimitMs);
    res.on("close", () => clock.clearTimeout(timer));
    res.on("finish", () => {
      entry.status = res.statusCode;
      options.log?.(`${req.method} ${req.originalUrl} ${res.statusCode} ${(clock.now() - started).toFixed(1)} ms`);
    });
    next();
  });
  // The server's own headers and CORS rules instead of json-server's defaults (whose no-cache headers the server does not send).
  app.use(serverHeaders);
  app.use(cors);

  // The semantics playground: a public static page; its data route checks credentials itself.
  app.use("/playground", playground(ctx));

  for (const route of routes) {
    app.all(route.path, (req, res, next) => {
      // A pattern without the trailing slash does not match the path with it (Django matches exactly).
      if (route.slash !== false || !req.path.endsWith("/")) {
        const locals = res.locals as Locals;
        locals.route = route;
        locals.params = { ...(req.params as Record<string, string>) };
      }
      next();
    });
  }
  app.use((_req, res, next) => {
    if (!(res.locals as Locals).route) return sendNotFoundPage(res);
    next();
  });
  // A test's answers (`mock.use`) come before everything the server does for a request it routes.
  app.use((req, res, next) => override(req, res, next, ctx, options));
  app.use((req, res, next) => {
    const route = (res.locals as Locals).route as Route;
    if (route.auth === "none") return next();
    authenticate(req.headers, ctx.store, ctx.tokens).then(
      (auth) => {
        (res.locals as Locals).auth = auth;
        next();
      },
      // AllowAny: no credentials at all is an anonymous caller; credentials that fail are refused all the same.
      (error: unknown) => next(route.auth === "optional" && isNotProvided(error) ? undefined : error),
    );
  });
  // The one body reader (body.ts): DRF's parsers, run when a view reads `request.data`.
  app.use((req, res, next) => {
    bodyOf(req, res, ctx, options).then((body) => {
      if (ctx.strict && body.bytes === undefined) return next(tooLarge(body.length, options.maxBodySize));
      next();
    }, next);
  });

  for (const route of routes) mount(app, route, ctx, options);

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    const problem = toProblem(error, options.log);
    if (problem.status === 404 && slashRetried(res)) return sendNotFoundPage(res);
    answerProblem(req, res, problem);
  });
  return app;
}

function mount(app: Application, route: Route, ctx: MockContext, options: AppOptions): void {
  const methods: Partial<Record<Method, Handler>> = route.methods;
  const allowed = route.allow ?? allowHeader(Object.keys(methods) as Method[]);
  app.all(route.path, (req, res, next) => {
    // Answered 503 while the body was still arriving: never handled.
    if (res.headersSent) return;
    (res.locals as Locals).allow = allowed;
    // A view that narrows `http_method_names` (its `allow` says which) refuses HEAD and OPTIONS unless it names them.
    if ((req.method === "HEAD" || req.method === "OPTIONS") && route.allow !== undefined && !route.allow.split(", ").includes(req.method))
      return next(methodNotAllowed(req.method));
    const method = (req.method === "HEAD" ? "GET" : req.method) as Method;
    if (req.method === "OPTIONS") return send(req, res, { status: 200, body: {} });
    const handler = methods[method];
    if (!handler) return next(methodNotAllowed(req.method));
    const locals = res.locals as Locals;
    const { auth, data } = locals;
    const request: MockRequest = {
      method: req.method,
      path: req.path,
      params: req.params as Record<string, string>,
      query: req.query as Query,
      get body() {
        return data ? data.data() : {};
      },
      user: auth?.user ?? NOBODY,
      // Read by the few routes that build URLs: not worked out for every request.
      get origin() {
        return `${req.protocol}://${req.get("host") ?? "localhost"}`;
      },
      url: req.originalUrl,
      headers: req.headers,
    };
    locals.handling = true;
    handle(req, res, next, handler, request, ctx, options);
  });
}

/** Reads the request's body once (DRF's parsers run when a view reads it), for the journal and every later reader. */
function bodyOf(req: Request, res: Response, ctx: MockContext, options: AppOptions): Promise<RequestBody> {
  const locals = res.locals as Locals;
  locals.body ??= readBody(req, options.maxBodySize).then((body) => {
    const data = lazyData(body, { maxMemorySize: options.maxBodySize }, ctx.strict);
    locals.data = data;
    if (locals.entry) Object.assign(locals.entry, options.journal.body(data.journal()));
    return body;
  });
  return locals.body;
}

/** Express's parameters (`:id`, `:action`) under the names of the route's path, in order. */
function paramsOf(name: string, express: Readonly<Record<string, string>>): Record<string, string> {
  const values = Object.values(express);
  return Object.fromEntries([...name.matchAll(/\{(\w+)\}/g)].map((m, i) => [m[1] as string, values[i] as string]));
}

/** A test's override of the route (`mock.use`): its answer, or on to the server's own handling (`passthrough`). */
function override(req: Request, res: Response, next: NextFunction, ctx: MockContext, options: AppOptions): void {
  const locals = res.locals as Locals;
  const route = locals.route as Route;
  const name = nameOf(route);
  const key = `${req.method === "HEAD" ? "GET" : req.method} ${name}`;
  const taken = options.overrides?.take(key);
  if (taken === undefined) return next();
  // Not answered 503 by the time limit while the override decides (a delay is the override's own).
  locals.handling = true;
  const act = (action: Action): void =>
    match(action)
      .with({ kind: "passthrough" }, () => {
        locals.handling = false;
        next();
      })
      .with({ kind: "reply" }, (a) =>
        send(req, res, { status: a.status, ...(a.body === undefined ? {} : { body: a.body }), headers: a.headers }),
      )
      .with({ kind: "raw" }, (a) => {
        if (locals.entry) locals.entry.status = a.status;
        res.status(a.status).setHeader("Content-Type", a.contentType);
        if (a.stall) res.write(a.text);
        else res.end(a.text);
      })
      .with({ kind: "drop" }, () => void req.socket.destroy())
      .with({ kind: "delay" }, (a) => {
        if (a.ms === Infinity) return;
        const timer = options.clock.setTimeout(() => act(a.then?.action ?? { kind: "passthrough" }), a.ms);
        res.on("close", () => options.clock.clearTimeout(timer));
      })
      .exhaustive();
  bodyOf(req, res, ctx, options)
    .then(() => {
      const asked: OverrideRequest = {
        method: req.method,
        path: req.path,
        // The route's segments under the names its path gives them (`{pk}`, `{action_id}`, …), in order.
        params: paramsOf(name, locals.params ?? {}) as OverrideRequest["params"],
        query: req.query as Query,
        headers: req.headers,
        get body() {
          return locals.data ? locals.data.data() : {};
        },
        call: taken.call,
      };
      const { handler } = taken;
      return typeof handler === "function" ? handler(asked) : handler;
    })
    .then((given) => act(resolve(given, CREATED.has(key) ? 201 : 200)), next);
}

/** The route's own handler, in a store transaction: its changes are kept only when it answers below 400 in time. */
function handle(
  req: Request,
  res: Response,
  next: NextFunction,
  handler: Handler,
  request: MockRequest,
  ctx: MockContext,
  options: AppOptions,
): void {
  const locals = res.locals as Locals;
  const { data } = locals;
  // Every write of the handler, also after it awaited a model server, is this request's: kept or undone together.
  const transaction = new Transaction();
  let result: Reply | Promise<Reply>;
  try {
    result = ctx.store.within(transaction, () => handler(request, ctx));
  } catch (error) {
    ctx.store.rollback(transaction);
    return next(error);
  }
  Promise.resolve(result).then(
    (reply) => {
      if (options.clock.now() - locals.started > options.timeLimitMs) {
        ctx.store.rollback(transaction);
        return next(timeLimitProblem());
      }
      if (ctx.strict && reply.status < 400 && data?.ignored()) {
        ctx.store.rollback(transaction);
        return next(fieldError("body", `nothing: ${req.method} ${req.path} does not read a request body; the server ignores this one`));
      }
      if (reply.status >= 400 && !reply.commit) ctx.store.rollback(transaction);
      else ctx.store.commit(transaction);
      send(req, res, reply);
    },
    (error: unknown) => {
      ctx.store.rollback(transaction);
      next(error);
    },
  );
}

/** The one way an error leaves the mock: the server's answer for it (`errorAnswer`, the exception handler). */
function answerProblem(req: Request, res: Response, error: ServerError): void {
  const answer = errorAnswer(error, { id: randomUUID(), version: SERVER_VERSION });
  send(req, res, { status: answer.status, body: answer.body, headers: answer.headers });
}

function send(_req: Request, res: Response, reply: Reply): void {
  if (reply.status === 404 && slashRetried(res)) return sendNotFoundPage(res);
  // Set before the answer leaves: a client that has the answer finds it in the journal.
  const entry = (res.locals as Locals).entry;
  if (entry) entry.status = reply.status;
  res.status(reply.status);
  const allow = (res.locals as Locals).allow;
  if (allow !== undefined) res.setHeader("Allow", allow);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if (reply.body === undefined) res.end();
  else if (reply.body instanceof FileBody) res.end(reply.body.bytes);
  else sendJson(res, reply.body);
}

/**
 * A 404 of a view whose URL pattern has no trailing slash: the server's
 * `CommonMiddlewareAppendSlashWithoutRedirect` (core/middleware.py) answers a 404 by resolving the
 * path again with a slash appended, which routes nowhere, so the client gets the 404 page instead
 * of the view's answer.
 */
function slashRetried(res: Response): boolean {
  return (res.locals as Locals).route?.slash === false;
}

/** Strict mode: a body past the limit is refused before any view runs. */
function tooLarge(length: number, limit: number): HttpProblem {
  return new HttpProblem(413, `Request body of ${length} bytes exceeds the mock's limit of ${limit} bytes (maxBodySize).`);
}

function methodNotAllowed(method: string): HttpProblem {
  return new HttpProblem(405, `Method "${method}" not allowed.`);
}

/** Anything thrown, as the server's error: the exception's own, an HTTP-layer 4xx, or a 500 (its stack goes to the log only). */
function toProblem(error: unknown, log: ((line: string) => void) | undefined): ServerError {
  if (error instanceof ServerException) return error.error;
  const e = error as { type?: string; status?: number; message?: string; name?: string };
  if (typeof e?.status === "number" && e.status >= 400 && e.status < 500) return apiError(e.status, e.message ?? "Bad request");
  log?.(`internal error: ${(error as Error)?.stack ?? String(error)}`);
  return pythonFailure(e?.name ?? "Exception", e?.message ?? String(error));
}
