import type { ProjectRecord, UserRecord } from "../../src/semantics/records.js";
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
}

export type ActionEffect = (run: ActionRun) => Reply;
