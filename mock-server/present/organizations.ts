import { createHash, randomInt } from "node:crypto";
import type { OrganizationRecord, UserRecord } from "../../src/contract/records.js";
import { organization, organizationId, organizationMember } from "../../src/contract/index.js";
import { render, type RenderContext } from "../../src/contract/render.js";
import type { Rendered } from "../../src/contract/field.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import type { Store } from "../store/store.js";

/** The mock has one organization, as a fresh community server does: the one every user belongs to. */
export const ORGANIZATION_ID = 1;
/** The title `label-studio` gives the organization of the first user it creates (the user signup form's). */
const ORGANIZATION_TITLE = "Label Studio";

const HASH_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** `create_hash()` (label_studio/core/utils/common.py): Django's `get_random_string(40)`. */
export function newOrganizationToken(): string {
  return Array.from({ length: 40 }, () => HASH_CHARS[randomInt(HASH_CHARS.length)]).join("");
}

/**
 * The token of an organization no write has touched: 40 letters and digits derived from its creator, so that it
 * stays the same across requests and restarts of the same seed (the server draws it once, at the create).
 */
function seededToken(owner: UserRecord | undefined): string {
  const digest = createHash("sha256")
    .update(`dmq organization ${owner?.id ?? 0} ${owner?.date_joined ?? ""}`)
    .digest();
  return Array.from({ length: 40 }, (_, i) => HASH_CHARS[(digest[i % digest.length] as number) % HASH_CHARS.length]).join("");
}

/**
 * The mock's organization: what a write kept of it, or else as the first user's signup made it (their title, created
 * by them, at their `date_joined`).
 */
export function theOrganization(store: Store): OrganizationRecord {
  const kept = store.find("organizations", ORGANIZATION_ID);
  if (kept) return kept;
  const owner = store.list("users")[0];
  const created = owner?.date_joined ?? nowTimestamp();
  return {
    id: ORGANIZATION_ID,
    title: ORGANIZATION_TITLE,
    token: seededToken(owner),
    created_at: created,
    updated_at: created,
    contact_info: null,
    created_by: owner?.id ?? null,
  };
}

/** Change the mock's organization (the first write keeps the whole record: nothing of it is derived after that). */
export function saveOrganization(store: Store, patch: Partial<Omit<OrganizationRecord, "id">>): OrganizationRecord {
  if (!store.find("organizations", ORGANIZATION_ID)) {
    const { id: _id, ...current } = theOrganization(store);
    store.insert("organizations", current);
  }
  return store.update("organizations", ORGANIZATION_ID, patch);
}

/** An organization by id: the mock's, or one `POST /api/organizations/` made. */
export const findOrganization = (store: Store, id: number): OrganizationRecord | undefined =>
  id === ORGANIZATION_ID ? theOrganization(store) : store.find("organizations", id);

/** A member whose membership was soft-deleted (`OrganizationMember.deleted_at` set). */
export const membershipDeleted = (u: UserRecord): boolean => u.membership_deleted_at !== undefined && u.membership_deleted_at !== null;

/** `Organization.has_permission`: the user is a member whose membership is live. Only the mock's organization has members. */
export const isLiveMember = (orgId: number, u: UserRecord): boolean => orgId === ORGANIZATION_ID && !membershipDeleted(u);

/** The user's active organization's id (`User.active_organization`): absent, the mock's one. */
export const activeOrganizationOf = (u: UserRecord): number | null => (u.active_organization === null ? null : ORGANIZATION_ID);

/** Every member of an organization, soft-deleted ones included (`Organization.users`, through `OrganizationMember`). */
export const membersOf = (store: Store, orgId: number): readonly UserRecord[] =>
  orgId === ORGANIZATION_ID ? [...store.list("users")].sort((a, b) => a.id - b.id) : [];

/** `OrganizationSerializer`. */
export function presentOrganization(org: OrganizationRecord, store: Store): Rendered<typeof organization> {
  return render(organization, { ...org, users: membersOf(store, org.id).map((u) => u.id) });
}

/** `OrganizationIdSerializer`. */
export function presentOrganizationId(org: OrganizationRecord, ctx?: RenderContext): Rendered<typeof organizationId> {
  return render(organizationId, { id: org.id, title: org.title, contact_info: org.contact_info, created_at: org.created_at }, ctx);
}

/**
 * `OrganizationMemberSerializer`: the member's annotations in the organization's projects (every project of the mock
 * is its organization's), cancelled ones included, and the projects they are in. The membership is made with the user.
 */
export function presentMember(u: UserRecord, orgId: number, store: Store): Rendered<typeof organizationMember> {
  const annotations = store.list("annotations").filter((a) => a.completed_by === u.id);
  return render(organizationMember, {
    user: u.id,
    organization: orgId,
    contributed_projects_count: new Set(annotations.map((a) => a.project)).size,
    annotations_count: annotations.length,
    created_at: u.date_joined,
  });
}
