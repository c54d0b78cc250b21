/**
 * Every `/api/` route of the community server's URL configuration, with the view that answers it,
 * its methods and whether the mock serves it; and the routes of the Enterprise edition that the
 * official Python SDK calls anyway. The mock's route table (mock-server/routes/index.ts), the
 * inventory test and docs/reference/routes.md derive from these two tables.
 *
 * Read from the server's URL configuration (`label_studio/core/urls.py` and the `urls.py` of every
 * app it includes) as Django resolves it: one entry per URL pattern, in resolution order, with the
 * methods its view class implements (a viewset: the router's actions within `http_method_names`);
 * HEAD and OPTIONS, which every DRF view answers, are left out. The SDK column is
 * label-studio-sdk 2.0.6's generated client (`<group>.<method>`).
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The mock answers every method of the route as the server does. */
export interface Served {
  readonly served: true;
}
/** The mock routes none of it: the server's 404 page, as for any unknown path. */
export interface NotServed {
  readonly served: false;
  readonly reason: string;
}

export interface ServerRoute {
  /** The pattern with its parameters in braces, the trailing slash as the server writes it (the mock accepts both forms). */
  readonly path: string;
  /** `<app>/<file>.py <Class>` under `label_studio/`. */
  readonly view: string;
  readonly methods: readonly HttpMethod[];
  /** A DRF router route: the router also routes it with a format suffix (`/api/users.json`), which the mock does not serve. */
  readonly router?: true;
  /** The official Python SDK's methods that call it. */
  readonly sdk: readonly string[];
  readonly mock: Served | NotServed;
}

/** A route of Label Studio Enterprise only: the community server, and so the mock, routes no such path (or not that method). */
export interface EnterpriseRoute {
  readonly path: string;
  readonly methods: readonly HttpMethod[];
  /** The official Python SDK's methods that call it. */
  readonly sdk: readonly string[];
}

const SERVED: Served = { served: true };
const notServed = (reason: string): NotServed => ({ served: false, reason });

const STORAGE = notServed(
  "cloud storage connections: syncing reads buckets of S3, GCS, Azure, Redis or the server's disk, none of which the mock reaches; seed tasks or import them instead",
);
const ORGANIZATION = notServed(
  "organization management and invitations: the mock has one organization whose members are its users (`/api/users/` serves them)",
);
const EXPORT_FILES = notServed(
  "the files of the one-step exports a server kept on its disk (`export/files`, and nginx's auth check for them): the mock keeps no files; snapshots (`/exports/`) keep exports",
);
const WEBHOOKS = notServed("outgoing webhooks: the mock calls no URL on its own but a registered ML backend's");
const LABELS = notServed(
  "the label manager of the labeling UI (custom label sets and their links to projects): nothing the Data Manager reads",
);
const API_ROOT = notServed(
  "DRF's browsable index of a router (a JSON object of links to the router's lists); `/api/` is registered by three routers and the first, the users router's, answers",
);
const FILES = notServed("uploaded files (multipart uploads, their records and re-imports): the mock imports JSON and keeps no files");
const COUNTS = notServed("the project list with only its counters: `GET /api/projects/` renders the same counters on every project");
const LABELING_STREAM = notServed(
  "the labeling stream of the web UI (task locks, sampling and the history of the next-task queue); the Data Manager's `next_task` action is served",
);
const SUMMARY = notServed(
  "the project summary is the server's cache of data columns and label counts, which the mock computes on each request: nothing to read apart or reset",
);
const IMPORT_RECORDS = notServed(
  "the mock imports synchronously and keeps no import records: `POST /api/projects/{pk}/import` answers with the counts",
);
const SAMPLE_TASK = notServed(
  "a sample task generated from a labeling config (the SDK's LabelInterface) for the config editor of the web UI",
);
const TEMPLATES = notServed("the web UI's gallery of labeling config templates (YAML files shipped with the server)");
const WEB_UI = notServed("state of the web UI (product tours, cookie session timeouts): the mock has no web UI and no sessions");
const JWT_SETTINGS = notServed(
  "the organization's token settings: the mock's are fixed (legacy tokens and personal access tokens both enabled, access tokens for `accessTokenLifetime` seconds)",
);

