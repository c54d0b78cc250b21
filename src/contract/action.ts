import type { Declaration } from "./field.js";

const registered = { registered: true } as const;

/** An action's `dialog`: the keys the registry entry has, a per-project form as null. */
const dialog = {
  source: "label_studio/data_manager/actions/__init__.py get_all_actions (dialog)",
  routes: [],
  flex: false,
  fields: {
    title: { kind: "string", nullable: false, access: "read-only", when: registered },
    text: { kind: "string", nullable: false, access: "read-only", when: registered },
    type: { kind: "string", nullable: false, access: "read-only", when: registered },
    /** A form built per project (a callable) is null here: `GET …/{id}/form/` serves it. */
    form: { kind: "list", nullable: true, access: "read-only", when: registered },
    ok_text: { kind: "string", nullable: false, access: "read-only", when: registered },
  },
} as const satisfies Declaration;

/**
 * One entry of `GET /api/dm/actions/?project=`: `get_all_actions`
 * (label_studio/data_manager/actions/__init__.py) copies each registered action's keys but
 * `entry_point`, sorted by `order`; hidden and (by default) experimental actions are left out.
 * `permission` is a string or a list of strings.
 */
export const actionEntry = {
  source: "label_studio/data_manager/actions/__init__.py get_all_actions",
  routes: ["GET /api/dm/actions/"],
  flex: false,
  fields: {
    id: { kind: "string", nullable: false, access: "read-only" },
    title: { kind: "string", nullable: false, access: "read-only" },
    order: { kind: "integer", nullable: false, access: "read-only" },
    permission: { kind: "string-or-strings", nullable: false, access: "read-only" },
    experimental: { kind: "boolean", nullable: false, access: "read-only", when: registered },
    reload: { kind: "boolean", nullable: false, access: "read-only", when: registered },
    dialog: { kind: "nested", nullable: false, access: "read-only", of: dialog, when: registered },
  },
} as const satisfies Declaration;
