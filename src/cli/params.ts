import { readFileSync } from "node:fs";
import { InvalidArgumentError } from "@commander-js/extra-typings";
import { isPlainObject, type JsonValue } from "../vocabulary/json.js";
import { CliUsageError } from "./errors.js";

export type Params = Record<string, JsonValue>;

export function readTextFile(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new CliUsageError(`${what}: cannot read ${JSON.stringify(path)} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

/** A file's bytes (an upload: any file the server takes, images too). */
export function readBinaryFile(path: string, what: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (error) {
    throw new CliUsageError(`${what}: cannot read ${JSON.stringify(path)} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

/** `@path` reads a file; anything else is the text itself. */
export function readArgument(text: string, flag: string): string {
  return text.startsWith("@") ? readTextFile(text.slice(1), flag) : text;
}

export function isParams(value: JsonValue | undefined): value is Params {
  return isPlainObject(value);
}

/** JSON when the text is JSON, else the text itself (as the official SDK's CLI reads values). */
export function jsonOrText(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** commander collector for repeatable `--param key=value`: later keys win. */
export function collectParam(item: string, previous: Params | undefined): Params {
  const eq = item.indexOf("=");
  if (eq <= 0) throw new InvalidArgumentError(`expected key=value (value: JSON, text or @file), found ${JSON.stringify(item)}`);
  const key = item.slice(0, eq);
  return { ...previous, [key]: jsonOrText(readArgument(item.slice(eq + 1), `--param ${key}`)) };
}

/** `--body '{"title": "x"}'` or `--body @file.json`: a JSON object whose keys are parameters. */
export function parseBody(text: string): Params {
  const source = text.startsWith("@") ? `the file ${JSON.stringify(text.slice(1))}` : "the argument";
  let value: JsonValue;
  try {
    value = JSON.parse(readArgument(text, "--body")) as JsonValue;
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new InvalidArgumentError(`expected a JSON object (or @file holding one), found ${source} not JSON`);
  }
  // The kind only, never the content: a body may carry a secret.
  if (!isParams(value))
    throw new InvalidArgumentError(`expected a JSON object (or @file holding one), found ${source} holding ${jsonKind(value)}`);
  return { ...value };
}

function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  return `a ${typeof value}`;
}

/** Reads a positive integer (ids, counts) for commander. */
export function positiveInt(text: string): number {
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`expected a positive integer, found ${JSON.stringify(text)}`);
  }
  return n;
}

export function nonNegativeInt(text: string): number {
  return text.trim() === "0" ? 0 : positiveInt(text);
}

export function positiveNumber(text: string): number {
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`expected a number > 0, found ${JSON.stringify(text)}`);
  return n;
}

/** The params of `--body` overridden by `--param` (the SDK's order). */
export function mergeParams(body: Params | undefined, params: Params | undefined): Params {
  return { ...body, ...params };
}