export const serverRoutes = [
  {
    path: "/api/organizations/",
    view: "organizations/api.py OrganizationListAPI",
    methods: ["GET", "POST"],
    sdk: ["organizations.list"],
    mock: ORGANIZATION,
  },
  {
    path: "/api/organizations/{pk}",
    view: "organizations/api.py OrganizationAPI",
    methods: ["GET", "PUT", "PATCH"],
    sdk: ["organizations.get"],
    mock: ORGANIZATION,
  },
  {
    path: "/api/organizations/{pk}/memberships",
    view: "organizations/api.py OrganizationMemberListAPI",
    methods: ["GET"],
    sdk: ["organizations.members.list", "organizations.members.update (PATCH: not in community)"],
    mock: ORGANIZATION,
  },
  {
    path: "/api/organizations/{pk}/memberships/{user_pk}/",
    view: "organizations/api.py OrganizationMemberDetailAPI",
    methods: ["GET", "DELETE"],
    sdk: ["organizations.members.delete", "organizations.members.get"],
    mock: ORGANIZATION,
  },
  { path: "/api/invite", view: "organizations/api.py OrganizationInviteAPI", methods: ["GET"], sdk: [], mock: ORGANIZATION },
  {
    path: "/api/invite/reset-token",
    view: "organizations/api.py OrganizationResetTokenAPI",
    methods: ["POST"],
    sdk: ["organizations.reset_token"],
    mock: ORGANIZATION,
  },
  {
    path: "/api/projects/",
    view: "projects/api.py ProjectListAPI",
    methods: ["GET", "POST"],
    sdk: ["projects.list", "projects.create"],
    mock: SERVED,
  },
  {
    path: "/api/projects/{pk}/",
    view: "projects/api.py ProjectAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["projects.delete", "projects.get", "projects.update"],
    mock: SERVED,
  },
  { path: "/api/projects/counts/", view: "projects/api.py ProjectCountsListAPI", methods: ["GET"], sdk: [], mock: COUNTS },
  { path: "/api/projects/{pk}/next/", view: "projects/api.py ProjectNextTaskAPI", methods: ["GET"], sdk: [], mock: LABELING_STREAM },
  {
    path: "/api/projects/{pk}/label-stream-history/",
    view: "projects/api.py LabelStreamHistoryAPI",
    methods: ["GET"],
    sdk: [],
    mock: LABELING_STREAM,
  },
  { path: "/api/projects/validate/", view: "projects/api.py LabelConfigValidateAPI", methods: ["POST"], sdk: [], mock: SERVED },
  {
    path: "/api/projects/{pk}/validate/",
    view: "projects/api.py ProjectLabelConfigValidateAPI",
    methods: ["GET", "POST"],
    sdk: ["projects.validate_label_config"],
    mock: SERVED,
  },
  { path: "/api/projects/{pk}/summary/", view: "projects/api.py ProjectSummaryAPI", methods: ["GET"], sdk: [], mock: SUMMARY },
  { path: "/api/projects/{pk}/summary/reset/", view: "projects/api.py ProjectSummaryResetAPI", methods: ["POST"], sdk: [], mock: SUMMARY },
  {
    path: "/api/projects/{pk}/imports/{import_pk}/",
    view: "projects/api.py ProjectImportAPI",
    methods: ["GET"],
    sdk: ["tasks.create_many_status"],
    mock: IMPORT_RECORDS,
  },
  {
    path: "/api/projects/{pk}/reimports/{reimport_pk}/",
    view: "projects/api.py ProjectReimportAPI",
    methods: ["GET"],
    sdk: [],
    mock: FILES,
  },
  {
    path: "/api/projects/{pk}/tasks/",
    view: "projects/api.py ProjectTaskListAPI",
    methods: ["GET", "POST", "DELETE"],
    sdk: ["tasks.delete_all_tasks"],
    mock: SERVED,
  },
  {
    path: "/api/projects/{pk}/sample-task/",
    view: "projects/api.py ProjectSampleTask",
    methods: ["GET", "POST"],
    sdk: [],
    mock: SAMPLE_TASK,
  },
  {
    path: "/api/projects/{pk}/model-versions/",
    view: "projects/api.py ProjectModelVersions",
    methods: ["GET", "DELETE"],
    sdk: [],
    mock: SERVED,
  },
  { path: "/api/templates/", view: "projects/api.py TemplateListAPI", methods: ["GET"], sdk: [], mock: TEMPLATES },
  {
    path: "/api/import/file-upload/{pk}",
    view: "data_import/api.py FileUploadAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["files.delete", "files.get", "files.update"],
    mock: FILES,
  },
  { path: "/api/projects/{pk}/tasks/bulk/", view: "data_import/api.py TasksBulkCreateAPI", methods: ["POST"], sdk: [], mock: SERVED },
  {
    path: "/api/projects/{pk}/import",
    view: "data_import/api.py ImportAPI",
    methods: ["POST"],
    sdk: ["projects.import_tasks"],
    mock: SERVED,
  },
  {
    path: "/api/projects/{pk}/import/predictions",
    view: "data_import/api.py ImportPredictionsAPI",
    methods: ["POST"],
    sdk: [],
    mock: SERVED,
  },
  { path: "/api/projects/{pk}/reimport", view: "data_import/api.py ReImportAPI", methods: ["POST"], sdk: [], mock: FILES },
  {
    path: "/api/projects/{pk}/file-uploads",
    view: "data_import/api.py FileUploadListAPI",
    methods: ["GET", "DELETE"],
    sdk: ["files.delete_many", "files.list"],
    mock: FILES,
  },
  {
    path: "/api/dm/views/",
    view: "data_manager/api.py ViewAPI",
    methods: ["GET", "POST"],
    router: true,
    sdk: ["views.list", "views.create"],
    mock: SERVED,
  },
  {
    path: "/api/dm/views/reset/",
    view: "data_manager/api.py ViewAPI",
    methods: ["DELETE"],
    router: true,
    sdk: ["views.delete_all"],
    mock: SERVED,
  },
  {
    path: "/api/dm/views/order/",
    view: "data_manager/api.py ViewAPI",
    methods: ["POST"],
    router: true,
    sdk: ["views.update_order"],
    mock: SERVED,
  },
  {
    path: "/api/dm/views/{pk}/",
    view: "data_manager/api.py ViewAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    router: true,
    sdk: ["views.delete", "views.get", "views.update"],
    mock: SERVED,
  },
  { path: "/api/dm/", view: "rest_framework/routers.py APIRootView", methods: ["GET"], sdk: [], mock: API_ROOT },
  { path: "/api/dm/columns/", view: "data_manager/api.py ProjectColumnsAPI", methods: ["GET"], sdk: [], mock: SERVED },
  { path: "/api/dm/project/", view: "data_manager/api.py ProjectStateAPI", methods: ["GET"], sdk: [], mock: SERVED },
  {
    path: "/api/dm/actions/",
    view: "data_manager/api.py ProjectActionsAPI",
    methods: ["GET", "POST"],
    sdk: ["actions.list", "actions.create"],
    mock: SERVED,
  },
  { path: "/api/dm/actions/{action_id}/form/", view: "data_manager/api.py ProjectActionsFormAPI", methods: ["GET"], sdk: [], mock: SERVED },
  {
    path: "/api/projects/{pk}/export",
    view: "data_export/api.py ExportAPI",
    methods: ["GET"],
    sdk: ["projects.exports.download_sync"],
    mock: SERVED,
  },
  {
    path: "/api/projects/{pk}/export/formats",
    view: "data_export/api.py ExportFormatsListAPI",
    methods: ["GET"],
    sdk: ["projects.exports.list_formats"],
    mock: SERVED,
  },
  { path: "/api/projects/{pk}/export/files", view: "data_export/api.py ProjectExportFiles", methods: ["GET"], sdk: [], mock: EXPORT_FILES },
  {
    path: "/api/projects/{pk}/exports/",
    view: "data_export/api.py ExportListAPI",
    methods: ["GET", "POST"],
    sdk: ["projects.exports.list", "projects.exports.create"],
    mock: SERVED,
  },
  {
    path: "/api/projects/{pk}/exports/{export_pk}",
    view: "data_export/api.py ExportDetailAPI",
    methods: ["GET", "DELETE"],
    sdk: ["projects.exports.delete", "projects.exports.get"],
    mock: SERVED,
  },
  {
    path: "/api/projects/{pk}/exports/{export_pk}/download",
    view: "data_export/api.py ExportDownloadAPI",
    methods: ["GET"],
    sdk: ["projects.exports.download"],
    mock: SERVED,
  },
  {
    path: "/api/projects/{pk}/exports/{export_pk}/convert",
    view: "data_export/api.py ExportConvertAPI",
    methods: ["GET", "POST"],
    sdk: ["projects.exports.convert"],
    mock: SERVED,
  },
  { path: "/api/auth/export/", view: "data_export/api.py ProjectExportFilesAuthCheck", methods: ["GET"], sdk: [], mock: EXPORT_FILES },
  {
    path: "/api/users/",
    view: "users/api.py UserAPI",
    methods: ["GET", "POST"],
    router: true,
    sdk: ["users.list", "users.create"],
    mock: SERVED,
  },
  {
    path: "/api/users/{pk}/",
    view: "users/api.py UserAPI",
    methods: ["GET", "PATCH", "DELETE"],
    router: true,
    sdk: ["users.delete", "users.get", "users.update"],
    mock: SERVED,
  },
  { path: "/api/users/{pk}/avatar/", view: "users/api.py UserAPI", methods: ["POST", "DELETE"], router: true, sdk: [], mock: FILES },
  { path: "/api/", view: "rest_framework/routers.py APIRootView", methods: ["GET"], sdk: [], mock: API_ROOT },
  {
    path: "/api/current-user/reset-token/",
    view: "users/api.py UserResetTokenAPI",
    methods: ["POST"],
    sdk: ["users.reset_token"],
    mock: SERVED,
  },
  { path: "/api/current-user/token", view: "users/api.py UserGetTokenAPI", methods: ["GET"], sdk: ["users.get_token"], mock: SERVED },
  { path: "/api/current-user/whoami", view: "users/api.py UserWhoAmIAPI", methods: ["GET"], sdk: ["users.whoami"], mock: SERVED },
  {
    path: "/api/current-user/product-tour",
    view: "users/product_tours/api.py ProductTourAPI",
    methods: ["GET", "PUT", "PATCH"],
    sdk: [],
    mock: WEB_UI,
  },
  {
    path: "/api/current-user/hotkeys/",
    view: "users/api.py UserHotkeysAPI",
    methods: ["GET", "PATCH"],
    sdk: ["users.get_hotkeys", "users.update_hotkeys"],
    mock: SERVED,
  },
  { path: "/api/tasks/", view: "tasks/api.py TaskListAPI", methods: ["GET", "POST"], sdk: ["tasks.list", "tasks.create"], mock: SERVED },
  {
    path: "/api/tasks/{pk}/",
    view: "tasks/api.py TaskAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["tasks.delete", "tasks.get", "tasks.update"],
    mock: SERVED,
  },
  {
    path: "/api/tasks/{pk}/annotations/",
    view: "tasks/api.py AnnotationsListAPI",
    methods: ["GET", "POST"],
    sdk: ["annotations.list", "annotations.create"],
    mock: SERVED,
  },
  { path: "/api/tasks/{pk}/drafts", view: "tasks/api.py AnnotationDraftListAPI", methods: ["GET", "POST"], sdk: [], mock: SERVED },
  {
    path: "/api/tasks/{pk}/annotations/{annotation_id}/drafts",
    view: "tasks/api.py AnnotationDraftListAPI",
    methods: ["GET", "POST"],
    sdk: [],
    mock: SERVED,
  },
  {
    path: "/api/annotations/{pk}/",
    view: "tasks/api.py AnnotationAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["annotations.delete", "annotations.get", "annotations.update"],
    mock: SERVED,
  },
  {
    path: "/api/annotations/{pk}/convert-to-draft",
    view: "tasks/api.py AnnotationConvertAPI",
    methods: ["GET", "POST"],
    sdk: [],
    mock: SERVED,
  },
  {
    path: "/api/drafts/{pk}/",
    view: "tasks/api.py AnnotationDraftAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: [],
    mock: SERVED,
  },
  {
    path: "/api/predictions/",
    view: "tasks/api.py PredictionAPI",
    methods: ["GET", "POST"],
    router: true,
    sdk: ["predictions.list", "predictions.create"],
    mock: SERVED,
  },
  {
    path: "/api/predictions/{pk}/",
    view: "tasks/api.py PredictionAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    router: true,
    sdk: ["predictions.delete", "predictions.get", "predictions.update"],
    mock: SERVED,
  },
  { path: "/api/storages/", view: "io_storages/all_api.py AllImportStorageListAPI", methods: ["GET"], sdk: [], mock: STORAGE },
  { path: "/api/storages/export", view: "io_storages/all_api.py AllExportStorageListAPI", methods: ["GET"], sdk: [], mock: STORAGE },
  {
    path: "/api/storages/types",
    view: "io_storages/all_api.py AllImportStorageTypesAPI",
    methods: ["GET"],
    sdk: ["import_storage.list_types"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/types",
    view: "io_storages/all_api.py AllExportStorageTypesAPI",
    methods: ["GET"],
    sdk: ["export_storage.list_types"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/s3/",
    view: "io_storages/s3/api.py S3ImportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["import_storage.s3.list", "import_storage.s3.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/s3/{pk}",
    view: "io_storages/s3/api.py S3ImportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["import_storage.s3.delete", "import_storage.s3.get", "import_storage.s3.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/s3/{pk}/sync",
    view: "io_storages/s3/api.py S3ImportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["import_storage.s3.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/s3/validate",
    view: "io_storages/s3/api.py S3ImportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["import_storage.s3.validate"],
    mock: STORAGE,
  },
  { path: "/api/storages/s3/form", view: "io_storages/s3/api.py S3ImportStorageFormLayoutAPI", methods: ["GET"], sdk: [], mock: STORAGE },
  { path: "/api/storages/s3/files", view: "io_storages/api.py ImportStorageListFilesAPI", methods: ["POST"], sdk: [], mock: STORAGE },
  {
    path: "/api/storages/export/s3",
    view: "io_storages/s3/api.py S3ExportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["export_storage.s3.list", "export_storage.s3.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/s3/{pk}",
    view: "io_storages/s3/api.py S3ExportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["export_storage.s3.delete", "export_storage.s3.get", "export_storage.s3.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/s3/{pk}/sync",
    view: "io_storages/s3/api.py S3ExportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["export_storage.s3.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/s3/validate",
    view: "io_storages/s3/api.py S3ExportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["export_storage.s3.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/s3/form",
    view: "io_storages/s3/api.py S3ExportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  {
    path: "/api/storages/azure/",
    view: "io_storages/azure_blob/api.py AzureBlobImportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["import_storage.azure.list", "import_storage.azure.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/azure/{pk}",
    view: "io_storages/azure_blob/api.py AzureBlobImportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["import_storage.azure.delete", "import_storage.azure.get", "import_storage.azure.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/azure/{pk}/sync",
    view: "io_storages/azure_blob/api.py AzureBlobImportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["import_storage.azure.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/azure/validate",
    view: "io_storages/azure_blob/api.py AzureBlobImportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["import_storage.azure.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/azure/form",
    view: "io_storages/azure_blob/api.py AzureBlobImportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  { path: "/api/storages/azure/files", view: "io_storages/api.py ImportStorageListFilesAPI", methods: ["POST"], sdk: [], mock: STORAGE },
  {
    path: "/api/storages/export/azure",
    view: "io_storages/azure_blob/api.py AzureBlobExportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["export_storage.azure.list", "export_storage.azure.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/azure/{pk}",
    view: "io_storages/azure_blob/api.py AzureBlobExportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["export_storage.azure.delete", "export_storage.azure.get", "export_storage.azure.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/azure/{pk}/sync",
    view: "io_storages/azure_blob/api.py AzureBlobExportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["export_storage.azure.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/azure/validate",
    view: "io_storages/azure_blob/api.py AzureBlobExportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["export_storage.azure.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/azure/form",
    view: "io_storages/azure_blob/api.py AzureBlobExportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  {
    path: "/api/storages/gcs/",
    view: "io_storages/gcs/api.py GCSImportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["import_storage.gcs.list", "import_storage.gcs.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/gcs/{pk}",
    view: "io_storages/gcs/api.py GCSImportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["import_storage.gcs.delete", "import_storage.gcs.get", "import_storage.gcs.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/gcs/{pk}/sync",
    view: "io_storages/gcs/api.py GCSImportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["import_storage.gcs.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/gcs/validate",
    view: "io_storages/gcs/api.py GCSImportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["import_storage.gcs.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/gcs/form",
    view: "io_storages/gcs/api.py GCSImportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  { path: "/api/storages/gcs/files", view: "io_storages/api.py ImportStorageListFilesAPI", methods: ["POST"], sdk: [], mock: STORAGE },
  {
    path: "/api/storages/export/gcs",
    view: "io_storages/gcs/api.py GCSExportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["export_storage.gcs.list", "export_storage.gcs.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/gcs/{pk}",
    view: "io_storages/gcs/api.py GCSExportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["export_storage.gcs.delete", "export_storage.gcs.get", "export_storage.gcs.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/gcs/{pk}/sync",
    view: "io_storages/gcs/api.py GCSExportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["export_storage.gcs.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/gcs/validate",
    view: "io_storages/gcs/api.py GCSExportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["export_storage.gcs.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/gcs/form",
    view: "io_storages/gcs/api.py GCSExportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  {
    path: "/api/storages/redis/",
    view: "io_storages/redis/api.py RedisImportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["import_storage.redis.list", "import_storage.redis.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/redis/{pk}",
    view: "io_storages/redis/api.py RedisImportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["import_storage.redis.delete", "import_storage.redis.get", "import_storage.redis.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/redis/{pk}/sync",
    view: "io_storages/redis/api.py RedisImportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["import_storage.redis.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/redis/validate",
    view: "io_storages/redis/api.py RedisImportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["import_storage.redis.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/redis/form",
    view: "io_storages/redis/api.py RedisImportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  { path: "/api/storages/redis/files", view: "io_storages/api.py ImportStorageListFilesAPI", methods: ["POST"], sdk: [], mock: STORAGE },
  {
    path: "/api/storages/export/redis",
    view: "io_storages/redis/api.py RedisExportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["export_storage.redis.list", "export_storage.redis.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/redis/{pk}",
    view: "io_storages/redis/api.py RedisExportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["export_storage.redis.delete", "export_storage.redis.get", "export_storage.redis.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/redis/{pk}/sync",
    view: "io_storages/redis/api.py RedisExportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["export_storage.redis.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/redis/validate",
    view: "io_storages/redis/api.py RedisExportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["export_storage.redis.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/redis/form",
    view: "io_storages/redis/api.py RedisExportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  {
    path: "/api/storages/localfiles/",
    view: "io_storages/localfiles/api.py LocalFilesImportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["import_storage.local.list", "import_storage.local.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/localfiles/{pk}",
    view: "io_storages/localfiles/api.py LocalFilesImportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["import_storage.local.delete", "import_storage.local.get", "import_storage.local.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/localfiles/{pk}/sync",
    view: "io_storages/localfiles/api.py LocalFilesImportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["import_storage.local.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/localfiles/validate",
    view: "io_storages/localfiles/api.py LocalFilesImportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["import_storage.local.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/localfiles/form",
    view: "io_storages/localfiles/api.py LocalFilesImportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  {
    path: "/api/storages/localfiles/files",
    view: "io_storages/api.py ImportStorageListFilesAPI",
    methods: ["POST"],
    sdk: [],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/localfiles",
    view: "io_storages/localfiles/api.py LocalFilesExportStorageListAPI",
    methods: ["GET", "POST"],
    sdk: ["export_storage.local.list", "export_storage.local.create"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/localfiles/{pk}",
    view: "io_storages/localfiles/api.py LocalFilesExportStorageDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["export_storage.local.delete", "export_storage.local.get", "export_storage.local.update"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/localfiles/{pk}/sync",
    view: "io_storages/localfiles/api.py LocalFilesExportStorageSyncAPI",
    methods: ["POST"],
    sdk: ["export_storage.local.sync"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/localfiles/validate",
    view: "io_storages/localfiles/api.py LocalFilesExportStorageValidateAPI",
    methods: ["POST"],
    sdk: ["export_storage.local.validate"],
    mock: STORAGE,
  },
  {
    path: "/api/storages/export/localfiles/form",
    view: "io_storages/localfiles/api.py LocalFilesExportStorageFormLayoutAPI",
    methods: ["GET"],
    sdk: [],
    mock: STORAGE,
  },
  { path: "/api/ml/", view: "ml/api.py MLBackendListAPI", methods: ["GET", "POST"], sdk: ["ml.list", "ml.create"], mock: SERVED },
  {
    path: "/api/ml/{pk}",
    view: "ml/api.py MLBackendDetailAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["ml.delete", "ml.get", "ml.update"],
    mock: SERVED,
  },
  { path: "/api/ml/{pk}/train", view: "ml/api.py MLBackendTrainAPI", methods: ["POST"], sdk: ["ml.train"], mock: SERVED },
  { path: "/api/ml/{pk}/predict/test", view: "ml/api.py MLBackendPredictTestAPI", methods: ["POST"], sdk: [], mock: SERVED },
  {
    path: "/api/ml/{pk}/interactive-annotating",
    view: "ml/api.py MLBackendInteractiveAnnotating",
    methods: ["POST"],
    sdk: ["ml.predict_interactive"],
    mock: SERVED,
  },
  {
    path: "/api/ml/{pk}/versions",
    view: "ml/api.py MLBackendVersionsAPI",
    methods: ["GET"],
    sdk: ["ml.list_model_versions"],
    mock: SERVED,
  },
  {
    path: "/api/webhooks/",
    view: "webhooks/api.py WebhookListAPI",
    methods: ["GET", "POST"],
    sdk: ["webhooks.list", "webhooks.create"],
    mock: WEBHOOKS,
  },
  {
    path: "/api/webhooks/{pk}/",
    view: "webhooks/api.py WebhookAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    sdk: ["webhooks.delete", "webhooks.get", "webhooks.update"],
    mock: WEBHOOKS,
  },
  { path: "/api/webhooks/info/", view: "webhooks/api.py WebhookInfoAPI", methods: ["GET"], sdk: ["webhooks.info"], mock: WEBHOOKS },
  { path: "/api/labels/", view: "labels_manager/api.py LabelAPI", methods: ["GET", "POST"], router: true, sdk: [], mock: LABELS },
  {
    path: "/api/labels/{pk}/",
    view: "labels_manager/api.py LabelAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    router: true,
    sdk: [],
    mock: LABELS,
  },
  { path: "/api/label_links/", view: "labels_manager/api.py LabelLinkAPI", methods: ["GET", "POST"], router: true, sdk: [], mock: LABELS },
  {
    path: "/api/label_links/{pk}/",
    view: "labels_manager/api.py LabelLinkAPI",
    methods: ["GET", "PUT", "PATCH", "DELETE"],
    router: true,
    sdk: [],
    mock: LABELS,
  },
  { path: "/api/labels/bulk", view: "labels_manager/api.py LabelBulkUpdateAPI", methods: ["POST"], sdk: [], mock: LABELS },
  { path: "/api/version/", view: "core/views.py version_page", methods: ["GET"], sdk: ["versions.get"], mock: SERVED },
  {
    path: "/api/jwt/settings",
    view: "jwt_auth/views.py JWTSettingsAPI",
    methods: ["GET", "POST"],
    sdk: ["jwt_settings.get", "jwt_settings.update"],
    mock: JWT_SETTINGS,
  },
  {
    path: "/api/token/",
    view: "jwt_auth/views.py LSAPITokenView",
    methods: ["GET", "POST"],
    sdk: ["tokens.list", "tokens.create"],
    mock: SERVED,
  },
  {
    path: "/api/token/refresh/",
    view: "jwt_auth/views.py DecoratedTokenRefreshView",
    methods: ["POST"],
    sdk: ["tokens.refresh"],
    mock: SERVED,
  },
  {
    path: "/api/token/blacklist/",
    view: "jwt_auth/views.py LSTokenBlacklistView",
    methods: ["POST"],
    sdk: ["tokens.blacklist"],
    mock: SERVED,
  },
  { path: "/api/token/rotate/", view: "jwt_auth/views.py LSAPITokenRotateView", methods: ["POST"], sdk: ["tokens.rotate"], mock: SERVED },
  {
    path: "/api/session-policy/",
    view: "session_policy/api.py SessionTimeoutPolicyView",
    methods: ["GET", "PATCH"],
    sdk: [],
    mock: WEB_UI,
  },
] as const satisfies readonly ServerRoute[];

export const enterpriseRoutes = [
  { path: "/api/activity-logs/", methods: ["GET"], sdk: ["activity_logs.list"] },
  { path: "/api/annotation-history/", methods: ["GET", "DELETE"], sdk: ["annotation_history.list", "annotation_history.delete"] },
  { path: "/api/annotation-reviews/", methods: ["GET", "POST"], sdk: ["annotation_reviews.list", "annotation_reviews.create"] },
  {
    path: "/api/annotation-reviews/{id}/",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["annotation_reviews.get", "annotation_reviews.update", "annotation_reviews.delete"],
  },
  { path: "/api/annotations/bulk/", methods: ["POST"], sdk: ["annotations.create_bulk"] },
  { path: "/api/billing/info", methods: ["GET"], sdk: ["billing.info"] },
  { path: "/api/blueprints/", methods: ["POST"], sdk: ["blueprints.create"] },
  { path: "/api/blueprints/{id}/", methods: ["DELETE"], sdk: ["blueprints.delete"] },
  { path: "/api/comments/", methods: ["GET", "POST"], sdk: ["comments.list", "comments.create"] },
  { path: "/api/comments/{id}/", methods: ["GET", "PATCH", "DELETE"], sdk: ["comments.get", "comments.update", "comments.delete"] },
  { path: "/api/current-user", methods: ["GET", "PATCH"], sdk: ["users.get_current_user", "users.update_current_user"] },
  { path: "/api/inference-runs/{id}/indicators/", methods: ["GET"], sdk: ["prompts.indicators.list"] },
  { path: "/api/inference-runs/{id}/indicators/{indicator_key}", methods: ["GET"], sdk: ["prompts.indicators.get"] },
  { path: "/api/model-provider-connections/", methods: ["GET", "POST"], sdk: ["model_providers.list", "model_providers.create"] },
  { path: "/api/model-provider-connections/provider-choices", methods: ["GET"], sdk: ["model_providers.list_model_provider_choices"] },
  {
    path: "/api/model-provider-connections/{id}/",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["model_providers.get", "model_providers.update", "model_providers.delete"],
  },
  { path: "/api/model-run/batch-failed-predictions", methods: ["POST"], sdk: ["prompts.batch_failed_predictions"] },
  { path: "/api/model-run/batch-predictions", methods: ["POST"], sdk: ["prompts.batch_predictions"] },
  { path: "/api/organizations/{id}/memberships", methods: ["PATCH"], sdk: ["organizations.members.update"] },
  { path: "/api/projects/{id}/annotation-history/", methods: ["GET"], sdk: ["annotation_history.list_for_project"] },
  {
    path: "/api/projects/{id}/aws-custom-function",
    methods: ["GET", "POST"],
    sdk: ["projects.metrics.custom.get_lambda", "projects.metrics.custom.update_lambda"],
  },
  { path: "/api/projects/{id}/aws-custom-function-logs", methods: ["GET"], sdk: ["projects.metrics.custom.logs"] },
  { path: "/api/projects/{id}/check-function", methods: ["POST"], sdk: ["projects.metrics.custom.check_function"] },
  { path: "/api/projects/{id}/duplicate/", methods: ["POST"], sdk: ["projects.duplicate"] },
  { path: "/api/projects/{id}/members/", methods: ["GET"], sdk: ["projects.members.get"] },
  {
    path: "/api/projects/{id}/members/bulk/",
    methods: ["POST", "DELETE"],
    sdk: ["projects.members.bulk.post", "projects.members.bulk.delete"],
  },
  { path: "/api/projects/{id}/members/paginated/", methods: ["GET"], sdk: ["projects.members.paginated.list"] },
  { path: "/api/projects/{id}/metricparam/", methods: ["GET", "POST"], sdk: ["projects.metrics.get", "projects.metrics.update"] },
  { path: "/api/projects/{id}/stats/IAA", methods: ["GET"], sdk: ["projects.stats.iaa"] },
  { path: "/api/projects/{id}/stats/total_agreement", methods: ["GET"], sdk: ["projects.stats.total_agreement"] },
  { path: "/api/projects/{id}/tasks/assignees", methods: ["POST"], sdk: ["projects.assignments.bulk_assign"] },
  {
    path: "/api/projects/{id}/tasks/{task_pk}/assignees",
    methods: ["GET", "POST", "PATCH", "DELETE"],
    sdk: ["projects.assignments.list", "projects.assignments.assign", "projects.assignments.update", "projects.assignments.delete"],
  },
  {
    path: "/api/projects/{project_pk}/members/{user_pk}/pauses/",
    methods: ["GET", "POST"],
    sdk: ["projects.pauses.list", "projects.pauses.create"],
  },
  {
    path: "/api/projects/{project_pk}/members/{user_pk}/pauses/{id}/",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["projects.pauses.get", "projects.pauses.update", "projects.pauses.delete"],
  },
  { path: "/api/prompts/", methods: ["GET", "POST"], sdk: ["prompts.list", "prompts.create"] },
  { path: "/api/prompts/compatible-projects", methods: ["GET"], sdk: ["prompts.compatible_projects"] },
  { path: "/api/prompts/{id}/", methods: ["GET", "PATCH", "DELETE"], sdk: ["prompts.get", "prompts.update", "prompts.delete"] },
  { path: "/api/prompts/{id}/get-default-version-name", methods: ["GET"], sdk: ["prompts.versions.get_default_version_name"] },
  { path: "/api/prompts/{prompt_id}/versions", methods: ["GET", "POST"], sdk: ["prompts.versions.list", "prompts.versions.create"] },
  {
    path: "/api/prompts/{prompt_id}/versions/{version_id}",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["prompts.versions.get", "prompts.versions.update", "prompts.versions.delete"],
  },
  { path: "/api/prompts/{prompt_id}/versions/{version_id}/cost-estimate", methods: ["GET"], sdk: ["prompts.versions.cost_estimate"] },
  {
    path: "/api/prompts/{prompt_id}/versions/{version_id}/inference-runs",
    methods: ["GET", "POST"],
    sdk: ["prompts.runs.list", "prompts.runs.create"],
  },
  {
    path: "/api/prompts/{prompt_id}/versions/{version_id}/refine",
    methods: ["GET", "POST"],
    sdk: ["prompts.versions.get_refined_prompt", "prompts.versions.refine_prompt"],
  },
  { path: "/api/saml/settings", methods: ["GET", "POST"], sdk: ["sso.saml.get", "sso.saml.update"] },
  { path: "/api/scim/settings", methods: ["GET", "POST"], sdk: ["sso.scim.get", "sso.scim.update"] },
  { path: "/api/storages/azure_spi/", methods: ["GET", "POST"], sdk: ["import_storage.azure_spi.list", "import_storage.azure_spi.create"] },
  { path: "/api/storages/azure_spi/validate", methods: ["POST"], sdk: ["import_storage.azure_spi.validate"] },
  {
    path: "/api/storages/azure_spi/{id}",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["import_storage.azure_spi.get", "import_storage.azure_spi.update", "import_storage.azure_spi.delete"],
  },
  { path: "/api/storages/azure_spi/{id}/sync", methods: ["POST"], sdk: ["import_storage.azure_spi.sync"] },
  {
    path: "/api/storages/export/azure_spi",
    methods: ["GET", "POST"],
    sdk: ["export_storage.azure_spi.list", "export_storage.azure_spi.create"],
  },
  { path: "/api/storages/export/azure_spi/validate", methods: ["POST"], sdk: ["export_storage.azure_spi.validate"] },
  {
    path: "/api/storages/export/azure_spi/{id}",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["export_storage.azure_spi.get", "export_storage.azure_spi.update", "export_storage.azure_spi.delete"],
  },
  { path: "/api/storages/export/azure_spi/{id}/sync", methods: ["POST"], sdk: ["export_storage.azure_spi.sync"] },
  { path: "/api/storages/export/gcswif", methods: ["GET", "POST"], sdk: ["export_storage.gcswif.list", "export_storage.gcswif.create"] },
  { path: "/api/storages/export/gcswif/validate", methods: ["POST"], sdk: ["export_storage.gcswif.validate"] },
  {
    path: "/api/storages/export/gcswif/{id}",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["export_storage.gcswif.get", "export_storage.gcswif.update", "export_storage.gcswif.delete"],
  },
  { path: "/api/storages/export/gcswif/{id}/sync", methods: ["POST"], sdk: ["export_storage.gcswif.sync"] },
  { path: "/api/storages/export/s3s", methods: ["GET", "POST"], sdk: ["export_storage.s3s.list", "export_storage.s3s.create"] },
  { path: "/api/storages/export/s3s/validate", methods: ["POST"], sdk: ["export_storage.s3s.validate"] },
  {
    path: "/api/storages/export/s3s/{id}",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["export_storage.s3s.get", "export_storage.s3s.update", "export_storage.s3s.delete"],
  },
  { path: "/api/storages/export/s3s/{id}/sync", methods: ["POST"], sdk: ["export_storage.s3s.sync"] },
  { path: "/api/storages/gcswif/", methods: ["GET", "POST"], sdk: ["import_storage.gcswif.list", "import_storage.gcswif.create"] },
  { path: "/api/storages/gcswif/validate", methods: ["POST"], sdk: ["import_storage.gcswif.validate"] },
  {
    path: "/api/storages/gcswif/{id}",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["import_storage.gcswif.get", "import_storage.gcswif.update", "import_storage.gcswif.delete"],
  },
  { path: "/api/storages/gcswif/{id}/sync", methods: ["POST"], sdk: ["import_storage.gcswif.sync"] },
  { path: "/api/storages/s3s/", methods: ["GET", "POST"], sdk: ["import_storage.s3s.list", "import_storage.s3s.create"] },
  { path: "/api/storages/s3s/validate", methods: ["POST"], sdk: ["import_storage.s3s.validate"] },
  {
    path: "/api/storages/s3s/{id}",
    methods: ["GET", "PATCH", "DELETE"],
    sdk: ["import_storage.s3s.get", "import_storage.s3s.update", "import_storage.s3s.delete"],
  },
  { path: "/api/storages/s3s/{id}/sync", methods: ["POST"], sdk: ["import_storage.s3s.sync"] },
  { path: "/api/tasks/{id}/events/", methods: ["POST"], sdk: ["tasks.create_event"] },
  { path: "/api/workspaces/", methods: ["GET", "POST"], sdk: ["workspaces.list", "workspaces.create"] },
  { path: "/api/workspaces/{id}/", methods: ["GET", "PATCH", "DELETE"], sdk: ["workspaces.get", "workspaces.update", "workspaces.delete"] },
  {
    path: "/api/workspaces/{id}/memberships/",
    methods: ["GET", "POST", "DELETE"],
    sdk: ["workspaces.members.list", "workspaces.members.create", "workspaces.members.delete"],
  },
  {
    path: "/api/workspaces/{id}/memberships/bulk/",
    methods: ["POST", "DELETE"],
    sdk: ["workspaces.members.bulk.post", "workspaces.members.bulk.delete"],
  },
  { path: "/api/workspaces/{id}/memberships/paginated/", methods: ["GET"], sdk: ["workspaces.members.paginated.list"] },
] as const satisfies readonly EnterpriseRoute[];

/** A route path of the community server. */
export type ServerPath = (typeof serverRoutes)[number]["path"];
