import { view } from "../../src/contract/index.js";
import { orDefault, type Rendered } from "../../src/contract/field.js";
import { viewDefaults } from "../../src/contract/view.js";
import { render } from "../../src/contract/render.js";
import type { ViewRecord } from "../../src/contract/state.js";
import type { Store } from "../store/store.js";

/**
 * `ViewSerializer.to_representation`: filters, ordering and selected items live inside `data`
 * (filters only when there is a filter group, the others only when non-empty).
 * `locked_by` is `{id, name, email}` of the user who locked the view (`User.name_or_email`).
 */
export function presentView(v: ViewRecord, store: Store): Rendered<typeof view> {
  const { filters, ordering, selectedItems, ...rest } = v.data;
  const data: Record<string, (typeof v.data)[string]> = { ...rest };
  if (filters !== undefined && filters !== null) data["filters"] = filters;
  if (selectedItems && typeof selectedItems === "object" && Object.keys(selectedItems).length > 0) data["selectedItems"] = selectedItems;
  if (Array.isArray(ordering) && ordering.length > 0) data["ordering"] = ordering;
  return render(view, {
    id: v.id,
    locked_by: lockedBy(v, store),
    data,
    order: v.order,
    is_locked: orDefault(v.is_locked, viewDefaults.is_locked),
    locked_at: orDefault(v.locked_at, viewDefaults.locked_at),
    user: v.user,
    project: v.project,
  });
}

function lockedBy(v: ViewRecord, store: Store): Rendered<typeof view>["locked_by"] {
  const u = v.locked_by === undefined || v.locked_by === null ? undefined : store.find("users", v.locked_by);
  if (!u) return null;
  const name = `${u.first_name} ${u.last_name}`.trim();
  return { id: u.id, name: name || u.email, email: u.email };
}
