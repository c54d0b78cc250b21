import type { AnnotationRecord, ProjectRecord, UserRecord } from "../../src/contract/records.js";
import { annotationModel } from "../../src/contract/annotation.js";
import { newRecordDefaults } from "../../src/contract/field.js";
import type { MockContext, Reply } from "../http.js";
import type { Prepared } from "../prepare.js";

/** What an action gets: the selected task ids (in the query's order), the request body, the caller. */
export interface ActionRun {
  readonly ctx: MockContext;
  readonly project: ProjectRecord;
  readonly ids: readonly number[];
  /** `request.data`: the action reads its own fields (`model_version`, `annotator`, …) from here. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly user: UserRecord;
  readonly prepared: Prepared;
  /** `http://host:port` as the client addressed the mock (an ML backend is told to call back there). */
  readonly origin: string;
}

export type ActionEffect = (run: ActionRun) => Reply | Promise<Reply>;

/**
 * An annotation an action creates for the caller from a copied `result` (propagate_annotations,
 * predictions_to_annotations): not cancelled, no ground truth, no lead time.
 */
export function insertCopiedAnnotation(
  { ctx, project, user }: ActionRun,
  task: number,
  result: AnnotationRecord["result"],
  parentPrediction: number | null,
  now: string,
): void {
  ctx.store.insert("annotations", {
    ...newRecordDefaults(annotationModel),
    task,
    project: project.id,
    result,
    completed_by: user.id,
    created_at: now,
    updated_at: now,
    parent_prediction: parentPrediction,
  });
}
