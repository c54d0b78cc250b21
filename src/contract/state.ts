import type { AnnotationRecord, DraftRecord, MLBackendRecord, PredictionRecord, ProjectRecord, TaskRecord, UserRecord } from "./records.js";
import type { JsonValue } from "../vocabulary/json.js";

/**
 * A saved Data Manager view as the mock keeps it: `data` holds the wire form the server reads back
 * (`title`, `filters` with plural `child_filters`, `ordering`, `selectedItems`, `columnsDisplayType`, …).
 */
export interface ViewRecord {
  readonly id: number;
  readonly project: number;
  readonly user: number | null;
  readonly order: number;
  readonly data: { readonly [key: string]: JsonValue };
  readonly is_locked?: boolean;
  readonly locked_by?: number | null;
  readonly locked_at?: string | null;
}

/** The whole store: the lowdb state, the seed format and the persist file are all this shape. */
export interface StoreState {
  users: UserRecord[];
  projects: ProjectRecord[];
  tasks: TaskRecord[];
  annotations: AnnotationRecord[];
  predictions: PredictionRecord[];
  views: ViewRecord[];
  drafts: DraftRecord[];
  ml_backends: MLBackendRecord[];
}

export type CollectionName = keyof StoreState;
export type RecordOf<C extends CollectionName> = StoreState[C][number];

/** In dependency order: a record may refer only to collections listed before it. */
export const collectionNames = [
  "users",
  "projects",
  "tasks",
  "predictions",
  "annotations",
  "drafts",
  "views",
  "ml_backends",
] as const satisfies readonly CollectionName[];

export function emptyState(): StoreState {
  return { users: [], projects: [], tasks: [], annotations: [], predictions: [], views: [], drafts: [], ml_backends: [] };
}
