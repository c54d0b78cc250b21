import { ApiError, ClientConfigError, createClient, type Client, type ClientOptions } from "../src/client/index.js";
import { readJwt } from "../src/client/jwt.js";
import { startMockServer, type MockServer, type MockServerOptions } from "../mock-server/index.js";
import { deleteOwnProject, seedProject, type SeededProject, type SeedOptions } from "./seed.js";
import type { SeedSpec } from "./spec.js";

/** "mock": an in-process mock server the kit started; "server": a server at a URL (a real one, or a mock started elsewhere). */
export type TargetKind = "mock" | "server";

/** Which server a suite ran against. */
export interface TargetInfo {
  readonly kind: TargetKind;
  /** No trailing slash. */
  readonly url: string;
  /** `release` of `GET /api/version/` (e.g. `1.22.0.dev0`), or undefined when the server does not say. */
  readonly version: string | undefined;
  /** `edition` of the same answer (`Community`, `Enterprise`), when given. */
  readonly edition: string | undefined;
  /** The server is a dmq mock (its version answer says so), wherever it runs. */
  readonly isMock: boolean;
  /** The user the key belongs to. */
  readonly user: { readonly id: number; readonly email: string; readonly username: string };
}

export interface Target extends TargetInfo {
  /** A client of the target with the kit's key; its projects' clean-up is the kit's. */
  readonly client: Client;
  /** The in-process mock when `kind` is "mock" (its journal, `data()`); never use it to seed. */
  readonly mockServer: MockServer | undefined;
  /** One line: `mock http://127.0.0.1:41234 (dmq mock of Label Studio 1.23.2)`. */
  describe(): string;
  /** Seed a fresh project from `spec`; it is deleted by `cleanup()` unless deleted before. */
  seed(spec?: SeedSpec, options?: Omit<SeedOptions, "onCreated">): Promise<SeededProject>;
  /**
   * Delete every project this target seeded and has not deleted yet (only those, and only while their
   * title is still the kit's). Tries every one; then throws a `CleanupError` naming any that remain.
   */
  cleanup(): Promise<void>;
  /** `cleanup()`, then stop the mock if the kit started one. */
  close(): Promise<void>;
  /**
   * A request with the target's credentials and nothing else of the client (no checks, no retries),
   * to send what the typed client would refuse. `path` starts with `/`.
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** `LABEL_STUDIO_URL` and `LABEL_STUDIO_API_KEY` for a child process (the CLI). Holds the key: never log it. */
  env(): { LABEL_STUDIO_URL: string; LABEL_STUDIO_API_KEY: string };
}

/** Which target `resolveTarget` gives, and how it is set up. */
export interface TargetOptions {
  /**
   * "auto" (the default, or `DMQ_TARGET` when set): a server when a URL is given here or in
   * `LABEL_STUDIO_URL`, else an in-process mock. "mock" and "server" insist.
   */
  readonly target?: "auto" | TargetKind;
  /** The server's URL. Default: `LABEL_STUDIO_URL`. */
  readonly baseUrl?: string;
  /** Its key (legacy token or personal access token). Default: `LABEL_STUDIO_API_KEY`. */
  readonly apiKey?: string;
  /** Where the variables are read. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Options of the in-process mock. Its data comes only through the API, so there is no `data` or `persist`. */
  readonly mock?: Omit<MockServerOptions, "data" | "persist">;
  /** Options of the target's client. Default time limit per request: 60 s (a real server on a loaded machine imports slowly). */
  readonly client?: Omit<ClientOptions, "baseUrl" | "apiKey">;
}

/** Projects the kit could not delete: their ids and titles, and why. */
export class CleanupError extends Error {
  override readonly name: string = "CleanupError";
  constructor(readonly left: readonly { readonly id: number; readonly title: string; readonly error: unknown }[]) {
    super(
      `could not delete ${left.length} seeded project(s): ${left
        .map((p) => `${p.id} "${p.title}" (${p.error instanceof Error ? p.error.message : String(p.error)})`)
        .join("; ")}`,
    );
  }
}

/** The environment variable that picks the target: `auto` (the default), `mock` or `server`. */
export const TARGET_ENV = "DMQ_TARGET";
const URL_ENV = "LABEL_STUDIO_URL";
const KEY_ENV = "LABEL_STUDIO_API_KEY";

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v.trim() === "" ? undefined : v);

/** The in-process mock's only user; everything else comes through the API. */
const MOCK_USER = { id: 1, username: "admin", email: "admin@example.com", first_name: "", last_name: "" };

/**
 * The target a suite runs against, by the rule of `TargetOptions.target`: an in-process mock
 * (started here, stopped by `close()`), or the server at `LABEL_STUDIO_URL` with `LABEL_STUDIO_API_KEY`.
 * It asks the server who the key belongs to (so a wrong key fails here, clearly) and which version it runs.
 */
export async function resolveTarget(options: TargetOptions = {}): Promise<Target> {
  const env = options.env ?? process.env;
  const wanted = options.target ?? nonEmpty(env[TARGET_ENV]) ?? "auto";
  if (wanted !== "auto" && wanted !== "mock" && wanted !== "server") {
    throw new ClientConfigError(
      options.target === undefined ? `${TARGET_ENV}` : "target",
      '"auto", "mock" or "server"',
      JSON.stringify(wanted),
    );
  }
  const baseUrl = options.baseUrl ?? nonEmpty(env[URL_ENV]);
  const kind: TargetKind = wanted === "auto" ? (baseUrl === undefined ? "mock" : "server") : wanted;
  if (kind === "mock") return mockTarget(options);
  if (baseUrl === undefined) {
    throw new ClientConfigError("baseUrl", "the server's URL", "nothing", `pass resolveTarget({ baseUrl }) or set ${URL_ENV}`);
  }
  const apiKey = options.apiKey ?? nonEmpty(env[KEY_ENV]);
  if (apiKey === undefined) {
    throw new ClientConfigError("apiKey", "the key of a user of the server", "nothing", `pass resolveTarget({ apiKey }) or set ${KEY_ENV}`);
  }
  return connect("server", baseUrl, apiKey, options, undefined);
}

