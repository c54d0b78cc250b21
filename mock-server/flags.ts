import { parseArgs } from "node:util";
import { match } from "ts-pattern";
import { DATA_UPLOAD_MAX_MEMORY_SIZE } from "../src/emulation/settings.js";
import {
  isLegacyKey,
  DEFAULT_ACCESS_LIFETIME_SECONDS,
  DEFAULT_JOURNAL_BODY_LIMIT,
  DEFAULT_JOURNAL_CAPACITY,
  DEFAULT_REQUEST_TIME_LIMIT_SECONDS,
  optionChecks,
  type MockOptionName,
  type MockServerOptions,
} from "./options.js";

/**
 * The command-line flags of the mock (`npm start --` and `dmq mock`), one per `startMockServer` option
 * a person at a terminal would set. Keyed by option, so a new option is a compile error here until it
 * gets a flag or a reason not to have one; `npm start`'s parser and usage and `dmq mock`'s options
 * and help all derive from this table. Values are checked by the option's own check (options.ts).
 */
export interface MockFlag {
  /** `--<flag>`; default: the option name in kebab case. */
  readonly flag?: string;
  /** The value's placeholder (`<port>`); none for a switch. */
  readonly arg?: string;
  readonly help: string;
  /** How the text becomes the option's value: as is, a number, or a switch (`off`: the switch sets false). */
  readonly read: "text" | "number" | "on" | "off";
}

/** The port a command line's mock listens on unless told (`npm start`, `dmq mock`); `startMockServer`'s is 0. */
export const MOCK_CLI_PORT = 8080;

export const mockFlags: { readonly [O in MockOptionName]: MockFlag | { readonly notAFlag: string } } = {
  port: { arg: "<port>", help: `port to listen on (default $PORT, else ${MOCK_CLI_PORT}; 0 picks a free one)`, read: "number" },
  host: { arg: "<host>", help: "interface to bind (default 127.0.0.1)", read: "text" },
  data: { arg: "<file>", help: "JSON seed file (format: docs/mock-server.md); default: the built-in demo data", read: "text" },
  persist: {
    arg: "<file>",
    help: "JSON file that keeps the data across restarts (loaded when it exists; changes go to a write-ahead log beside it)",
    read: "text",
  },
  strict: { help: "strict mode: answer 400 where the real server ignores input or answers 500 (default: faithful)", read: "on" },
  logger: { flag: "quiet", help: "do not log requests", read: "off" },
  maxBodySize: {
    arg: "<bytes>",
    help: `largest request body read (default ${DATA_UPLOAD_MAX_MEMORY_SIZE}, the server's DATA_UPLOAD_MAX_MEMORY_SIZE)`,
    read: "number",
  },
  requestTimeLimit: {
    arg: "<seconds>",
    help: `time a request may take before it is answered 503 with nothing done (default ${DEFAULT_REQUEST_TIME_LIMIT_SECONDS})`,
    read: "number",
  },
  journalCapacity: {
    arg: "<entries>",
    help: `requests the in-memory journal keeps, the newest (default ${DEFAULT_JOURNAL_CAPACITY})`,
    read: "number",
  },
  journalBodyLimit: {
    arg: "<chars>",
    help: `characters of a request body the journal keeps (default ${DEFAULT_JOURNAL_BODY_LIMIT})`,
    read: "number",
  },
  accessTokenLifetime: {
    arg: "<seconds>",
    help: `lifetime of the access tokens /api/token/refresh/ issues (default ${DEFAULT_ACCESS_LIFETIME_SECONDS})`,
    read: "number",
  },
  clock: { notAFlag: "a clock object, for tests that run in virtual time" },
  token: {
    arg: "<key>",
    help: "the first user's legacy API key (default $LABEL_STUDIO_API_KEY when it holds one, else the seed's or a new one)",
    read: "text",
  },
};

