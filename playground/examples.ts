import type { QueryBody } from "../src/query/nodes.js";
import { selection } from "../src/selection.js";
import type { ImplementedOperator } from "../src/vocabulary/operators.js";
import { playgroundUrl, type Link } from "./src/link.js";

/**
 * The playground links of docs/semantics.md: one example per operator on the demo project that
 * `npm start` serves (typed by the vocabulary, so a new operator needs an example), and the
 * NULL/missing/JSON-null example with its own three tasks. test/docs checks that the docs carry
 * exactly these links (`docLinks()`).
 */
export const PLAYGROUND_BASE = "http://127.0.0.1:8080/playground/";

const demo = (body: QueryBody): Link => ({ project: 1, body });

export const operatorExamples: { readonly [Op in ImplementedOperator]: Link } = {
  equal: demo(selection(1).where("tasks:data.source").equal("tweet").toJSON()),
  // A negated operator never matches NULL: the 80 unlabeled tasks have no completed_at.
  not_equal: demo(selection(1).where("tasks:completed_at").notEqual("2024-03-01T16:01:00Z").toJSON()),
  less: demo(selection(1).where("tasks:predictions_score").less(0.5).orderBy("tasks:predictions_score").toJSON()),
  greater: demo(selection(1).where("tasks:completed_at").greater("2024-03-02T00:00:00Z").toJSON()),
  less_or_equal: demo(selection(1).where("tasks:data.stars", "Number").lessOrEqual(3).toJSON()),
  greater_or_equal: demo(selection(1).where("tasks:total_annotations").greaterOrEqual(2).toJSON()),
  // Both ends are included.
  in: demo(selection(1).where("tasks:inner_id").in({ min: 10, max: 12 }).toJSON()),
  not_in: demo(selection(1).where("tasks:avg_lead_time").notIn({ min: 10, max: 40 }).toJSON()),
  in_list: demo(selection(1).where("tasks:id").inList([3, 1, 2]).toJSON()),
  not_in_list: demo(selection(1).where("tasks:data.stars", "Number").notInList([3, 5]).toJSON()),
  // Case-insensitive.
  contains: demo(selection(1).where("tasks:data.text").contains("BATTERY").toJSON()),
  // Tasks nobody annotated are included.
  not_contains: demo(selection(1).where("tasks:annotators").notContains([1]).toJSON()),
  // Case-sensitive, anywhere in the text.
  regex: demo(selection(1).where("tasks:data.text").regex("^The (app|camera)").toJSON()),
  // Only predictions of the project's model_version count: tasks with only other versions have none.
  empty: demo(selection(1).where("tasks:predictions_score").empty(true).toJSON()),
};

/** docs/semantics.md "NULL, missing and JSON null": three tasks of its own, carried by the link. */
export const nullExample: Link = {
  project: 1,
  body: selection(1).where("tasks:data.text").notEqual("other").toJSON(),
  data: {
    projects: [{ id: 1, title: "NULL, missing and JSON null" }],
    tasks: [
      { id: 1, project: 1, data: { text: "other" } },
      { id: 2, project: 1, data: {} },
      { id: 3, project: 1, data: { text: null } },
    ],
  },
};

/** The Markdown link definitions docs/semantics.md ends its sections with. */
export function docLinks(): string {
  const lines = Object.entries(operatorExamples).map(([op, link]) => `[try-${op}]: ${playgroundUrl(PLAYGROUND_BASE, link)}`);
  lines.push(`[try-null]: ${playgroundUrl(PLAYGROUND_BASE, nullExample)}`);
  return lines.join("\n");
}
