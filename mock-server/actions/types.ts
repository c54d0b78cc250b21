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

/** Python's truthiness, which the actions use to decide whether an optional field was given. */
export function pyTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** `str(value)` for the scalars a JSON body can carry (Django casts lookups on text fields this way). */
export function pyStr(value: unknown): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null || value === undefined) return "None";
  return String(value);
}
