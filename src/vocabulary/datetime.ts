/**
 * Datetime values on the wire: UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ` with 1–6 fraction digits — the
 * server parses `%Y-%m-%dT%H:%M:%S.%fZ` and reads the result as UTC
 * (docs/reference/filters.md#value-casting).
 */

/**
 * What the builder accepts for a Datetime value: a `Date`, an ISO-8601 date, or a date-time with a
 * zone (`Z` or `±hh:mm`): without one JavaScript reads local time and the server UTC.
 */
export type IsoDateString =
  | IsoDate
  | `${IsoDate}T${string}${"Z" | "z"}`
  | `${IsoDate}T${string}${"+" | "-"}${number}`
  | `${IsoDate}T${string}${"+" | "-"}${number}:${number}`;
type IsoDate = `${number}-${number}-${number}`;
/** A datetime value: a `Date` or an ISO string; the builder writes the server's format. */
export type DatetimeInput = Date | IsoDateString;

/** Exactly the form the server's strptime accepts. */
export const WIRE_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,6}Z$/;

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

export type DatetimeResult = { ok: true; value: string } | { ok: false; expected: string };

const EXPECTED =
  "a valid Date or an ISO-8601 string with a zone (e.g. 2024-01-01T00:00:00Z, 2024-01-01T02:00:00+02:00) or a date (2024-01-01)";

/** Normalise a builder input to the server's UTC wire form, keeping sub-millisecond digits. */
export function toWireDatetime(input: unknown): DatetimeResult {
  if (input instanceof Date) {
    if (Number.isNaN(input.getTime())) return { ok: false, expected: EXPECTED };
    const iso = input.toISOString();
    // Years outside 0000-9999 print as "+010000-…", which the server's strptime cannot read.
    return WIRE_DATETIME.test(iso) ? { ok: true, value: iso } : { ok: false, expected: `${EXPECTED}; year out of range 0000-9999` };
  }
  if (typeof input !== "string") return { ok: false, expected: EXPECTED };
  if (WIRE_DATETIME.test(input)) return { ok: true, value: input };
  const m = ISO.exec(input);
  if (!m) return { ok: false, expected: EXPECTED };
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h !== undefined && zone === undefined) {
    // A zone-less date-time is local time for JavaScript but UTC for the server: refuse to guess.
    return { ok: false, expected: `${EXPECTED}; a date-time without Z or an offset is ambiguous` };
  }
  if (frac !== undefined && frac.length > 6) return { ok: false, expected: `${EXPECTED}; at most 6 fraction digits` };
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  const hour = Number(h ?? 0),
    minute = Number(mi ?? 0),
    second = Number(s ?? 0);
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(base);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return { ok: false, expected: `${EXPECTED}; the date or time is out of range` };
  }
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== "Z" && zone !== "z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2)),
      om = Number(digits.slice(2) || "0");
    if (oh > 23 || om > 59) return { ok: false, expected: `${EXPECTED}; the offset is out of range` };
    offsetMinutes = sign * (oh * 60 + om);
  }
  const micros = (frac ?? "").padEnd(6, "0");
  const ms = base - offsetMinutes * 60_000 + Number(micros.slice(0, 3));
  const iso = new Date(ms).toISOString(); // ...SS.mmmZ
  if (iso.length !== 24) return { ok: false, expected: `${EXPECTED}; year out of range` };
  const extra = micros.slice(3);
  return { ok: true, value: extra === "000" ? iso : `${iso.slice(0, -1)}${extra}Z` };
}

/** Microseconds since the epoch of a wire datetime (for exact comparisons), or undefined. */
export function wireDatetimeMicros(value: string): number | undefined {
  if (!WIRE_DATETIME.test(value)) return undefined;
  const dot = value.indexOf(".");
  const ms = Date.parse(`${value.slice(0, dot)}Z`);
  const micros = Number(value.slice(dot + 1, -1).padEnd(6, "0"));
  return ms * 1000 + micros;
}