/** An in-process mock with one user and no projects, whatever the environment says. */
export async function mockTarget(options: Pick<TargetOptions, "mock" | "client"> = {}): Promise<Target> {
  const mock = await startMockServer({ ...options.mock, data: { users: [MOCK_USER] } });
  try {
    return await connect("mock", mock.url, mock.legacyToken, options, mock);
  } catch (error) {
    await mock.close();
    throw error;
  }
}

async function connect(
  kind: TargetKind,
  url: string,
  apiKey: string,
  options: TargetOptions,
  mock: MockServer | undefined,
): Promise<Target> {
  const client = createClient({ timeoutInSeconds: 60, ...options.client, baseUrl: url, apiKey });
  const raw = rawFetch(client.baseUrl, apiKey, options.client?.fetch ?? globalThis.fetch);
  let who;
  try {
    who = await client.users.whoami();
  } catch (error) {
    const why =
      error instanceof ApiError && (error.statusCode === 401 || error.statusCode === 403) ? "the key was refused" : "it did not answer";
    throw new Error(
      `cannot use the ${kind} at ${client.baseUrl} as a target: ${why} (${error instanceof Error ? error.message : String(error)})`,
      {
        cause: error,
      },
    );
  }
  const about = await versionOf(raw);
  const info: TargetInfo = {
    kind,
    url: client.baseUrl,
    version: about.version,
    edition: about.edition,
    isMock: about.isMock,
    user: { id: who.id, email: who.email, username: who.username },
  };
  const seeded = new Map<number, string>();
  const cleanup = async () => {
    const left: { id: number; title: string; error: unknown }[] = [];
    for (const [id, title] of [...seeded]) {
      try {
        await deleteOwnProject(client, id, title);
        seeded.delete(id);
      } catch (error) {
        left.push({ id, title, error });
      }
    }
    if (left.length) throw new CleanupError(left);
  };
  const describe = () =>
    `${kind} ${info.url} (${info.isMock ? "dmq mock of " : ""}Label Studio ${info.version ?? "(version not reported)"}${
      info.edition && info.edition !== "Community" ? ` ${info.edition}` : ""
    })`;
  return Object.freeze({
    ...info,
    client,
    mockServer: mock,
    describe,
    async seed(spec = {}, seedOptions = {}) {
      const project = await seedProject(client, spec, { ...seedOptions, onCreated: (p) => seeded.set(p.id, p.title) });
      return Object.freeze({
        ...project,
        async delete() {
          await project.delete();
          seeded.delete(project.id);
        },
      });
    },
    cleanup,
    async close() {
      try {
        await cleanup();
      } finally {
        await mock?.close();
      }
    },
    fetch: raw,
    env: () => ({ LABEL_STUDIO_URL: client.baseUrl, LABEL_STUDIO_API_KEY: apiKey }),
    toJSON: () => info,
    [Symbol.for("nodejs.util.inspect.custom")]: () => `Target ${describe()}`,
  });
}

/**
 * Requests with the key: a legacy token as `Token <key>`; a personal access token is exchanged at
 * `/api/token/refresh/` for an access token, kept until a minute before it expires.
 */
function rawFetch(base: string, apiKey: string, fetchImpl: typeof globalThis.fetch): Target["fetch"] {
  const personal = readJwt(apiKey)?.token_type === "refresh";
  let access: { token: string; until: number } | undefined;
  const authorization = async (): Promise<string> => {
    if (!personal) return `Token ${apiKey}`;
    if (access && Date.now() < access.until) return `Bearer ${access.token}`;
    const answer = await fetchImpl(`${base}/api/token/refresh/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh: apiKey }),
    });
    if (!answer.ok) throw new Error(`POST /api/token/refresh/ → ${answer.status}: the personal access token was refused`);
    const token = ((await answer.json()) as { access: string }).access;
    access = { token, until: ((readJwt(token)?.exp ?? Date.now() / 1000 + 60) - 60) * 1000 };
    return `Bearer ${token}`;
  };
  return async (path, init = {}) => {
    if (!path.startsWith("/")) throw new ClientConfigError("path", "a path that starts with /", JSON.stringify(path));
    const headers = new Headers(init.headers);
    if (!headers.has("authorization")) headers.set("authorization", await authorization());
    return fetchImpl(`${base}${path}`, { ...init, headers });
  };
}

async function versionOf(raw: Target["fetch"]): Promise<{ version: string | undefined; edition: string | undefined; isMock: boolean }> {
  try {
    const answer = await raw("/api/version/", { signal: AbortSignal.timeout(10_000) });
    if (!answer.ok) return { version: undefined, edition: undefined, isMock: false };
    const body = (await answer.json()) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" ? v : undefined);
    return { version: text(body["release"]), edition: text(body["edition"]), isMock: body["dmq_mock"] === true };
  } catch {
    return { version: undefined, edition: undefined, isMock: false };
  }
}
