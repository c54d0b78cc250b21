import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  generalTimestamp,
  renderTimestamp,
  scanTimestamp,
  serverTimestamp,
  timestampFromMicros,
  timestampFromMs,
  timestampMicros,
} from "../../../src/vocabulary/timestamps.js";

// The scanner is a shortcut: on every text it must store what the general parser stores and refuse
// what it refuses (a seed's error names the value, so equal answers mean equal errors).

const num = (max: number, width: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(width, "0"));
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
const zone = fc.oneof(
  fc.constantFrom("Z", "Z", "Z", "z", "", "+00:00", "-00:00", "UTC", "+", "Z "),
  fc.tuple(fc.constantFrom("+", "-"), num(29, 2), fc.constantFrom("", ":", ";"), fc.oneof(num(69, 2), digits(0, 3))).map((p) => p.join("")),
);
const fraction = fc.oneof(
  fc.constant(""),
  fc.tuple(fc.constantFrom(".", ","), digits(0, 10)).map((p) => p.join("")),
);
/** Mostly a valid value, sometimes one at or past an edge. */
const part = (valid: fc.Arbitrary<string>, ...edges: string[]) =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: fc.constantFrom(...edges) });
/** Dates and times around every edge (day 0, Feb 29, hour 24, year < 100, …) in the forms people write. */
const timestamp = fc
  .record({
    year: part(num(9999, 4), "0000", "0099", "0100", "1900", "2000", "2023", "2024", "2100", "9999", "999", "10000"),
    month: part(num(12, 2), "00", "01", "02", "12", "13", "2", "1a"),
    day: part(num(28, 2), "00", "28", "29", "30", "31", "32", "1"),
    sep: fc.constantFrom("T", "T", "T", " ", "t", "_"),
    hour: part(num(23, 2), "00", "23", "24", "7"),
    minute: part(num(59, 2), "59", "60", "5"),
    second: part(num(59, 2), "59", "60", "61", "", "5"),
    fraction,
    zone,
    dateOnly: fc.boolean(),
  })
  .map((t) => {
    const date = `${t.year}-${t.month}-${t.day}`;
    if (t.dateOnly) return date;
    return `${date}${t.sep}${t.hour}:${t.minute}${t.second === "" ? "" : `:${t.second}`}${t.fraction}${t.zone}`;
  });
/** A timestamp with one character inserted, removed or replaced. */
const mutated = fc
  .tuple(timestamp, fc.nat(), fc.nat(), fc.constantFrom("", "0", "9", ":", "-", "T", "Z", "+", ".", " ", "é"))
  .map(([text, at, kind, char]) => {
    const i = at % (text.length + 1);
    const [before, rest] = [text.slice(0, i), text.slice(i)];
    return kind % 3 === 0 ? before + char + rest : kind % 3 === 1 ? before + rest.slice(1) : before + char + rest.slice(1);
  });
const anyText = fc.oneof(timestamp, timestamp, mutated, fc.string({ maxLength: 30 }));

