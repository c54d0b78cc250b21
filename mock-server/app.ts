import type { Application, NextFunction, Request, Response } from "express";
import jsonServer from "json-server";
import { authenticate, type Authenticated } from "./auth.js";
import { HttpProblem, problemBody, serverError } from "./errors.js";
import { allowHeader, sendJson, serverHeaders } from "./headers.js";
import type { Handler, MockContext, MockRequest, Query, Reply } from "./http.js";
import { redactBody, redactHeaders, type JournalEntry } from "./journal.js";
import { routes, type Method } from "./routes/index.js";

/**
 * The Express app: json-server's app and body parser with the server's own headers (headers.ts), the
 * mock's own routes mounted before json-server's router, and the router last. Authentication
 * runs before everything but the token refresh route, so json-server's generic routes (`/db`,
 * `/tasks?_like`, …) are never reachable without credentials; they are read-only and never show
 * a user's legacy key.
 */
export interface AppOptions {
  readonly journal: JournalEntry[];
  readonly log: ((line: string) => void) | undefined;
}

interface Locals {
  entry?: JournalEntry;
  auth?: Authenticated;
  /** The DRF view's `Allow`: set on every answer of a server route, errors included. */
  allow?: string;
}

const isPublic = (path: string) => /^\/api\/token\/refresh\/?$/.test(path);
const readMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export function createApp(ctx: MockContext, options: AppOptions): Application {
  const app = jsonServer.create();
  app.set("json spaces", 0);
  app.set("query parser", "simple");
  app.disable("x-powered-by");

  app.use((req, res, next) => {
    const started = performance.now();
    const entry: JournalEntry = {
      method: req.method,
      path: req.path,
      query: { ...(req.query as Record<string, string | string[]>) },
      headers: redactHeaders(req.headers),
      body: undefined,
      status: undefined,
    };
    options.journal.push(entry);
    (res.locals as Locals).entry = entry;
    res.on("finish", () => {
      entry.status = res.statusCode;
      options.log?.(`${req.method} ${req.originalUrl} ${res.statusCode} ${(performance.now() - started).toFixed(1)} ms`);
    });
    next();
  });
  // The server's headers instead of json-server's defaults (its CORS, its static file server —
  // nothing is served without credentials — and its no-cache headers, which the server does not send).
  app.use(serverHeaders);

  app.use((req, res, next) => {
    if (isPublic(req.path) || req.method === "OPTIONS") return next();
    authenticate(req.headers, ctx.store, ctx.tokens).then((auth) => {
      (res.locals as Locals).auth = auth;
      next();
    }, next);
  });
  app.use(jsonServer.bodyParser);
  app.use((req, res, next) => {
    const entry = (res.locals as Locals).entry;
    if (entry) (entry as { body: unknown }).body = redactBody(hasBody(req) ? req.body : undefined);
    next();
  });

  for (const route of routes) mount(app, route.path, route.methods, ctx, route.allow);
  app.use("/api", (_req, _res, next) => next(new HttpProblem(404, "Not found.")));

  // json-server's generic routes: read-only, and a user's legacy key never leaves the server.
  app.use((req, _res, next) => next(readMethods.has(req.method) ? undefined : methodNotAllowed(req.method)));
  // json-server answers `/db` itself, bypassing `render`.
  app.get("/db", (_req, res) => {
    res.jsonp(withoutKeys(ctx.store.db.getState()));
  });
  // json-server's documented hook for reshaping what its router answers.
  (ctx.store.router as unknown as { render: (req: Request, res: Response) => void }).render = (_req, res) => {
    res.jsonp(withoutKeys(res.locals["data"]));
  };
  app.use(ctx.store.router);

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const problem = toProblem(error, options.log);
    send(ctx, req, res, { status: problem.status, body: problemBody(problem), headers: problem.options.headers ?? {} });
  });
  return app;
}

function mount(app: Application, path: string, methods: Partial<Record<Method, Handler>>, ctx: MockContext, allow: string | undefined): void {
  const allowed = allow ?? allowHeader(Object.keys(methods) as Method[]);
  app.all(path, (req, res, next) => {
    const method = (req.method === "HEAD" ? "GET" : req.method) as Method;
    (res.locals as Locals).allow = allowed;
    if (req.method === "OPTIONS") return send(ctx, req, res, { status: 200, body: {}, headers: {} });
    const handler = methods[method];
    if (!handler) return next(methodNotAllowed(req.method));
    const auth = (res.locals as Locals).auth;
    const request: MockRequest = {
      method: req.method,
      path: req.path,
      params: req.params as Record<string, string>,
      query: req.query as Query,
      body: hasBody(req) ? (req.body as unknown) : undefined,
      user: auth?.user ?? { id: 0, username: "", email: "", first_name: "", last_name: "" },
      origin: `${req.protocol}://${req.get("host") ?? "localhost"}`,
      url: req.originalUrl,
    };
    Promise.resolve()
      .then(() => handler(request, ctx))
      .then((reply) => send(ctx, req, res, reply), next);
  });
}

/** Persist before answering: once a client has the answer, the file holds the change. */
function send(ctx: MockContext, req: Request, res: Response, reply: Reply): void {
  if (!readMethods.has(req.method)) ctx.store.commit();
  // Set before the answer leaves: a client that has the answer finds it in the journal.
  const entry = (res.locals as Locals).entry;
  if (entry) entry.status = reply.status;
  res.status(reply.status);
  const allow = (res.locals as Locals).allow;
  if (allow !== undefined) res.setHeader("Allow", allow);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if (reply.body === undefined) res.end();
  else sendJson(res, reply.body);
}

/** body-parser marks a parsed body with `_body`; without one `req.body` is an empty object. */
function hasBody(req: Request): boolean {
  return (req as Request & { _body?: boolean })._body === true;
}

function methodNotAllowed(method: string): HttpProblem {
  return new HttpProblem(405, `Method "${method}" not allowed.`);
}

function toProblem(error: unknown, log: ((line: string) => void) | undefined): HttpProblem {
  if (error instanceof HttpProblem) return error;
  const e = error as { type?: string; status?: number; message?: string; name?: string };
  if (e?.type === "entity.parse.failed") return new HttpProblem(400, `JSON parse error - ${e.message ?? "invalid JSON"}`);
  if (typeof e?.status === "number" && e.status >= 400 && e.status < 500) return new HttpProblem(e.status, e.message ?? "Bad request");
  log?.(`internal error: ${(error as Error)?.stack ?? String(error)}`);
  return serverError(e?.name ?? "Exception", e?.message ?? String(error));
}

/** Drop `token` from anything user-shaped before json-server renders it. */
function withoutKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKeys);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  const userShaped = "username" in value;
  for (const [key, v] of Object.entries(value)) if (!(userShaped && key === "token")) out[key] = withoutKeys(v);
  return out;
}
