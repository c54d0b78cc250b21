/**
 * Datetime values on the wire: UTC `YYYY-MM-DDTHH:MM:SS.ffffffZ` with 1–6 fraction digits — the
 * server parses `%Y-%m-%dT%H:%M:%S.%fZ` and reads the result as UTC
 * (docs/reference/filters.md#value-casting).
 */

/**
 * What the builder accepts for a Datetime value: a `Date`, an ISO-8601 date (`2024-01-31`), or a
 * date-time with a zone (`Z` or `±hh:mm`), `T` or a space between date and time: without a zone
 * JavaScript reads local time and the server UTC. A string literal is checked in full by
 * `DatetimeCheck` (the same rules as `toWireDatetime`); this type is its outline.
 */
export type IsoDateString =
  | IsoDate
  | `${IsoDate}${"T" | " "}${string}${"Z" | "z"}`
  | `${IsoDate}${"T" | " "}${string}${"+" | "-"}${number}`
  | `${IsoDate}${"T" | " "}${string}${"+" | "-"}${number}:${number}`;
type IsoDate = `${number}-${number}-${number}`;
/** A datetime value: a `Date` or an ISO string; the builder writes the server's format. */
export type DatetimeInput = Date | IsoDateString;

/*
 * The compile-time side of `toWireDatetime` for a string literal: `true`, or why it is refused, in
 * the words of the run-time error. A `Date` or a `string` held in a variable is checked at run time.
 */
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type Two<S> = S extends `${Digit}${Digit}` ? true : false;
/** Four digits, as two pairs: a pattern of four `Digit`s would be a union of 10,000 strings, built on the first check. */
type Four<S> = S extends `${infer A}${infer B}${infer R}` ? (Two<`${A}${B}`> extends true ? Two<R> : false) : false;
type Month = "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "09" | "10" | "11" | "12";
type Day =
  | Month
  | "13"
  | "14"
  | "15"
  | "16"
  | "17"
  | "18"
  | "19"
  | "20"
  | "21"
  | "22"
  | "23"
  | "24"
  | "25"
  | "26"
  | "27"
  | "28"
  | "29"
  | "30"
  | "31";
type Hour = Exclude<Day, "24" | "25" | "26" | "27" | "28" | "29" | "30" | "31"> | "00";
type Sixty = `${"0" | "1" | "2" | "3" | "4" | "5"}${Digit}`;
/** 1 to `Max` digits (as a tuple of seen digits). */
type Digits<S, Seen extends unknown[] = []> = S extends `${Digit}${infer R}`
  ? Seen["length"] extends 6
    ? "more"
    : Digits<R, [...Seen, 0]>
  : S extends ""
    ? Seen["length"] extends 0
      ? "none"
      : "ok"
    : "none";
type Zone<Z> = Z extends "Z" | "z"
  ? true
  : Z extends `${"+" | "-"}${infer H}${infer H2}${infer R}`
    ? `${H}${H2}` extends Hour
      ? R extends "" | `${"" | ":"}${Sixty}`
        ? true
        : false
      : false
    : false;

type Why = typeof datetimeWhy;
type Fail<S extends string, W extends string> = `${S}: ${W}`;
/** Seconds, a fraction, then the zone: `Rest` follows `hh:mm`. */
type AfterMinutes<S extends string, Rest> = Rest extends `:${infer S1}${infer S2}${infer R}`
  ? Two<`${S1}${S2}`> extends true
    ? `${S1}${S2}` extends Sixty
      ? FractionAndZone<S, R>
      : Fail<S, Why["seconds"]>
    : ZoneOf<S, Rest>
  : ZoneOf<S, Rest>;
type FractionAndZone<S extends string, Rest> = Rest extends `${"." | ","}${infer R}`
  ? R extends `${infer F}${"Z" | "z" | "+" | "-"}${string}`
    ? Digits<F> extends "ok"
      ? ZoneOf<S, R extends `${F}${infer Z}` ? Z : "">
      : Digits<F> extends "more"
        ? Fail<S, Why["fractionDigits"]>
        : Fail<S, Why["fraction"]>
    : Digits<R> extends "none"
      ? Fail<S, Why["fraction"]>
      : NoZone<S>
  : ZoneOf<S, Rest>;
