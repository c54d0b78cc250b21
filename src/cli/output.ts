import { match } from "ts-pattern";
import { formatTable } from "./tables.js";
import { isPlainObject } from "../vocabulary/json.js";

/** The output formats (`--format`): every output matches on them exhaustively, so a new one must be handled everywhere. */
export const formats = ["json", "table"] as const;
export type Format = (typeof formats)[number];

const MAX_CELL = 48;
const MAX_COLUMNS = 8;

/** A cell: scalars as they are, anything else as compact JSON, shortened. */
function cell(value: unknown): string {
  const text = value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, " ");
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** The columns of a table of records: the preferred ones that occur, then others in first-seen order. */
function columnsOf(rows: readonly Record<string, unknown>[], preferred: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const row of rows.slice(0, 50)) for (const key of Object.keys(row)) seen.add(key);
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
    .exhaustive();
}

function tableOf(value: unknown, columns: readonly string[]): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "(none)";
    const rows = value.filter(isPlainObject);
    if (rows.length !== value.length) return value.map(cell).join("\n");
    const cols = columnsOf(rows, columns);
    return formatTable([cols, ...rows.map((r) => cols.map((c) => cell(r[c])))]);
  }
  if (isPlainObject(value)) return formatTable([["field", "value"], ...Object.entries(value).map(([k, v]) => [k, cell(v)])]);
  return cell(value);
}
