import type { SparseFields } from "../../src/contract/render.js";
import type { Query } from "../http.js";

/**
 * drf-flex-fields' `_get_query_param_value` for `include` (the server's REST_FLEX_FIELDS
 * FIELDS_PARAM) and `omit`: every value of the key (or of `key[]`); a single value is split at
 * commas, several are taken as they are. Names are not trimmed: "id, data" names " data".
 */
function listParam(query: Query, key: string): readonly string[] {
  const read = (k: string) => {
    const v = query[k];
    return v === undefined ? [] : Array.isArray(v) ? (v as readonly string[]) : [v as string];
  };
  const values = read(key).length > 0 ? read(key) : read(`${key}[]`);
  return values.length === 1 ? (values[0] as string).split(",") : values;
}

/** The sparse fieldset a request asks a flex serializer for (undefined: none asked). */
export function sparseFields(query: Query): SparseFields | undefined {
  const include = listParam(query, "include");
  const omit = listParam(query, "omit");
  return include.length === 0 && omit.length === 0 ? undefined : { include, omit };
}
