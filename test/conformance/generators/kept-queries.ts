/** Queries that build every kind of structure a prepared dataset keeps, and how an answer is compared. */
import { evaluate, EvaluationError, type PreparedDataset } from "../../../src/semantics/index.js";
import type { QueryNode } from "../../../src/query/nodes.js";
import { selection } from "../../../src/selection.js";

const num = (key: string) => selection(1).where(`tasks:data.${key}`, "Number");
export const FIXED: readonly QueryNode[] = [
  selection(1).where("tasks:data.text").equal("apple").or("tasks:data.text").equal("kiwi").toQuery(),
  num("num").equal(5).orderBy("-tasks:data.num").toQuery(),
  { ...num("num").greater(1).orderBy("tasks:data.num").toQuery(), columnsDisplayType: { "tasks:data.num": "Number" } },
  num("mixed").less(10).toQuery(),
  selection(1).where("tasks:total_annotations").equal(1).orderBy("tasks:completed_at").toQuery(),
  selection(1).where("tasks:inner_id").equal(2).orderBy("-tasks:created_at").toQuery(),
  selection(1).where("tasks:data.text").contains("a").orderBy("tasks:data.text").toQuery(),
  selection(1).where("tasks:data.text").regex("^[a-k]").orderBy("-tasks:annotators").toQuery(),
  selection(1).where("tasks:file_upload").contains("up").orderBy("tasks:file_upload").toQuery(),
  selection(1).where("tasks:avg_lead_time").greater(1).orderBy("-tasks:predictions_score").toQuery(),
  selection(1).where("tasks:draft_exists").equal(true).orderBy("tasks:updated_at").toQuery(),
  selection(1).where("tasks:cancelled_annotations").greaterOrEqual(1).or("tasks:total_predictions").equal(1).toQuery(),
  selection(1).where("tasks:annotations_results").contains("pos").orderBy("tasks:inner_id").toQuery(),
  selection(1).where("tasks:predictions_model_versions").contains(["v1"]).orderBy("-tasks:total_annotations").toQuery(),
  selection(1).where("tasks:updated_by").contains([1, 2]).orderBy("-tasks:storage_filename").toQuery(),
];

export type Answer = { readonly status: number; readonly detail?: string; readonly ids?: readonly number[]; readonly totals?: unknown };

export function answer(ds: PreparedDataset, query: QueryNode): Answer {
  try {
    const e = evaluate(ds, query);
    return { status: 200, ids: e.ids, totals: e.totals(), derived: e.ids.map((id) => e.derived(id)) } as Answer;
  } catch (error) {
    if (error instanceof EvaluationError) return { status: error.status, detail: error.detail };
    throw error;
  }
}
