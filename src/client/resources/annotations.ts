import type { RequestOptions } from "../options.js";
import { arrayOf, number, record } from "../shape.js";
import type { Send } from "../transport.js";
import type { Annotation, AnnotationCreate, AnnotationUpdate } from "../types.js";
import { checkId, checkObject } from "./common.js";
import { recordMethods, type RecordMethods } from "./record.js";

/** Annotations: a task's list and create, and get, update, delete by id. */
export interface AnnotationsResource extends RecordMethods<Annotation, AnnotationUpdate> {
  /** The task's annotations (not cancelled ones): `GET /api/tasks/{task}/annotations/`. */
  list(task: number, options?: RequestOptions): Promise<Annotation[]>;
  /** Annotate a task (`POST /api/tasks/<task>/annotations/`). */
  create(task: number, body: AnnotationCreate, options?: RequestOptions): Promise<Annotation>;
}

const annotation = record<Annotation>({ task: number });
const onTask = (task: number): string => `/api/tasks/${checkId("task", task)}/annotations/`;

export function annotationsResource(send: Send): AnnotationsResource {
  return Object.freeze({
    async list(task: number, options?: RequestOptions) {
      return send({ method: "GET", path: onTask(task), expect: arrayOf(annotation) }, options);
    },
    async create(task: number, body: AnnotationCreate, options?: RequestOptions) {
      const path = onTask(task);
      checkObject("body", body);
      return send({ method: "POST", path, body, expect: annotation }, options);
    },
    ...recordMethods<Annotation, AnnotationUpdate>(send, "/api/annotations/", annotation),
  });
}
