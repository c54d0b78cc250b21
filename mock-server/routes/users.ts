import { SERVER_VERSION } from "../errors.js";
import { ok, type Handler } from "../http.js";
import { presentUser, presentWhoAmI } from "../present/users.js";
import { pathId, recordOr404 } from "./lookup.js";
import { sparseFields } from "./sparse.js";

/**
 * Users (label_studio/users/api.py): `UserWhoAmIAPI` and the read side of `UserAPI` (a bare array of
 * the organization's users, one user by id). Every user of the mock is in its one organization.
 */
export const getWhoAmI: Handler = (req, ctx) => ok(presentWhoAmI(req.user, ctx.store, { sparse: sparseFields(req.query) }));

export const listUsers: Handler = (req, ctx) => {
  const render = { sparse: sparseFields(req.query) };
  return ok([...ctx.store.list("users")].sort((a, b) => a.id - b.id).map((u) => presentUser(u, ctx.store, render)));
};

export const getUser: Handler = (req, ctx) =>
  ok(presentUser(recordOr404(ctx, "users", pathId(req.params)), ctx.store, { sparse: sparseFields(req.query) }));

/** `GET /api/version`: the legacy Python client calls it when it is constructed. */
export const getVersion: Handler = () =>
  ok({ release: SERVER_VERSION, "label-studio-os-package": { version: SERVER_VERSION }, edition: "Community", dmq_mock: true });
