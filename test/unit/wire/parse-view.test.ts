import { describe, expect, test } from "vitest";
import { parseQueryBody } from "../../../src/wire/parse.js";
import { item, and, brief } from "./bodies.js";

const view = (data: unknown) => parseQueryBody(data, { context: "view" });
const ok = item("filter:tasks:id", "greater", "Number", 0);
const drf = (filters: unknown[]) => ({ status: 400, detail: "Validation error", validationErrors: { filter_group: { filters } } });

describe("the view save path (ViewSerializer) → 400s and crashes", () => {
  test("a filter without filter:tasks: is rejected with the serializer's message", () => {
    const r = view(and(ok, item("tasks:id", "equal", "Number", 1)));
    expect(r.query).toBeUndefined();
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'rejected filters.items[1].filter: expected "filter:tasks:<column>", found string "tasks:id"',
    ]);
    expect(r.issues[0]?.serverDetail).toBe('Filter "tasks:id" should start with "filter:tasks:"');
    expect(r.answer).toEqual(drf([{}, { column: ['Filter "tasks:id" should start with "filter:tasks:"'] }]));
  });

  test('"__" traversal is rejected at save, in a child too', () => {
    const r = view(
      and(
        item("filter:tasks:id", "greater", "Number", 0, {
          child_filters: [item("filter:tasks:annotations__result", "equal", "String", "x")],
        }),
      ),
    );
    const msg =
      '"__" is not generally allowed in filters. Consider asking your administrator to add "annotations__result" to DATA_MANAGER_FILTER_ALLOWLIST, but note that some filter expressions may pose a security risk';
    expect(r.issues[0]).toMatchObject({ path: "filters.items[0].child_filters[0].filter", effect: "rejected", serverDetail: msg });
    expect(r.answer).toEqual(drf([{ child_filters: [{ column: [msg] }] }]));
  });

  test("children deeper than one level are rejected", () => {
    const grandchild = item("filter:tasks:id", "equal", "Number", 3);
    const r = view(
      and(
        item("filter:tasks:id", "equal", "Number", 1, {
          child_filters: [item("filter:tasks:id", "equal", "Number", 2, { child_filter: grandchild })],
        }),
      ),
    );
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      "rejected filters.items[0].child_filters[0].child_filter: expected no child filters inside a child filter (one level only), found object with keys filter, operator, type, value",
    ]);
    expect(r.answer).toEqual(drf([{ child_filters: [{ child_filters: ["Child filters cannot contain nested child filters."] }] }]));
  });

  test("missing, null and non-string fields get DRF's CharField messages", () => {
    const r = view(and({ filter: "filter:tasks:id", type: null, value: 1 }, item("filter:tasks:id", ["equal"], "Number", 1)));
    expect(r.issues.map((i) => `${i.effect} ${i.path} → ${i.serverDetail}`)).toEqual([
      "rejected filters.items[0].operator → This field may not be blank.",
      "rejected filters.items[0].type → This field may not be null.",
      "rejected filters.items[1].operator → Not a valid string.",
    ]);
    expect(r.issues[0]?.found).toBe("nothing (undefined)");
    expect(r.answer).toEqual(
      drf([{ operator: ["This field may not be blank."], type: ["This field may not be null."] }, { operator: ["Not a valid string."] }]),
    );
  });

  test("a number is stored as text (evaluated)", () => {
    const r = view(and(item("filter:tasks:id", "equal", "Number", 1, {}), item("filter:tasks:data.x", "equal", 7, "a")));
    expect(r.query?.filters?.items[1]?.type).toBe("7");
    expect(brief(r.issues)).toEqual(["evaluated filters.items[1].type", "evaluated filters.items[1].type"]);
  });

  test("child_filters that are not a list", () => {
    expect(view(and(item("filter:tasks:id", "equal", "Number", 1, { child_filters: {} }))).answer).toEqual(
      drf([{ child_filters: { non_field_errors: ['Expected a list of items but got type "dict".'] } }]),
    );
    expect(view(and(item("filter:tasks:id", "equal", "Number", 1, { child_filters: null }))).answer).toEqual(
      drf([{ child_filters: ["This field may not be null."] }]),
    );
  });

  test("in_list / not_in_list: a JSON array of primitives on an allowed column", () => {
    expect(view(and(item("filter:tasks:id", "in_list", "Number", 3))).answer).toEqual(
      drf([{ value: ["`in_list` / `not_in_list` require a JSON array."] }]),
    );
    expect(view(and(item("filter:tasks:data.k", "not_in_list", "String", [{ a: 1 }]))).answer).toEqual(
      drf([{ value: ["List elements must be strings or numbers."] }]),
    );
    const r = view(and(item("filter:tasks:annotations_ids", "in_list", "String", [1])));
    expect(r.issues[0]).toMatchObject({
      path: "filters.items[0].filter",
      effect: "rejected",
      serverDetail: "`is any of` / `is none of` support Task ID, Inner ID, annotation/prediction counters, and task.data.* fields.",
    });
    expect(view(and(item("filter:tasks:total_annotations", "in_list", "Number", [0, 1]))).issues).toEqual([]);
  });

  test("user filters: operators and ids the serializer refuses", () => {
    const detail = (data: unknown) => view(data).issues.map((i) => `${i.path} → ${i.serverDetail}`);
    expect(detail(and(item("filter:tasks:annotators", "greater", "List", 1)))).toEqual([
      'filters.items[0].operator → User filter "annotators" does not support operator "greater". Allowed: contains, empty, not_contains.',
    ]);
    expect(detail(and(item("filter:tasks:skipped_by_annotator", "empty", "List", true)))).toEqual([
      'filters.items[0].operator → User filter "skipped_by_annotator" does not support operator "empty". Allowed: contains, not_contains.',
    ]);
    expect(detail(and(item("filter:tasks:updated_by", "equal", "List", [1])))).toEqual([
      "filters.items[0].operator → List-valued user filters support only these operators: contains, not_contains.",
    ]);
    expect(detail(and(item("filter:tasks:annotators", "contains", "List", [1, true])))).toEqual([
      "filters.items[0].value → User filter values must be integer ids.",
    ]);
  });

  test("filters that are not an object, or items that cannot be iterated, crash the save (500)", () => {
    expect(view({ filters: null }).answer).toMatchObject({
      status: 500,
      detail: "'NoneType' object has no attribute 'get'",
      exception: "AttributeError",
    });
    expect(brief(view({ filters: [] }).issues)).toEqual(["server-error filters"]);
    expect(view({ filters: { conjunction: "or", items: null } }).answer).toMatchObject({
      status: 500,
      detail: "'NoneType' object is not iterable",
      exception: "TypeError",
    });
    expect(view({ filters: { conjunction: "or", items: "abc" } }).answer).toMatchObject({
      status: 500,
      detail: "'str' object has no attribute 'get'",
      exception: "AttributeError",
    });
    const r = view({ filters: { conjunction: "or", items: [ok, 5] } });
    expect(r.issues.map((i) => `${i.effect} ${i.path}`)).toEqual(["server-error filters.items[1]"]);
    expect(r.answer).toMatchObject({ status: 500, detail: "'int' object has no attribute 'get'", exception: "AttributeError" });
  });

  test("without a conjunction the view is saved without its filters", () => {
    const r = view({ filters: { items: [ok] } });
    expect(r.query).toEqual({});
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'ignored filters.conjunction: expected "and" or "or": without a conjunction the server saves the view without its filters, found nothing (undefined)',
    ]);
    expect(view({ filters: { conjunction: "and" } }).query).toEqual({ filters: { conjunction: "and", items: [] } });
  });
});

