import type { JsonValue } from "../vocabulary/json.js";
import { PyException } from "./exceptions.js";

/**
 * `pd.read_csv(file, sep=sep).fillna('').to_dict('records')` as Label Studio reads an uploaded CSV or TSV file
 * (label_studio/data_import/models.py `FileUpload.read_tasks_list_from_csv`), with pandas' defaults: the first
 * line is the header (a repeated name gets `.1`, `.2`; an empty one `Unnamed: <i>`), blank lines are skipped,
 * quotes are `"` (doubled inside), a short row is filled with missing values, and each column gets one type:
 * integers when every present value is one and none is missing, floats when every present value is a number,
 * booleans where every present value is `True`/`TRUE`/`true`/`False`/`FALSE`/`false`, else the text as written.
 * Missing values (an empty cell, `NA`, `null`, `NaN`, … — pandas' default NA words) become `""`.
 *
 * Not emulated: floats keep no `.0` in JSON here (the server writes `1.0` where the column is float), numbers
 * past 2^53 lose digits, and pandas' other parser options.
 */

/** pandas' default `na_values` (pandas/_libs/parsers.pyx `STR_NA_VALUES`). */
const NA_WORDS = new Set([
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]);
const TRUE_WORDS = new Set(["True", "TRUE", "true"]);
const FALSE_WORDS = new Set(["False", "FALSE", "false"]);
const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** One parsed line: its fields and the (1-based) line number it started on. */
interface Row {
  readonly fields: string[];
  readonly line: number;
}

/** Splits the text into rows of fields: `"` quotes a field (`""` inside is one quote), line breaks inside quotes are kept. */
function tokenize(text: string, sep: string): Row[] {
  const rows: Row[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let started = false; // the row has content (a field or a separator)
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    if (started) rows.push({ fields: [...fields, field], line: rowLine });
    fields = [];
    field = "";
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === "\n") line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === "") {
      quoted = true;
      started = true;
    } else if (ch === sep) {
      fields.push(field);
      field = "";
      started = true;
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      field += ch;
      started = true;
    }
  }
  endRow();
  return rows;
}

/** pandas' header names: a repeated name gets `.1`, `.2`, …; an empty one `Unnamed: <position>`. */
function headerNames(fields: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return fields.map((raw, i) => {
    const name = raw === "" ? `Unnamed: ${i}` : raw;
    const count = seen.get(name) ?? 0;
    seen.set(name, count + 1);
    return count === 0 ? name : `${name}.${count}`;
  });
}

/** The column's values once pandas typed it, missing ones as `""` (`fillna('')`). */
function typedColumn(cells: readonly (string | undefined)[]): JsonValue[] {
  const present = cells.filter((c): c is string => c !== undefined && !NA_WORDS.has(c));
  const missing = present.length < cells.length;
  const fill = (f: (c: string) => JsonValue) => cells.map((c) => (c === undefined || NA_WORDS.has(c) ? "" : f(c)));
  if (present.length === 0) return fill(() => "");
  if (!missing && present.every((c) => INTEGER.test(c))) return fill((c) => Number(c));
  if (present.every((c) => INTEGER.test(c) || FLOAT.test(c))) return fill((c) => Number(c));
  if (present.every((c) => TRUE_WORDS.has(c) || FALSE_WORDS.has(c))) return fill((c) => TRUE_WORDS.has(c));
  return fill((c) => c);
}

/** The records of a delimited text, each a dict of the header's names; throws pandas' errors as Python exceptions. */
export function readCsvRecords(text: string, sep: "," | "\t"): Record<string, JsonValue>[] {
  const rows = tokenize(text, sep);
  const [header, ...body] = rows;
  if (header === undefined) throw new PyException("EmptyDataError", "No columns to parse from file");
  let names = headerNames(header.fields);
  // pandas takes the first column as the index when the first row has one field more than the header.
  const indexed = body[0] !== undefined && body[0].fields.length === names.length + 1;
  const width = names.length + (indexed ? 1 : 0);
  for (const row of body) {
    if (row.fields.length > width) {
      throw new PyException(
        "ParserError",
        `Error tokenizing data. C error: Expected ${width} fields in line ${row.line}, saw ${row.fields.length}\n`,
      );
    }
  }
  const cells = body.map((row) => (indexed ? row.fields.slice(1) : row.fields));
  const columns = names.map((_, c) => typedColumn(cells.map((fields) => fields[c])));
  names = [...names];
  return cells.map((_, r) => Object.fromEntries(names.map((name, c) => [name, columns[c]?.[r] ?? ""])));
}
