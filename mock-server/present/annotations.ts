import type { AnnotationRecord, DraftRecord } from "../../src/contract/records.js";
import { annotation, annotationExpanded, draft } from "../../src/contract/index.js";
import type { Rendered } from "../../src/contract/field.js";
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
    draft_created_at: a.draft_created_at ?? null,
    lead_time: a.lead_time,
    import_id: a.import_id ?? null,
    last_action: (a.last_action ?? null) as Values<typeof annotation>["last_action"],
    bulk_created: a.bulk_created === undefined ? false : a.bulk_created,
    task: a.task,
    project: a.project,
    updated_by: a.updated_by ?? null,
    parent_prediction: a.parent_prediction ?? null,
    parent_annotation: a.parent_annotation ?? null,
    last_created_by: a.last_created_by ?? null,
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
    lead_time: d.lead_time ?? null,
    was_postponed: d.was_postponed ?? false,
    import_id: d.import_id ?? null,
    created_at: d.created_at,
    updated_at: d.updated_at ?? d.created_at,
    task: d.task,
    annotation: d.annotation ?? null,
  });
}
