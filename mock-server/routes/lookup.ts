import type { AnnotationRecord, PredictionRecord, ProjectRecord, TaskRecord } from "../../src/semantics/records.js";
import { notFound } from "../errors.js";
import type { MockContext } from "../http.js";
import type { ViewRecord } from "../store/state.js";

/** `get_object_or_404` per model: the server's 404 names the model. */
export function projectOr404(ctx: MockContext, id: number): ProjectRecord {
  const project = ctx.store.find("projects", id);
  if (!project) throw notFound("Project");
  return project;
}

export function taskOr404(ctx: MockContext, id: number): TaskRecord {
  const task = ctx.store.find("tasks", id);
  if (!task) throw notFound("Task");
  return task;
}

export function annotationOr404(ctx: MockContext, id: number): AnnotationRecord {
  const annotation = ctx.store.find("annotations", id);
  if (!annotation) throw notFound("Annotation");
  return annotation;
}

export function predictionOr404(ctx: MockContext, id: number): PredictionRecord {
  const prediction = ctx.store.find("predictions", id);
  if (!prediction) throw notFound("Prediction");
  return prediction;
}

export function viewOr404(ctx: MockContext, id: number): ViewRecord {
  const view = ctx.store.find("views", id);
  if (!view) throw notFound("View");
  return view;
}

/** The numeric `:id` of a route (the route pattern only matches digits). */
export function pathId(params: Readonly<Record<string, string>>, name = "id"): number {
  return Number.parseInt(params[name] ?? "0", 10);
}
