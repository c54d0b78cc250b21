/**
 * The semantics engine: which tasks a Data Manager query selects, in which order, and the computed
 * columns the task list shows, as the Label Studio server decides them (docs/reference/).
 * Pure TypeScript without I/O: it runs in Node and in browsers.
 *
 * @module dmq/semantics
 */
export { evaluate, type EvaluateOptions, type Evaluation } from "./evaluate.js";
export { evaluateBody, viewQuery } from "./body.js";
export { invalidRegex } from "./read-query.js";
export { EvaluationError, type EvaluationErrorInit, type EvaluationStatus, type ValidationErrors } from "./errors.js";
export { deriveColumns } from "./derived.js";
export { PreparedDataset } from "./dataset.js";
export type { DatasetPatch, Read, RecordChange } from "./changes.js";
export type {
  AnnotationRecord,
  Children,
  Dataset,
  DerivedColumns,
  DraftRecord,
  PredictionRecord,
  ProjectRecord,
  TaskRecord,
} from "./records.js";
export { explain, type ConditionTrace, type Explanation, type LineTrace, type Outcome, type TaskTrace } from "./explain.js";
