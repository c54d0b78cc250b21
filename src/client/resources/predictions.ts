import type { RequestOptions } from "../options.js";
import { arrayOf, number, record } from "../shape.js";
import type { Send } from "../transport.js";
import type { Prediction, PredictionCreate, PredictionListParams, PredictionUpdate } from "../types.js";
import { checkId, checkObject } from "./common.js";
import { recordMethods, type RecordMethods } from "./record.js";

/** Predictions: list, create, get, update, delete. */
export interface PredictionsResource extends RecordMethods<Prediction, PredictionUpdate> {
  /** `GET /api/predictions/?task=&project=` (not paginated). */
  list(params?: PredictionListParams, options?: RequestOptions): Promise<Prediction[]>;
  /** Add a prediction to a task. */
  create(body: PredictionCreate, options?: RequestOptions): Promise<Prediction>;
}

const prediction = record<Prediction>({ task: number });

export function predictionsResource(send: Send): PredictionsResource {
  return Object.freeze({
    async list(params: PredictionListParams = {}, options?: RequestOptions) {
      checkObject("params", params);
      const query = {
        task: params.task === undefined ? undefined : checkId("params.task", params.task),
        project: params.project === undefined ? undefined : checkId("params.project", params.project),
      };
      return send({ method: "GET", path: "/api/predictions/", query, expect: arrayOf(prediction) }, options);
    },
    async create(body: PredictionCreate, options?: RequestOptions) {
      checkObject("body", body);
      checkId("body.task", body.task);
      return send({ method: "POST", path: "/api/predictions/", body, expect: prediction }, options);
    },
    ...recordMethods<Prediction, PredictionUpdate>(send, "/api/predictions/", prediction),
  });
}
