import type { QueryBody } from "../../src/query/nodes.js";
import type { UserRecord } from "../../src/contract/records.js";
import type { Dataset } from "../../src/semantics/records.js";
import { loadSeed } from "../../src/contract/seed.js";

/**
 * Where the page's tasks come from: the mock's current data (the playground's dataset route, so the
 * engine in the page sees exactly the records the server evaluates), or an inline seed from the
 * link. And the one call to the server's own list route, for "Run on the server".
 */
export interface Loaded {
  readonly dataset: Dataset;
  readonly projects: readonly { readonly id: number; readonly title: string }[];
  readonly users: readonly Pick<UserRecord, "id" | "username">[];
  /** "server": the mock's project; "inline": a seed from the link (nothing to compare on the server). */
  readonly source: "server" | "inline";
}

/** The answer of a request the page made: status, and the body (JSON) or the text. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

export class Unauthorized extends Error {
  override readonly name = "Unauthorized";
}

const authorization = (token: string) => ({ Authorization: `Token ${token}` });

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

export async function fromServer(token: string, project: number | undefined): Promise<Loaded> {
  const query = project === undefined ? "" : `?project=${project}`;
  const response = await fetch(`dataset.json${query}`, { headers: authorization(token) });
  if (response.status === 401) throw new Unauthorized("the server does not accept this token");
  const got = await answer(response);
  if (got.status !== 200) throw new Error(`the mock answered ${got.status}: ${detailOf(got.body)}`);
  const { projects, users, ...dataset } = got.body as Dataset & Pick<Loaded, "projects" | "users">;
  return { dataset, projects, users, source: "server" };
}

/** An inline seed (the mock's seed format), loaded with the mock's own seed loader. */
export function fromSeed(seed: unknown, project: number | undefined, now: string): Loaded {
  const state = loadSeed(seed, now);
  const chosen = state.projects.find((p) => project === undefined || p.id === project);
  if (!chosen) throw new Error(project === undefined ? "data: the seed has no project" : `data: the seed has no project ${project}`);
  return {
    dataset: { project: chosen, tasks: state.tasks, annotations: state.annotations, predictions: state.predictions, drafts: state.drafts },
    projects: state.projects.map((p) => ({ id: p.id, title: p.title ?? "" })),
    users: state.users.map((u) => ({ id: u.id, username: u.username })),
    source: "inline",
  };
}

/**
 * `GET /api/tasks/?project=…&query=…`: the Data Manager list with the body as its `query`
 * parameter, every task on one page, ids only. The server unquotes `query` once more after the
 * URL decoding (get_prepare_params), hence the second encoding.
 */
export function listUrl(project: number, body: QueryBody, pageSize: number): string {
  const query = encodeURIComponent(encodeURIComponent(JSON.stringify(body)));
  return `/api/tasks/?project=${project}&page_size=${Math.max(1, pageSize)}&include=id&query=${query}`;
}

export async function runOnServer(token: string, project: number, body: QueryBody, pageSize: number): Promise<Answer> {
  return answer(await fetch(listUrl(project, body, pageSize), { headers: authorization(token) }));
}

/** The ids of a list answer, or undefined for an error answer. */
export function idsOfAnswer(a: Answer): number[] | undefined {
  if (a.status !== 200) return undefined;
  const tasks = (a.body as { tasks?: readonly { id: number }[] }).tasks;
  return tasks?.map((t) => t.id);
}

/** An error body's words: DRF's `detail`, plus `validation_errors` when there are any. */
export function detailOf(body: unknown): string {
  if (typeof body !== "object" || body === null) return String(body);
  const b = body as { detail?: unknown; validation_errors?: unknown };
  const extra = b.validation_errors === undefined ? "" : ` ${JSON.stringify(b.validation_errors)}`;
  return `${String(b.detail ?? JSON.stringify(body))}${extra}`;
}