type ZoneOf<S extends string, Z> = Z extends "" ? NoZone<S> : Zone<Z> extends true ? true : Fail<S, Why["zone"]>;
type NoZone<S extends string> = Fail<S, Why["noZone"]>;

/**
 * `true` when `toWireDatetime` accepts the string literal `S`; else why not, starting with `S`.
 * The calendar (February 30) and the year range are checked at run time.
 */
export type DatetimeCheck<S extends string> = S extends `${infer Y}-${infer M}-${infer Rest}`
  ? Four<Y> extends true
    ? M extends Month
      ? Rest extends `${infer D1}${infer D2}${infer T}`
        ? `${D1}${D2}` extends Day
          ? T extends ""
            ? true
            : T extends `${"T" | " "}${infer H1}${infer H2}:${infer M1}${infer M2}${infer R}`
              ? [Two<`${H1}${H2}`>, Two<`${M1}${M2}`>] extends [true, true]
                ? `${H1}${H2}` extends Hour
                  ? `${M1}${M2}` extends Sixty
                    ? AfterMinutes<S, R>
                    : Fail<S, Why["minutes"]>
                  : Fail<S, Why["hour"]>
                : Fail<S, Why["time"]>
              : Fail<S, Why["time"]>
          : Two<`${D1}${D2}`> extends true
            ? Fail<S, `day ${D1}${D2} does not exist`>
            : Fail<S, Why["date"]>
        : Fail<S, Why["date"]>
      : Two<M> extends true
        ? Fail<S, `month ${M} does not exist`>
        : Fail<S, Why["date"]>
    : Fail<S, Why["year"]>
  : Fail<S, Why["format"]>;

/** Exactly the form the server's strptime accepts. */
export const WIRE_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,6}Z$/;

export type DatetimeResult = { ok: true; value: string } | { ok: false; expected: string };

/** Why a datetime string is refused: the same words at run time and in `DatetimeCheck`'s compile errors. */
export const datetimeWhy = {
  format: "expected an ISO-8601 date (2024-01-31) or date-time with a zone (2024-01-31T10:00:00Z)",
  year: "expected a four-digit year, YYYY-MM-DD",
  date: "expected YYYY-MM-DD",
  time: "expected the date alone, or T (or a space) and hh:mm after it",
  hour: "the hour is out of range",
  minutes: "the minutes are out of range",
  seconds: "the seconds are out of range",
  fraction: "the fraction must be digits",
  fractionDigits: "at most 6 fraction digits (the server keeps microseconds)",
  zone: "the zone must be Z or an offset such as +02:00",
  noZone: "no zone: JavaScript reads it as local time (new Date() too), the server as UTC; add Z for UTC or an offset such as +02:00",
} as const;
const monthWhy = (m: string) => `month ${m} does not exist`;
const dayWhy = (d: string) => `day ${d} does not exist`;

const EXPECTED =
  "a valid Date or an ISO-8601 string: a date (2024-01-31) or a date-time with a zone (2024-01-31T10:00:00Z, 2024-01-31T12:00:00+02:00)";
const refused = (input: string, why: string): DatetimeResult => ({ ok: false, expected: `${EXPECTED}; ${input}: ${why}` });

const DATE = /^(\d{4})-(\d{2})-(\d{2})(.*)$/;
const TIME = /^[T ](\d{2}):(\d{2})(.*)$/;
const SECONDS = /^:(\d{2})(.*)$/;
const FRACTION = /^[.,](\d*)(\D.*)?$/; // \d* then a non-digit: one way to split, so linear
const ZONE = /^(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)$/;

