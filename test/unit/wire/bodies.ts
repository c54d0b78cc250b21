import type { ParseIssue } from "../../../src/wire/issues.js";

/** Body builders shared by the parser tests: raw items, an AND filter set, issues as "effect path". */
export const item = (filter: unknown, operator: unknown, type: unknown, value: unknown, extra: Record<string, unknown> = {}) => ({
  filter,
  operator,
  type,
  value,
  ...extra,
});
export const and = (...items: unknown[]) => ({ filters: { conjunction: "and", items } });
export const brief = (issues: readonly ParseIssue[]) => issues.map((i) => `${i.effect} ${i.path}`);
