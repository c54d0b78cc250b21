import type { JsonValue } from "../vocabulary/json.js";
import { jsonString } from "./jsonb.js";
import { floatRepr } from "./python-json.js";

/** The server's `ujson` (ultrajson), where its output or its reading differs from the standard library's. */

/** `ujson.dumps(v, ensure_ascii=False)`: compact, `/` escaped, keys in the order the dict holds them. */
export function ujsonDumps(v: JsonValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return jsonString(v, true);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : floatRepr(v);
  if (Array.isArray(v)) return `[${v.map(ujsonDumps).join(",")}]`;
  const o = v as { readonly [key: string]: JsonValue };
  return `{${Object.keys(o).map((k) => `${jsonString(k, true)}:${ujsonDumps(o[k] as JsonValue)}`).join(",")}}`;
}
