import type { RequestOptions } from "../options.js";
import { arrayOf, object, record, string } from "../shape.js";
import type { Send } from "../transport.js";
import type { Hotkeys, User, UserToken, UserWrite, WhoAmI } from "../types.js";
import { checkObject } from "./common.js";
import { recordMethods, type RecordMethods } from "./record.js";

/** Users: the caller (`whoami`, their legacy key), the organization's users and their management. */
export interface UsersResource extends RecordMethods<User, UserWrite> {
  /** The user the key belongs to: `GET /api/current-user/whoami`. */
  whoami(options?: RequestOptions): Promise<WhoAmI>;
  /** The organization's users: `GET /api/users/` (not paginated). */
  list(options?: RequestOptions): Promise<User[]>;
  /** A new user of the organization (`username` required): `POST /api/users/`. */
  create(body: UserWrite, options?: RequestOptions): Promise<User>;
  /** The caller's legacy API key: `GET /api/current-user/token`. */
  getToken(options?: RequestOptions): Promise<UserToken>;
  /** A new legacy API key for the caller; the old one stops working at once: `POST /api/current-user/reset-token/`. */
  resetToken(options?: RequestOptions): Promise<UserToken>;
  /** The caller's keyboard shortcuts: `GET /api/current-user/hotkeys/` (the SDK's `users.get_hotkeys`). */
  getHotkeys(options?: RequestOptions): Promise<Hotkeys>;
  /**
   * Replace the caller's keyboard shortcuts (what is left out is gone): `PATCH /api/current-user/hotkeys/` (the SDK's
   * `users.update_hotkeys`). A refused one rejects with the server's 400 `{error, details}`.
   */
  updateHotkeys(body: Hotkeys, options?: RequestOptions): Promise<Hotkeys>;
}

const whoAmI = record<WhoAmI>({ username: string });
const user = record<User>({ username: string });
const token = object<UserToken>({ token: string });
const shortcuts = object<Hotkeys>({ custom_hotkeys: object() });
const HOTKEYS_PATH = "/api/current-user/hotkeys/";

/** `remember` registers a key for scrubbing from later errors. */
export function usersResource(send: Send, remember: (secret: string) => void): UsersResource {
  const kept = (answer: UserToken) => (remember(answer.token), answer);
  return Object.freeze({
    whoami: (options?: RequestOptions) => send({ method: "GET", path: "/api/current-user/whoami", expect: whoAmI }, options),
    list: (options?: RequestOptions) => send({ method: "GET", path: "/api/users/", expect: arrayOf(user) }, options),
    async create(body: UserWrite, options?: RequestOptions) {
      checkObject("body", body);
      return send({ method: "POST", path: "/api/users/", body, expect: user }, options);
    },
    ...recordMethods<User, UserWrite>(send, "/api/users/", user),
    async getToken(options?: RequestOptions) {
      return kept(await send({ method: "GET", path: "/api/current-user/token", expect: token, sensitive: true }, options));
    },
    async resetToken(options?: RequestOptions) {
      return kept(await send({ method: "POST", path: "/api/current-user/reset-token/", expect: token, sensitive: true }, options));
    },
    getHotkeys: (options?: RequestOptions) => send({ method: "GET", path: HOTKEYS_PATH, expect: shortcuts }, options),
    async updateHotkeys(body: Hotkeys, options?: RequestOptions) {
      checkObject("body", body);
      return send({ method: "PATCH", path: HOTKEYS_PATH, body, expect: shortcuts }, options);
    },
  });
}
