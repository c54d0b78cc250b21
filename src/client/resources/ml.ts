import type { RequestOptions } from "../options.js";
import { anything, arrayOf, number, object, record } from "../shape.js";
import type { Send } from "../transport.js";
import type { InteractiveAnswer, JsonObject, MLBackend, MLBackendWrite, MLVersions } from "../types.js";
import { checkId, checkObject } from "./common.js";

/**
 * ML backends (model servers the server calls for predictions), in the official SDK's shape (`client.ml`). The
 * server checks the model server (`/health`, `/setup`) on every create, update and read.
 */
export interface MLResource {
  /** A project's ML backends: `GET /api/ml/?project=`. */
  list(project: number, params?: { is_interactive?: boolean }, options?: RequestOptions): Promise<MLBackend[]>;
  /** Register a model server with a project: `POST /api/ml/`. */
  create(body: MLBackendWrite, options?: RequestOptions): Promise<MLBackend>;
  /** One ML backend, its state checked with the model server first: `GET /api/ml/{id}`. */
  get(id: number, options?: RequestOptions): Promise<MLBackend>;
  /** `PATCH /api/ml/{id}`: `url` and `project` must be in the body (the server checks the model server with them). */
  update(id: number, body: MLBackendWrite, options?: RequestOptions): Promise<MLBackend>;
  /** Unregister an ML backend: `DELETE /api/ml/{id}`. */
  delete(id: number, options?: RequestOptions): Promise<void>;
  /** Ask the model server to train (`START_TRAINING` webhook): `POST /api/ml/{id}/train`. */
  train(id: number, body?: { use_ground_truth?: boolean }, options?: RequestOptions): Promise<void>;
  /** One task sent to an interactive backend with a context: `POST /api/ml/{id}/interactive-annotating`. */
  predictInteractive(id: number, body: { task: number; context?: JsonObject }, options?: RequestOptions): Promise<InteractiveAnswer>;
  /** A random task of the project sent to `/predict`, and what came back (nothing stored): `POST /api/ml/{id}/predict/test?random=true`. */
  testPredict(id: number, options?: RequestOptions): Promise<JsonObject>;
  /** The model server's versions: `GET /api/ml/{id}/versions`. */
  listModelVersions(id: number, options?: RequestOptions): Promise<MLVersions>;
}

const backend = record<MLBackend>({ id: number, project: number });

export function mlResource(send: Send): MLResource {
  const at = (id: number, rest = "") => `/api/ml/${checkId("id", id)}${rest}`;
  return Object.freeze({
    async list(project: number, params: { is_interactive?: boolean } = {}, options?: RequestOptions) {
      checkObject("params", params);
      const query = { project: checkId("project", project), is_interactive: params.is_interactive };
      return send({ method: "GET", path: "/api/ml/", query, expect: arrayOf(backend) }, options);
    },
    async create(body: MLBackendWrite, options?: RequestOptions) {
      checkObject("body", body);
      return send({ method: "POST", path: "/api/ml/", body, expect: backend }, options);
    },
    async get(id: number, options?: RequestOptions) {
      return send({ method: "GET", path: at(id), expect: backend }, options);
    },
    async update(id: number, body: MLBackendWrite, options?: RequestOptions) {
      const path = at(id);
      checkObject("body", body);
      return send({ method: "PATCH", path, body, expect: backend }, options);
    },
    async delete(id: number, options?: RequestOptions) {
      return send<void>({ method: "DELETE", path: at(id) }, options);
    },
    async train(id: number, body: { use_ground_truth?: boolean } = {}, options?: RequestOptions) {
      const path = at(id, "/train");
      checkObject("body", body);
      return send<void>({ method: "POST", path, body }, options);
    },
    async predictInteractive(id: number, body: { task: number; context?: JsonObject }, options?: RequestOptions) {
      const path = at(id, "/interactive-annotating");
      checkObject("body", body);
      return send({ method: "POST", path, body, expect: object<InteractiveAnswer>() }, options);
    },
    async testPredict(id: number, options?: RequestOptions) {
      return send(
        { method: "POST", path: at(id, "/predict/test"), query: { random: "true" }, body: {}, expect: object<JsonObject>() },
        options,
      );
    },
    async listModelVersions(id: number, options?: RequestOptions) {
      return send({ method: "GET", path: at(id, "/versions"), expect: object<MLVersions>({ versions: arrayOf(anything) }) }, options);
    },
  });
}
