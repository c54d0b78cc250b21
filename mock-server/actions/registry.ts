import { actionIds, actions, type ActionId } from "../../src/vocabulary/actions.js";
import { actionEntry } from "../../src/contract/index.js";
import type { Rendered } from "../../src/contract/field.js";
import { render } from "../../src/contract/render.js";

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
type Dialog = { title?: string; text?: string; type?: string; form?: string; ok_text?: string };

/** The registry entry as `get_all_actions` copies it: its keys only, a callable form as null. */
function listItem(id: ActionId, spec: Spec): Rendered<typeof actionEntry> {
  const d = ("dialog" in spec ? spec.dialog : undefined) as Dialog | undefined;
  return render(actionEntry, {
    id,
    title: spec.title,
    order: spec.order,
    permission: typeof spec.permission === "string" ? spec.permission : [...spec.permission],
    experimental: "experimental" in spec ? spec.experimental : undefined,
    reload: "reload" in spec ? spec.reload : undefined,
    dialog: d && {
      ...render(actionEntry.fields.dialog.of, {
        title: d.title,
        text: d.text,
        type: d.type,
        form: d.form === undefined ? undefined : null,
        ok_text: d.ok_text,
      }),
    },
  });
}

/** `GET /api/dm/actions/?project=`: the listed community actions. */
export function actionList(): Rendered<typeof actionEntry>[] {
  return registeredIds
    .filter((id) => actions[id].visibility === "listed")
    .sort((a, b) => actions[a].order - actions[b].order)
    .map((id) => listItem(id, actions[id]));
}
