import type { Declaration } from "./field.js";

/** `ViewSerializer.get_locked_by` (label_studio/data_manager/serializers.py). */
const lockedBy = {
  source: "label_studio/data_manager/serializers.py ViewSerializer.get_locked_by",
  routes: [],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    name: { kind: "string", nullable: false, access: "read-only" },
    email: { kind: "string", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

/**
 * `label_studio/data_manager/serializers.py` `ViewSerializer` over `View`
 * (label_studio/data_manager/models.py), rendered by `ViewAPI` (label_studio/data_manager/api.py).
 * `to_representation` moves `filter_group` (as `{conjunction, items}` with plural `child_filters`),
 * `selected_items` and `ordering` into `data` (the last two only when non-empty) and drops them
 * from the top level; a write reads `data.filters` and `data.ordering` back out of `data`.
 */
export const view = {
  source: "label_studio/data_manager/serializers.py ViewSerializer",
  routes: ["GET /api/dm/views/", "POST /api/dm/views/", "GET /api/dm/views/{id}/", "PATCH /api/dm/views/{id}/", "PUT /api/dm/views/{id}/"],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    locked_by: { kind: "nested", nullable: true, access: "read-only", of: lockedBy },
    /** JSONField(default=dict, null=True): the view's own settings plus the moved query. */
    data: { kind: "dict", nullable: true, access: "read-write", default: {} },
    order: { kind: "integer", nullable: true, access: "read-write", default: 0 },
    is_locked: { kind: "boolean", nullable: false, access: "read-write", default: false },
    locked_at: { kind: "datetime", nullable: true, access: "read-only" },
    user: { kind: "pk", nullable: true, access: "read-write" },
    project: { kind: "pk", nullable: false, access: "read-write", required: true },
    filter_group: { kind: "json", nullable: true, access: "write-only" },
    ordering: { kind: "json", nullable: true, access: "write-only" },
    selected_items: { kind: "json", nullable: true, access: "write-only" },
  },
} as const satisfies Declaration;

/** `label_studio/data_manager/serializers.py` `ViewOrderSerializer`: the body of `POST /api/dm/views/order/`. */
export const viewOrder = {
  source: "label_studio/data_manager/serializers.py ViewOrderSerializer",
  routes: ["POST /api/dm/views/order/"],
  flex: false,
  fields: {
    project: { kind: "integer", nullable: false, access: "write-only", required: true },
    ids: { kind: "integers", nullable: false, access: "write-only", required: true, nonEmpty: true },
  },
} as const satisfies Declaration;

/**
 * `label_studio/data_manager/serializers.py` `ViewResetSerializer`: `DELETE /api/dm/views/reset/`
 * reads `project` from the body, or from the query string when the body has none (`ViewAPI.reset`).
 */
export const viewReset = {
  source: "label_studio/data_manager/serializers.py ViewResetSerializer",
  routes: ["DELETE /api/dm/views/reset/"],
  flex: false,
  fields: {
    project: { kind: "pk", nullable: false, access: "write-only", required: true },
  },
} as const satisfies Declaration;
