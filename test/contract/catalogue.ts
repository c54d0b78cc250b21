import { choice, type SeedSpec, type SeededProject, type SpecId } from "../../testing/index.js";

/*
 * The contract suite's data: five tasks whose expected answers are worked out by hand below, never
 * computed by the code under test. The same spec is seeded on either target (npm test: the mock;
 * npm run test:real: a real server), and answers are compared in spec ids.
 *
 *   task  data                                   annotations                      predictions (score, model)
 *   t1    {text:"apple pie", n:5, tag:"x"}       a1 pos                           p1 pos (.9, m1)
 *   t2    {text:"Banana split", n:"12", tag:null} a2 neg, a3 cancelled            p2 neg (.2, m2)
 *   t3    {text:"cherry", n:-1}                  -                                p3 pos (.5, m1), p4 neutral (.7, m2)
 *   t4    {text:"äpfel", n:0.5, tag:"y"}         a4 neutral (ground_truth false)  -
 *   t5    {}                                     -                                -
 */
export const catalogue = {
  title: "contract",
  project: { model_version: "m2" },
  tasks: [
    {
      id: "t1",
      data: { text: "apple pie", n: 5, tag: "x" },
      annotations: [{ id: "a1", result: choice("pos"), ground_truth: false }],
      predictions: [{ id: "p1", result: choice("pos"), score: 0.9, model_version: "m1" }],
    },
    {
      id: "t2",
      data: { text: "Banana split", n: "12", tag: null },
      annotations: [
        { id: "a2", result: choice("neg"), ground_truth: false },
        { id: "a3", result: [], was_cancelled: true, ground_truth: false },
      ],
      predictions: [{ id: "p2", result: choice("neg"), score: 0.2, model_version: "m2" }],
    },
    {
      id: "t3",
      data: { text: "cherry", n: -1 },
      predictions: [
        { id: "p3", result: choice("pos"), score: 0.5, model_version: "m1" },
        { id: "p4", result: choice("neutral"), score: 0.7, model_version: "m2" },
      ],
    },
    { id: "t4", data: { text: "äpfel", n: 0.5, tag: "y" }, annotations: [{ id: "a4", result: choice("neutral"), ground_truth: false }] },
    { id: "t5", data: {} },
  ],
} as const satisfies SeedSpec;

/** The spec ids of the project's tasks the list answers, in its order (a page of 100 holds them all). */
export async function listed(seeded: SeededProject, params: Parameters<SeededProject["project"]["tasks"]>[0] = {}): Promise<SpecId[]> {
  const page = await seeded.project.tasks({ page_size: 100, ...params }).page(1);
  return seeded.ids.tasks.toSpec(page.tasks.map((t) => t.id));
}

/** The spec ids of the tasks the project still holds, by ascending id. */
export async function remaining(seeded: SeededProject): Promise<SpecId[]> {
  return listed(seeded, { query: { ordering: ["tasks:id"] } });
}
