import { custom, maxLength, pick, type Declaration, type FieldSpec } from "./field.js";
import { pageNumberFields } from "./envelope.js";
import { user } from "./user.js";

/**
 * Organizations (label_studio/organizations/models.py `Organization`, serializers.py). The mock has one
 * organization, id 1, as a fresh community server does: its members are its users (one membership per
 * user, `OrganizationMember`), its creator the first user. What a write changed of it is kept in the
 * store's `organizations`; organizations made by `POST /api/organizations/` have no members, so no
 * caller may read them (the community view saves the serializer and nothing else).
 */

/** `Organization.contact_info` and `User.email`: Django's EmailField. */
const EMAIL = custom("email", "Django EmailField (EmailValidator)", "Enter a valid email address.");

/**
 * The organization model, in the order `OrganizationSerializer` (`fields = '__all__'`) renders it:
 * the primary key, the plain fields, then the relations (`created_by`, the members as `users`).
 */
export const organizationModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  title: { kind: "string", nullable: false, access: "read-write", required: true, checks: [maxLength(1000)] },
  /** The invite link's token: `create_hash()` (40 letters and digits), replaced by `reset_token`. Unique. */
  token: { kind: "string", nullable: true, access: "read-write", blank: true, checks: [maxLength(256)] },
  created_at: { kind: "datetime", nullable: false, access: "read-only" },
  updated_at: { kind: "datetime", nullable: false, access: "read-only" },
  contact_info: { kind: "string", nullable: true, access: "read-write", blank: true, default: null, checks: [maxLength(254), EMAIL] },
  /** A OneToOneField to the user who created it (SET_NULL). */
  created_by: { kind: "pk", nullable: true, access: "read-write", default: null, ref: "users" },
  /** The ManyToManyField through `OrganizationMember`: read-only (DRF makes a relation with its own through model so). */
  users: { kind: "pks", nullable: false, access: "read-only", stored: "computed" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** `OrganizationSerializer`: the whole organization (`GET/PUT/PATCH /api/organizations/{id}`). */
export const organization = {
  source: "label_studio/organizations/serializers.py OrganizationSerializer",
  routes: ["GET /api/organizations/{id}", "PUT /api/organizations/{id}", "PATCH /api/organizations/{id}"],
  flex: false,
  fields: organizationModel,
} as const satisfies Declaration;

/** `OrganizationIdSerializer`: an entry of the caller's organizations, and the answer of a create. */
export const organizationId = {
  source: "label_studio/organizations/serializers.py OrganizationIdSerializer",
  routes: ["GET /api/organizations/", "POST /api/organizations/"],
  flex: false,
  fields: pick(organizationModel, "id", "title", "contact_info", "created_at"),
} as const satisfies Declaration;

/** A project as the member list names it: `{id, title}` (`OrganizationMemberListAPI._get_created_projects_map`). */
const projectRef = {
  source: "label_studio/organizations/api.py OrganizationMemberListAPI._get_created_projects_map",
  routes: [],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    title: { kind: "string", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

/**
 * `UserOrganizationMemberListSerializer`: the user serializer and the projects the user created and annotated in the
 * organization; both null unless the request asks for them (`?contributed_to_projects=1`).
 */
export const organizationMemberUser = {
  source: "label_studio/organizations/serializers.py UserOrganizationMemberListSerializer",
  routes: ["GET /api/organizations/{id}/memberships"],
  flex: true,
  fields: {
    ...user.fields,
    created_projects: { kind: "nested-list", nullable: true, access: "read-only", of: projectRef },
    contributed_to_projects: { kind: "nested-list", nullable: true, access: "read-only", of: projectRef },
  },
} as const satisfies Declaration;

/** `OrganizationMemberListSerializer`: one membership of the member list (its id is the membership's). */
export const organizationMembership = {
  source: "label_studio/organizations/serializers.py OrganizationMemberListSerializer",
  routes: ["GET /api/organizations/{id}/memberships"],
  flex: false,
  fields: {
    id: { kind: "integer", nullable: false, access: "read-only" },
    organization: { kind: "pk", nullable: false, access: "read-only" },
    user: { kind: "nested", nullable: false, access: "read-only", of: organizationMemberUser },
  },
} as const satisfies Declaration;

/**
 * `GET /api/organizations/{id}/memberships`: DRF's PageNumberPagination as `OrganizationMemberListPagination` drives it
 * (20 a page, `page_size` without a limit, `page_size=-1` for all).
 */
export const organizationMemberPage = {
  source: "rest_framework/pagination.py PageNumberPagination (label_studio/organizations/api.py OrganizationMemberListPagination)",
  routes: ["GET /api/organizations/{id}/memberships"],
  flex: false,
  fields: {
    ...pageNumberFields,
    results: { kind: "nested-list", nullable: false, access: "read-only", of: organizationMembership },
  },
} as const satisfies Declaration;

/** `OrganizationMemberSerializer`: one member, with their annotations in the organization's projects. */
export const organizationMember = {
  source: "label_studio/organizations/serializers.py OrganizationMemberSerializer",
  routes: ["GET /api/organizations/{id}/memberships/{user_pk}/"],
  flex: false,
  fields: {
    user: { kind: "pk", nullable: false, access: "read-only" },
    organization: { kind: "pk", nullable: false, access: "read-only" },
    contributed_projects_count: { kind: "integer", nullable: false, access: "read-only" },
    annotations_count: { kind: "integer", nullable: false, access: "read-only" },
    created_at: { kind: "datetime", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

/** `OrganizationInviteSerializer`: the invite token and the signup link that carries it (a path, no host). */
export const organizationInvite = {
  source: "label_studio/organizations/serializers.py OrganizationInviteSerializer",
  routes: ["GET /api/invite", "POST /api/invite/reset-token"],
  flex: false,
  fields: {
    token: { kind: "string", nullable: false, access: "read-only" },
    invite_url: { kind: "string", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;
