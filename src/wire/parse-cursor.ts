/**
 * A position in the body, named three ways: the documented body path used in issues
 * (`filters.items[0].child_filter.value`), pydantic's location inside `PrepareParams`
 * (`filters.items.0.child_filters.0.value`) and DRF's location while a view is saved
 * (`filter_group.filters[0].child_filters[0].value`).
 */
export interface Cursor {
  readonly path: string;
  readonly loc: readonly (string | number)[];
  readonly drf: readonly (string | number)[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `base.key`, or `base["odd key"]` when the key is not an identifier. */
export function keyPath(base: string, key: string): string {
  const tail = IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return base === "" ? (IDENTIFIER.test(key) ? key : tail) : `${base}${tail}`;
}

/** A field of the object at `at`; pydantic and DRF may name it differently (`filter` is DRF's `column`). */
export function field(at: Cursor, key: string, drfKey: string = key): Cursor {
  return { path: keyPath(at.path, key), loc: [...at.loc, key], drf: [...at.drf, drfKey] };
}

export function item(at: Cursor, index: number): Cursor {
  return { path: `${at.path}[${index}]`, loc: [...at.loc, index], drf: [...at.drf, index] };
}

/** The j-th child of a filter: the legacy singular `child_filter` is the server's `child_filters[0]`. */
export function childAt(at: Cursor, key: "child_filters" | "child_filter", j: number): Cursor {
  return {
    path: key === "child_filter" ? `${at.path}.child_filter` : `${at.path}.child_filters[${j}]`,
    loc: [...at.loc, "child_filters", j],
    drf: [...at.drf, "child_filters", j],
  };
}

export const rootCursor = (key: string, drf: readonly (string | number)[] = []): Cursor => ({
  path: key,
  loc: [key],
  drf,
});

export const has = (obj: Readonly<Record<string, unknown>>, key: string): boolean =>
  Object.hasOwn(obj, key) && obj[key] !== undefined;

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
