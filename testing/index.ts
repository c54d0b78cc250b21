/**
 * The testing kit: one contract suite for two targets. `resolveTarget()` gives an in-process mock
 * server, or the server at `LABEL_STUDIO_URL` with `LABEL_STUDIO_API_KEY`; `target.seed(spec)` builds a
 * fresh project on it only through the public API and maps the spec's ids to the server's;
 * `target.cleanup()` deletes what the kit created, and nothing else. Framework-free; docs/testing.md
 * shows a test file that passes on both targets unchanged.
 *
 * @module dmq/testing
 */
export {
  resolveTarget,
  mockTarget,
  CleanupError,
  TARGET_ENV,
  type Target,
  type TargetInfo,
  type TargetKind,
  type TargetOptions,
} from "./target.js";
export { seedProject, deleteOwnProject, SeedError, type SeededProject, type SeedOptions } from "./seed.js";
export {
  checkSpec,
  choice,
  DEFAULT_LABEL_CONFIG,
  SeedSpecError,
  type AnnotationSpec,
  type CheckedAnnotation,
  type CheckedPrediction,
  type CheckedSpec,
  type CheckedTask,
  type WithId,
  type PredictionSpec,
  type SeedSpec,
  type SpecId,
  type TaskSpec,
  type Via,
  type ViewSpec,
} from "./spec.js";
export { UnknownIdError, type IdMap, type SeedIds } from "./ids.js";
export { uniqueTitle, TITLE_MAX_LENGTH } from "./names.js";
