import type { AnnotationRecord, DraftRecord, MLBackendRecord, PredictionRecord, ProjectRecord, TaskRecord, UserRecord } from "./records.js";
import type { JsonValue } from "../vocabulary/json.js";
import type { CollectionName } from "./collections.js";

export { collectionNames, type CollectionName } from "./collections.js";

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

/**
 * An export snapshot (label_studio/data_export/models.py `Export`): the model's fields, plus the
 * file it wrote. The server keeps the file in its media storage under `file`; the mock keeps the
 * text with the record, so a snapshot survives a restart of a persisting mock as it does there.
 */
export interface ExportRecord {
  readonly id: number;
  readonly project: number;
  readonly title: string;
  readonly created_at: string;
  readonly created_by: number | null;
  readonly finished_at: string | null;
  readonly status: "created" | "in_progress" | "failed" | "completed";
  readonly md5: string;
  readonly counters: { readonly [key: string]: JsonValue };
  /** The storage name, `export/<project>/project-<project>-at-<YYYY-mm-dd-HH-MM>-<md5[:8]>.json`; null until written. */
  readonly file: string | null;
  /** The file's text (the standard library's JSON of the exported tasks); null until written. */
  readonly content: string | null;
}

/** A conversion of a snapshot (`ConvertedFormat`): the mock converts on download, as the server does (see docs/reference/exports.md). */
export interface ConvertedFormatRecord {
  readonly id: number;
  readonly export: number;
  readonly project: number | null;
  readonly export_type: string;
  readonly status: ExportRecord["status"];
  readonly traceback: string | null;
  readonly created_at: string;
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
  exports: ExportRecord[];
  converted_formats: ConvertedFormatRecord[];
}

export type RecordOf<C extends CollectionName> = StoreState[C][number];

/** The state holds exactly the collections `collectionNames` lists (a compile error otherwise). */
type SameNames = [keyof StoreState] extends [CollectionName] ? ([CollectionName] extends [keyof StoreState] ? true : false) : false;
const sameNames: SameNames = true;
void sameNames;

export function emptyState(): StoreState {
  return {
    users: [],
    projects: [],
    tasks: [],
    annotations: [],
    predictions: [],
    views: [],
    drafts: [],
    ml_backends: [],
    exports: [],
    converted_formats: [],
  };
}
