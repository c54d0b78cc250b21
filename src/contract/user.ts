import { custom, defaultsOf, maxLength, pick, type Declaration, type FieldSpec } from "./field.js";

/**
 * Users as the server renders them. Every user serializer derives from `BaseUserSerializer`
 * (`label_studio/users/serializers.py`, a drf-flex-fields serializer); the community edition renders
 * no avatar unless one was uploaded (`User.avatar_url`).
 */

const organizationMeta = {
  source: "label_studio/users/serializers.py BaseUserSerializer.get_active_organization_meta",
  routes: [],
  flex: false,
  fields: {
    title: { kind: "string", nullable: false, access: "read-only" },
    email: { kind: "string", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

/**
 * The user model (`User`, label_studio/users/models.py): its fields with kind, null-ness, default and
 * reference, in the order `BaseUserSerializer` renders them. The serializers below pick from it; the
 * stored record (src/contract/records.ts), the seed loader and the routes read it.
 */
export const userModel = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  first_name: { kind: "string", nullable: false, access: "read-write", blank: true, default: "", checks: [maxLength(256)] },
  last_name: { kind: "string", nullable: false, access: "read-write", blank: true, default: "", checks: [maxLength(256)] },
  username: { kind: "string", nullable: false, access: "read-write", required: true, checks: [maxLength(256)] },
  /** `User.email`: an EmailField, unique. */
  email: {
    kind: "string",
    nullable: false,
    access: "read-write",
    blank: true,
    default: "",
    checks: [maxLength(254), custom("email", "users/models.py User.email (EmailField(unique=True))", "Enter a valid email address.")],
  },
  /** `last_activity_cached` (the model's `last_activity`, DateTimeField(default=now), read-only). */
  last_activity: { kind: "datetime", nullable: false, access: "read-only" },
  custom_hotkeys: { kind: "dict", nullable: true, access: "read-write", default: {}, stored: "sparse" },
  phone: { kind: "string", nullable: false, access: "read-write", blank: true, default: "", checks: [maxLength(256)], stored: "sparse" },
  /**
   * The mock has one organization: absent, it is the user's; null for a user made by `POST /api/users/`,
   * added to the organization but never switched into it.
   */
  active_organization: { kind: "pk", nullable: true, access: "read-write", stored: "sparse" },
  allow_newsletters: { kind: "boolean", nullable: true, access: "read-write", default: null, stored: "sparse" },
  /** DateTimeField(default=timezone.now): the time of the create (a seed's load time). */
  date_joined: { kind: "datetime", nullable: false, access: "read-write" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** What the mock keeps with a user that is no User field (the stored `UserRecord`, records.ts). */
export const userOwn = {
  /**
   * The legacy API key (the server keeps it in authtoken's `Token`, one per user; one is generated for
   * the first user). A secret: never log it; the engine's records never hold a user.
   */
  token: { kind: "string", nullable: false, access: "write-only", stored: "sparse" },
  /**
   * The user's membership of the mock's organization (the server's `OrganizationMember` row, made with the user: the
   * mock numbers it and dates it as the user): when it was soft-deleted (`OrganizationMember.deleted_at`); absent or
   * null, the membership is live.
   */
  membership_deleted_at: { kind: "datetime", nullable: true, access: "write-only", stored: "sparse" },
} as const satisfies Readonly<Record<string, FieldSpec>>;

/** The user model's defaults. */
export const userDefaults = defaultsOf(userModel);

/** The serializer context flag of a soft-deleted member's rendering (`BaseUserSerializer._is_deleted`). */
export const DELETED_MEMBER = "deleted-member";

/**
 * A soft-deleted member only: `BaseUserSerializer.to_representation` writes "Deleted" to `username` too, also in a
 * subclass without that field, where it comes last.
 */
const deletedUsername = { kind: "string", nullable: false, access: "read-only", when: { context: DELETED_MEMBER } } as const;

/** `label_studio/users/serializers.py` `UserSimpleSerializer`: a project's `created_by`. */
export const userSimple = {
  source: "label_studio/users/serializers.py UserSimpleSerializer",
  routes: ["GET /api/projects/", "GET /api/projects/{id}/"],
  flex: true,
  fields: {
    ...pick(userModel, "id", "first_name", "last_name", "email"),
    avatar: { kind: "string", nullable: true, access: "read-only" },
    username: deletedUsername,
  },
} as const satisfies Declaration;

const userFields = {
  ...pick(userModel, "id", "first_name", "last_name", "username", "email", "last_activity", "custom_hotkeys"),
  avatar: { kind: "string", nullable: true, access: "read-only" },
  /** `User.get_initials`: both initials, the one name's first letter, or the email's first two characters. */
  initials: { kind: "string", nullable: false, access: "read-only" },
  ...pick(userModel, "phone", "active_organization"),
  active_organization_meta: { kind: "nested", nullable: false, access: "read-only", of: organizationMeta },
  ...pick(userModel, "allow_newsletters", "date_joined"),
} as const;

/** `label_studio/users/serializers.py` `BaseUserSerializer` (settings.USER_SERIALIZER). */
export const user = {
  source: "label_studio/users/serializers.py BaseUserSerializer",
  routes: ["GET /api/users/", "POST /api/users/", "GET /api/users/{id}/", "PATCH /api/users/{id}/"],
  flex: true,
  fields: userFields,
} as const satisfies Declaration;

/** `label_studio/users/serializers.py` `BaseWhoAmIUserSerializer`: the user plus every permission. */
export const whoAmI = {
  source: "label_studio/users/serializers.py BaseWhoAmIUserSerializer",
  routes: ["GET /api/current-user/whoami"],
  flex: true,
  fields: {
    ...userFields,
    /** `[perm for _, perm in all_permissions]`: every permission of `core/permissions.py` `AllPermissions`. */
    permissions: { kind: "strings", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

const completedByDmFields = {
  id: { kind: "integer", nullable: false, access: "read-only" },
  first_name: { kind: "string", nullable: false, access: "read-only" },
  last_name: { kind: "string", nullable: false, access: "read-only" },
  avatar: { kind: "string", nullable: true, access: "read-only" },
  email: { kind: "string", nullable: false, access: "read-only" },
  initials: { kind: "string", nullable: false, access: "read-only" },
} as const;

/** `label_studio/tasks/serializers.py` `CompletedByDMSerializer`: an annotation's expanded author. */
export const completedByDm = {
  source: "label_studio/tasks/serializers.py CompletedByDMSerializer",
  routes: ["GET /api/tasks/{id}/"],
  flex: true,
  fields: {
    ...completedByDmFields,
    username: deletedUsername,
  },
} as const satisfies Declaration;

/**
 * One entry of a Data Manager task's `annotators`: `DataManagerTaskSerializer.get_annotators`
 * (`label_studio/data_manager/serializers.py`) merges `user_id` and review markers into the
 * `CompletedByDMSerializer` fields, users sorted by id.
 */
export const annotatorDm = {
  source: "label_studio/data_manager/serializers.py DataManagerTaskSerializer.get_annotators",
  routes: ["GET /api/tasks/", "GET /api/tasks/{id}/"],
  flex: false,
  fields: {
    user_id: { kind: "integer", nullable: false, access: "read-only" },
    annotated: { kind: "boolean", nullable: false, access: "read-only" },
    review: { kind: "json", nullable: true, access: "read-only" },
    reviewed: { kind: "boolean", nullable: false, access: "read-only" },
    ...completedByDmFields,
  },
} as const satisfies Declaration;

/** `label_studio/core/permissions.py` `AllPermissions`, in declaration order: whoami's `permissions`. */
export const allPermissions = [
  "organizations.create",
  "organizations.view",
  "organizations.change",
  "organizations.delete",
  "organizations.invite",
  "projects.create",
  "projects.view",
  "projects.change",
  "projects.delete",
  "projects.reset_cache",
  "tasks.create",
  "tasks.view",
  "tasks.change",
  "tasks.delete",
  "views.reset",
  "annotations.create",
  "annotations.view",
  "annotations.change",
  "annotations.delete",
  "actions.perform",
  "predictions.any",
  "avatar.any",
  "labels.create",
  "labels.view",
  "labels.change",
  "labels.delete",
  "models.create",
  "models.view",
  "models.change",
  "models.delete",
  "model_provider_connection.create",
  "model_provider_connection.view",
  "model_provider_connection.change",
  "model_provider_connection.delete",
  "webhooks.view",
  "webhooks.change",
  "users.token.any",
  "storages.view",
  "storages.change",
  "storages.sync",
  "views.view",
  "views.create",
  "views.change",
  "views.delete",
] as const;

/**
 * `label_studio/users/serializers.py` `HotkeysSerializer`: the caller's keyboard shortcuts of the labeling UI, read and
 * written at `/api/current-user/hotkeys/` (`UserHotkeysAPI`), kept as the user's `custom_hotkeys`. Each key is
 * `section:action`, each value `{"key": "<combination>", "active": <bool, optional>}`.
 */
export const hotkeys = {
  source: "label_studio/users/serializers.py HotkeysSerializer",
  routes: ["GET /api/current-user/hotkeys/", "PATCH /api/current-user/hotkeys/"],
  flex: false,
  fields: {
    custom_hotkeys: {
      kind: "dict",
      nullable: false,
      access: "read-write",
      required: true,
      checks: [
        custom(
          "hotkeys",
          "users/serializers.py HotkeysSerializer.validate_custom_hotkeys, _validate_key_format",
          "Action key '<key>' must be in 'section:action' format",
        ),
      ],
    },
  },
} as const satisfies Declaration;

/** `UserHotkeysAPI.patch`'s own answer to a refused body (not the exception handler's): the serializer's errors as `details`. */
export const hotkeysError = {
  source: "label_studio/users/api.py UserHotkeysAPI.patch",
  routes: ["PATCH /api/current-user/hotkeys/"],
  flex: false,
  fields: {
    error: { kind: "string", nullable: false, access: "read-only" },
    details: { kind: "dict", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;

/** `label_studio/users/api.py` `UserGetTokenAPI` / `UserResetTokenAPI`: the caller's legacy API key. */
export const userToken = {
  source: "label_studio/users/api.py UserGetTokenAPI, UserResetTokenAPI",
  routes: ["GET /api/current-user/token", "POST /api/current-user/reset-token/"],
  flex: false,
  fields: {
    token: { kind: "string", nullable: false, access: "read-only" },
  },
} as const satisfies Declaration;
