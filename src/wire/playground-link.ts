/** Where the mock serves the playground (mock-server/playground.ts). */
export const PLAYGROUND_PATH = "/playground/";

/**
 * Playground links: the fragment carries the query as its documented JSON body (`q`), the project
 * (`project`) and optionally a small inline dataset (`data`, a seed in the mock's seed format).
 * The fragment never reaches the server, so neither the query nor a `token` there is logged.
 */
export interface Link {
  readonly project?: number;
  /** The documented body (`selection(…).toJSON()`). */
  readonly body?: unknown;
  /** A seed (users, projects, tasks, annotations, predictions, drafts) evaluated in the page. */
  readonly data?: unknown;
}

export interface ParsedLink extends Link {
  /** A legacy token handed over by the URL `npm start` prints; the page stores it and drops it from the URL. */
  readonly token?: string;
  /** What could not be read, in words. */
  readonly problems: readonly string[];
}

/** `#project=1&q=…` (URLSearchParams encoding, so the JSON stays readable). */
export function linkHash(link: Link): string {
  const params = new URLSearchParams();
  if (link.project !== undefined) params.set("project", String(link.project));
  if (link.body !== undefined) params.set("q", JSON.stringify(link.body));
  if (link.data !== undefined) params.set("data", JSON.stringify(link.data));
  return `#${params.toString()}`;
}

/**
 * The playground URL for a link: `base` is the playground's own URL (`http://127.0.0.1:8080/playground/`)
 * or, with `{ server: true }`, the URL of the server that serves it (`http://127.0.0.1:8080`).
 */
export function playgroundUrl(base: string, link: Link, options: { readonly server?: boolean } = {}): string {
  const page = options.server ? `${base.endsWith("/") ? base.slice(0, -1) : base}${PLAYGROUND_PATH}` : base;
  return `${page}${linkHash(link)}`;
}

export function parseLink(hash: string): ParsedLink {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const problems: string[] = [];
  const json = (key: string): unknown => {
    const text = params.get(key);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      problems.push(`${key}: expected JSON, found text that does not parse (${(error as Error).message})`);
      return undefined;
    }
  };
  const projectText = params.get("project");
  const project = projectText === null ? undefined : Number(projectText);
  if (project !== undefined && !(Number.isSafeInteger(project) && project > 0)) {
    problems.push(`project: expected a positive integer project id, found ${JSON.stringify(projectText)}`);
  }
  const body = json("q"),
    data = json("data"),
    token = params.get("token") ?? undefined;
  return {
    ...(project !== undefined && Number.isSafeInteger(project) && project > 0 ? { project } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(token ? { token } : {}),
    problems,
  };
}
