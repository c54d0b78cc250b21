/**
 * The mock Label Studio server: the server's routes, envelopes, errors, auth and filter semantics on
 * json-server (an optional peer dependency), for contract tests and local development.
 *
 * @module dmq/mock-server
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { DATA_UPLOAD_MAX_MEMORY_SIZE } from "../src/emulation/request-data.js";
import { systemClock } from "../src/vocabulary/clock.js";
import {
  checkOptions,
  DEFAULT_ACCESS_LIFETIME_SECONDS,
  DEFAULT_REQUEST_TIME_LIMIT_SECONDS,
  MockOptionError,
  type MockSeed,
  type MockServerOptions,
} from "./options.js";
import { demoData } from "./demo.js";
import { loadServerModules } from "./json-server.js";
import { Journal, type JournalEntry } from "./journal.js";
import { redo } from "./store/changes.js";
import { loadSeed, SeedError } from "../src/contract/seed.js";
import { readSeedFile } from "./store/seed-file.js";
import { registerSummary } from "./summary.js";
import { collectionNames, type StoreState } from "../src/contract/state.js";
import { readPersisted, WriteAheadLog, type WalTuning } from "./store/wal.js";
import { nowTimestamp } from "../src/vocabulary/timestamps.js";
import { newLegacyKey, TokenService } from "./tokens.js";
import { Overrides, type OverrideHandler, type UseOptions } from "./overrides.js";
import { routeKeys, type RouteKey } from "./routes/keys.js";
import { describeValue } from "../src/vocabulary/json.js";
import { holdIdleConnections } from "./keep-alive.js";
import type { KeepAliveTuning } from "./keep-alive-tuning.js";

/** Every route's name, as `use` takes it. */
const named: ReadonlySet<string> = new Set(routeKeys);

export type { JournalEntry } from "./journal.js";
export type { Clock } from "../src/vocabulary/clock.js";
export type {
  ConvertedFormatRecord,
  ExportRecord,
  FileUploadRecord,
  OrganizationRecord,
  StoreState as MockData,
  ViewRecord,
} from "../src/contract/state.js";
export type { AnnotationRecord, DraftRecord, PredictionRecord, ProjectRecord, TaskRecord, UserRecord } from "../src/contract/records.js";
export { SeedError } from "../src/contract/seed.js";
export { MockOptionError } from "./options.js";
export type { MockSeed, MockServerOptions } from "./options.js";
export { demoData } from "./demo.js";
export {
  faults,
  passthrough,
  reply,
  type Answer,
  type MockAnswer,
  type OverrideHandler,
  type OverrideRequest,
  type ReplyOf,
  type UseOptions,
} from "./overrides.js";
export type { RouteKey } from "./routes/keys.js";

/** Internal knobs (tests and benchmarks). */
export interface MockTuning {
  readonly wal?: WalTuning;
  /** Idle connections: the advertised `Keep-Alive: timeout` and the real hold (mock-server/keep-alive.ts). */
  readonly keepAlive?: KeepAliveTuning;
}

/** A running mock server: where it listens, the credentials of its first user, the request journal and its data. */
export interface MockServer {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  /** The legacy API key of the first user (`Authorization: Token <key>`). */
  readonly legacyToken: string;
  /** A personal access token (JWT refresh token) of the first user, issued at start. */
  readonly personalAccessToken: string;
  /** The newest requests received (`journalCapacity`), oldest first, secrets redacted. `reset()` empties it. */
  readonly requests: readonly JournalEntry[];
  /** Requests dropped from the journal to keep it within its capacity. `reset()` zeroes it. */
  readonly requestsDropped: number;
  /** A deep copy of the store in the seed format. */
  data(): MockData;
  /**
   * Answer `route` (e.g. `"GET /api/projects/{pk}/"`) with `handler` instead of the mock's own handler,
   * until `reset()`: a reply typed by the route's declaration, one of `faults` (a status, a 429 with
   * `Retry-After`, a delay, a dropped connection, a malformed body), `reply(…)` for anything else, or
   * `passthrough()` for the mock's own answer. The newest override of a route answers first;
   * `{ times: n }` steps aside after n requests. An override answers before the server's own handling
   * (authentication included); the journal (`requests`) records the requests as usual.
   */
  use<R extends RouteKey>(route: R, handler: OverrideHandler<R>, options?: UseOptions): void;
  /** Back to the start data (or to `seed`); empties the journal, forgets created personal tokens, drops every `use` override. */
  reset(seed?: MockSeed | string): Promise<void>;
  /** Stop listening and drop open connections. */
  close(): Promise<void>;
}
type MockData = StoreState;

/** The user a seed without users gets, so that the server always has a credential to hand out. */
const defaultUser = { id: 1, username: "admin", email: "admin@example.com" };

function initialState(data: MockSeed | string | undefined, token: string | undefined, parsed = typeof data === "string"): StoreState {
  const raw = typeof data === "string" ? readSeedFile(data) : (data ?? demoData());
  const now = nowTimestamp();
  const state = loadSeed(raw, now, { parsed });
  if (state.users.length === 0) state.users.push(...loadSeed({ users: [defaultUser] }, now).users);
  const first = state.users[0] as { token?: string };
  if (first.token === undefined) first.token = newLegacyKey();
  return pinned(frozen(state), token);
}

/** The state with the first user's key pinned to `token` (the `token` option), checked against the other users' keys. */
function pinned(state: StoreState, token: string | undefined): StoreState {
  const [first] = state.users;
  if (token === undefined || first === undefined || first.token === token) return state;
  // Another user's key would log the pinned key in as that user.
  const holder = state.users.findIndex((u) => u.token === token);
  if (holder > 0)
    throw new MockOptionError(
      "token",
      "a key no other user of the data holds",
      `the key of users[${holder}] (id ${state.users[holder]?.id})`,
    );
  state.users[0] = Object.freeze({ ...first, token });
  return state;
}

