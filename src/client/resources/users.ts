import type { RequestOptions } from "../options.js";
import { arrayOf, record, string } from "../shape.js";
import type { Send } from "../transport.js";
import type { User, WhoAmI } from "../types.js";

/** Users: `whoami` and the user list. */
export interface UsersResource {
  /** The user the key belongs to: `GET /api/current-user/whoami`. */
  whoami(options?: RequestOptions): Promise<WhoAmI>;
  /** The users the server lists: `GET /api/users/` (a bare array, not paged: `UserAPI.list`). */
  list(options?: RequestOptions): Promise<User[]>;
}

const whoAmI = record<WhoAmI>({ username: string });
const user = record<User>({ username: string });

export function usersResource(send: Send): UsersResource {
  return Object.freeze({
    whoami: (options?: RequestOptions) => send({ method: "GET", path: "/api/current-user/whoami", expect: whoAmI }, options),
    list: (options?: RequestOptions) => send({ method: "GET", path: "/api/users/", expect: arrayOf(user) }, options),
  });
}
