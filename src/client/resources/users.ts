import type { RequestOptions } from "../options.js";
import { record, string } from "../shape.js";
import type { Send } from "../transport.js";
import type { WhoAmI } from "../types.js";

/** Users: `whoami` and the user list. */
export interface UsersResource {
  /** The user the key belongs to: `GET /api/current-user/whoami`. */
  whoami(options?: RequestOptions): Promise<WhoAmI>;
}

const user = record<WhoAmI>({ username: string });

export function usersResource(send: Send): UsersResource {
  return Object.freeze({
    whoami: (options?: RequestOptions) => send({ method: "GET", path: "/api/current-user/whoami", expect: user }, options),
  });
}
