import { renderTimestamp } from "../vocabulary/timestamps.js";
import type { Declaration, FieldName, FieldSpec, FieldType, Rendered } from "./field.js";

/**
 * Rendering a declaration the way DRF renders its serializer: fields in declaration order, the
 * conditional ones by the answer's context, drf-flex-fields sparse fieldsets on the root
 * serializer, datetimes in DRF's ISO 8601 form. A presenter supplies one value per field (an exact
 * object: a missing or misnamed field does not compile); values of conditional fields are thunks,
 * computed only when the field is rendered.
 */

type Spec<D extends Declaration, K extends FieldName<D>> = D["fields"][K];

/** What a presenter gives for one field. */
export type Value<F extends FieldSpec> = F extends { when: { registered: true } }
  ? FieldType<F> | undefined
  : F extends { when: object }
    ? () => FieldType<F>
    : FieldType<F>;

export type Values<D extends Declaration> = { readonly [K in FieldName<D>]: Value<Spec<D, K>> };

export interface RenderContext {
  /** Serializer context flags the view sets (e.g. `annotations` and `predictions` for `fields=all`). */
  readonly context?: ReadonlySet<string> | undefined;
  /** The Data Manager columns the queryset evaluated (`"all"`: every one). */
  readonly evaluated?: ReadonlySet<string> | "all" | undefined;
  /** drf-flex-fields `include` / `omit` of the request: applied to flex serializers only. */
  readonly sparse?: SparseFields | undefined;
}

export interface SparseFields {
  readonly include: readonly string[];
  readonly omit: readonly string[];
}

/** drf-flex-fields WILDCARD_VALUES: an `include` with one of these keeps every field. */
const WILDCARDS = new Set(["*", "~all"]);

/**
 * drf-flex-fields `_should_field_exist`: `omit` drops a field (unless it only names nested fields of
 * it), a non-empty `include` keeps only the fields it names (a dotted name names its first part).
 */
function kept(name: string, sparse: SparseFields | undefined): boolean {
  if (!sparse) return true;
  const first = (list: readonly string[]) => list.map((n) => n.split(".")[0] ?? "");
  const omitted = sparse.omit.includes(name);
  const omittedDeeper = sparse.omit.some((n) => n.startsWith(`${name}.`));
  if (omitted && !omittedDeeper) return false;
  const include = first(sparse.include);
  if (include.some((n) => WILDCARDS.has(n))) return true;
  return include.length === 0 || include.includes(name);
}

/** The field's value for this answer, or `undefined` to leave the field out. */
function resolve(spec: FieldSpec, value: unknown, ctx: RenderContext): unknown {
  const when = spec.when;
  if (when === undefined) return value;
  if ("registered" in when) return value;
  const lazy = value as () => unknown;
  if ("context" in when) return ctx.context?.has(when.context) ? lazy() : undefined;
  const evaluated = ctx.evaluated === "all" || ctx.evaluated?.has(when.evaluated) === true;
  if (evaluated) return lazy();
  return when.fallback === "omit" ? undefined : when.fallback;
}

/** Render a declaration; `ctx.sparse` applies only when the declaration is a flex serializer. */
export function render<D extends Declaration>(decl: D, values: Values<D>, ctx: RenderContext = {}): Rendered<D> {
  const out: Record<string, unknown> = {};
  const sparse = decl.flex ? ctx.sparse : undefined;
  for (const [name, spec] of Object.entries(decl.fields)) {
    if (spec.access === "write-only" || !kept(name, sparse)) continue;
    const value = resolve(spec, (values as Record<string, unknown>)[name], ctx);
    if (value === undefined) continue;
    out[name] = spec.kind === "datetime" && typeof value === "string" ? renderTimestamp(value) : value;
  }
  return out as Rendered<D>;
}
