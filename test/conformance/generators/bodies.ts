/**
 * Raw JSON bodies for the wire parser: a builder-made body (so it starts documented) bent by
 * mutations the server reads in its own way — prefixes, `child_filter`, `tasks:-x`, JSON-string
 * selections, unknown operators, other types — or refuses (null values, missing conjunction,
 * `__` traversal, non-dict selectedItems, deep nesting).
 */
import fc from "fast-check";
import { buildSelection, querySpecArb, type QuerySpec } from "./queries.js";

type Body = Record<string, unknown>;
type Item = Record<string, unknown>;

const items = (b: Body): Item[] => ((b.filters as { items?: Item[] } | undefined)?.items ?? []) as Item[];
const allItems = (b: Body): Item[] => items(b).flatMap((i) => [i, ...((i.child_filters as Item[] | undefined) ?? [])]);
const at = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

/** name → how it bends the body (n picks the item or variant). */
export const mutations: Readonly<Record<string, (b: Body, n: number) => void>> = {
  unprefix(b, n) {
    const it = at(allItems(b), n);
    if (it) it.filter = String(it.filter).replace("filter:tasks:", n % 2 ? "tasks:" : "filter:");
  },
  dashAfterPrefix(b, n) {
    const it = at(allItems(b), n);
    if (it) it.filter = String(it.filter).replace("filter:tasks:", "filter:tasks:-");
  },
  singularChild(b, n) {
    const it = at(
      items(b).filter((i) => (i.child_filters as Item[] | undefined)?.length === 1),
      n,
    );
    if (it) {
      it.child_filter = (it.child_filters as Item[])[0];
      delete it.child_filters;
    }
  },
  bothChildKeys(b, n) {
    const it = at(items(b), n);
    const other = at(items(b), n + 1);
    if (it && other) it.child_filter = { ...other, child_filters: undefined };
  },
  orderingDashInside(b) {
    const o = b.ordering as string[] | undefined;
    if (o?.[0]?.startsWith("-tasks:")) o[0] = `tasks:-${o[0].slice("-tasks:".length)}`;
  },
  orderingExtra(b, n) {
    b.ordering = [...((b.ordering as string[] | undefined) ?? []), n % 2 ? "tasks:id" : "-tasks:created_at"];
  },
  orderingNoPrefix(b) {
    const o = b.ordering as string[] | undefined;
    if (o?.[0]) o[0] = o[0].replace("tasks:", "");
  },
  selectedAsString(b) {
    if (b.selectedItems) b.selectedItems = JSON.stringify(b.selectedItems);
  },
  selectedBothLists(b, n) {
    const s = b.selectedItems as { all: boolean; included?: number[]; excluded?: number[] } | undefined;
    if (s?.all === false) s.excluded = [1 + (n % 5)];
    else if (s?.all === true) s.included = [1 + (n % 5)];
  },
  selectedEmptyIncluded(b) {
    b.selectedItems = { all: false, included: [] };
  },
  selectedMissing(b) {
    delete b.selectedItems;
  },
  unknownOperator(b, n) {
    const it = at(allItems(b), n);
    if (it) it.operator = ["starts_with", "ends_with", "exists", "not_exists"][n % 4];
  },
  otherType(b, n) {
    const it = at(
      allItems(b).filter((i) => String(i.filter).includes(":data.")),
      n,
    );
    if (it) it.type = ["Unknown", "Image", "String", "Number", "Boolean"][n % 5];
  },
  emptyList(b, n) {
    // User columns first: an empty id list drops their whole line (docs/reference/filters.md#user-columns).
    const users = allItems(b).filter((i) => /:(annotators|updated_by)$/.test(String(i.filter)));
    const it = at(users.length ? users : allItems(b).filter((i) => Array.isArray(i.value) || i.operator === "contains"), n);
    if (it) it.value = n % 3 === 0 ? ["  ", "''"] : [];
  },
  numberAsString(b, n) {
    const it = at(
      allItems(b).filter((i) => i.type === "Number" && typeof i.value === "number"),
      n,
    );
    if (it) it.value = String(it.value);
  },
  nullValue(b, n) {
    const it = at(allItems(b), n);
    if (it) it.value = null;
  },
  noConjunction(b) {
    if (b.filters) delete (b.filters as Item).conjunction;
  },
  badConjunction(b) {
    if (b.filters) (b.filters as Item).conjunction = "xor";
  },
  traversalFilter(b, n) {
    const it = at(allItems(b), n);
    if (it) it.filter = n % 2 ? "filter:tasks:updated_by__email" : "filter:tasks:annotations__result";
  },
  traversalOrdering(b) {
    b.ordering = ["tasks:updated_by__username"];
  },
  selectedNotDict(b, n) {
    b.selectedItems = [5, true, "{oops"][n % 3];
  },
  selectedWithoutAll(b) {
    b.selectedItems = { included: [1] };
  },
  orderingNull(b) {
    b.ordering = null;
  },
  deepChildren(b) {
    const it = at(
      items(b).filter((i) => (i.child_filters as Item[] | undefined)?.length),
      0,
    );
    if (it) (it.child_filters as Item[])[0]!.child_filters = [{ filter: "filter:tasks:id", operator: "equal", type: "Number", value: 1 }];
  },
  filtersNull(b) {
    b.filters = null;
  },
  emptyItems(b) {
    if (b.filters) (b.filters as Item).items = [];
  },
  displayNumber(b, n) {
    b.columnsDisplayType = { [["tasks:data.num", "tasks:data.mixed", "tasks:data.Score"][n % 3] as string]: "Number" };
  },
};
export const mutationNames = Object.keys(mutations);

export interface RawBody {
  readonly spec: QuerySpec;
  readonly applied: readonly string[];
  readonly body: Body;
}

export interface RawBodyOptions {
  readonly maxMutations?: number;
  /** Mutations applied first, every time. */
  readonly always?: readonly string[];
  readonly spec?: fc.Arbitrary<QuerySpec>;
}

export function rawBodyArb(options: RawBodyOptions = {}): fc.Arbitrary<RawBody> {
  return fc
    .record({
      spec: options.spec ?? querySpecArb(),
      forced: fc.tuple(...(options.always ?? []).map((name) => fc.tuple(fc.constant(name), fc.nat(20)))),
      more: fc.array(fc.tuple(fc.constantFrom(...mutationNames), fc.nat(20)), { maxLength: options.maxMutations ?? 3 }),
    })
    .map(({ spec, forced, more }) => {
      const picks = [...(forced as [string, number][]), ...more];
      const body = JSON.parse(JSON.stringify(buildSelection(spec).toJSON())) as Body;
      if (spec.columnsDisplayType) body.columnsDisplayType = { ...spec.columnsDisplayType };
      for (const [name, n] of picks) mutations[name]!(body, n);
      return { spec, applied: picks.map(([name, n]) => `${name}(${n})`), body: JSON.parse(JSON.stringify(body)) as Body };
    });
}
