import type { Area, Trait } from "./scenario.js";
import type { Difference } from "./compare.js";

/**
 * Differences that come from the target's environment, not from the mock: the database the server
 * runs on (the mock follows PostgreSQL, as production servers do) or a server version older than
 * the serializers the mock follows. `dmq verify` reports a difference as environment only when a row
 * of this table explains it; docs/mock-server.md#fidelity renders the table from here.
 */
export type Database = "postgres" | "sqlite";
export const databases: readonly Database[] = ["postgres", "sqlite"];

export interface EnvironmentRow {
  /** Stable name, shown next to each difference it explains. */
  readonly id: string;
  /**
   * `database`: only on a target on that database; `before`: only on a server older than that
   * version; `dependency`: on any target, the library the server has installed decides.
   */
  readonly cause: { readonly database: Database } | { readonly before: string } | { readonly dependency: string };
  /** The scenarios it may explain: any of these areas… */
  readonly areas?: readonly Area[];
  /** …whose scenario has one of these traits… */
  readonly traits?: readonly Trait[];
  /** …whose id matches… */
  readonly scenario?: RegExp;
  /** …and differences at a path that matches… */
  readonly path?: RegExp;
  /** …and, for two texts, that are equal once every match of this (a global pattern) is removed from both. */
  readonly equalAfter?: RegExp;
  /** What differs and why, in a sentence. */
  readonly reason: string;
  /** Where the server decides: file and function. */
  readonly server: string;
}

export const environmentRows: readonly EnvironmentRow[] = [];

/** What the target is, for matching rows. */
export interface Environment {
  readonly database: Database;
  /** The target's `release` (GET /api/version), e.g. "1.22.0.dev0". */
  readonly version: string;
}

/** `1.22.0.dev0` < `1.23`: numeric parts, a pre-release suffix sorts before its release. */
export function versionBefore(version: string, before: string): boolean {
  const parts = (v: string) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const a = parts(version),
    b = parts(before);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    // A missing part is 0 against a number ("1.23" = "1.23.0"); a text part is a pre-release, below its release.
    const x = a[i] ?? (typeof b[i] === "number" ? 0 : undefined),
      y = b[i] ?? (typeof a[i] === "number" ? 0 : undefined);
    if (x === y) continue;
    if (x === undefined) return false;
    if (y === undefined) return true;
    if (typeof x === "number" && typeof y === "number") return x < y;
    if (typeof x === "number") return false;
    if (typeof y === "number") return true;
    return x < y;
  }
  return false;
}

/** The row that explains one difference of a scenario on this environment, if any. */
export function explain(
  env: Environment,
  scenario: { readonly id: string; readonly area: Area; readonly traits: readonly Trait[] },
  difference: Difference,
  rows: readonly EnvironmentRow[] = environmentRows,
): EnvironmentRow | undefined {
  return rows.find(
    (row) =>
      applies(row.cause, env) &&
      (row.areas === undefined || row.areas.includes(scenario.area)) &&
      (row.traits === undefined || row.traits.some((t) => scenario.traits.includes(t))) &&
      (row.scenario === undefined || row.scenario.test(scenario.id)) &&
      (row.path === undefined || row.path.test(difference.path)) &&
      (row.equalAfter === undefined || equalAfter(difference, row.equalAfter)),
  );
}

function applies(cause: EnvironmentRow["cause"], env: Environment): boolean {
  if ("database" in cause) return cause.database === env.database;
  if ("before" in cause) return versionBefore(env.version, cause.before);
  return true;
}

function equalAfter(d: Difference, pattern: RegExp): boolean {
  if (typeof d.target !== "string" || typeof d.mock !== "string") return false;
  return d.target.replace(pattern, "") === d.mock.replace(pattern, "");
}
