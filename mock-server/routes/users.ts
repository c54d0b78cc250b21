import type { UserRecord } from "../../src/semantics/records.js";
import { actions } from "../../src/vocabulary/actions.js";
import { SERVER_VERSION } from "../errors.js";
import { ok, type Handler } from "../http.js";
import type { Store } from "../store/store.js";

/** Community edition: every authenticated user holds every permission (core/permissions.py). */
const coreResources = ["organizations", "projects", "tasks", "annotations", "predictions", "labels", "models", "webhooks", "users", "avatar"];
export const allPermissions: readonly string[] = [
  ...new Set([
    ...coreResources.flatMap((r) => ["view", "create", "change", "delete"].map((a) => `${r}.${a}`)),
    ...Object.values(actions).flatMap((a) => (typeof a.permission === "string" ? [a.permission] : [...a.permission])),
    "users.token.any",
  ]),
].sort();

/** The mock has one organization, as a fresh community server does. */
export const ORGANIZATION_ID = 1;

function initials(user: UserRecord): string {
  if (user.first_name && user.last_name) return `${user.first_name[0]}${user.last_name[0]}`;
  return (user.first_name || user.username || user.email).slice(0, 2);
}

/** The minimal user block the server nests in projects (`created_by`). */
export function userBrief(user: UserRecord | undefined): Record<string, unknown> | null {
  if (!user) return null;
  return { id: user.id, first_name: user.first_name, last_name: user.last_name, email: user.email, avatar: null };
}

/** `BaseWhoAmIUserSerializer` (`users/serializers.py`, docs/reference/auth.md#whoami). */
export function whoAmI(user: UserRecord, store: Store): Record<string, unknown> {
  const owner = store.list("users")[0];
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    username: user.username,
    email: user.email,
    last_activity: null,
    custom_hotkeys: {},
    avatar: null,
    initials: initials(user),
    phone: "",
    active_organization: ORGANIZATION_ID,
    active_organization_meta: { title: "Label Studio", email: owner?.email ?? user.email },
    allow_newsletters: null,
    date_joined: null,
    permissions: allPermissions,
  };
}

export const getWhoAmI: Handler = (req, ctx) => ok(whoAmI(req.user, ctx.store));

/** `GET /api/version`: the legacy Python client calls it when it is constructed. */
export const getVersion: Handler = () =>
  ok({ release: SERVER_VERSION, "label-studio-os-package": { version: SERVER_VERSION }, edition: "Community", dmq_mock: true });
