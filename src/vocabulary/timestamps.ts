import { toWireDatetime } from "./datetime.js";

/*
 * Stored timestamps, in one place: the store keeps every timestamp in one form,
 * `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, six fraction digits). This file reads text into it
 * (`serverTimestamp`, `scanTimestamp`), makes it from an instant (`timestampFromMicros`,
 * `timestampFromMs`, `nowTimestamp`), reads it to microseconds (`timestampMicros`) and renders it
 * as DRF does (`renderTimestamp`); one proleptic Gregorian calendar serves them all.
 */

/**
 * The common ISO-8601 forms of a seed's timestamps, read character by character into the stored
 * form (`YYYY-MM-DDTHH:MM:SS.ffffffZ`): a date, or a date-time with seconds, an optional `.` or `,`
 * fraction of up to 6 digits and a zone (`Z`, `z`, `±hh`, `±hhmm`, `±hh:mm`). It answers only what it
 * is sure of; anything else (bad text included) is `undefined`, left to the general parser
 * (`toWireDatetime`), so that the values it stores and the errors a seed gets are that parser's. The
 * property test in test/unit/vocabulary/timestamps.test.ts holds it to that parser's answers.
 * A seed of 100k tasks holds about 600k timestamps: the general parser's regular expression, `Date`
 * and string slicing cost about 5 µs each; this about 0.1 µs.
 */
export function scanTimestamp(s: string): string | undefined {
  const n = s.length;
  // The stored form itself (what the store's files hold): one native regular-expression test, which
  // costs the same before the JIT has warmed up to this function.
  if (n === 27 && STORED.test(s)) return s;
  if (n < 10) return undefined;
  const year = digits4(s, 0),
    month = digits2(s, 5),
    day = digits2(s, 8);
  if (year < 0 || month < 0 || day < 0 || s.charCodeAt(4) !== DASH || s.charCodeAt(7) !== DASH) return undefined;
  if (n === 10) return validDate(year, month, day) ? flat(`${s}T00:00:00.000000Z`) : undefined;
  const sep = s.charCodeAt(10);
  const hour = digits2(s, 11),
    minute = digits2(s, 14),
    second = digits2(s, 17);
  if ((sep !== T && sep !== SPACE) || hour < 0 || minute < 0 || second < 0 || s.charCodeAt(13) !== COLON || s.charCodeAt(16) !== COLON) {
    return undefined;
  }
  // The fraction: 1 to 6 digits after `.` or `,` (the general parser refuses more than 6).
  let at = 19,
    fractionEnd = 19;
  const mark = s.charCodeAt(19);
  if (mark === DOT || mark === COMMA) {
    at = 20;
    while (at < n && isDigit(s.charCodeAt(at))) at++;
    if (at === 20 || at > 26) return undefined;
    fractionEnd = at;
  }
  const zone = s.charCodeAt(at);
  let offset = 0; // minutes east of UTC
  if (zone === Z || zone === LOWER_Z) {
    if (at + 1 !== n) return undefined;
    // The server's own form (`…SS.f{1,6}Z`) is taken as it is written, as the general parser does.
    if (zone === Z && sep === T && mark === DOT) {
      return fractionEnd === 26 ? s : flat(`${s.slice(0, fractionEnd)}${ZEROS.slice(fractionEnd - 20)}Z`);
    }
  } else if (zone === PLUS || zone === DASH) {
    const oh = digits2(s, at + 1);
    const rest = n - (at + 3);
    const om = rest === 0 ? 0 : rest === 2 ? digits2(s, at + 3) : rest === 3 && s.charCodeAt(at + 3) === COLON ? digits2(s, at + 4) : -1;
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return undefined;
    offset = (zone === PLUS ? 1 : -1) * (oh * 60 + om);
  } else return undefined; // no zone: the general parser refuses it as ambiguous
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = mark === DOT || mark === COMMA ? `${s.slice(20, fractionEnd)}${ZEROS.slice(fractionEnd - 20)}` : ZEROS;
  if (offset === 0 && sep === T) return flat(`${s.slice(0, 19)}.${fraction}Z`);
  // Shift to UTC on the day count (days since 1970-01-01), as `Date` does.
  const minutes = hour * 60 + minute - offset;
  const dayShift = Math.floor(minutes / 1440);
  const m = minutes - dayShift * 1440;
  let y = year,
    mo = month,
    d = day;
  if (dayShift !== 0) {
    const civil = civilFromDays(daysFromCivil(year, month, day) + dayShift);
    if (civil.year < 0 || civil.year > 9999) return undefined;
    ({ year: y, month: mo, day: d } = civil);
  }
  return flat(`${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(Math.floor(m / 60), 2)}:${pad(m % 60, 2)}:${s.slice(17, 19)}.${fraction}Z`);
}

const STORED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DASH = 45,
  T = 84,
  SPACE = 32,
  COLON = 58,
  DOT = 46,
  COMMA = 44,
  Z = 90,
  LOWER_Z = 122,
  PLUS = 43,
  ZERO = 48;
