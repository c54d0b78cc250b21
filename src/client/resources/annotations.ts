import type { RequestOptions } from "../options.js";
import { arrayOf, number, record } from "../shape.js";
import type { Send } from "../transport.js";
import type { Annotation, AnnotationCreate, AnnotationUpdate } from "../types.js";
import { checkId, checkObject } from "./common.js";

export interface AnnotationsResource {
  /** The task's annotations (not cancelled ones): `GET /api/tasks/{task}/annotations/`. */
  list(task: number, options?: RequestOptions): Promise<Annotation[]>;
  create(task: number, body: AnnotationCreate, options?: RequestOptions): Promise<Annotation>;
  get(id: number, options?: RequestOptions): Promise<Annotation>;
  update(id: number, body: AnnotationUpdate, options?: RequestOptions): Promise<Annotation>;
  delete(id: number, options?: RequestOptions): Promise<void>;
}

const annotation = record<Annotation>({ task: number });
const onTask = (task: number): string => `/api/tasks/${checkId("task", task)}/annotations/`;
const annotationPath = (id: number): string => `/api/annotations/${checkId("id", id)}/`;

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
    async get(id: number, options?: RequestOptions) {
      return send({ method: "GET", path: annotationPath(id), expect: annotation }, options);
    },
    async update(id: number, body: AnnotationUpdate, options?: RequestOptions) {
      const path = annotationPath(id);
      checkObject("body", body);
      return send({ method: "PATCH", path, body, expect: annotation }, options);
    },
    async delete(id: number, options?: RequestOptions) {
      return send<void>({ method: "DELETE", path: annotationPath(id) }, options);
    },
  });
}
