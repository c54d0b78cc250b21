/**
 * The store's collections, in dependency order: a record may refer only to collections listed before
 * it. A model field's `ref` names one of them (src/contract/field.ts); the store state has one array
 * per name (src/contract/state.ts).
 */
export const collectionNames = [
  "users",
  "organizations",
  "projects",
  "file_uploads",
  "tasks",
  "predictions",
  "annotations",
  "drafts",
  "views",
  "ml_backends",
  "exports",
  "converted_formats",
] as const;

export type CollectionName = (typeof collectionNames)[number];
