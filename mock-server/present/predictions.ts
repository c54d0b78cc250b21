import type { PredictionRecord } from "../../src/contract/records.js";
import { prediction } from "../../src/contract/index.js";
import { orDefault, type Rendered } from "../../src/contract/field.js";
import { predictionDefaults } from "../../src/contract/prediction.js";
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
    cluster: orDefault(p.cluster, predictionDefaults.cluster),
    neighbors: orDefault(p.neighbors, predictionDefaults.neighbors),
    mislabeling: orDefault(p.mislabeling, predictionDefaults.mislabeling),
    created_at: p.created_at,
    updated_at: p.updated_at,
    model: orDefault(p.model, predictionDefaults.model),
    model_run: orDefault(p.model_run, predictionDefaults.model_run),
    task: p.task,
    project: p.project,
  });
}
