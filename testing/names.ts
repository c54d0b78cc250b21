import { randomBytes } from "node:crypto";

/** The server's limit on a project title (`PROJECT_TITLE_MAX_LEN` in `core/settings/base.py`). */
export const TITLE_MAX_LENGTH = 50;

/**
 * One id per process (its pid and random bits): parallel workers, and runs on other machines against
 * the same server, never share a title, so the kit can always tell its own projects from anyone else's.
 */
const run = `${process.pid.toString(36)}${randomBytes(3).toString("hex")}`;
let counter = 0;

/** `<prefix> ·dmq-<run>-<n>`, the prefix cut so that the whole fits the server's limit. */
export function uniqueTitle(prefix: string): string {
  const suffix = ` ·dmq-${run}-${++counter}`;
  const head = [...prefix.trim()].slice(0, TITLE_MAX_LENGTH - suffix.length).join("");
  return `${head}${suffix}`;
}