describe("timestamp scanner", () => {
  test("stores exactly what the general parser stores, and refuses what it refuses", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const general = generalTimestamp(text);
        const scanned = scanTimestamp(text);
        if (scanned !== undefined) expect(scanned).toBe(general);
        expect(serverTimestamp(text)).toBe(general);
      }),
      { numRuns: 20_000 },
    );
  });

  test("a valid date-time in a common form is the scanner's (so the general parser is not the one deciding)", () => {
    const valid = fc
      .record({
        when: fc.date({ min: new Date("0101-01-02T00:00:00Z"), max: new Date("9998-12-30T00:00:00Z"), noInvalidDate: true }),
        micros: digits(0, 6),
        offset: fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        form: fc.constantFrom("Z", "z", "colon", "compact", "hours"),
      })
      .map(({ when, micros, offset, form }) => {
        const shown = new Date(when.getTime() + offset * 60_000).toISOString().slice(0, 19);
        const oh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0"),
          om = String(Math.abs(offset) % 60).padStart(2, "0");
        const sign = offset < 0 ? "-" : "+";
        const zoneText = { Z: "Z", z: "z", colon: `${sign}${oh}:${om}`, compact: `${sign}${oh}${om}`, hours: `${sign}${oh}` }[form];
        // Date.parse reads the ECMAScript forms only (Z, ±hh:mm): the instant is checked against it there.
        return { text: `${shown}${micros ? `.${micros}` : ""}${zoneText}`, ecmaForm: form !== "compact" && form !== "hours" };
      });
    fc.assert(
      fc.property(valid, ({ text, ecmaForm }) => {
        const scanned = scanTimestamp(text);
        expect(scanned).toBeDefined();
        expect(scanned).toBe(generalTimestamp(text));
        if (ecmaForm) expect(Date.parse(scanned as string)).toBe(Date.parse(text.replace(/\.(\d{3})\d*/, ".$1").replace(/z$/, "Z")));
      }),
      { numRuns: 5_000 },
    );
  });

  test("examples", () => {
    expect(scanTimestamp("2024-01-01T00:00:00Z")).toBe("2024-01-01T00:00:00.000000Z");
    expect(scanTimestamp("2024-01-01")).toBe("2024-01-01T00:00:00.000000Z");
    expect(scanTimestamp("2024-03-01T01:30:00.5+02:00")).toBe("2024-02-29T23:30:00.500000Z");
    expect(scanTimestamp("9999-12-31T23:00:00-01:00")).toBeUndefined(); // year 10000: the general parser refuses it
    expect(serverTimestamp("9999-12-31T23:00:00-01:00")).toBeUndefined();
    const stored = "2024-01-01T00:00:00.123456Z";
    expect(scanTimestamp(stored)).toBe(stored);
    // The server's own form is taken as written, range unchecked, as the general parser takes it.
    expect(scanTimestamp("2024-13-45T00:00:00.1Z")).toBe(generalTimestamp("2024-13-45T00:00:00.1Z"));
  });
});

describe("the stored form, both ways, and rendered", () => {
  /** An instant of years 1700–2250, in microseconds (the range where microseconds are exact doubles). */
  const instant = fc
    .integer({ min: Date.UTC(1700, 0, 1), max: Date.UTC(2250, 0, 1) })
    .chain((ms) => fc.integer({ min: 0, max: 999 }).map((us) => ms * 1000 + us));

  test("timestampFromMicros and timestampMicros are inverses; the scanner keeps the form; Date agrees to the millisecond", () => {
    fc.assert(
      fc.property(instant, (micros) => {
        const stored = timestampFromMicros(micros);
        expect(stored).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
        expect(timestampMicros(stored)).toBe(micros);
        expect(scanTimestamp(stored)).toBe(stored);
        expect(Date.parse(stored)).toBe(Math.floor(micros / 1000));
      }),
    );
  });

  test("timestampFromMs is the stored form of whole milliseconds", () => {
    fc.assert(
      fc.property(instant, (micros) => {
        expect(timestampFromMs(Math.floor(micros / 1000))).toBe(timestampFromMicros(Math.floor(micros / 1000) * 1000));
      }),
    );
    expect(timestampFromMs(Date.UTC(2024, 2, 1, 9))).toBe("2024-03-01T09:00:00.000000Z");
  });

  test("renderTimestamp: DRF's isoformat, microseconds only when not zero; other text through the general parser", () => {
    fc.assert(
      fc.property(instant, (micros) => {
        const rendered = renderTimestamp(timestampFromMicros(micros));
        expect(rendered).toBe(
          micros % 1_000_000 === 0 ? timestampFromMicros(micros).replace(".000000Z", "Z") : timestampFromMicros(micros),
        );
      }),
    );
    expect(renderTimestamp("2024-01-01T00:00:00.000000Z")).toBe("2024-01-01T00:00:00Z");
    expect(renderTimestamp("2024-01-01T00:00:00.5Z")).toBe("2024-01-01T00:00:00.500000Z");
    expect(renderTimestamp("2024-01-01T02:00:00+02:00")).toBe("2024-01-01T00:00:00Z");
    expect(renderTimestamp("not a time")).toBe("not a time");
  });

  test("timestampMicros reads any ISO 8601 text the engine may be given (no zone: UTC), null otherwise", () => {
    expect(timestampMicros("2024-01-01T00:00:00")).toBe(Date.UTC(2024, 0, 1) * 1000);
    expect(timestampMicros("2024-01-01T02:00:00.0000019+02:00")).toBe(Date.UTC(2024, 0, 1) * 1000 + 1);
    expect(timestampMicros("yesterday")).toBeNull();
    expect(timestampMicros(null)).toBeNull();
  });
});
