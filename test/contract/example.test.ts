import { expect, test } from "vitest";
import { selection } from "../../src/index.js";
import { choice } from "../../testing/index.js";
import { useTarget } from "../../testing/vitest.js";

// The mock when LABEL_STUDIO_URL is not set, that server when it is: the same file passes on both.
const ls = useTarget();

test("deleting the unlabelled tasks keeps the labelled ones", async () => {
  // A fresh project, built through the API and deleted when the test ends, passed or failed.
  const { project, ids } = await ls.seed({
    tasks: [
      { id: "done", data: { text: "labelled" }, annotations: [{ result: choice("pos") }] },
      { id: "todo", data: { text: "not yet" } },
      { id: "skipped", data: { text: "skipped" }, annotations: [{ result: [], was_cancelled: true }] },
    ],
  });

  const result = await selection(project).where("tasks:total_annotations").equal(0).run("delete_tasks");

  // A cancelled annotation is not a label: "todo" and "skipped" go.
  expect(result.processed_items).toBe(2);
  // Each server gives its own ids: compare in the spec's.
  const left = await project.tasks().toArray();
  expect(ids.tasks.toSpec(left.map((t) => t.id))).toEqual(["done"]);
});
