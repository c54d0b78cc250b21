import { deriveColumns } from "../src/semantics/index.js";
import type { Dataset, DerivedColumns } from "../src/semantics/records.js";

/**
 * The one place the mock calls the semantics engine. Derived columns are cached per dataset
 * object; the store hands out a new dataset after every write, so the cache is never stale.
 */
const cache = new WeakMap<Dataset, ReadonlyMap<number, DerivedColumns>>();

export function derivedById(dataset: Dataset): ReadonlyMap<number, DerivedColumns> {
  let byId = cache.get(dataset);
  if (!byId) {
    byId = toMap(deriveColumns(dataset));
    cache.set(dataset, byId);
  }
  return byId;
}

export function derivedList(dataset: Dataset): readonly DerivedColumns[] {
  return [...derivedById(dataset).values()];
}

function toMap(columns: unknown): ReadonlyMap<number, DerivedColumns> {
  if (columns instanceof Map) return columns as ReadonlyMap<number, DerivedColumns>;
  return new Map((columns as readonly DerivedColumns[]).map((c) => [c.id, c] as const));
}
