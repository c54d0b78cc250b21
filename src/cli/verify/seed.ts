import type { SeededProject, SeedSpec, Target as KitTarget } from "../../../testing/index.js";
import { fixtureLabelConfig, fixtureTasks } from "./fixture.js";
import type { Seeded, TimeField } from "./refs.js";
import { send } from "./target.js";

/**
 * The fixture as a seed spec of the testing kit: one project with the fixture's label config, its
 * tasks imported with their annotations and predictions (the spec ids are the fixture's keys), and
 * the view `v1`. The kit builds it through the public API only and maps the keys to the server's ids.
 */
export const mainViewData = {
  title: "v1",
  filters: {
    conjunction: "and",
    items: [{ filter: "filter:tasks:total_annotations", operator: "greater", type: "Number", value: 0 }],
  },
  ordering: ["-tasks:id"],
};

export function fixtureSpec(title: string, views = true): SeedSpec {
  return {
    title,
    label_config: fixtureLabelConfig,
    tasks: fixtureTasks.map((t) => ({
      id: t.key,
      data: t.data,
      annotations: t.annotations.map(({ key, ...a }) => ({ id: key, ...a })),
      predictions: t.predictions.map(({ key, ...p }) => ({ id: key, ...p })),
    })),
    views: views ? [{ id: "v1", data: mainViewData }] : [],
  };
}

export class FixtureError extends Error {
  override readonly name = "FixtureError";
}

/** A seeded fixture on one target: the kit's project, and what the scenarios resolve their references against. */
export interface Built {
  readonly project: SeededProject;
  readonly seeded: Seeded;
}

/** Seeds the fixture on `target`, then reads back each task's timestamps and inner id as the server renders them. */
export async function buildFixture(target: KitTarget, title: string, views = true): Promise<Built> {
  const project = await target.seed(fixtureSpec(title, views));
  const listed = await send(target, {
    method: "GET",
    path: "/api/tasks/",
    query: { project: String(project.id), fields: "all", page_size: "1000" },
  });
  const rows = (listed.json as { tasks?: Record<string, unknown>[] } | undefined)?.tasks;
  if (listed.status !== 200 || !Array.isArray(rows)) {
    throw new FixtureError(`reading the seeded tasks back: ${listed.status} ${listed.text.slice(0, 200)}`);
  }
  const byId = new Map(rows.map((r) => [r["id"] as number, r]));
  const times = new Map<string, { [F in TimeField]: string | null }>();
  const innerIds = new Map<string, number>();
  const keyed = <T>(entries: [string | number, T][]) => new Map(entries.map(([k, v]) => [String(k), v] as const));
  for (const [key, id] of project.ids.tasks.entries()) {
    const row = byId.get(id);
    if (!row) throw new FixtureError(`task ${String(key)} (id ${id}) is missing from the list`);
    const at = (f: TimeField) => (typeof row[f] === "string" ? (row[f] as string) : null);
    times.set(String(key), { created_at: at("created_at"), updated_at: at("updated_at"), completed_at: at("completed_at") });
    innerIds.set(String(key), row["inner_id"] as number);
  }
  return {
    project,
    seeded: {
      project: project.id,
      user: target.user.id,
      ids: {
        task: keyed(project.ids.tasks.entries()),
        annotation: keyed(project.ids.annotations.entries()),
        prediction: keyed(project.ids.predictions.entries()),
        view: keyed(project.ids.views.entries()),
      },
      times,
      innerIds,
    },
  };
}
