import { actionIds, actions, type ActionId } from "../../src/vocabulary/actions.js";

/**
 * The action registry of a community server, from the vocabulary table: which ids are registered
 * (POST-able), which are listed, and the list items exactly as `get_all_actions` renders them
 * (docs/reference/actions-endpoint.md#listing-actions): sorted by `order`, keys as registered,
 * callable forms replaced by null.
 */
export const registeredIds: readonly ActionId[] = actionIds.filter((id) => actions[id].edition === "community");

export function isRegistered(id: string): id is ActionId {
  return (registeredIds as readonly string[]).includes(id);
}

type Spec = (typeof actions)[ActionId];

function listItem(id: ActionId, spec: Spec): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id,
    title: spec.title,
    order: spec.order,
    permission: typeof spec.permission === "string" ? spec.permission : [...spec.permission],
  };
  if ("experimental" in spec) item["experimental"] = spec.experimental;
  if ("reload" in spec) item["reload"] = spec.reload;
  if ("dialog" in spec) {
    const dialog: Record<string, unknown> = {};
    const d = spec.dialog as { title?: string; text?: string; type?: string; form?: string; ok_text?: string };
    if (d.title !== undefined) dialog["title"] = d.title;
    if (d.text !== undefined) dialog["text"] = d.text;
    if (d.type !== undefined) dialog["type"] = d.type;
    if (d.form !== undefined) dialog["form"] = null;
    if (d.ok_text !== undefined) dialog["ok_text"] = d.ok_text;
    item["dialog"] = dialog;
  }
  return item;
}

/** `GET /api/dm/actions/?project=`: the listed community actions. */
export function actionList(): Record<string, unknown>[] {
  return registeredIds
    .filter((id) => actions[id].visibility === "listed")
    .sort((a, b) => actions[a].order - actions[b].order)
    .map((id) => listItem(id, actions[id]));
}
