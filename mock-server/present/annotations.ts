import type { AnnotationRecord, DraftRecord } from "../../src/contract/records.js";
import { annotation, annotationExpanded, draft } from "../../src/contract/index.js";
import { annotationDefaults } from "../../src/contract/annotation.js";
import { draftDefaults } from "../../src/contract/draft.js";
import { orDefault, type Rendered } from "../../src/contract/field.js";
import { render, type RenderContext, type Values } from "../../src/contract/render.js";
import type { Store } from "../store/store.js";
import { timeSince } from "../time.js";
import { createdUsername, presentCompletedBy } from "./users.js";

/** The fields of an annotation but its author, from the stored record (model defaults where unset). */
function annotationValues(a: AnnotationRecord, store: Store): Omit<Values<typeof annotation>, "completed_by"> {
  const author = a.completed_by === null ? undefined : store.find("users", a.completed_by);
  return {
    id: a.id,
    result: a.result === null ? null : [...a.result],
    created_username: createdUsername(author, "annotation"),
    created_ago: timeSince(a.created_at),
    was_cancelled: a.was_cancelled,
    ground_truth: a.ground_truth,
    created_at: a.created_at,
    updated_at: a.updated_at,
    draft_created_at: orDefault(a.draft_created_at, annotationDefaults.draft_created_at),
    lead_time: a.lead_time,
    import_id: orDefault(a.import_id, annotationDefaults.import_id),
    last_action: orDefault(a.last_action, annotationDefaults.last_action),
    bulk_created: orDefault(a.bulk_created, annotationDefaults.bulk_created),
    task: a.task,
    project: a.project,
    updated_by: orDefault(a.updated_by, annotationDefaults.updated_by),
    parent_prediction: a.parent_prediction,
    parent_annotation: orDefault(a.parent_annotation, annotationDefaults.parent_annotation),
    last_created_by: orDefault(a.last_created_by, annotationDefaults.last_created_by),
  };
}

/** `AnnotationSerializer`: the author as an id. */
export function presentAnnotation(a: AnnotationRecord, store: Store, ctx?: RenderContext): Rendered<typeof annotation> {
  return render(annotation, { ...annotationValues(a, store), completed_by: a.completed_by }, ctx);
}

/** `AnnotationSerializer` expanded as `GET /api/tasks/{id}/` renders it: the author as an object. */
export function presentAnnotationExpanded(a: AnnotationRecord, store: Store): Rendered<typeof annotationExpanded> {
  const author = a.completed_by === null ? undefined : store.find("users", a.completed_by);
  return render(annotationExpanded, { ...annotationValues(a, store), completed_by: author ? presentCompletedBy(author) : null });
}

/** `AnnotationDraftSerializer`: `user` is `str(user)`, the user's email. */
export function presentDraft(d: DraftRecord, store: Store): Rendered<typeof draft> {
  const author = store.find("users", d.user);
  return render(draft, {
    id: d.id,
    user: author?.email ?? "",
    created_username: createdUsername(author, "draft"),
    created_ago: timeSince(d.created_at),
    result: d.result === null ? null : [...d.result],
    lead_time: orDefault(d.lead_time, draftDefaults.lead_time),
    was_postponed: orDefault(d.was_postponed, draftDefaults.was_postponed),
    import_id: orDefault(d.import_id, draftDefaults.import_id),
    created_at: d.created_at,
    updated_at: d.updated_at,
    task: d.task,
    annotation: orDefault(d.annotation, draftDefaults.annotation),
  });
}