const ZEROS = "000000";

const isDigit = (c: number) => c >= ZERO && c <= ZERO + 9;
/** The number in two (four) decimal digits at `at`, or -1. */
function digits2(s: string, at: number): number {
  const a = s.charCodeAt(at) - ZERO,
    b = s.charCodeAt(at + 1) - ZERO;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
function digits4(s: string, at: number): number {
  const hi = digits2(s, at),
    lo = digits2(s, at + 2);
  return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
}
function digits6(s: string, at: number): number {
  const hi = digits4(s, at),
    lo = digits2(s, at + 4);
  return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
}
const pad = (v: number, width: number) => String(v).padStart(width, "0");

/**
 * Years before 100 are refused, as by the general parser (`Date.UTC` reads them as 19xx); the day
 * must exist in its month of the proleptic Gregorian calendar.
 */
function validDate(year: number, month: number, day: number): boolean {
  return year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// Days from and to a civil date, proleptic Gregorian (the algorithms of H. Hinnant's "chrono-Compatible
// Low-Level Date Algorithms", written out here).
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/**
 * A string built by concatenation is a rope that keeps its pieces (and the seed's text they were
 * sliced from) alive; reading a character flattens it into one 27-byte string, which is what the
 * store keeps (about 100 bytes less per timestamp).
 */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

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

/** The stored form of an instant given in microseconds since the epoch (years 0000–9999). */
export function timestampFromMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  return `${new Date(ms).toISOString().slice(0, 23)}${pad(micros - ms * 1000, 3)}Z`;
}

/** The stored form of an instant given in whole milliseconds since the epoch (a clock's `now()`). */
export function timestampFromMs(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
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
  return timestampFromMicros(micros);
}

// ---------------------------------------------------------------------------------------------
// To microseconds

const RECORD_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Microseconds since the epoch of a stored timestamp (ISO 8601; without a zone it is UTC, as the
 * server's naive datetimes are), or null when it does not parse. The engine reads records it did
 * not load itself, so any ISO 8601 text is read, not only the stored form.
 */
export function timestampMicros(text: string | null | undefined): number | null {
  if (typeof text !== "string") return null;
  // Fast path for the stored form YYYY-MM-DDTHH:MM:SS.ffffffZ: Date.parse reads it to the millisecond.
  if (text.length === 27 && text.charCodeAt(26) === Z && text.charCodeAt(19) === DOT && text.charCodeAt(10) === T) {
    const exact = storedMicros(text);
    if (exact !== undefined) return exact;
    const ms = Date.parse(text);
    const micro = Number(text.slice(23, 26));
    if (!Number.isNaN(ms) && !Number.isNaN(micro)) return ms * 1000 + micro;
  }
  const m = RECORD_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  let ms = date.getTime();
  if (Number.isNaN(ms)) return null;
  if (zone && zone !== "Z" && zone !== "z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0")) * 60_000;
  }
  return ms * 1000 + Number(frac.slice(0, 6).padEnd(6, "0"));
}

/**
 * The stored form read digit by digit (no Date.parse: it runs once per task in a cold query), for
 * in-range fields only; anything else (Feb 30, hour 24) is left to Date.parse, whose lenient
 * answers the engine keeps.
 */
function storedMicros(s: string): number | undefined {
  if (s.charCodeAt(4) !== DASH || s.charCodeAt(7) !== DASH || s.charCodeAt(13) !== COLON || s.charCodeAt(16) !== COLON) return undefined;
  const y = digits4(s, 0),
    mo = digits2(s, 5),
    d = digits2(s, 8);
  const h = digits2(s, 11),
    mi = digits2(s, 14),
    sec = digits2(s, 17),
    frac = digits6(s, 20);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || frac < 0) return undefined;
  if (d > daysInMonth(y, mo)) return undefined;
  // Milliseconds (exact for any 4-digit year), then the sub-millisecond digits: the same two
  // operations as Date.parse(text) * 1000 + micro, so far years round alike too.
  const ms = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + Math.floor(frac / 1000);
  return ms * 1000 + (frac % 1000);
}

// ---------------------------------------------------------------------------------------------
// Rendered

/**
 * DRF's DateTimeField output with USE_TZ and TIME_ZONE "UTC": `datetime.isoformat()` with
 * "+00:00" written "Z", so microseconds appear only when they are not zero, always as six digits.
 */
export function renderTimestamp(stored: string): string {
  if (stored.length === 27 && stored.charCodeAt(10) === T && stored.charCodeAt(19) === DOT && stored.charCodeAt(26) === Z) {
    return stored.endsWith(".000000Z") ? `${stored.slice(0, 19)}Z` : stored;
  }
  const wire = toWireDatetime(stored);
  if (!wire.ok) return stored;
  const [head, fraction = ""] = wire.value.slice(0, -1).split(".");
  const micros = fraction.padEnd(6, "0");
  return /^0+$/.test(micros) ? `${head}Z` : `${head}.${micros}Z`;
}