/** A date-only string (`YYYY-MM-DD`): a range's `max` reads it as the end of that day (`toWireDatetime`'s `endOfDay`). */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The fields of an ISO string the builder accepts, or why it refuses it (the checks of `DatetimeCheck`, in the same order). */
function readIso(
  input: string,
): { y: number; mo: number; d: number; h: number; mi: number; s: number; frac: string; zone: string } | string {
  const date = DATE.exec(input);
  if (!date) return /^[^-]*-[^-]*-/.test(input) ? (/^\d{4}-/.test(input) ? datetimeWhy.date : datetimeWhy.year) : datetimeWhy.format;
  const [, y, mo, d, rest] = date as unknown as [string, string, string, string, string];
  if (Number(mo) < 1 || Number(mo) > 12) return monthWhy(mo);
  if (Number(d) < 1 || Number(d) > 31) return dayWhy(d);
  if (rest === "") return { y: Number(y), mo: Number(mo), d: Number(d), h: 0, mi: 0, s: 0, frac: "", zone: "Z" };
  const time = TIME.exec(rest);
  if (!time) return datetimeWhy.time;
  const [, h, mi, afterMinutes] = time as unknown as [string, string, string, string];
  if (Number(h) > 23) return datetimeWhy.hour;
  if (Number(mi) > 59) return datetimeWhy.minutes;
  let tail = afterMinutes,
    s = "0",
    frac = "";
  const seconds = SECONDS.exec(tail);
  if (seconds) {
    s = seconds[1] as string;
    if (Number(s) > 59) return datetimeWhy.seconds;
    tail = seconds[2] as string;
    const fraction = FRACTION.exec(tail);
    if (fraction) {
      frac = fraction[1] as string;
      tail = fraction[2] ?? "";
      if (frac === "" || (tail !== "" && !/^[Zz+-]/.test(tail))) return datetimeWhy.fraction;
      if (frac.length > 6) return datetimeWhy.fractionDigits;
    }
  }
  if (tail === "") return datetimeWhy.noZone;
  const zone = ZONE.exec(tail);
  if (!zone || Number(zone[1] ?? 0) > 23 || Number(zone[2] ?? 0) > 59) return datetimeWhy.zone;
  return { y: Number(y), mo: Number(mo), d: Number(d), h: Number(h), mi: Number(mi), s: Number(s), frac, zone: tail };
}

/**
 * Normalise a builder input to the server's UTC wire form, keeping sub-millisecond digits. A date
 * alone is the start of that day in UTC, as Django reads a date for a datetime with `TIME_ZONE =
 * "UTC"`; with `endOfDay` (a range's `max`) it is the last microsecond of that day, so that the
 * range holds the whole day (docs/reference/filters.md#dates-without-a-time).
 */
export function toWireDatetime(input: unknown, options: { readonly endOfDay?: boolean } = {}): DatetimeResult {
  if (input instanceof Date) {
    if (Number.isNaN(input.getTime())) return { ok: false, expected: `${EXPECTED}; found an invalid Date` };
    const iso = input.toISOString();
    // Years outside 0000-9999 print as "+010000-…", which the server's strptime cannot read.
    return WIRE_DATETIME.test(iso) ? { ok: true, value: iso } : { ok: false, expected: `${EXPECTED}; year out of range 0000-9999` };
  }
  if (typeof input !== "string") return { ok: false, expected: EXPECTED };
  if (WIRE_DATETIME.test(input)) return { ok: true, value: input };
  const f = readIso(input);
  if (typeof f === "string") return refused(input, f);
  const base = Date.UTC(f.y, f.mo - 1, f.d, f.h, f.mi, f.s);
  const check = new Date(base);
  if (check.getUTCMonth() !== f.mo - 1 || check.getUTCDate() !== f.d) {
    return refused(input, `${dayWhy(String(f.d).padStart(2, "0"))} in ${input.slice(0, 7)}`);
  }
  let offsetMinutes = 0;
  if (f.zone !== "Z" && f.zone !== "z") {
    const sign = f.zone.startsWith("-") ? -1 : 1;
    const digits = f.zone.slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0"));
  }
  const dayEnd = options.endOfDay === true && DATE_ONLY.test(input);
  const micros = dayEnd ? "999999" : f.frac.padEnd(6, "0");
  const ms = base - offsetMinutes * 60_000 + (dayEnd ? 86_399_000 : 0) + Number(micros.slice(0, 3));
  const iso = new Date(ms).toISOString(); // ...SS.mmmZ
  if (iso.length !== 24) return { ok: false, expected: `${EXPECTED}; year out of range 0000-9999` };
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
