import { randomBytes } from "node:crypto";
import { QueryDict } from "../../src/emulation/query-dict.js";
import type { UserRecord } from "../../src/contract/records.js";
import { user as userContract, userToken } from "../../src/contract/index.js";
import { render } from "../../src/contract/render.js";
import { newRecordDefaults } from "../../src/contract/field.js";
import { userModel } from "../../src/contract/user.js";
import { HttpProblem, problemBody, SERVER_VERSION, pythonException } from "../errors.js";
import { noContent, ok, type Handler, type MockContext, type MockRequest } from "../http.js";
import { presentUser, presentWhoAmI } from "../present/users.js";
import { saveOrganization, theOrganization } from "../present/organizations.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { pathId, recordOr404 } from "./lookup.js";
import { inputHas, validateWrite, writeInput, type CustomRules } from "../drf/serializer.js";
import { sparseFields } from "../drf/flex-fields.js";

/**
 * Users (label_studio/users/api.py): `UserWhoAmIAPI`, `UserAPI` (a viewset narrowed to GET, POST, PATCH,
 * DELETE: the organization's users, a bare array), the caller's legacy key (`UserGetTokenAPI`,
 * `UserResetTokenAPI`). Every user of the mock is in its one organization. Any user may manage any other,
 * as on a community server (every permission is every authenticated user's).
 */
export const getWhoAmI: Handler = (req, ctx) => ok(presentWhoAmI(req.user, ctx.store, { sparse: sparseFields(req.query) }));

export const listUsers: Handler = (req, ctx) => {
  const render = { sparse: sparseFields(req.query) };
  return ok([...ctx.store.list("users")].sort((a, b) => a.id - b.id).map((u) => presentUser(u, ctx.store, req.user, render)));
};

export const getUser: Handler = (req, ctx) =>
  ok(presentUser(recordOr404(ctx, "users", pathId(req.params)), ctx.store, req.user, { sparse: sparseFields(req.query) }));

const LOCAL_CHARS = /^[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * Django's EmailValidator, in outline and without one big pattern: a local part of dot-separated atoms, `@`, a
 * domain of at least two labels (each at most 63 characters, the last not all digits).
 */
export function isEmail(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at <= 0) return false;
  const local = text.slice(0, at).split(".");
  const domain = text.slice(at + 1).split(".");
  if (!local.every((atom) => LOCAL_CHARS.test(atom))) return false;
  if (domain.length < 2 || !domain.every((label) => label.length <= 63 && DOMAIN_LABEL.test(label))) return false;
  return !/^\d+$/.test(domain[domain.length - 1] as string);
}

/** `User.email`'s checks: the address's form, then uniqueness (other users; an update keeps its own). */
function userRules(ctx: MockContext, self: UserRecord | undefined): CustomRules {
  return {
    email: (v) => {
      if (typeof v !== "string" || v === "") return { value: v };
      if (!isEmail(v)) return { errors: ["Enter a valid email address."] };
      const taken = ctx.store.list("users").some((u) => u.id !== self?.id && u.email.toLowerCase() === v.toLowerCase());
      return taken ? { errors: ["user with this email address already exists."] } : { value: v };
    },
  };
}

/** The user fields the store keeps, from a validated write (`active_organization` is the mock's one organization). */
function userWrite(req: MockRequest, ctx: MockContext, self: UserRecord | undefined): Partial<UserRecord> {
  const input = writeInput(req.body);
  // `UserSerializerUpdate` makes `email` read-only: an update drops it unread.
  const body =
    self === undefined
      ? input
      : Object.fromEntries(Object.entries(input instanceof QueryDict ? input.dict() : input).filter(([k]) => k !== "email"));
  const written: Record<string, unknown> = {
    ...validateWrite(userContract, body, {
      partial: self !== undefined,
      strict: ctx.strict,
      store: ctx.store,
      rules: userRules(ctx, self),
    }),
  };
  delete written["active_organization"];
  return written as Partial<UserRecord>;
}

/**
 * `POST /api/users/`: a new user of the organization, with a new legacy key (the server's `init_user`
 * signal gives every user a Token). The answer renders the user before `add_user`: no active organization.
 */
