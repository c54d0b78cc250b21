import { CommanderError } from "@commander-js/extra-typings";
import { ApiError, ClientConfigError, NetworkError, PaginationError, RequestTimeoutError } from "../client/errors.js";
import { OWN_LINE } from "../client/server-release.js";

/** A command line the CLI cannot act on: exit code 2, in the flags' words. */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

/** The CLI's exit codes. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The client's option names as the CLI spells them. */
const flagOfField: Readonly<Record<string, string>> = {
  baseUrl: "--base-url",
  "baseUrl (from LABEL_STUDIO_URL)": "LABEL_STUDIO_URL",
  apiKey: "--api-key",
  "apiKey (from LABEL_STUDIO_API_KEY)": "LABEL_STUDIO_API_KEY",
  timeoutInSeconds: "--timeout",
  maxRetries: "--max-retries",
};

/** `body.project` and `params.filter` → `--param …`; option names → their flags. */
function flagWords(error: ClientConfigError): string {
  const field = error.field;
  const param = /^(body|params)\./.exec(field);
  const flag = flagOfField[field] ?? (param ? `--param ${field.slice(param[0].length)}` : undefined);
  // The client's child_filters refusal: a line of its own is a --where on the command line.
  if (flag === undefined) return error.message.replace(OWN_LINE, "--where");
  // The CLI's way to give the task list's query.
  const message = error.message.slice(field.length).replaceAll("params.query", "--query");
  const hint =
    field === "baseUrl"
      ? message.replace("pass createClient({ baseUrl }) or set", "pass --base-url or set")
      : message.replace("pass createClient({ apiKey }) or set", "pass --api-key or set");
  return `${flag}${hint}`;
}

/** The exit code and the stderr text of anything a command threw. */
export function describeFailure(error: unknown): { code: ExitCode; text: string } {
  if (error instanceof CliUsageError) return { code: EXIT.usage, text: error.message };
  if (error instanceof ClientConfigError) return { code: EXIT.usage, text: flagWords(error) };
  if (error instanceof CommanderError) return { code: error.exitCode === 0 ? EXIT.ok : EXIT.usage, text: error.message };
  // The mock's option errors share node's parseArgs code family (mock-server/main.ts).
  if (String((error as { code?: unknown } | null)?.code).startsWith("ERR_PARSE_ARGS")) {
    return { code: EXIT.usage, text: (error as Error).message };
  }
  if (error instanceof ApiError) {
    return { code: EXIT.failure, text: error.message };
  }
  if (error instanceof NetworkError || error instanceof RequestTimeoutError || error instanceof PaginationError) {
    return { code: EXIT.failure, text: error.message };
  }
  return { code: EXIT.failure, text: error instanceof Error ? error.message : String(error) };
}