/**
 * The store replaces records and never edits one (reset points and kept answers share them):
 * frozen, an edit in place fails loudly instead of changing a shared record.
 */
function frozen(state: StoreState): StoreState {
  for (const c of collectionNames) for (const record of state[c]) Object.freeze(record);
  return state;
}

/** The snapshot (checked like a seed) with the log replayed over it. */
function persistedState(path: string, token: string | undefined): StoreState | undefined {
  const persisted = readPersisted(path);
  if (persisted === undefined) return undefined;
  let state: StoreState;
  try {
    state = initialState(persisted.snapshot as MockSeed, undefined, true);
  } catch (error) {
    if (error instanceof SeedError) throw new SeedError(error.path, error.expected, error.found, `${path}: ${error.path}`);
    throw error;
  }
  redo(state, persisted.redo);
  return pinned(frozen(state), token);
}

const snapshots = new WeakSet<StoreState>();
const isState = (seed: MockSeed | string | StoreState): seed is StoreState => typeof seed === "object" && snapshots.has(seed as StoreState);

function copyArrays(state: StoreState): StoreState {
  return Object.fromEntries(collectionNames.map((c) => [c, [...state[c]]])) as unknown as StoreState;
}

/** A reset point that shares the (frozen) records. */
function pristine(state: StoreState): StoreState {
  const copy = copyArrays(state);
  snapshots.add(copy);
  return copy;
}

/**
 * Start a mock Label Studio server on json-server (an optional peer dependency: install `json-server@^0.17.4`).
 * It answers the server's routes, envelopes, errors and filter semantics, so an integration can be
 * contract-tested against it; `requests` is the journal of what clients sent.
 *
 * @example
 * ```ts
 * const mock = await startMockServer({ data: { projects: [{ id: 1, title: "p" }], tasks: [{ id: 1, project: 1, data: {} }] } });
 * const client = createClient({ baseUrl: mock.url, apiKey: mock.legacyToken });
 * await selection(client.project(1)).all().run("delete_tasks");
 * console.log(mock.data().tasks.length, mock.requests.at(-1)?.path); // 0 /api/dm/actions/
 * await mock.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}, tuning: MockTuning = {}): Promise<MockServer> {
  checkOptions(options);
  const { createApp, Store } = await loadServerModules();
  const host = options.host ?? "127.0.0.1";
  const clock = options.clock ?? systemClock;
  const start = (options.persist && persistedState(options.persist, options.token)) || initialState(options.data, options.token);
  // What reset() goes back to: the start state's records in arrays of their own, or a seed given
  // to reset(), loaded anew each time.
  let seed: MockSeed | string | StoreState = pristine(start);
  const store = new Store(start);
  // The start state becomes the snapshot; the log starts empty.
  const wal = options.persist ? new WriteAheadLog(options.persist, store.db.getState(), tuning.wal) : undefined;
  if (wal) store.persistTo(wal);
  const tokens = new TokenService(options.accessTokenLifetime ?? DEFAULT_ACCESS_LIFETIME_SECONDS, clock);
  const journal = new Journal(options.journalCapacity, options.journalBodyLimit);
  const log = options.logger === true ? (line: string) => process.stderr.write(`${line}\n`) : options.logger || undefined;
  const ctx = { store, tokens, strict: options.strict ?? false, clock };
  const timeLimitMs = (options.requestTimeLimit ?? DEFAULT_REQUEST_TIME_LIMIT_SECONDS) * 1000;
  const maxBodySize = options.maxBodySize ?? DATA_UPLOAD_MAX_MEMORY_SIZE;
  const overrides = new Overrides();
  const app = createApp(ctx, { journal, log, clock, timeLimitMs, maxBodySize, overrides });

  const firstUser = () => store.list("users")[0] as { id: number; token: string };
  let personalAccessToken = await tokens.issue("refresh", firstUser().id);

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(options.port ?? 0, host, () => resolve(s));
    s.once("error", reject);
  });
  holdIdleConnections(server, tuning.keepAlive);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  const running: MockServer = {
    url,
    get legacyToken() {
      return firstUser().token;
    },
    get personalAccessToken() {
      return personalAccessToken;
    },
    requests: journal.entries,
    get requestsDropped() {
      return journal.dropped;
    },
    data: () => store.snapshot(),
    use(route, handler, options) {
      if (!named.has(route)) {
        const path = typeof route === "string" ? route.split(" ")[1] : undefined;
        const same = routeKeys.filter((k) => k.endsWith(` ${path}`));
        const hint = same.length > 0 ? `: ${same.join(", ")}` : `, e.g. "GET /api/projects/{pk}/"`;
        throw new TypeError(`mock.use: route: expected "<METHOD> <path>" of a route the mock serves${hint}; found ${describeValue(route)}`);
      }
      overrides.use(route, handler as OverrideHandler<RouteKey>, options);
    },
    async reset(next) {
      overrides.clear();
      if (next !== undefined) seed = next;
      store.replaceState(isState(seed) ? copyArrays(seed) : initialState(structuredClone(seed), options.token));
      journal.clear();
      tokens.clearPersonal();
      personalAccessToken = await tokens.issue("refresh", firstUser().id);
    },
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await wal?.close();
    },
  };
  registerSummary(running, () => ({
    projects: store.list("projects").length,
    users: store.list("users").length,
    firstProject: store.list("projects")[0]?.id,
  }));
  return running;
}
