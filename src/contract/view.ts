import { defaultsOf, pick, type Declaration, type FieldSpec } from "./field.js";

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
 * The view model (`View`, label_studio/data_manager/models.py): its fields with kind, null-ness,
 * default and reference, in the order `ViewSerializer` renders them. The mock keeps the view's query
 * (`filter_group`, `ordering`, `selected_items`) inside `data`, in the wire form the serializer moves
 * them to (see `view`).
 */
export const viewModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  /** JSONField(default=dict, null=True): the view's own settings plus the moved query. */
  data: { kind: "dict", nullable: true, access: "read-write", default: {} },
  order: { kind: "integer", nullable: true, access: "read-write", default: 0 },
  is_locked: { kind: "boolean", nullable: false, access: "read-write", default: false, stored: "sparse" },
  locked_at: { kind: "datetime", nullable: true, access: "read-only", default: null, stored: "sparse" },
  /** Who locked the view (rendered as `{id, name, email}` by the serializer). */
  locked_by: { kind: "pk", nullable: true, access: "read-only", default: null, ref: "users", stored: "sparse" },
  /** The view's owner (CASCADE, null-able): null for a view of no one. */
  user: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "users" },
  project: { kind: "pk", nullable: false, access: "read-write", required: true, ref: "projects", owner: true },
  filter_group: { kind: "json", nullable: true, access: "write-only", stored: "computed" },
  ordering: { kind: "json", nullable: true, access: "write-only", stored: "computed" },
  selected_items: { kind: "json", nullable: true, access: "write-only", stored: "computed" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The view model's defaults. */
export const viewDefaults = defaultsOf(viewModel);

/** What the mock keeps with a view in a form of its own (the stored `ViewRecord`, records.ts). */
export const viewOwn = {
  /**
   * The wire form the server reads back (`title`, `filters` with plural `child_filters`, `ordering`,
   * `selectedItems`, `columnsDisplayType`, …), never null.
   */
  data: { ...viewModel.data, nullable: false },
  /** Numbered per project when a view is created or seeded (the model's default 0 is not taken), never null. */
  order: { kind: "integer", nullable: false, access: "read-write", stored: "numbered" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/**
 * `label_studio/data_manager/serializers.py` `ViewSerializer` over `View`, rendered by `ViewAPI`
 * (label_studio/data_manager/api.py). `to_representation` moves `filter_group` (as `{conjunction,
 * items}` with plural `child_filters`), `selected_items` and `ordering` into `data` (the last two only
 * when non-empty) and drops them from the top level; a write reads `data.filters` and `data.ordering`
 * back out of `data`.
 */
export const view = {
  source: "label_studio/data_manager/serializers.py ViewSerializer",
  routes: ["GET /api/dm/views/", "POST /api/dm/views/", "GET /api/dm/views/{id}/", "PATCH /api/dm/views/{id}/", "PUT /api/dm/views/{id}/"],
  flex: false,
  fields: {
    id: viewModel.id,
    locked_by: { kind: "nested", nullable: true, access: "read-only", of: lockedBy },
    ...pick(viewModel, "data", "order", "is_locked", "locked_at", "user", "project", "filter_group", "ordering", "selected_items"),
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
