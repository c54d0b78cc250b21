import type { RequestOptions } from "../options.js";
import { arrayOf, number, record } from "../shape.js";
import type { Send } from "../transport.js";
import type { Draft, DraftWrite } from "../types.js";
import { checkId, checkObject } from "./common.js";
import { recordMethods, type RecordMethods } from "./record.js";

/** Annotation drafts: a task's (every user's), the caller's new one, one by id, an annotation turned into one. */
export interface DraftsResource extends RecordMethods<Draft, DraftWrite> {
  /** `GET /api/tasks/{task}/drafts`. */
  list(task: number, options?: RequestOptions): Promise<Draft[]>;
  /** The caller's new draft of a task (`result` required), on an annotation when `annotation` is given. */
  create(task: number, body: DraftWrite, params?: { annotation?: number }, options?: RequestOptions): Promise<Draft>;
  /** `POST /api/annotations/{id}/convert-to-draft`: the annotation becomes the caller's draft and is deleted. */
  fromAnnotation(annotation: number, options?: RequestOptions): Promise<Draft>;
}

const draft = record<Draft>({ id: number });

export function draftsResource(send: Send): DraftsResource {
  return Object.freeze({
    async list(task: number, options?: RequestOptions) {
      return send({ method: "GET", path: `/api/tasks/${checkId("task", task)}/drafts`, expect: arrayOf(draft) }, options);
    },
    async create(task: number, body: DraftWrite, params: { annotation?: number } = {}, options?: RequestOptions) {
      const base = `/api/tasks/${checkId("task", task)}`;
      checkObject("body", body);
      checkObject("params", params);
      const path =
        params.annotation === undefined
          ? `${base}/drafts`
          : `${base}/annotations/${checkId("params.annotation", params.annotation)}/drafts`;
      return send({ method: "POST", path, body, expect: draft }, options);
    },
    ...recordMethods<Draft, DraftWrite>(send, "/api/drafts/", draft),
    async fromAnnotation(annotation: number, options?: RequestOptions) {
      const path = `/api/annotations/${checkId("annotation", annotation)}/convert-to-draft`;
      return send({ method: "POST", path, body: {}, expect: draft }, options);
    },
  });
}