export const createUser: Handler = (req, ctx) => {
  const now = nowTimestamp();
  const created = ctx.store.insert("users", {
    ...newRecordDefaults(userModel),
    date_joined: now,
    last_activity: now,
    // `username` is required on create: the write has it.
    ...(userWrite(req, ctx, undefined) as Partial<UserRecord> & Pick<UserRecord, "username">),
    token: newLegacyKey(),
    // UserAPI.perform_create adds the user to the organization; nothing makes it the user's active one.
    active_organization: null,
  });
  return ok(presentUser(created, ctx.store, req.user, { sparse: sparseFields(req.query) }), 201);
};

/**
 * `PATCH /api/users/{id}/` (`UserSerializerUpdate`: `email` read-only). The view updates first and then refuses a
 * body that names a read-only field with 405 `Cannot update read-only field: <field>`: the other fields stay
 * changed, as on the server (it runs without a transaction per request).
 */
export const patchUser: Handler = (req, ctx) => {
  const self = recordOr404(ctx, "users", pathId(req.params));
  const { email: _readOnly, ...fields } = userWrite(req, ctx, self);
  const readOnly = inputHas(writeInput(req.body), "email");
  const updated = ctx.store.update("users", self.id, fields);
  if (readOnly) {
    return { status: 405, body: problemBody(new HttpProblem(405, "Cannot update read-only field: email")), commit: true };
  }
  return ok(presentUser(updated, ctx.store, req.user, { sparse: sparseFields(req.query) }));
};

/**
 * `DELETE /api/users/{id}/`: the user is gone; what referred to them follows the models' `on_delete`:
 * annotations, tasks, projects and the organization they created keep the record with the author emptied (SET_NULL),
 * the user's drafts, saved views and membership go with them (CASCADE).
 */
export const deleteUser: Handler = (req, ctx) => {
  const gone = recordOr404(ctx, "users", pathId(req.params)).id;
  const store = ctx.store;
  for (const a of store.list("annotations")) {
    const patch: Record<string, null> = {};
    for (const key of ["completed_by", "updated_by", "last_created_by"] as const) if (a[key] === gone) patch[key] = null;
    if (Object.keys(patch).length > 0) store.update("annotations", a.id, patch);
  }
  for (const t of store.list("tasks")) if (t.updated_by === gone) store.update("tasks", t.id, { updated_by: null });
  for (const p of store.list("projects")) if (p["created_by"] === gone) store.update("projects", p.id, { created_by: null });
  if (theOrganization(store).created_by === gone) saveOrganization(store, { created_by: null });
  for (const o of store.list("organizations")) if (o.created_by === gone) store.update("organizations", o.id, { created_by: null });
  store.removeWhere("drafts", (d) => d.user === gone);
  store.removeWhere("views", (v) => v.user === gone);
  store.removeWhere("users", (u) => u.id === gone);
  return noContent();
};

/** A legacy key as DRF's `Token.generate_key` makes one: 40 hex digits. */
const newLegacyKey = () => randomBytes(20).toString("hex");

/** `GET /api/current-user/token`: the caller's key; a user without one is the server's 500 (`Token.DoesNotExist`). */
export const getToken: Handler = (req) => {
  if (req.user.token === undefined) throw pythonException("DoesNotExist", "Token matching query does not exist.");
  return ok(render(userToken, { token: req.user.token }));
};

/** `POST /api/current-user/reset-token/`: a new key for the caller, 201; the old one stops working at once. */
export const resetToken: Handler = (req, ctx) => {
  const token = newLegacyKey();
  ctx.store.update("users", req.user.id, { token });
  return ok(render(userToken, { token }), 201);
};

/**
 * `GET /api/version` (the legacy Python client calls it when it is constructed): the keys of
 * `collect_versions` (label_studio/core/utils/common.py) as a source install reports them — no newer
 * release looked up, no git commits — and `dmq_mock`, by which a client tells the mock from a server.
 */
export const getVersion: Handler = () =>
  ok({
    release: SERVER_VERSION,
    "label-studio-os-package": {
      version: SERVER_VERSION,
      short_version: SERVER_VERSION.split(".").slice(0, 2).join("."),
      latest_version_from_pypi: null,
      latest_version_upload_time: null,
      current_version_is_outdated: false,
    },
    "label-studio-os-backend": {},
    "label-studio-converter": { version: CONVERTER_VERSION },
    edition: "Community",
    lsf: { commit: "none" },
    dm2: { commit: "none" },
    backend: { commit: "none" },
    dmq_mock: true,
  });

/** The converter a Label Studio 1.22 source install reports (label-studio-sdk's `label_studio_converter`). */
const CONVERTER_VERSION = "2.0.6";
