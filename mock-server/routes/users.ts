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
