/**
 * The declared wire contract: one declaration per resource the server renders, transcribed from its
 * serializers. The mock's presenters and write validation and the client's response types derive
 * from these.
 */
export type { Access, Validator, Condition, Declaration, FieldName, FieldSpec, FieldType, Kind, Rendered, WritableName } from "./field.js";
export { collectionNames, type CollectionName } from "./collections.js";
export { actionEntry } from "./action.js";
export { actionTypeChoices, annotation, annotationDefaults, annotationExpanded, annotationModel } from "./annotation.js";
export { draft, draftDefaults, draftModel } from "./draft.js";
export { errorBody, projectPage, taskPage } from "./envelope.js";
export {
  annotationFilterOptions,
  convertedFormat,
  convertedFormatDefaults,
  convertedFormatModel,
  exportDefaults,
  exportModel,
  exportAnnotation,
  exportCompletedBy,
  exportConvert,
  exportConverted,
  exportCreate,
  exportFormat,
  exportSnapshot,
  exportStatusChoices,
  exportTask,
  serializationOption,
  serializationOptions,
  taskFilterOptions,
} from "./export.js";
export {
  organization,
  organizationId,
  organizationInvite,
  organizationMember,
  organizationMemberPage,
  organizationMembership,
  organizationMemberUser,
  organizationModel,
} from "./organization.js";
export { fileUpload, fileUploadsDeleted, importResult, projectImport, projectReimport, reimportResult } from "./file-upload.js";
export { mlBackend, mlBackendAuthMethods, mlBackendDefaults, mlBackendModel, mlBackendStates } from "./ml-backend.js";
export { prediction, predictionDefaults, predictionModel } from "./prediction.js";
export {
  configChange,
  dmProjectState,
  modelVersionExtended,
  project,
  projectDefaults,
  projectModel,
  projectLabelConfig,
  samplingChoices,
  skipQueueChoices,
} from "./project.js";
export { detailUnevaluated, dmTask, dmTaskDetail, evaluatedColumns, nextTask, task, taskDefaults, taskModel, taskSimple } from "./task.js";
export {
  allPermissions,
  annotatorDm,
  completedByDm,
  hotkeys,
  hotkeysError,
  user,
  userDefaults,
  userModel,
  userSimple,
  userToken,
  whoAmI,
} from "./user.js";
export { view, viewDefaults, viewModel, viewOrder, viewReset } from "./view.js";
