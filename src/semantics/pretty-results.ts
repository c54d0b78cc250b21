import { jsonbKeyOrder } from "../emulation/jsonb.js";
import { round2 } from "../emulation/python.js";
import { ujsonDumps } from "../emulation/ujson.js";
import type { JsonValue } from "../vocabulary/json.js";

/** The Data Manager list's text columns (`DataManagerTaskSerializer._pretty_results`). */

type JsonObject = { readonly [key: string]: JsonValue };

/** `round_floats`: floats rounded to 2 decimals, recursively (ints untouched); dicts come from jsonb, in its key order. */
function roundFloats(v: JsonValue): JsonValue {
  if (typeof v === "number") return Number.isInteger(v) ? v : round2(v);
  if (Array.isArray(v)) return v.map(roundFloats);
  if (v !== null && typeof v === "object") {
    const o = v as JsonObject;
    return Object.fromEntries(
      Object.keys(o)
        .sort(jsonbKeyOrder)
        .map((k) => [k, roundFloats(o[k] as JsonValue)]),
    );
  }
  return v;
}

const CHAR_LIMIT = 500;

/**
 * `_pretty_results`: the list (None removed) dumped as JSON without its brackets, cut at 500
 * characters, `,"` spaced out, `],[` turned into `] [`, and every `"` dropped.
 */
export function prettyResults(list: readonly JsonValue[]): string {
  const kept = list.filter((x) => x !== null).map(roundFloats);
  const dumped = ujsonDumps(kept).slice(1, -1);
  return dumped.slice(0, CHAR_LIMIT).replaceAll(',"', ', "').replaceAll("],[", "] [").replaceAll('"', "");
}
