import { match, P } from "ts-pattern";
import { formatTable } from "../tables.js";
import { render, type Format } from "../output.js";
import type { Comparison, VerifyReport } from "./run.js";
import { tally } from "./run.js";
import { areaNames, areas } from "./scenario.js";
import type { EnvironmentRow } from "./environment.js";

const MAX_LISTED = 200;
const MAX_VALUE = 160;

const text = (v: unknown): string => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  const flat = (s ?? "undefined").replace(/\s+/g, " ");
  return flat.length > MAX_VALUE ? `${flat.slice(0, MAX_VALUE - 1)}…` : flat;
};

/** The counts per area as table rows, with a total (docs/verify.md shows the same table). */
export function countsTable(report: Pick<VerifyReport, "comparisons">): string[][] {
  const rows: string[][] = [["area", "comparisons", "agree", "differ", "environment"]];
  const sum = { comparisons: 0, agree: 0, differ: 0, environment: 0 };
  for (const [area, t] of tally(report.comparisons)) {
    if (t.comparisons === 0) continue;
    rows.push([area, String(t.comparisons), String(t.agree), String(t.differ), String(t.environment)]);
    for (const k of ["comparisons", "agree", "differ", "environment"] as const) sum[k] += t[k];
  }
  rows.push(["total", String(sum.comparisons), String(sum.agree), String(sum.differ), String(sum.environment)]);
  return rows;
}

export const unexplained = (report: Pick<VerifyReport, "comparisons">): readonly Comparison[] =>
  report.comparisons.filter((c) => c.verdict === "differ");

function causeText(row: EnvironmentRow): string {
  if ("database" in row.cause) return `database: ${row.cause.database}`;
  if ("before" in row.cause) return `server older than ${row.cause.before}`;
  if ("marker" in row.cause) return `the mock's marker ${row.cause.marker}`;
  if ("process" in row.cause) return `the server process's ${row.cause.process}`;
  return `the server's ${row.cause.dependency}`;
}

/** A report for people: the counts, every unexplained difference by area, then what the environment explains, by reason. */
export function formatReport(report: VerifyReport, format: Format): string {
  return (
    match(format)
      .with("json", () => JSON.stringify(jsonReport(report), null, 2))
      .with("table", () => tableReport(report))
      // One comparison per line or row (the explaining rows' ids in `explained`): for a spreadsheet or jq.
      .with(P.union("csv", "jsonl"), (f) => render(report.comparisons.map(comparisonRecord), f, COMPARISON_COLUMNS))
      .exhaustive()
  );
}

const COMPARISON_COLUMNS = ["scenario", "area", "aspect", "verdict", "differences", "explained"] as const;

/** A comparison as one flat record: its unexplained differences, and the rows that explain the others. */
function comparisonRecord(c: Comparison): Record<(typeof COMPARISON_COLUMNS)[number], unknown> {
  return {
    scenario: c.scenario,
    area: c.area,
    aspect: c.aspect,
    verdict: c.verdict,
    differences: c.differences,
    explained: [...new Set(c.explained.map((e) => e.row))],
  };
}

/** The report as JSON: regular expressions of the rows as their source text. */
export function jsonReport(report: VerifyReport): unknown {
  return {
    ...report,
    summary: Object.fromEntries(tally(report.comparisons)),
    unexplained: unexplained(report).length,
    rows: report.rows.map((r) => ({
      ...r,
      ...(r.scenario ? { scenario: r.scenario.source } : {}),
      ...(r.path ? { path: r.path.source } : {}),
      ...(r.equalAfter ? { equalAfter: r.equalAfter.source } : {}),
    })),
  };
}

function tableReport(report: VerifyReport): string {
  const out: string[] = [];
  const total = report.comparisons.length;
  out.push(
    `dmq verify: ${report.target.url} (Label Studio ${report.target.version}, ${report.target.database}) against the mock (${report.mock.version}): ` +
      `${total} comparisons in ${Math.round(report.seconds)} s`,
    "",
    formatTable(countsTable(report)),
  );
  const differ = unexplained(report);
  if (differ.length) {
    out.push("", `Unexplained differences (${differ.length}), by area:`);
    let listed = 0;
    for (const area of areaNames) {
      const inArea = differ.filter((c) => c.area === area);
      if (!inArea.length) continue;
      out.push("", `${area} (${inArea.length})`);
      for (const c of inArea) {
        if (listed++ >= MAX_LISTED) break;
        out.push(`  ${c.scenario} [${c.aspect}]`);
        for (const d of c.differences.slice(0, 4)) out.push(`    ${d.path}: target ${text(d.target)} | mock ${text(d.mock)}`);
        if (c.differences.length > 4) out.push(`    … ${c.differences.length - 4} more`);
      }
    }
    if (listed > MAX_LISTED) out.push("", `… ${differ.length - MAX_LISTED} more (--format json lists every one)`);
  }
  const byRow = new Map<string, Comparison[]>();
  for (const c of report.comparisons) for (const e of c.explained) byRow.set(e.row, [...(byRow.get(e.row) ?? []), c]);
  if (byRow.size) {
    out.push("", "Explained by the environment:");
    for (const row of report.rows) {
      const cs = [...new Set(byRow.get(row.id) ?? [])];
      if (!cs.length) continue;
      out.push(
        "",
        `  ${row.id} (${causeText(row)}): ${cs.length} comparison${cs.length === 1 ? "" : "s"}`,
        `    ${row.reason}`,
        `    server: ${row.server}`,
        `    e.g. ${cs
          .slice(0, 3)
          .map((c) => c.scenario)
          .join(", ")}`,
      );
    }
  }
  out.push("", differ.length ? `${differ.length} unexplained differences.` : "No unexplained difference.");
  return out.join("\n");
}

/** The catalogue's scenarios per area, as the Markdown table docs/verify.md shows (test/docs keeps them equal). */
export function catalogueMarkdown(scenarios: readonly { readonly area: keyof typeof areas }[]): string {
  const counts = new Map<string, number>();
  for (const s of scenarios) counts.set(s.area, (counts.get(s.area) ?? 0) + 1);
  const rows = areaNames.map((a) => `| ${a} | ${counts.get(a) ?? 0} | ${areas[a]} |`);
  return ["| area | scenarios | what they compare |", "|---|---:|---|", ...rows, `| total | ${scenarios.length} | |`].join("\n");
}

/** The environment table as docs/mock-server.md#fidelity shows it (test/docs keeps them equal). */
export function environmentMarkdown(rows: readonly EnvironmentRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const lines = rows.map((r) => `| \`${r.id}\` | ${cell(causeText(r))} | ${cell(r.reason)} | ${cell(r.server)} |`);
  return ["| row | applies to | what differs, and why | where the server decides |", "|---|---|---|---|", ...lines].join("\n");
}
