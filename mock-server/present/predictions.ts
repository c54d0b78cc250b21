import type { PredictionRecord } from "../../src/contract/records.js";
import { prediction } from "../../src/contract/index.js";
import type { Rendered } from "../../src/contract/field.js";
import { render } from "../../src/contract/render.js";
import { timeSince } from "../time.js";

/** `PredictionSerializer` (model defaults where the record leaves a field unset). */
export function presentPrediction(p: PredictionRecord): Rendered<typeof prediction> {
  return render(prediction, {
    id: p.id,
    result: p.result === null ? null : [...p.result],
    model_version: p.model_version,
    created_ago: timeSince(p.created_at),
    score: p.score,
    cluster: p.cluster ?? null,
    neighbors: p.neighbors ?? null,
    mislabeling: p.mislabeling ?? 0,
    created_at: p.created_at,
    updated_at: p.updated_at ?? p.created_at,
    model: p.model ?? null,
    model_run: p.model_run ?? null,
    task: p.task,
    project: p.project,
  });
}
