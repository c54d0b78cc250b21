import type { OrganizationRecord, UserRecord } from "../../src/contract/records.js";
import {
  organization as organizationContract,
  organizationId,
  organizationInvite,
  organizationMembership,
} from "../../src/contract/index.js";
import { organizationMemberUser } from "../../src/contract/organization.js";
import { render } from "../../src/contract/render.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pyStr } from "../../src/emulation/python-json.js";
import { HttpProblem, notFound, pythonException, validationError } from "../errors.js";
import {
  boolFromQuery,
  noContent,
  ok,
  pageBody,
  pageSize,
  paginate,
  param,
  type Handler,
  type MockContext,
  type MockRequest,
} from "../http.js";
import { dynamicFields } from "../drf/dynamic-fields.js";
import { validateWrite, writeInput, type CustomRules } from "../drf/serializer.js";
import {
  activeOrganizationOf,
  findOrganization,
  isLiveMember,
  membersOf,
  membershipDeleted,
  newOrganizationToken,
  ORGANIZATION_ID,
  presentMember,
  presentOrganization,
  presentOrganizationId,
  saveOrganization,
  theOrganization,
} from "../present/organizations.js";
import { userValues } from "../present/users.js";
import { pathId, recordOr404 } from "./lookup.js";
import { isEmail } from "./users.js";

/**
 * Organizations and their members (label_studio/organizations/api.py). Every permission these views require is
 * every user's on a community server; what refuses a caller is the object check: an organization is open to its
 * live members only (`Organization.has_permission`), and a membership may be removed only by the creator of an
 * organization (`MemberHasOwnerPermission`, core/api_permissions.py).
 */

const FORBIDDEN = "You do not have permission to perform this action.";

/** `OrganizationMemberListPagination`: 20 a page, `page_size` unbounded, `-1` for "all" (a million). */
const MEMBER_PAGE_SIZE = 20;
const ALL_MEMBERS = 1_000_000;

/** The organization of a route's `{pk}`: 404 (`No Organization matches the given query.`), then 403 to a non-member. */
function organizationFor(req: MockRequest, ctx: MockContext): OrganizationRecord {
  const org = findOrganization(ctx.store, pathId(req.params));
  if (!org) throw notFound("Organization");
  if (!isLiveMember(org.id, req.user)) throw new HttpProblem(403, FORBIDDEN);
  return org;
}

/** `contact_info`: Django's EmailField. */
const organizationRules: CustomRules = {
  email: (v) => (typeof v !== "string" || v === "" || isEmail(v) ? { value: v } : { errors: ["Enter a valid email address."] }),
};

