import { notFound } from "../errors.js";
import type { MockContext } from "../http.js";
import type { RecordOf } from "../../src/contract/state.js";

/** The model each routed collection's 404 names. */
const MODEL = {
  users: "User",
  organizations: "Organization",
  projects: "Project",
  tasks: "Task",
  annotations: "Annotation",
  predictions: "Prediction",
  views: "View",
  drafts: "AnnotationDraft",
  ml_backends: "MLBackend",
} as const;

/** `get_object_or_404` per model: the server's 404 names the model. */
export function recordOr404<C extends keyof typeof MODEL>(ctx: MockContext, collection: C, id: number): RecordOf<C> {
  const record = ctx.store.find(collection, id);
  if (!record) throw notFound(MODEL[collection]);
  return record;
}

export const projectOr404 = (ctx: MockContext, id: number) => recordOr404(ctx, "projects", id);
export const taskOr404 = (ctx: MockContext, id: number) => recordOr404(ctx, "tasks", id);
export const annotationOr404 = (ctx: MockContext, id: number) => recordOr404(ctx, "annotations", id);
export const predictionOr404 = (ctx: MockContext, id: number) => recordOr404(ctx, "predictions", id);
export const viewOr404 = (ctx: MockContext, id: number) => recordOr404(ctx, "views", id);

/** The numeric `:id` of a route (the route pattern only matches digits). */
export function pathId(params: Readonly<Record<string, string>>, name = "id"): number {
  return Number.parseInt(params[name] ?? "0", 10);
}
