import type {
  AnnotationRecord,
  ConvertedFormatRecord,
  DraftRecord,
  ExportRecord,
  FileUploadRecord,
  MLBackendRecord,
  OrganizationRecord,
  PredictionRecord,
  ProjectRecord,
  TaskRecord,
  UserRecord,
  ViewRecord,
} from "./records.js";

export type { ConvertedFormatRecord, ExportRecord, FileUploadRecord, OrganizationRecord, ViewRecord } from "./records.js";
import type { CollectionName } from "./collections.js";

export { collectionNames, type CollectionName } from "./collections.js";

/** The whole store: the lowdb state, the seed format and the persist file are all this shape. */
export interface StoreState {
  users: UserRecord[];
  organizations: OrganizationRecord[];
  projects: ProjectRecord[];
  file_uploads: FileUploadRecord[];
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
    organizations: [],
    projects: [],
    file_uploads: [],
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
