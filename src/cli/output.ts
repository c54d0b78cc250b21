import { match } from "ts-pattern";
import { formatTable } from "./tables.js";
import { isPlainObject } from "../vocabulary/json.js";

/**
 * The output formats (`--format`): JSON (pretty), a table for people, CSV and JSON lines for other
 * tools. Every output matches on them exhaustively, so a new one must be handled everywhere.
 */
export const formats = ["json", "table", "csv", "jsonl"] as const;
export type Format = (typeof formats)[number];

const MAX_CELL = 48;
const MAX_COLUMNS = 8;

/** A cell: scalars as they are, anything else as compact JSON, shortened. */
function cell(value: unknown): string {
  const text = value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, " ");
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** A record's value of a column: its field, or for `data.<key>` the key of its `data` (a task's data, as a filter names it). */
function cellValue(row: Record<string, unknown>, column: string): unknown {
  if (Object.hasOwn(row, column)) return row[column];
  const data = row["data"];
  return column.startsWith("data.") && isPlainObject(data) ? data[column.slice("data.".length)] : undefined;
}

/** The columns of a table of records: the preferred ones that occur, then others in first-seen order. */
function columnsOf(rows: readonly Record<string, unknown>[], preferred: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const row of rows.slice(0, 50)) for (const key of Object.keys(row)) seen.add(key);
  for (const column of preferred) if (!seen.has(column) && rows.some((r) => cellValue(r, column) !== undefined)) seen.add(column);
  const first = preferred.filter((c) => seen.has(c));
  const rest = [...seen].filter((c) => !first.includes(c) && rows.some((r) => !isPlainObject(r[c]) && !Array.isArray(r[c])));
  return preferred.length > 0 && first.length > 0 ? first : [...first, ...rest].slice(0, MAX_COLUMNS);
}

/**
 * JSON (pretty, pipe-friendly) or a plain-text table: a list of records as rows, one record as
 * field/value lines. `columns` picks a resource's useful columns for tables.
 */
export function render(value: unknown, format: Format, columns: readonly string[] = []): string {
  return match(format)
    .with("json", () => JSON.stringify(value ?? null, null, 2))
    .with("table", () => tableOf(value, columns))
    .with("csv", () => csvOf(value, columns))
    .with("jsonl", () => jsonLines(value))
    .exhaustive();
}

/** One compact JSON value per line: each item of a list, else the value itself. */
export function jsonLines(value: unknown): string {
  return (Array.isArray(value) ? value : [value]).map((v) => JSON.stringify(v ?? null)).join("\n");
}

/** A CSV field (RFC 4180): scalars as text, anything else as compact JSON; quoted when it holds a comma, quote or line break. */
function csvField(value: unknown): string {
  const text = value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * CSV with a header row, for spreadsheets: a list of records as rows with every field (the
 * resource's useful columns first, then the others in first-seen order), one record as one row.
 */
function csvOf(value: unknown, columns: readonly string[]): string {
  const rows = (Array.isArray(value) ? value : [value]).map((v) => (isPlainObject(v) ? v : { value: v }));
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  const header = [...columns.filter((c) => seen.has(c)), ...[...seen].filter((c) => !columns.includes(c))];
  return [header, ...rows.map((r) => header.map((c) => cellValue(r, c)))].map((line) => line.map(csvField).join(",")).join("\r\n");
}

function tableOf(value: unknown, columns: readonly string[]): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "(none)";
    const rows = value.filter(isPlainObject);
    if (rows.length !== value.length) return value.map(cell).join("\n");
    const cols = columnsOf(rows, columns);
    return formatTable([cols, ...rows.map((r) => cols.map((c) => cell(cellValue(r, c))))]);
  }
  if (isPlainObject(value)) return formatTable([["field", "value"], ...Object.entries(value).map(([k, v]) => [k, cell(v)])]);
  return cell(value);
}
