import type { RequestOptions } from "../options.js";
import { arrayOf, number, record } from "../shape.js";
import type { Send } from "../transport.js";
import type { Prediction, PredictionCreate, PredictionListParams, PredictionUpdate } from "../types.js";
import { checkId, checkObject } from "./common.js";

export interface PredictionsResource {
  /** `GET /api/predictions/?task=&project=` (not paginated). */
  list(params?: PredictionListParams, options?: RequestOptions): Promise<Prediction[]>;
  create(body: PredictionCreate, options?: RequestOptions): Promise<Prediction>;
  get(id: number, options?: RequestOptions): Promise<Prediction>;
  update(id: number, body: PredictionUpdate, options?: RequestOptions): Promise<Prediction>;
  delete(id: number, options?: RequestOptions): Promise<void>;
}

const prediction = record<Prediction>({ task: number });
const predictionPath = (id: number): string => `/api/predictions/${checkId("id", id)}/`;

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
    async get(id: number, options?: RequestOptions) {
      return send({ method: "GET", path: predictionPath(id), expect: prediction }, options);
    },
    async update(id: number, body: PredictionUpdate, options?: RequestOptions) {
      const path = predictionPath(id);
      checkObject("body", body);
      return send({ method: "PATCH", path, body, expect: prediction }, options);
    },
    async delete(id: number, options?: RequestOptions) {
      return send<void>({ method: "DELETE", path: predictionPath(id) }, options);
    },
  });
}
