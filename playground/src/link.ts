import type { ConditionNode, QueryNode } from "../../src/query/nodes.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { parseQueryBody } from "../../src/wire/parse.js";
import {
  draftOf,
  emptyDraft,
  isDataColumn,
  newCondition,
  shapeOf,
  withColumn,
  withOperator,
  type ConditionDraft,
  type Draft,
} from "./model.js";
import { isOperatorName } from "../../src/vocabulary/operators.js";

/**
 * Playground links: the fragment carries the query as its documented JSON body (`q`), the project
 * (`project`) and optionally a small inline dataset (`data`, a seed in the mock's seed format).
 * The fragment never reaches the server, so neither the query nor a `token` there is logged.
 */
export interface Link {
  readonly project?: number;
  /** The documented body (`selection(…).toJSON()`). */
  readonly body?: unknown;
  /** A seed (users, projects, tasks, annotations, predictions, drafts) evaluated in the page. */
  readonly data?: unknown;
}

export interface ParsedLink extends Link {
  /** A legacy token handed over by the URL `npm start` prints; the page stores it and drops it from the URL. */
  readonly token?: string;
  /** What could not be read, in words. */
  readonly problems: readonly string[];
}

/** `#project=1&q=…` (URLSearchParams encoding, so the JSON stays readable). */
export function linkHash(link: Link): string {
  const params = new URLSearchParams();
  if (link.project !== undefined) params.set("project", String(link.project));
  if (link.body !== undefined) params.set("q", JSON.stringify(link.body));
  if (link.data !== undefined) params.set("data", JSON.stringify(link.data));
  return `#${params.toString()}`;
}

/** The playground URL for a link, e.g. under `http://127.0.0.1:8080/playground/`. */
export function playgroundUrl(base: string, link: Link): string {
  return `${base}${linkHash(link)}`;
}

export function parseLink(hash: string): ParsedLink {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const problems: string[] = [];
  const json = (key: string): unknown => {
    const text = params.get(key);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      problems.push(`${key}: expected JSON, found text that does not parse (${(error as Error).message})`);
      return undefined;
    }
  };
  const projectText = params.get("project");
  const project = projectText === null ? undefined : Number(projectText);
  if (project !== undefined && !(Number.isSafeInteger(project) && project > 0)) {
    problems.push(`project: expected a positive integer project id, found ${JSON.stringify(projectText)}`);
  }
  const body = json("q"),
    data = json("data"),
    token = params.get("token") ?? undefined;
  return {
    ...(project !== undefined && Number.isSafeInteger(project) && project > 0 ? { project } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(token ? { token } : {}),
    problems,
  };
}

/**
 * A body as the editor's draft, read by the wire parser (so a link is read the way the server reads
 * a body). What the editor cannot hold is reported, never silently changed.
 */
export function draftFromBody(project: number, body: unknown): { draft: Draft; problems: string[] } {
  const problems: string[] = [];
  const parsed = parseQueryBody(body);
  for (const issue of parsed.issues) problems.push(`${issue.path}: expected ${issue.expected}, found ${issue.found}`);
  const query: QueryNode = parsed.query ?? {};
  const draft = emptyDraft(project);
  const condition = (node: ConditionNode, path: string): ConditionDraft | undefined => {
    if (!isOperatorName(node.operator)) {
      problems.push(`${path}: the editor leaves this condition out (it offers no operator "${node.operator}")`);
      return undefined;
    }
    const typed = isDataColumn(node.column) ? node.type : undefined;
    let c: ConditionDraft;
    try {
      c = withOperator(withColumn(newCondition(), node.column, typed), node.operator);
    } catch {
      problems.push(`${path}: the editor leaves this condition out (it offers no column "${node.column}" as ${node.type})`);
      return undefined;
    }
    const shape = shapeOf(c);
    if (shape === undefined || c.operator !== node.operator) {
      problems.push(
        `${path}: the editor leaves this condition out (${node.operator} is not offered for tasks:${node.column} as ${node.type})`,
      );
      return undefined;
    }
    return { ...c, value: draftOf(shape, node.value as JsonValue) };
  };
  const lines = (query.filters?.items ?? []).flatMap((item, k) => {
    const root = condition(item, `filters.items[${k}]`);
    if (!root) return [];
    const children = item.children.flatMap((child, c) => condition(child, `filters.items[${k}].child_filters[${c}]`) ?? []);
    return [{ root, children }];
  });
  const order = query.ordering?.[0];
  const selected = query.selectedItems;
  return {
    draft: {
      ...draft,
      conjunction: query.filters?.conjunction ?? "and",
      lines,
      ordering: order ? { column: order.column, descending: order.descending } : undefined,
      selection: !selected
        ? draft.selection
        : selected.all
          ? { mode: selected.excluded.length ? "excluding" : "all", ids: selected.excluded.join(", ") }
          : { mode: "including", ids: selected.included.join(", ") },
    },
    problems,
  };
}
