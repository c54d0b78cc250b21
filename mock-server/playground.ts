import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { NextFunction, Request, Response } from "express";
import { authenticate } from "./auth.js";
import { HttpProblem } from "./errors.js";
import type { MockContext } from "./http.js";

/**
 * `/playground/`: the semantics playground (playground/, built by `npm run build` into
 * dist/playground). Not a Label Studio route: the mock serves it beside the API. The page itself
 * is public (it holds no data); `dataset.json` answers only with credentials and gives the
 * project's records exactly as the engine sees them, so the page evaluates the server's own data.
 */
const here = dirname(fileURLToPath(import.meta.url));
/** From source (mock-server/) the build is in ../dist/playground; from dist/mock-server/ in ../playground. */
export const PLAYGROUND_DIR = basename(dirname(here)) === "dist" ? join(here, "..", "playground") : join(here, "..", "dist", "playground");

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

const NOT_BUILT = `<!doctype html><html lang="en"><title>dmq playground</title><h1>The playground is not built</h1>
<p>Run <code>npm run build</code> (it writes dist/playground), then reload this page.</p></html>`;

export function playground(ctx: MockContext) {
  const root = resolve(PLAYGROUND_DIR);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      next(new HttpProblem(405, `Method "${req.method}" not allowed.`));
      return;
    }
    // Mounted at /playground: `req.path` is relative to it. Assets are addressed from /playground/.
    if (req.originalUrl.split("?")[0] === "/playground") {
      res.redirect(301, "/playground/");
      return;
    }
    if (req.path === "/dataset.json") {
      authenticate(req.headers, ctx.store, ctx.tokens)
        .then(() => res.json(dataset(ctx, req.query["project"])))
        .catch(next);
      return;
    }
    let file: string;
    try {
      file = resolve(root, `.${decodeURIComponent(req.path === "/" ? "/index.html" : req.path)}`);
    } catch {
      next(new HttpProblem(404, "Not found."));
      return;
    }
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      if (req.path === "/" || req.path === "/index.html") {
        res.status(404).type("html").send(NOT_BUILT);
        return;
      }
      next(new HttpProblem(404, "Not found."));
      return;
    }
    res.status(200).setHeader("Content-Type", TYPES[extname(file)] ?? "application/octet-stream");
    res.end(req.method === "HEAD" ? undefined : readFileSync(file));
  };
}

/** The project's records (users without their keys), the first project when none is asked for. */
function dataset(ctx: MockContext, asked: unknown): Record<string, unknown> {
  const projects = ctx.store.list("projects");
  const id = typeof asked === "string" && /^\d+$/.test(asked) ? Number(asked) : undefined;
  const project = id === undefined ? projects[0] : ctx.store.find("projects", id);
  if (!project) throw new HttpProblem(404, id === undefined ? "The mock holds no project." : `Project ${id} does not exist.`);
  return {
    ...ctx.store.dataset(project),
    projects: projects.map((p) => ({ id: p.id, title: p.title })),
    users: ctx.store.list("users").map((u) => ({ id: u.id, username: u.username })),
  };
}