/** The unique checks DRF's ModelSerializer adds for `unique=True` fields (UniqueValidator), after the fields' own. */
function uniqueChecks(ctx: MockContext, self: OrganizationRecord | undefined, written: Readonly<Record<string, unknown>>): void {
  const others = [theOrganization(ctx.store), ...ctx.store.list("organizations").filter((o) => o.id !== ORGANIZATION_ID)].filter(
    (o) => o.id !== self?.id,
  );
  const errors: Record<string, string[]> = {};
  for (const field of ["token", "created_by"] as const) {
    const value = written[field];
    if (value === undefined || value === null) continue;
    if (others.some((o) => o[field] === value)) errors[field] = [`organization with this ${field} already exists.`];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** `GET /api/organizations/`: the organizations the caller is a live member of (`OrganizationIdSerializer`). */
export const listOrganizations: Handler = (req, ctx) => {
  const mine = isLiveMember(ORGANIZATION_ID, req.user) ? [theOrganization(ctx.store)] : [];
  return ok(mine.map((o) => dynamicFields(req.query, presentOrganizationId(o))));
};

/**
 * `POST /api/organizations/`: the community view saves the serializer (`title`, `contact_info`) and nothing else: the
 * organization has no creator and no members, so no one may read it afterwards (403), nor does anyone's list show it.
 */
export const createOrganization: Handler = (req, ctx) => {
  const written = validateWrite(organizationId, writeInput(req.body), {
    partial: false,
    strict: ctx.strict,
    store: ctx.store,
    rules: organizationRules,
  });
  // The mock's own organization keeps id 1: make it a stored record before numbering a new one.
  if (!ctx.store.find("organizations", ORGANIZATION_ID)) saveOrganization(ctx.store, {});
  const now = nowTimestamp();
  const created = ctx.store.insert("organizations", {
    title: written.title as string,
    contact_info: (written.contact_info as string | null | undefined) ?? null,
    token: newOrganizationToken(),
    created_by: null,
    created_at: now,
    updated_at: now,
  });
  return ok(dynamicFields(req.query, presentOrganizationId(created)), 201);
};

/** `GET /api/organizations/{pk}` (`OrganizationSerializer`, every field). */
export const getOrganization: Handler = (req, ctx) =>
  ok(dynamicFields(req.query, presentOrganization(organizationFor(req, ctx), ctx.store)));

/**
 * `PUT`/`PATCH /api/organizations/{pk}`: `title` (required by PUT), `token`, `contact_info`, `created_by`; `users` is
 * read-only (a relation through `OrganizationMember`). `updated_at` is the time of the save.
 */
export const updateOrganization: Handler = (req, ctx) => {
  const org = organizationFor(req, ctx);
  const written = validateWrite(organizationContract, writeInput(req.body), {
    partial: req.method === "PATCH",
    strict: ctx.strict,
    store: ctx.store,
    rules: organizationRules,
  });
  uniqueChecks(ctx, org, written);
  const patch = { ...(written as Partial<OrganizationRecord>), updated_at: nowTimestamp() };
  const saved = org.id === ORGANIZATION_ID ? saveOrganization(ctx.store, patch) : ctx.store.update("organizations", org.id, patch);
  return ok(dynamicFields(req.query, presentOrganization(saved, ctx.store)));
};

/** The projects `{id, title}` by user, in id order: those they created, or those they annotated (distinct). */
function projectsBy(ctx: MockContext, ids: ReadonlySet<number>, of: "created" | "annotated"): Map<number, { id: number; title: string }[]> {
  const byId = new Map(ctx.store.list("projects").map((p) => [p.id, p]));
  const pairs =
    of === "created"
      ? ctx.store.list("projects").flatMap((p) => (typeof p["created_by"] === "number" ? [[p["created_by"], p.id] as const] : []))
      : ctx.store.list("annotations").flatMap((a) => (a.completed_by === null ? [] : [[a.completed_by, a.project] as const]));
  const out = new Map<number, { id: number; title: string }[]>();
  const seen = new Set<string>();
  for (const [user, project] of [...pairs].sort((a, b) => a[1] - b[1])) {
    const key = `${user}:${project}`;
    const p = byId.get(project);
    if (!ids.has(user) || seen.has(key) || !p) continue;
    seen.add(key);
    out.set(user, [...(out.get(user) ?? []), { id: p.id, title: String(p["title"] ?? "") }]);
  }
  return out;
}

/**
 * `GET /api/organizations/{pk}/memberships`: the caller's organizations only (`request.user.organizations`, a
 * soft-deleted membership included; else 404), every member, soft-deleted ones too, by username. With
 * `?contributed_to_projects=1` each user carries the projects they created and annotated in the organization.
 */
export const listMembers: Handler = (req, ctx) => {
  const orgId = pathId(req.params);
  if (orgId !== ORGANIZATION_ID || !findOrganization(ctx.store, orgId)) throw notFound("Organization");
  const contributed = boolFromQuery(req.query, "contributed_to_projects", false);
  const members = [...membersOf(ctx.store, orgId)].sort((a, b) =>
    a.username < b.username ? -1 : a.username > b.username ? 1 : a.id - b.id,
  );
  const size = param(req.query, "page_size") === "-1" ? ALL_MEMBERS : pageSize(req.query, MEMBER_PAGE_SIZE, undefined);
  const page = paginate(members, req.query, size);
  const ids = new Set(page.items.map((u) => u.id));
  const created = contributed ? projectsBy(ctx, ids, "created") : undefined;
  const annotated = contributed ? projectsBy(ctx, ids, "annotated") : undefined;
  const results = page.items.map((u) =>
    dynamicFields(
      req.query,
      render(organizationMembership, {
        id: u.id,
        organization: orgId,
        user: render(organizationMemberUser, {
          ...userValues(u, ctx.store, req.user),
          created_projects: created ? (created.get(u.id) ?? []) : null,
          contributed_to_projects: annotated ? (annotated.get(u.id) ?? []) : null,
        }),
      }),
    ),
  );
  return ok(pageBody(req, page, members.length, results));
};

/** The member `{user_pk}` of an organization the caller may read: the user (404), their membership (404). */
function memberOf(req: MockRequest, ctx: MockContext, org: OrganizationRecord): UserRecord {
  const u = recordOr404(ctx, "users", Number(req.params["user_pk"]));
  if (!membersOf(ctx.store, org.id).some((m) => m.id === u.id)) throw notFound("OrganizationMember");
  return u;
}

/**
 * `GET /api/organizations/{pk}/memberships/{user_pk}/`: a soft-deleted member too. The membership's own check
 * (`OrganizationMemberMixin.has_permission`): the organization must be the caller's active one (else 403).
 */
export const getMember: Handler = (req, ctx) => {
  const org = organizationFor(req, ctx);
  const u = memberOf(req, ctx, org);
  if (activeOrganizationOf(req.user) !== org.id) throw new HttpProblem(403, FORBIDDEN);
  return ok(dynamicFields(req.query, presentMember(u, org.id, ctx.store)));
};

/** `User.own_organization`: an organization the user created. */
const ownsAnOrganization = (ctx: MockContext, u: UserRecord): boolean =>
  theOrganization(ctx.store).created_by === u.id || ctx.store.list("organizations").some((o) => o.created_by === u.id);

/**
 * `DELETE /api/organizations/{pk}/memberships/{user_pk}/`: a soft delete (`OrganizationMember.soft_delete`), by the
 * creator of an organization only. The member stays in the member list and `/api/users/`, shown as "Deleted User"; they
 * lose their active organization (they have no other). The caller's own membership: 405, a bare `detail`.
 */
export const deleteMember: Handler = (req, ctx) => {
  const org = findOrganization(ctx.store, pathId(req.params));
  if (!org) throw notFound("Organization");
  if (!ownsAnOrganization(ctx, req.user) || !isLiveMember(org.id, req.user)) throw new HttpProblem(403, FORBIDDEN);
  if (activeOrganizationOf(req.user) !== org.id)
    throw new HttpProblem(403, "You can delete members only for your current active organization");
  const u = memberOf(req, ctx, org);
  if (membershipDeleted(u)) throw new HttpProblem(404, "Member not found");
  if (u.id === req.user.id) throw new HttpProblem(405, "User cannot soft delete self", { raw: true });
  ctx.store.update("users", u.id, { membership_deleted_at: nowTimestamp(), active_organization: null });
  return noContent();
};

/**
 * The caller's active organization, for the invite views: a caller without one (a user `POST /api/users/` made, or a
 * removed member) is the server's 500 (`request.user.active_organization` is None).
 */
function activeOrganization(req: MockRequest, ctx: MockContext, attribute: string): OrganizationRecord {
  if (activeOrganizationOf(req.user) === null) throw pythonException("AttributeError", `'NoneType' object has no attribute '${attribute}'`);
  return theOrganization(ctx.store);
}

const inviteOf = (token: string) => render(organizationInvite, { token, invite_url: `/user/signup/?token=${token}` });

/** `GET /api/invite`: the token of the caller's active organization and the signup path that carries it. */
export const getInvite: Handler = (req, ctx) => ok(inviteOf(activeOrganization(req, ctx, "token").token ?? pyStr(null)));

/** `POST /api/invite/reset-token`: a new token (`Organization.reset_token`); links with the old one stop working. 201. */
export const resetInviteToken: Handler = (req, ctx) => {
  activeOrganization(req, ctx, "reset_token");
  const { token } = saveOrganization(ctx.store, { token: newOrganizationToken() });
  return ok(inviteOf(token ?? ""), 201);
};
