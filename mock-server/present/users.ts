import type { UserRecord } from "../../src/contract/records.js";
import { allPermissions, annotatorDm, completedByDm, user, userSimple, whoAmI } from "../../src/contract/index.js";
import { DELETED_MEMBER } from "../../src/contract/user.js";
import { orDefault, type Rendered } from "../../src/contract/field.js";
import { userDefaults } from "../../src/contract/user.js";
import { render, type RenderContext, type Values } from "../../src/contract/render.js";
import type { Store } from "../store/store.js";
import { activeOrganizationOf, membershipDeleted, ORGANIZATION_ID, theOrganization } from "./organizations.js";

export { ORGANIZATION_ID } from "./organizations.js";

/** `User.get_initials` (label_studio/users/models.py). */
export function initials(u: UserRecord): string {
  if (u.first_name && u.last_name) return `${u.first_name.slice(0, 1)}${u.last_name.slice(0, 1)}`;
  if (u.first_name) return u.first_name.slice(0, 1);
  if (u.last_name) return u.last_name.slice(0, 1);
  return u.email.slice(0, 2);
}

/**
 * `created_username`: "<first>[ <last>] <email>, <id>". The annotation serializer always puts a space
 * before the email (`name += f' {user.email}, {user.id}'`), so a user without a first name gets a
 * leading one; the draft serializer adds it only after a name (`AnnotationSerializer` and
 * `AnnotationDraftSerializer.get_created_username`, label_studio/tasks/serializers.py).
 */
export function createdUsername(u: UserRecord | undefined, of: "annotation" | "draft"): string {
  if (!u) return "";
  const name = u.last_name ? `${u.first_name} ${u.last_name}` : u.first_name;
  return `${name}${name || of === "annotation" ? " " : ""}${u.email}, ${u.id}`;
}

/** `UserSimpleSerializer` (a project's or a snapshot's `created_by`): a soft-deleted member as `presentCompletedBy` shows one. */
export function presentUserSimple(u: UserRecord, ctx: RenderContext = {}): Rendered<typeof userSimple> {
  const shown = { id: u.id, first_name: u.first_name, last_name: u.last_name, email: u.email, avatar: null };
  return render(userSimple, { ...shown, ...asDeleted(u), username: () => DELETED_USER.username }, deletedContext(u, ctx));
}

/** A soft-deleted member's names as every user serializer shows them (none for a live member). */
const asDeleted = (u: UserRecord) => (membershipDeleted(u) ? DELETED_USER : {});
/** The render context that adds the `username` key a subclass without that field gains for a soft-deleted member. */
const deletedContext = (u: UserRecord, ctx: RenderContext): RenderContext =>
  membershipDeleted(u) ? { ...ctx, context: new Set([...(ctx.context ?? []), DELETED_MEMBER]) } : ctx;

/**
 * `BaseUserSerializer`, as `viewer` is shown it: the organization's email is its creator's. A member whose membership
 * was soft-deleted is shown as "Deleted User" to a viewer whose active organization it is (`_is_deleted`).
 */
export function presentUser(u: UserRecord, store: Store, viewer: UserRecord, ctx?: RenderContext): Rendered<typeof user> {
  return render(user, userValues(u, store, viewer), ctx);
}

/** `BaseUserSerializer.to_representation`: what a viewer in the organization sees of a soft-deleted member. */
const DELETED_USER = { first_name: "Deleted", last_name: "User", username: "Deleted", email: "Deleted", initials: "DU" } as const;

export function userValues(u: UserRecord, store: Store, viewer: UserRecord): Values<typeof user> {
  const org = theOrganization(store);
  const owner = org.created_by === null ? undefined : store.find("users", org.created_by);
  const deleted = activeOrganizationOf(viewer) === ORGANIZATION_ID && membershipDeleted(u);
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    username: u.username,
    email: u.email,
    last_activity: u.last_activity,
    custom_hotkeys: orDefault(u.custom_hotkeys, userDefaults.custom_hotkeys),
    avatar: null,
    initials: initials(u),
    phone: orDefault(u.phone, userDefaults.phone),
    ...(u.active_organization === null
      ? { active_organization: null, active_organization_meta: { title: "", email: "" } }
      : { active_organization: ORGANIZATION_ID, active_organization_meta: { title: org.title, email: owner?.email ?? "" } }),
    allow_newsletters: orDefault(u.allow_newsletters, userDefaults.allow_newsletters),
    date_joined: u.date_joined,
    ...(deleted ? DELETED_USER : {}),
  };
}

/** `BaseWhoAmIUserSerializer`: the user and every permission (community edition). */
export function presentWhoAmI(u: UserRecord, store: Store, ctx?: RenderContext): Rendered<typeof whoAmI> {
  return render(whoAmI, { ...userValues(u, store, u), permissions: [...allPermissions] }, ctx);
}

/**
 * `CompletedByDMSerializer`. A soft-deleted member is shown as "Deleted User" (with a `username`), as to a caller in
 * the organization: the task presenters do not know the caller (a removed member reading tasks would see the names).
 */
export function presentCompletedBy(u: UserRecord): Rendered<typeof completedByDm> {
  const shown = { id: u.id, first_name: u.first_name, last_name: u.last_name, avatar: null, email: u.email, initials: initials(u) };
  return render(completedByDm, { ...shown, ...asDeleted(u), username: () => DELETED_USER.username }, deletedContext(u, {}));
}

/** `get_annotators`: the annotators that still exist, by id, with the review markers of the community edition. */
export function presentAnnotators(ids: readonly number[], store: Store): Rendered<typeof annotatorDm>[] {
  return [...new Set(ids)]
    .sort((a, b) => a - b)
    .flatMap((id) => {
      const u = store.find("users", id);
      if (!u) return [];
      const { username: _deletedOnly, ...author } = presentCompletedBy(u);
      return [render(annotatorDm, { user_id: id, annotated: true, review: null, reviewed: false, ...author })];
    });
}
