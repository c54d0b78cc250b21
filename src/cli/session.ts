import { match } from "ts-pattern";
import type { Client } from "../client/client.js";
import { ClientConfigError } from "../client/errors.js";
import type { ClientOptions } from "../client/options.js";
import { DryRun } from "./dry-run.js";
import { CliUsageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { render, type Format } from "./output.js";
import { formatTable, tableRecords, type Table } from "./tables.js";

/** The options every command takes (declared once, on the program). */
export interface GlobalOptions {
  readonly baseUrl?: string | undefined;
  readonly apiKey?: string | undefined;
  readonly timeout?: number | undefined;
  readonly maxRetries?: number | undefined;
  readonly format: Format;
  readonly dryRun?: true | undefined;
  /** Whether --format was on the command line (text-first commands print JSON only when asked). */
  readonly formatGiven?: boolean;
}

const BAR_WIDTH = 24;

/** A progress line on stderr, drawn only when stderr is a terminal (nothing when piped). */
export class Progress {
  #drawn = false;
  constructor(
    private readonly io: CliIo,
    private readonly label: string,
  ) {}

  update(done: number, total?: number): void {
    if (!this.io.stderrIsTTY) return;
    const share = total ? Math.min(1, done / total) : 0;
    const bar = total ? `[${"#".repeat(Math.round(share * BAR_WIDTH)).padEnd(BAR_WIDTH, ".")}] ` : "";
    this.io.stderr(`\r${this.label} ${bar}${done}${total ? `/${total}` : ""}`);
    this.#drawn = true;
  }

  end(): void {
    if (this.#drawn) this.io.stderr("\n");
    this.#drawn = false;
  }
}

/** One command's run: the client it talks through (recording under --dry-run) and its output. */
export class Session {
  readonly dryRun: DryRun | undefined;
  #client: Client | undefined;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
  ) {
    this.dryRun = options.dryRun ? new DryRun([this.apiKey]) : undefined;
  }

  get format(): Format {
    return this.options.format;
  }

  get apiKey(): string | undefined {
    return this.options.apiKey ?? this.io.env["LABEL_STUDIO_API_KEY"];
  }

  /** The server: --base-url, else LABEL_STUDIO_URL. */
  get baseUrl(): string | undefined {
    return this.options.baseUrl ?? this.io.env["LABEL_STUDIO_URL"];
  }

  /** The client of --base-url / LABEL_STUDIO_URL (loaded on first use: offline commands start faster without it). */
  async client(): Promise<Client> {
    this.#client ??= await this.clientFor(this.baseUrl);
    return this.#client;
  }

  async clientFor(baseUrl: string | undefined): Promise<Client> {
    const { timeout, maxRetries } = this.options;
    const options: ClientOptions = {
      ...(baseUrl === undefined ? {} : { baseUrl }),
      ...(this.apiKey === undefined ? {} : { apiKey: this.apiKey }),
      ...(timeout === undefined ? {} : { timeoutInSeconds: timeout }),
      // A recorded request is never answered: retrying it would only record it again.
      ...(this.dryRun ? { maxRetries: 0, fetch: this.dryRun.fetch } : maxRetries === undefined ? {} : { maxRetries }),
    };
    if (baseUrl === undefined) throw new CliUsageError("no server: pass --base-url <url> or set LABEL_STUDIO_URL");
    if (this.apiKey === undefined) throw new CliUsageError("no API key: pass --api-key <key> or set LABEL_STUDIO_API_KEY");
    const { createClient } = await import("../client/client.js");
    try {
      return createClient(options);
    } catch (error) {
      throw this.#fromEnvironment(error, baseUrl);
    }
  }

  /** A bad URL or key that came from the environment is named as the variable, not as the flag nobody passed. */
  #fromEnvironment(error: unknown, baseUrl: string | undefined): unknown {
    if (!(error instanceof ClientConfigError)) return error;
    const variable =
      error.field === "baseUrl" && this.options.baseUrl === undefined && baseUrl === this.io.env["LABEL_STUDIO_URL"]
        ? "LABEL_STUDIO_URL"
        : error.field === "apiKey" && this.options.apiKey === undefined
          ? "LABEL_STUDIO_API_KEY"
          : undefined;
    return variable === undefined ? error : new CliUsageError(`${variable}${error.message.slice(error.field.length)}`);
  }

  print(value: unknown, columns?: readonly string[]): void {
    this.io.stdout(`${render(value, this.format, columns)}\n`);
  }

  /**
   * The outcome of a request whose answer has no body (a 204 after a delete, a train request): nothing on
   * stdout, the exit code says it worked. `--format json` given on the command line prints `null`, so a script
   * that asked for JSON always gets a document to parse; JSON lines and CSV hold no record, a table no row.
   */
  printEmpty(): void {
    match(this.format)
      .with("json", () => (this.options.formatGiven ? this.print(null) : undefined))
      .with("jsonl", "csv", "table", () => undefined)
      .exhaustive();
  }

  /** A file's bytes to stdout, as they are. */
  writeBytes(bytes: Uint8Array): void {
    if (this.io.stdoutBytes) this.io.stdoutBytes(bytes);
    else this.io.stdout(new TextDecoder().decode(bytes));
  }

  /**
   * A vocabulary table: aligned text for people, unless `--format json`, `jsonl` or `csv` is given on the
   * command line, which prints its rows as records (a script that asks for JSON gets JSON).
   */
  table(table: Table): void {
    const records = () => this.print(tableRecords(table), table.header);
    const text = () => this.say(formatTable([table.header, ...table.rows]));
    match(this.format)
      .with("json", () => (this.options.formatGiven ? records() : text()))
      .with("jsonl", "csv", records)
      .with("table", text)
      .exhaustive();
  }

  /** Free text for people (explanations, notes); always as given. */
  say(text: string): void {
    this.io.stdout(`${text}\n`);
  }

  progress(label: string): Progress {
    return new Progress(this.io, label);
  }

  /**
   * Asks before a destructive step when stdin is a terminal; `--yes` skips the question. With stdin
   * piped (scripts) nothing is asked: the command line itself must say what to act on.
   */
  async confirm(question: string, yes: boolean | undefined): Promise<void> {
    if (yes || !this.io.stdinIsTTY || this.dryRun) return;
    const answer = (await this.io.ask(`${question} [y/N] `)).trim().toLowerCase();
    if (answer !== "y" && answer !== "yes") throw new Error("not confirmed: nothing was done (--yes skips the question)");
  }
}
