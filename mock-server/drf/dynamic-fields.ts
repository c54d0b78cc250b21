import { param, type Query } from "../http.js";

/**
 * drf-dynamic-fields' `DynamicFieldsMixin` (the organization serializers use it, not drf-flex-fields): on the root
 * serializer, or each item of a root list, `?fields=a,b` keeps only the fields named (an empty value keeps none) and
 * `?omit=a,b` drops those named; each reads the last value of its key, nested serializers are left whole.
 */
export function dynamicFields<T extends object>(query: Query, rendered: T): Partial<T> {
  const names = (key: string) =>
    param(query, key)
      ?.split(",")
      .filter((n) => n !== "");
  const allowed = names("fields");
  const omitted = new Set(names("omit") ?? []);
  return Object.fromEntries(
    Object.entries(rendered).filter(([name]) => (allowed === undefined || allowed.includes(name)) && !omitted.has(name)),
  ) as Partial<T>;
}