export interface MockFlagEntry extends MockFlag {
  readonly option: MockOptionName;
  readonly flag: string;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The flags, in table order, each with its option and its `--` name. */
export const mockFlagList: readonly MockFlagEntry[] = Object.entries(mockFlags).flatMap(([option, spec]) =>
  "read" in spec ? [{ ...spec, option: option as MockOptionName, flag: spec.flag ?? kebab(option) }] : [],
);

/** `--port <port>`, `--strict`: a flag as usage and help show it. */
export const flagSpelling = (f: MockFlagEntry): string => `--${f.flag}${f.arg ? ` ${f.arg}` : ""}`;

/** A usage error of the mock's command line, e.g. a flag's value that its option's check refuses (naming the flag). */
export class MockCliUsageError extends Error {
  override readonly name = "MockCliUsageError";
  /** Same code family as node's parseArgs errors, so `npm start` and `dmq` report it as a usage error (exit 2). */
  readonly code = "ERR_PARSE_ARGS_INVALID_OPTION_VALUE";
}

/** The option value of `--<flag> <text>` (a switch: `text` undefined), checked by the option's check. */
export function readMockFlag(entry: MockFlagEntry, text: string | undefined, source = `--${entry.flag}`): unknown {
  const value = match(entry.read)
    .with("on", () => true)
    .with("off", () => false)
    .with("text", () => text)
    .with("number", () => (text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : text))
    .exhaustive();
  if (typeof value === "boolean") return value;
  const [test, expected] = optionChecks[entry.option];
  if (!test(value)) throw new MockCliUsageError(`${source}: expected ${expected}, found ${JSON.stringify(text)}`);
  return value;
}

const portFlag = mockFlagList.find((f) => f.option === "port") as MockFlagEntry;

/** Where the legacy key of a command line's mock comes from, for the banner (an environment's key is never printed). */
export type KeySource =
  | { readonly from: "flag" }
  | { readonly from: "env" }
  | { readonly from: "server" }
  /** $LABEL_STUDIO_API_KEY holds something that cannot be a legacy key (a personal access token, say): not used. */
  | { readonly from: "server"; readonly envNotAKey: string };

/**
 * The options a command line asks for: 127.0.0.1 and port `$PORT`, else 8080, and the legacy key of
 * `$LABEL_STUDIO_API_KEY` when it holds one, unless the flags say otherwise (a terminal's defaults;
 * `startMockServer`'s own are port 0, no log and a new key).
 */
export function mockOptionsOf(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { readonly options: MockServerOptions; readonly help: boolean; readonly key: KeySource } {
  const flags: Record<string, { type: "string" | "boolean"; short?: string }> = { help: { type: "boolean", short: "h" } };
  for (const f of mockFlagList) flags[f.flag] = { type: f.arg ? "string" : "boolean" };
  const { values } = parseArgs({ args: [...argv], options: flags, strict: true, allowPositionals: false });
  const given: Record<string, unknown> = {
    port: env["PORT"] ? readMockFlag(portFlag, env["PORT"], "$PORT") : MOCK_CLI_PORT,
    host: "127.0.0.1",
  };
  for (const f of mockFlagList) {
    const text = values[f.flag];
    if (text !== undefined) given[f.option] = readMockFlag(f, typeof text === "string" ? text : undefined);
  }
  let key: KeySource = given["token"] === undefined ? { from: "server" } : { from: "flag" };
  const envKey = env["LABEL_STUDIO_API_KEY"];
  if (given["token"] === undefined && envKey) {
    if (isLegacyKey(envKey)) {
      given["token"] = envKey;
      key = { from: "env" };
    } else {
      key = {
        from: "server",
        envNotAKey:
          envKey.length > 40
            ? `${envKey.length} characters, more than a legacy key's 40`
            : "it holds spaces or other characters a key cannot",
      };
    }
  }
  // Each value passed its option's check (readMockFlag); startMockServer checks them again.
  return { options: given as MockServerOptions, help: values["help"] === true, key };
}

/** The usage text of a command line that takes these flags. */
export function mockUsage(first: string): string {
  const width = Math.max(...mockFlagList.map((f) => flagSpelling(f).length)) + 2;
  return [
    first,
    ...mockFlagList.map((f) => `  ${flagSpelling(f).padEnd(width)}${f.help}`),
    `  ${"-h, --help".padEnd(width)}this text`,
  ].join("\n");
}
