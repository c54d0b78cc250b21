import type { Declaration } from "./field.js";
import { project } from "./project.js";
import { dmTask } from "./task.js";

/**
 * The fields DRF's `PageNumberPagination.get_paginated_response` writes around a page's `results`: every list paged
 * that way (projects, an organization's members) spreads them into its declaration.
 */
export const pageNumberFields = {
  count: { kind: "integer", nullable: false, access: "read-only" },
  next: { kind: "string", nullable: true, access: "read-only" },
  previous: { kind: "string", nullable: true, access: "read-only" },
} as const;

/**
 * `GET /api/projects/`: DRF's `PageNumberPagination.get_paginated_response` as
 * `ProjectListPagination` (label_studio/projects/api.py) drives it: 30 per page, `page_size` up to
 * 100; `next`/`previous` are absolute URLs of the request with `page` replaced (or removed for
 * page 1).
 */
export const projectPage = {
  source: "rest_framework/pagination.py PageNumberPagination (label_studio/projects/api.py ProjectListPagination)",
  routes: ["GET /api/projects/"],
  flex: false,
  fields: {
    ...pageNumberFields,
    results: { kind: "nested-list", nullable: false, access: "read-only", of: project },
  },
} as const satisfies Declaration;

/**
 * `GET /api/tasks/`: `TaskPagination.get_paginated_response` (label_studio/data_manager/api.py).
 * The totals are sums over the whole selection (`paginate_totals_queryset`), not the page.
 */
export const taskPage = {
  source: "label_studio/data_manager/api.py TaskPagination",
  routes: ["GET /api/tasks/"],
  flex: false,
  fields: {
    total_annotations: { kind: "integer", nullable: false, access: "read-only" },
    total_predictions: { kind: "integer", nullable: false, access: "read-only" },
    total: { kind: "integer", nullable: false, access: "read-only" },
    tasks: { kind: "nested-list", nullable: false, access: "read-only", of: dmTask },
  },
} as const satisfies Declaration;

/**
 * The error body of every exception DRF handles, as `custom_exception_handler`
 * (label_studio/core/utils/common.py) rewrites it: `detail` is the exception's text, or
 * "Validation error" with the serializer's errors in `validation_errors`; `exc_info` carries the
 * traceback of a 500 (DEBUG_MODAL_EXCEPTIONS is on by default). Views that build a response
 * themselves send a bare `{"detail": …}` instead.
 */
export const errorBody = {
  source: "label_studio/core/utils/common.py custom_exception_handler",
  routes: ["every route"],
  flex: false,
  fields: {
    id: { kind: "string", nullable: false, access: "read-only" },
    status_code: { kind: "integer", nullable: false, access: "read-only" },
    version: { kind: "string", nullable: false, access: "read-only" },
    detail: { kind: "string", nullable: false, access: "read-only" },
    exc_info: { kind: "string", nullable: true, access: "read-only" },
    validation_errors: { kind: "dict", nullable: false, access: "read-only", when: { context: "validation_errors" } },
  },
} as const satisfies Declaration;
