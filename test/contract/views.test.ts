import { expect, test } from "vitest";
import { selection } from "../../src/index.js";
import { useTarget } from "../../testing/vitest.js";
import { catalogue, listed, remaining } from "./catalogue.js";

/* Saved views: their filters, ordering and selection apply to the list and to actions. */
const ls = useTarget();

const annotatedNewestFirst = {
  title: "annotated",
  query: {
    filters: {
      conjunction: "and" as const,
      items: [{ filter: "filter:tasks:total_annotations", operator: "greater", type: "Number", value: 0 }],
    },
    ordering: ["-tasks:id"],
  },
};

test("a view's filters and ordering apply to the list; its data keeps the title", async () => {
  const seeded = await ls.seed({ ...catalogue, views: [{ id: "v", ...annotatedNewestFirst }] });
  const view = seeded.ids.views.get("v");
  expect(await listed(seeded, { view })).toEqual(["t4", "t2", "t1"]);
  const stored = await ls.client.views.get(view);
  expect([stored.project, stored.data?.title, stored.data?.ordering]).toEqual([seeded.id, "annotated", ["-tasks:id"]]);
  expect(stored.data?.filters?.items.map((i) => [i.filter, i.operator, i.value])).toEqual([
    ["filter:tasks:total_annotations", "greater", 0],
  ]);
});

test("a view wins over the query's filters", async () => {
  const seeded = await ls.seed({ ...catalogue, views: [{ id: "v", ...annotatedNewestFirst }] });
  const query = selection(seeded.project).where("tasks:total_annotations").equal(0);
  expect(await listed(seeded, { view: seeded.ids.views.get("v"), query })).toEqual(["t4", "t2", "t1"]);
});

test("a view's selected tasks, set from the seeded ids", async () => {
  const seeded = await ls.seed({
    ...catalogue,
    views: [
      {
        id: "picked",
        query: (ids) => ({ selectedItems: { all: false, included: ids.tasks.toServer(["t5", "t2"]) }, ordering: ["tasks:id"] }),
      },
    ],
  });
  expect(await listed(seeded, { view: seeded.ids.views.get("picked") })).toEqual(["t2", "t5"]);
});

test("an update replaces the view's filters", async () => {
  const seeded = await ls.seed({ ...catalogue, views: [{ id: "v", ...annotatedNewestFirst }] });
  const view = seeded.ids.views.get("v");
  await ls.client.views.update(view, {
    data: { title: "none" },
    query: selection(seeded.project).where("tasks:total_annotations").equal(0).orderBy("tasks:id"),
  });
  expect(await listed(seeded, { view })).toEqual(["t3", "t5"]);
  expect((await ls.client.views.get(view)).data?.title).toBe("none");
});

test("an action on a view acts on the view's tasks", async () => {
  const seeded = await ls.seed({ ...catalogue, views: [{ id: "v", ...annotatedNewestFirst }] });
  const result = await selection(seeded.project).fromView(seeded.ids.views.get("v")).run("delete_tasks");
  expect(result.processed_items).toBe(3);
  expect(await remaining(seeded)).toEqual(["t3", "t5"]);
});

test("the project's views, and a deleted one is gone", async () => {
  const seeded = await ls.seed({
    views: [
      { id: "a", title: "A" },
      { id: "b", title: "B" },
    ],
  });
  expect(seeded.ids.views.toSpec((await seeded.project.views()).map((v) => v.id))).toEqual(["a", "b"]);
  await ls.client.views.delete(seeded.ids.views.get("a"));
  expect(seeded.ids.views.toSpec((await seeded.project.views()).map((v) => v.id))).toEqual(["b"]);
});
