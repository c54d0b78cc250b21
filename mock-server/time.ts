import { toWireDatetime } from "../src/vocabulary/datetime.js";

/**
 * Timestamps as the server renders them: UTC ISO-8601 with microseconds and `Z`
 * (DRF's DateTimeField output with USE_TZ and TIME_ZONE=UTC).
 */
export function serverTimestamp(input: unknown): string | undefined {
  // Already in the server's form (what the store and its files hold): nothing to rewrite.
  if (typeof input === "string" && input.length === 27 && STORED.test(input)) return input;
  const wire = toWireDatetime(input);
  if (!wire.ok) return undefined;
  const [head, fraction = ""] = wire.value.slice(0, -1).split(".");
  return `${head}.${fraction.padEnd(6, "0")}Z`;
}

const STORED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function nowTimestamp(): string {
  return serverTimestamp(new Date()) as string;
}

/** Django's `timesince` for `created_ago`: the two largest units, e.g. "2 days, 3 hours". */
export function timeSince(timestamp: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  const units: [string, number][] = [
    ["year", 365 * 86400],
    ["month", 30 * 86400],
    ["week", 7 * 86400],
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [name, size] of units) {
    const count = Math.floor(rest / size);
    if (count > 0 || parts.length > 0) {
      if (count > 0) parts.push(`${count}\u00a0${name}${count === 1 ? "" : "s"}`);
      rest -= count * size;
      if (parts.length === 2 || (parts.length === 1 && count === 0)) break;
    }
  }
  return parts.length ? parts.join(", ") : "0\u00a0minutes";
}
