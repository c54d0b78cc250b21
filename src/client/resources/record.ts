import type { RequestOptions } from "../options.js";
import type { Reader } from "../shape.js";
import type { Send } from "../transport.js";
import { checkId, checkObject } from "./common.js";

/** The methods every stored record has at `{base}{id}/`; `P` is what a PATCH answers when it differs from a GET. */
export interface RecordMethods<T, U, P = T> {
  /** One record by id (a 404 rejects with an `ApiError`). */
  get(id: number, options?: RequestOptions): Promise<T>;
  /** `PATCH`: only the given fields change. */
  update(id: number, body: U, options?: RequestOptions): Promise<P>;
  /** Delete one record by id. */
  delete(id: number, options?: RequestOptions): Promise<void>;
}

/**
 * `get` / `update` / `delete` of one record at `{base}{id}/` (e.g. `/api/tasks/7/`). The id is
 * checked before the body; `payload` turns an update into the body sent (views fold a query in).
 */
export function recordMethods<T, U, P = T>(
  send: Send,
  base: string,
  expect: Reader<T>,
  payload: (body: U) => unknown = (body) => body,
  expectPatched: Reader<P> = expect as unknown as Reader<P>,
): RecordMethods<T, U, P> {
  const path = (id: number): string => `${base}${checkId("id", id)}/`;
  return {
    async get(id, options) {
      return send({ method: "GET", path: path(id), expect }, options);
    },
    async update(id, body, options) {
      const at = path(id);
      checkObject("body", body);
      return send({ method: "PATCH", path: at, body: payload(body), expect: expectPatched }, options);
    },
    async delete(id, options) {
      return send<void>({ method: "DELETE", path: path(id) }, options);
    },
  };
}
