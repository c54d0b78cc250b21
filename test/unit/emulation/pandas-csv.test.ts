import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { readCsvRecords } from "../../../src/emulation/pandas-csv.js";

/*
 * `readCsvRecords` is `pd.read_csv(...).fillna('').to_dict('records')` for an uploaded CSV or TSV file. The cases
 * below were measured on Label Studio 1.22 (a multipart import, then the stored task data); the properties hold the
 * quoting and the per-column typing to their rules on generated tables.
 */

/** A field as a CSV writer quotes it: in quotes, with quotes doubled, when it holds the separator, a quote or a line break. */
const quote = (field: string, sep: string) => (/["\r\n]/.test(field) || field.includes(sep) ? `"${field.replace(/"/g, '""')}"` : field);
const csv = (rows: readonly (readonly string[])[], sep = ",") => rows.map((r) => r.map((f) => quote(f, sep)).join(sep)).join("\n") + "\n";

describe("readCsvRecords: measured on the server", () => {
  test("column types: integers, floats, booleans, text; missing cells and NA words are empty text; blank lines skipped", () => {
    const text = 'text,i,f,b,bn,s,in,q\nx,1,1.5,True,true,a,1,"a,b"\ny,2,2,False,,1,,"c""d"\n\nz,3,3,true,NA,b,null,e\n';
    expect(readCsvRecords(text, ",")).toEqual([
      { text: "x", i: 1, f: 1.5, b: true, bn: true, s: "a", in: 1, q: "a,b" },
      { text: "y", i: 2, f: 2, b: false, bn: "", s: "1", in: "", q: 'c"d' },
      { text: "z", i: 3, f: 3, b: true, bn: "", s: "b", in: "", q: "e" },
    ]);
  });

  test("a repeated header name gets .1; a first row one field wider makes the first column the index", () => {
    expect(readCsvRecords("text,text\na,b\n", ",")).toEqual([{ text: "a", "text.1": "b" }]);
    expect(readCsvRecords("a,b\n1,2,3\n", ",")).toEqual([{ a: 2, b: 3 }]);
  });

  test("pandas' errors: no header at all; a row wider than the header", () => {
    expect(() => readCsvRecords("", ",")).toThrow("No columns to parse from file");
    expect(() => readCsvRecords("a,b\n1,2\n1,2,3,4\n", ",")).toThrow(
      "Error tokenizing data. C error: Expected 2 fields in line 3, saw 4\n",
    );
  });
});

describe("readCsvRecords: properties", () => {
  // Text cells that never read as a number, a boolean or an NA word: the column stays text.
  const word = fc
    .string({ unit: fc.constantFrom("a", "b", " ", ",", "\t", '"', "\n", "é", "x"), minLength: 1, maxLength: 8 })
    .map((s) => `w${s}`);

  test("quoted fields come back as written (separators, quotes and line breaks inside), for commas and tabs", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(",", "\t"),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(word, { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        (sep, width, cells) => {
          const header = Array.from({ length: width }, (_, i) => `k${i}`);
          const rows = cells.map((r) => r.slice(0, width));
          const records = readCsvRecords(csv([header, ...rows], sep), sep as "," | "\t");
          expect(records).toEqual(rows.map((r) => Object.fromEntries(header.map((k, i) => [k, r[i]]))));
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a column of integers stays integers; one missing cell makes it numbers with an empty cell; a word makes it text", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { minLength: 1, maxLength: 6 }), fc.nat(), (ints, at) => {
        const cells = ints.map(String);
        expect(readCsvRecords(csv([["n"], ...cells.map((c) => [c])]), ",").map((r) => r["n"])).toEqual(ints);
        const gap = at % cells.length;
        const holed = cells.map((c, i) => (i === gap ? "" : c));
        expect(readCsvRecords(csv([["n", "t"], ...holed.map((c) => [c, "x"])]), ",").map((r) => r["n"])).toEqual(
          ints.map((n, i) => (i === gap ? "" : n)),
        );
        const worded = cells.map((c, i) => (i === gap ? "word" : c));
        expect(readCsvRecords(csv([["n"], ...worded.map((c) => [c])]), ",").map((r) => r["n"])).toEqual(worded);
      }),
      { numRuns: 200 },
    );
  });
});