describe("what the serializer lets through but every use of the view refuses (PrepareParams)", () => {
  test("a conjunction other than and/or → 500 whenever used", () => {
    const r = view({ filters: { conjunction: "xor", items: [] } });
    expect(r.issues.map((i) => `${i.effect} ${i.path}`)).toEqual(["server-error filters.conjunction"]);
    expect(r.answer?.detail).toBe(
      "1 validation error for PrepareParams\nfilters.conjunction\n  Input should be 'or' or 'and' [type=enum, input_value='xor', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.9/v/enum",
    );
  });

  test("a null or missing value → 500 whenever used", () => {
    const nul = view(and(item("filter:tasks:id", "equal", "Number", null)));
    expect(nul.issues.map((i) => i.message)).toEqual([
      'filters.items[0].value: expected a number, string, boolean, list or { "min", "max" } (null is refused) (the server saves this view but answers 500 whenever it is used), found null',
    ]);
    const missing = view(and({ filter: "filter:tasks:id", operator: "equal", type: "Number" }));
    expect(missing.issues[0]).toMatchObject({ path: "filters.items[0].value", effect: "server-error", found: "nothing (undefined)" });
    expect(missing.answer?.detail).toContain(
      "filters.items.0.value.FilterIn.min\n  Field required [type=missing, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.9/v/missing",
    );
  });

  test("ordering: __ in any key → 400 at use; a non-list → 500; falsy → none", () => {
    expect(view({ ordering: ["tasks:id", "tasks:project__title"] }).answer).toMatchObject({
      status: 400,
      validationErrors: { non_field_errors: [expect.stringContaining('"project__title"')] },
    });
    expect(brief(view({ ordering: "tasks:id" }).issues)).toEqual(["server-error ordering"]);
    expect(view({ ordering: {} }).issues).toEqual([]);
    expect(brief(view({ ordering: "" }).issues)).toEqual(["ignored ordering"]);
  });

  test("selectedItems is not decoded from a string in a view", () => {
    const r = view({ selectedItems: '{"all": true}' });
    expect(brief(r.issues)).toEqual(["server-error selectedItems"]);
    expect(r.answer?.detail).toContain("Input should be a valid dictionary or instance of SelectedItems");
  });

  test("view data that is not an object", () => {
    expect(view([1]).answer?.detail).toBe(
      "1 validation error for PrepareParams\ndata\n  Input should be a valid dictionary [type=dict_type, input_value=[1], input_type=list]\n    For further information visit https://errors.pydantic.dev/2.9/v/dict_type",
    );
    expect(view(null)).toEqual({ query: {}, issues: [], answer: undefined });
  });

  test("save errors come before use errors, which come before evaluated ones", () => {
    const r = view({
      ordering: ["tasks:a__b"],
      selectedItems: { all: "x" },
      filters: { conjunction: "and", items: [item("filter:tasks:nope", "equal", "String", "x"), item("id", "equal", "Number", 1)] },
    });
    expect(brief(r.issues)).toEqual([
      "rejected filters.items[1].filter",
      "rejected ordering[0]",
      "server-error selectedItems.all",
      "evaluated ordering[0]", // a__b is no known column either
    ]);
    expect(r.answer).toEqual(drf([{}, { column: ['Filter "id" should start with "filter:tasks:"'] }]));
  });
});
