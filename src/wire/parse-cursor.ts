import { match } from "ts-pattern";

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

type Step =
  | { readonly kind: "field"; readonly key: string; readonly drfKey: string }
  | { readonly kind: "item"; readonly index: number }
  | { readonly kind: "child"; readonly key: "child_filters" | "child_filter"; readonly index: number };

/**
 * Paths are needed only when something is reported, so a cursor keeps its parent and one step and
 * builds the three names on first use: a clean body allocates no path strings or arrays.
 */
class LazyCursor implements Cursor {
  #path: string | undefined;
  #loc: readonly (string | number)[] | undefined;
  #drf: readonly (string | number)[] | undefined;

  constructor(
    private readonly parent: Cursor,
    private readonly step: Step,
  ) {}

  get path(): string {
    if (this.#path === undefined) {
      const base = this.parent.path;
      this.#path = match(this.step)
        .with({ kind: "field" }, (s) => keyPath(base, s.key))
        .with({ kind: "item" }, (s) => `${base}[${s.index}]`)
        .with({ kind: "child", key: "child_filter" }, () => `${base}.child_filter`)
        .with({ kind: "child", key: "child_filters" }, (s) => `${base}.child_filters[${s.index}]`)
        .exhaustive();
    }
    return this.#path;
  }

  get loc(): readonly (string | number)[] {
    this.#loc ??= [...this.parent.loc, ...this.#tail(false)];
    return this.#loc;
  }

  get drf(): readonly (string | number)[] {
    this.#drf ??= [...this.parent.drf, ...this.#tail(true)];
    return this.#drf;
  }

  #tail(drf: boolean): (string | number)[] {
    return match(this.step)
      .returnType<(string | number)[]>()
      .with({ kind: "field" }, (s) => [drf ? s.drfKey : s.key])
      .with({ kind: "item" }, (s) => [s.index])
      .with({ kind: "child" }, (s) => ["child_filters", s.index])
      .exhaustive();
  }
}

/** A field of the object at `at`; pydantic and DRF may name it differently (`filter` is DRF's `column`). */
export function field(at: Cursor, key: string, drfKey: string = key): Cursor {
  return new LazyCursor(at, { kind: "field", key, drfKey });
}

export function item(at: Cursor, index: number): Cursor {
  return new LazyCursor(at, { kind: "item", index });
}

/** The j-th child of a filter: the legacy singular `child_filter` is the server's `child_filters[0]`. */
export function childAt(at: Cursor, key: "child_filters" | "child_filter", j: number): Cursor {
  return new LazyCursor(at, { kind: "child", key, index: j });
}

export const rootCursor = (key: string, drf: readonly (string | number)[] = []): Cursor => ({
  path: key,
  loc: [key],
  drf,
});

export const has = (obj: Readonly<Record<string, unknown>>, key: string): boolean => Object.hasOwn(obj, key) && obj[key] !== undefined;
