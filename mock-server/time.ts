import { toWireDatetime } from "../src/vocabulary/datetime.js";
import { scanTimestamp } from "./timestamp-scan.js";

/**
 * Timestamps as the server renders them: UTC ISO-8601 with microseconds and `Z`
 * (DRF's DateTimeField output with USE_TZ and TIME_ZONE=UTC). The common forms are read by a
 * scanner; the rest (and every bad value) by the builder's general parser, which decides.
 */
export function serverTimestamp(input: unknown): string | undefined {
  return (typeof input === "string" ? scanTimestamp(input) : undefined) ?? generalTimestamp(input);
}

/** The general path: `toWireDatetime`, padded to microseconds (the reference the scanner is tested against). */
export function generalTimestamp(input: unknown): string | undefined {
  const wire = toWireDatetime(input);
  if (!wire.ok) return undefined;
  const [head, fraction = ""] = wire.value.slice(0, -1).split(".");
  return `${head}.${fraction.padEnd(6, "0")}Z`;
}

/** The last timestamp handed out, in microseconds since the epoch. */
let lastMicros = 0;

/**
 * The time now, as the server stamps a row: Django calls `timezone.now()` once per row saved (in a
 * bulk_create too), so the rows one request makes get distinct, increasing microsecond timestamps.
 * JavaScript's clock has milliseconds: within one, each call is one microsecond later than the last.
 */
export function nowTimestamp(): string {
  const micros = Math.max(Date.now() * 1000, lastMicros + 1);
  lastMicros = micros;
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}${String(micros - ms * 1000).padStart(3, "0")}Z`;
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
