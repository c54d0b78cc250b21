import { actions, actionIds } from "../vocabulary/actions.js";
import { columnKinds, dataKindByType, type ColumnKindName } from "../vocabulary/column-kinds.js";
import { columnNames, columns } from "../vocabulary/columns.js";
import { operatorNames, operators } from "../vocabulary/operators.js";
import { spellings } from "./query/condition.js";

/** A vocabulary table for `dmq columns|operators|actions catalog`: its header and rows, derived from the data. */
export interface Table {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The table's rows as records keyed by the header: what `--format json|jsonl|csv` prints. */
export function tableRecords(table: Table): Record<string, string>[] {
  return table.rows.map((row) => Object.fromEntries(table.header.map((name, i) => [name, row[i] ?? ""])));
}

/** Rows of text as aligned columns (the first row is the header). */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")).join("\n");
}

const methodsOf = (kind: ColumnKindName) =>
  Object.keys(columnKinds[kind].operators)
    .map((op) => operators[op as keyof typeof operators].method)
    .join(" ");

/** The kinds a `data.<key>` column can have: untyped, then one per filter type (in table order). */
const dataKinds: readonly ColumnKindName[] = ["dataAny", ...new Set(Object.values(dataKindByType))];

export function columnsTable(): Table {
  const rows = columnNames.map((c) => [
    `tasks:${c}`,
    columns[c].kind,
    columnKinds[columns[c].kind].type,
    columns[c].edition,
    methodsOf(columns[c].kind),
  ]);
  const data = dataKinds.map((k) => [
    k === "dataAny" ? "tasks:data.<key>" : `tasks:data.<key>@${columnKinds[k].type}`,
    k,
    k === "dataAny" ? "(from value)" : columnKinds[k].type,
    "community",
    methodsOf(k),
  ]);
  return { header: ["column", "kind", "type", "edition", "operators"], rows: [...rows, ...data] };
}

/** Operators with their spellings in `--where` conditions. */
export function operatorsTable(): Table {
  return {
    header: ["operator", "method", "value", "meaning", "in conditions"],
    rows: operatorNames.map((o) => [
      o,
      operators[o].method,
      operators[o].arity,
      operators[o].label,
      spellings[o].map((s) => s.word).join("  "),
    ]),
  };
}

export function actionsTable(): Table {
  const rows = [...actionIds]
    .sort((a, b) => actions[a].order - actions[b].order)
    .map((id) => {
      const a = actions[id];
      const params = Object.entries(a.params)
        .map(([name, p]) => `${name}${p.required ? "" : "?"}:${p.shape}`)
        .join(" ");
      return [id, a.title, a.edition, a.visibility, params || "-"];
    });
  return { header: ["action", "title", "edition", "shown", "params"], rows };
}
