import { timestampMicros } from "../src/vocabulary/timestamps.js";

/** Django's `timesince` for `created_ago`: the two largest units, e.g. "2 days, 3 hours". */
export function timeSince(timestamp: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - Math.floor((timestampMicros(timestamp) ?? Number.NaN) / 1000)) / 1000));
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
