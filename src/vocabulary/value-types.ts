/**
 * The filter `type` values the server knows, and how it casts a filter value of each type before
 * comparing (docs/reference/filters.md#value-casting). The filter's own `type` drives casting, not
 * the column.
 */
export const valueTypes = {
  Number: { cast: "number", description: "float(value); a data.* field is compared as CAST(data->>'key' AS float)" },
  Datetime: { cast: "datetime", description: "strptime('%Y-%m-%dT%H:%M:%S.%fZ'), read as UTC" },
  Boolean: { cast: "boolean", description: "true|yes|on|1 / false|no|not|off|0, case-insensitive" },
  String: { cast: "none", description: "no cast; data.* equality is JSON-typed" },
  List: { cast: "none", description: "no cast; user and model-version columns" },
  Unknown: { cast: "none", description: "no cast; data keys only seen in imported data" },
  Image: { cast: "none", description: "no cast (front-end column type of a data key)" },
  Audio: { cast: "none", description: "no cast (front-end column type of a data key)" },
  AudioPlus: { cast: "none", description: "no cast (front-end column type of a data key)" },
  Video: { cast: "none", description: "no cast (front-end column type of a data key)" },
} as const;

/** A filter `type` the server knows. */
export type ValueTypeName = keyof typeof valueTypes;
export type ValueCast = (typeof valueTypes)[ValueTypeName]["cast"];

export const valueTypeNames = Object.keys(valueTypes) as readonly ValueTypeName[];

export function isValueTypeName(name: unknown): name is ValueTypeName {
  return typeof name === "string" && Object.hasOwn(valueTypes, name);
}
