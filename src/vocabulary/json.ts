/** JSON values as they travel on the wire. */
export type JsonPrimitive = string | number | boolean | null;
/** A JSON value. */
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object (not null, not an array). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A short, secret-free rendering of a value for error messages ("found …"). */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing (undefined)";
  if (value === null) return "null";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "an invalid Date" : `Date ${value.toISOString()}`;
  if (Array.isArray(value)) {
    const head = value
      .slice(0, 5)
      .map((v) => describeValue(v))
      .join(", ");
    return `array [${head}${value.length > 5 ? `, … (${value.length} items)` : ""}]`;
  }
  switch (typeof value) {
    case "string":
      return `string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
    case "number":
    case "boolean":
    case "bigint":
      return `${typeof value} ${String(value)}`;
    case "object": {
      const keys = Object.keys(value as object);
      return keys.length ? `object with keys ${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", …" : ""}` : "empty object {}";
    }
    default:
      return typeof value;
  }
}
