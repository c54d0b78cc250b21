import { describe, expect, test } from "vitest";
import type { ParseIssue } from "../../../src/wire/issues.js";
import { parseQueryBody } from "../../../src/wire/parse.js";
import { item, and, brief } from "./bodies.js";

const only = (body: unknown): ParseIssue => {
  const { issues } = parseQueryBody(body);
  expect(issues).toHaveLength(1);
  return issues[0] as ParseIssue;
};

const TRAVERSAL = (name: string) =>
  `"__" is not generally allowed in filters. Consider asking your administrator to add "${name}" to DATA_MANAGER_FILTER_ALLOWLIST, but note that some filter expressions may pose a security risk`;

describe("malformed filters → server-error (pydantic ValidationError → 500)", () => {
  test("a filters object without conjunction and items", () => {
    const r = parseQueryBody({ filters: {} });
    expect(r.query).toBeUndefined();
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'server-error filters.conjunction: expected "and" or "or", found nothing (undefined)',
      "server-error filters.items: expected a list of filter items ([] for none), found nothing (undefined)",
    ]);
    const detail =
      "2 validation errors for PrepareParams\n" +
      "filters.conjunction\n  Field required [type=missing, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.9/v/missing\n" +
      "filters.items\n  Field required [type=missing, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.9/v/missing";
    expect(r.issues.map((i) => i.serverDetail)).toEqual([detail, detail]);
    expect(r.answer).toMatchObject({ status: 500, detail, exception: "pydantic_core._pydantic_core.ValidationError" });
  });

  test("a conjunction other than and/or", () => {
    const r = parseQueryBody({ filters: { conjunction: "xor", items: [] } });
    expect(r.issues.map((i) => i.message)).toEqual(['filters.conjunction: expected "and" or "or", found string "xor"']);
    expect(r.answer?.detail).toBe(
      "1 validation error for PrepareParams\nfilters.conjunction\n  Input should be 'or' or 'and' [type=enum, input_value='xor', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.9/v/enum",
    );
  });

  test("an item missing filter, operator, type and value: one issue per field at its path", () => {
    const r = parseQueryBody(and(item("filter:tasks:id", "equal", "Number", 1), item("filter:tasks:id", "equal", "Number", 2), {}));
    expect(brief(r.issues)).toEqual([
      "server-error filters.items[2].filter",
      "server-error filters.items[2].operator",
      "server-error filters.items[2].type",
      "server-error filters.items[2].value",
    ]);
    expect(r.issues[3]?.message).toBe(
      'filters.items[2].value: expected a number, string, boolean, list or { "min", "max" } (null is refused), found nothing (undefined)',
    );
  });

  test("a null value is refused, whichever column it is on", () => {
    const r = parseQueryBody(and(item("f", "o", "t", null)));
    // the item's other checks (here: its missing prefix) wait until its shape is valid
    expect(brief(r.issues)).toEqual(["server-error filters.items[0].value"]);
    expect(r.answer?.status).toBe(500);
    expect(r.answer?.detail).toBe(
      [
        "6 validation errors for PrepareParams",
        "filters.items.0.value.int",
        "  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/int_type",
        "filters.items.0.value.float",
        "  Input should be a valid number [type=float_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/float_type",
        "filters.items.0.value.bool",
        "  Input should be a valid boolean [type=bool_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/bool_type",
        "filters.items.0.value.str",
        "  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/string_type",
        "filters.items.0.value.FilterIn",
        "  Input should be a valid dictionary or instance of FilterIn [type=model_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/model_type",
        "filters.items.0.value.list[any]",
        "  Input should be a valid list [type=list_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/list_type",
      ].join("\n"),
    );
  });

  test("a missing field's pydantic line shows the item it is missing from", () => {
    const r = parseQueryBody(and({ filter: "f", operator: "o", type: "t" }));
    expect(r.answer?.detail).toBe(
      "1 validation error for PrepareParams\nfilters.items.0.value\n  Field required [type=missing, input_value={'filter': 'f', 'operator': 'o', 'type': 't'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.9/v/missing",
    );
  });

  test("non-string filter / operator / type", () => {
    const r = parseQueryBody(and(item("filter:tasks:id", "equal", 5, 1)));
    expect(r.issues.map((i) => i.message)).toEqual(["filters.items[0].type: expected a type name (string), found number 5"]);
    expect(r.answer?.detail).toContain(
      "filters.items.0.type\n  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.9/v/string_type",
    );
  });

  test("filters, items, an item or child_filters of the wrong type", () => {
    expect(brief(parseQueryBody({ filters: "and" }).issues)).toEqual(["server-error filters"]);
    expect(parseQueryBody({ filters: "and" }).answer?.detail).toContain(
      "Input should be a valid dictionary or instance of Filters [type=model_type",
    );
    expect(brief(parseQueryBody({ filters: { conjunction: "or", items: {} } }).issues)).toEqual(["server-error filters.items"]);
    expect(brief(parseQueryBody(and("filter:tasks:id")).issues)).toEqual(["server-error filters.items[0]"]);
    expect(brief(parseQueryBody(and(item("filter:tasks:id", "equal", "Number", 1, { child_filters: null }))).issues)).toEqual([
      "server-error filters.items[0].child_filters",
    ]);
  });

  test("a range without max, or with an end that is not a number or string", () => {
    const r = parseQueryBody(
      and(item("filter:tasks:id", "in", "Number", { min: 1 }), item("filter:tasks:id", "in", "Number", { min: true, max: 2 })),
    );
    expect(brief(r.issues)).toEqual(["server-error filters.items[0].value", "server-error filters.items[1].value"]);
    expect(r.answer?.detail).toContain(
      "filters.items.0.value.FilterIn.max\n  Field required [type=missing, input_value={'min': 1}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.9/v/missing",
    );
    expect(r.answer?.detail).toContain(
      "filters.items.1.value.FilterIn.min.int\n  Input should be a valid integer [type=int_type, input_value=True, input_type=bool]\n    For further information visit https://errors.pydantic.dev/2.9/v/int_type",
    );
  });

  test("nesting deeper than one level", () => {
    const grandchild = item("filter:tasks:id", "equal", "Number", 3);
    const body = and(
      item("filter:tasks:id", "equal", "Number", 1, {
        child_filters: [item("filter:tasks:id", "equal", "Number", 2, { child_filters: [grandchild] })],
      }),
    );
    const r = parseQueryBody(body);
    expect(r.query).toBeUndefined();
    expect(r.issues.map((i) => `${i.effect} ${i.path}`)).toEqual(["server-error filters.items[0].child_filters[0].child_filters"]);
    expect(r.answer?.detail).toMatch(
      /^1 validation error for PrepareParams\nfilters\n {2}Value error, Child filters cannot contain nested child filters \[type=value_error, input_value=\{'conjunction': 'and', .*, input_type=dict\]\n {4}For further information visit https:\/\/errors\.pydantic\.dev\/2\.9\/v\/value_error$/,
    );
  });

  test("the nesting check runs only when the filters are otherwise valid: its line leaves the detail then", () => {
    const body = and(
      item("filter:tasks:id", "equal", "Number", null, {
        child_filters: [item("filter:tasks:id", "equal", "Number", 2, { child_filter: item("filter:tasks:id", "equal", "Number", 3) })],
      }),
    );
    const r = parseQueryBody(body);
    expect(brief(r.issues)).toEqual(["server-error filters.items[0].value", "server-error filters.items[0].child_filters[0].child_filter"]);
    expect(r.answer?.detail).toMatch(/^6 validation errors for PrepareParams\n/);
    expect(r.answer?.detail).not.toContain("Child filters cannot contain");
  });
});

describe("filters without the filter:tasks: prefix → ignored inline", () => {
  test("a root is dropped with its children; other items stay", () => {
    const r = parseQueryBody(
      and(
        item("tasks:id", "equal", "Number", 1, { child_filters: [item("filter:tasks:id", "equal", "Number", 2)] }),
        item("filter:tasks:id", "greater", "Number", 0),
      ),
    );
    expect(r.query?.filters?.items.map((c) => c.column)).toEqual(["id"]);
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'ignored filters.items[0].filter: expected "filter:tasks:<column>": the server skips this filter (with its 1 child filter), found string "tasks:id"',
    ]);
  });

  test("a child is dropped alone", () => {
    const r = parseQueryBody(
      and(
        item("filter:tasks:id", "greater", "Number", 0, {
          child_filters: [item("filter:tasks:id", "less", "Number", 9), item("annotations:id", "equal", "Number", 2)],
        }),
      ),
    );
    expect(r.query?.filters?.items[0]?.children.map((c) => c.operator)).toEqual(["less"]);
    expect(brief(r.issues)).toEqual(["ignored filters.items[0].child_filters[1].filter"]);
  });

  test("an unprefixed column is never checked for traversal", () => {
    expect(brief(parseQueryBody(and(item("annotations__result", "equal", "String", "x"))).issues)).toEqual([
      "ignored filters.items[0].filter",
    ]);
  });
});

describe('"__" traversal → rejected (400)', () => {
  test("in a filter column, with the server's message", () => {
    const r = parseQueryBody(
      and(item("filter:tasks:id", "equal", "Number", 1), item("filter:tasks:updated_by__email", "equal", "String", "x")),
    );
    expect(r.query).toBeUndefined();
    const issue = r.issues[0];
    expect(issue?.path).toBe("filters.items[1].filter");
    expect(issue?.effect).toBe("rejected");
    expect(issue?.serverDetail).toBe(TRAVERSAL("updated_by__email"));
    expect(r.answer).toEqual({
      status: 400,
      detail: "Validation error",
      validationErrors: { non_field_errors: [TRAVERSAL("updated_by__email")] },
    });
  });

  test("in a child filter, after the prefix and a '-'", () => {
    const r = parseQueryBody(
      and(
        item("filter:tasks:id", "greater", "Number", 0, {
          child_filters: [item("filter:tasks:id", "less", "Number", 9), item("filter:tasks:-project__title", "equal", "String", "p")],
        }),
      ),
    );
    expect(r.issues[0]).toMatchObject({
      path: "filters.items[0].child_filters[1].filter",
      effect: "rejected",
      serverDetail: TRAVERSAL("project__title"),
    });
  });

  test("in every ordering key, not only the first", () => {
    const r = parseQueryBody({ ordering: ["tasks:id", "-tasks:-annotations__lead_time"] });
    expect(r.issues[0]).toMatchObject({ path: "ordering[1]", effect: "rejected", serverDetail: TRAVERSAL("annotations__lead_time") });
  });

  test("data.* keys and the allow-list may contain __ (then an unknown column is only evaluated)", () => {
    const r = parseQueryBody({
      ...and(item("filter:tasks:data.a__b", "equal", "String", "x"), item("filter:tasks:annotations__completed_by", "equal", "Number", 1)),
      ordering: ["tasks:updated_by__active_organization"],
    });
    expect(r.query).toBeDefined();
    expect(brief(r.issues)).toEqual(["evaluated ordering[0]", "evaluated filters.items[1].filter"]);
  });
});

describe("evaluated deviations (the server evaluates them; the engine reproduces what happens)", () => {
  test("an unknown operator acts as equal, a not_* one as not_equal", () => {
    expect(only(and(item("filter:tasks:id", "is", "Number", 1))).message).toBe(
      'filters.items[0].operator: expected a known operator (equal, not_equal, less, greater, less_or_equal, greater_or_equal, in, not_in, in_list, not_in_list, contains, not_contains, regex, empty, starts_with, ends_with, exists, not_exists); the server treats an unknown operator as equal, found string "is"',
    );
    expect(only(and(item("filter:tasks:id", "not_is", "Number", 1))).expected).toMatch(/treats an unknown operator as not_equal$/);
  });

  test("an operator the server lists but never implemented", () => {
    const issue = only(and(item("filter:tasks:file_upload", "not_exists", "String", "x")));
    expect(issue).toMatchObject({ path: "filters.items[0].operator", effect: "evaluated" });
    expect(issue.expected).toBe("an operator the server implements; it has no code for not_exists and treats it as not_equal");
  });

  test("an operator outside the column kind's catalog, at a child's path", () => {
    const issue = only(
      and(
        item("filter:tasks:id", "greater", "Number", 0, {
          child_filters: [item("filter:tasks:id", "less", "Number", 9), item("filter:tasks:id", "regex", "Number", "^1")],
        }),
      ),
    );
    expect(issue.message).toBe(
      'filters.items[0].child_filters[1].operator: expected an operator of tasks:id (equal, not_equal, less, greater, less_or_equal, greater_or_equal, in, not_in, in_list, not_in_list, empty), found string "regex"',
    );
  });

  test("in_list on a column outside the allow-list (the engine answers 400)", () => {
    const issue = only(and(item("filter:tasks:created_at", "in_list", "Datetime", ["2024-01-01T00:00:00.000Z"])));
    expect(issue).toMatchObject({ path: "filters.items[0].operator", effect: "evaluated" });
  });

  test("an unknown column (the engine answers 500)", () => {
    const issue = only(and(item("filter:tasks:nope", "equal", "String", "x")));
    expect(issue).toMatchObject({ path: "filters.items[0].filter", effect: "evaluated", found: 'string "filter:tasks:nope"' });
    expect(issue.expected).toMatch(/^a known column \(id, inner_id, .*\) or data\.<key>; the server answers 500 for any other$/);
  });

  test("an unknown type, and a type that does not match a known column", () => {
    expect(only(and(item("filter:tasks:data.x", "equal", "Text", "a"))).message).toBe(
      'filters.items[0].type: expected a type for a data column: Number, String, Unknown, Boolean, Image, Audio, AudioPlus, Video (known types: Number, Datetime, Boolean, String, List, Unknown, Image, Audio, AudioPlus, Video), found string "Text"',
    );
    expect(only(and(item("filter:tasks:data.x", "greater", "Datetime", "2024-01-01T00:00:00.000Z"))).path).toBe("filters.items[0].type");
    expect(only(and(item("filter:tasks:id", "equal", "String", 1))).message).toBe(
      'filters.items[0].type: expected "Number" (the type of tasks:id; the server casts the value by the filter\'s type), found string "String"',
    );
  });

  test("the column kind of a data.* filter comes from its type", () => {
    expect(parseQueryBody(and(item("filter:tasks:data.n", "in_list", "Number", [1, 2]))).issues).toEqual([]);
    expect(only(and(item("filter:tasks:data.n", "in_list", "Boolean", [true]))).path).toBe("filters.items[0].operator");
  });

  test("a value not of the kind's wire shape, at its exact path", () => {
    const r = parseQueryBody(
      and(
        item("filter:tasks:id", "equal", "Number", 1),
        item("filter:tasks:id", "equal", "Number", 2),
        item("filter:tasks:total_annotations", "greater", "Number", "5"),
      ),
    );
    expect(r.query?.filters?.items[2]?.value).toBe("5");
    expect(r.issues.map((i) => i.message)).toEqual([
      'filters.items[2].value: expected an integer, as the server truncates a fraction (greater on tasks:total_annotations), found string "5"',
    ]);
  });

  test("a Datetime not in the server's strptime form: the raw text is kept and reported", () => {
    const issue = only(and(item("filter:tasks:created_at", "greater", "Datetime", "2024-01-01T00:00:00+02:00")));
    expect(issue.message).toBe(
      'filters.items[0].value: expected a UTC datetime in the server\'s %Y-%m-%dT%H:%M:%S.%fZ form (e.g. "2024-01-31T23:59:59.000000Z"); the server\'s strptime refuses any other text and passes it on unparsed (greater on tasks:created_at), found string "2024-01-01T00:00:00+02:00"',
    );
    expect(only(and(item("filter:tasks:created_at", "less", "Datetime", "2024-01-01T00:00:00Z"))).path).toBe("filters.items[0].value");
    expect(parseQueryBody(and(item("filter:tasks:created_at", "less", "Datetime", "2024-01-01T00:00:00.1Z"))).issues).toEqual([]);
  });

  test("a bad range end is pointed at", () => {
    const issue = only(and(item("filter:tasks:updated_at", "in", "Datetime", { min: "2024-01-01T00:00:00.000000Z", max: "2024-02-01" })));
    expect(issue.path).toBe("filters.items[0].value.max");
    expect(only(and(item("filter:tasks:id", "not_in", "Number", { min: "1", max: 3 }))).path).toBe("filters.items[0].value.min");
  });

  test("extra keys in a range are dropped by the server", () => {
    const r = parseQueryBody(and(item("filter:tasks:id", "in", "Number", { min: 1, max: 3, step: 1 })));
    expect(r.query?.filters?.items[0]?.value).toEqual({ min: 1, max: 3 });
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'ignored filters.items[0].value.step: expected only "min" and "max" in a range (the server drops other keys), found number 1',
    ]);
  });

  test("empty with a string the server casts", () => {
    const issue = only(and(item("filter:tasks:completed_at", "empty", "Datetime", "True")));
    expect(issue.message).toBe('filters.items[0].value: expected a boolean (empty on tasks:completed_at), found string "True"');
  });

  test("unknown keys in filters and items are ignored", () => {
    const r = parseQueryBody({
      filters: { conjunction: "and", items: [item("filter:tasks:id", "equal", "Number", 1, { childFilters: [] })], comment: "x" },
    });
    expect(brief(r.issues)).toEqual(["ignored filters.items[0].childFilters", "ignored filters.comment"]);
  });
});

describe("ordering issues", () => {
  test("null or not a list → server-error", () => {
    const r = parseQueryBody({ ordering: null });
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      'server-error ordering: expected a list of ordering keys, e.g. ["-tasks:created_at"], found null',
    ]);
    expect(r.answer).toMatchObject({
      status: 500,
      detail:
        "1 validation error for PrepareParams\nordering\n  Input should be a valid list [type=list_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/list_type",
      exception: "pydantic_core._pydantic_core.ValidationError",
    });
    expect(brief(parseQueryBody({ ordering: "tasks:id" }).issues)).toEqual(["server-error ordering"]);
  });

  test("a key that is not a string", () => {
    const r = parseQueryBody({ ordering: ["tasks:id", 3] });
    expect(r.issues.map((i) => i.message)).toEqual(['ordering[1]: expected "tasks:<column>" or "-tasks:<column>", found number 3']);
  });

  test("an unknown first column, and a key without tasks:", () => {
    expect(brief(parseQueryBody({ ordering: ["tasks:nope"] }).issues)).toEqual(["evaluated ordering[0]"]);
    expect(parseQueryBody({ ordering: ["id"] }).issues.map((i) => i.message)).toEqual([
      'ordering[0]: expected "tasks:<column>" or "-tasks:<column>" (the server orders by the name without the prefix too), found string "id"',
    ]);
  });
});

describe("selectedItems issues", () => {
  const SHAPE = '{"all": [true|false], "excluded | included": [...task_ids...]}';

  test("a string that is not JSON → server-error with the server's detail", () => {
    const issue = only({ selectedItems: "all" });
    expect(issue).toMatchObject({
      path: "selectedItems",
      effect: "server-error",
      serverDetail: `selectedItems must be JSON encoded string for dict: ${SHAPE}. Found: all`,
    });
  });

  test("not a dict (null, a list, a number) → server-error naming the Python type", () => {
    expect(only({ selectedItems: [3, 4] }).serverDetail).toBe(
      `selectedItems must be dict: ${SHAPE}. Found type: <class 'list'> with value: [3, 4]`,
    );
    expect(only({ selectedItems: null }).serverDetail).toBe(
      `selectedItems must be dict: ${SHAPE}. Found type: <class 'NoneType'> with value: None`,
    );
    expect(only({ selectedItems: true }).serverDetail).toBe(
      `selectedItems must be dict: ${SHAPE}. Found type: <class 'bool'> with value: True`,
    );
  });

  test("a JSON string that decodes to a non-dict reaches pydantic; one holding null selects everything", () => {
    expect(only({ selectedItems: "[1]" })).toMatchObject({ path: "selectedItems", effect: "server-error" });
    expect(parseQueryBody({ selectedItems: "[1]" }).answer?.detail).toContain(
      "Input should be a valid dictionary or instance of SelectedItems [type=model_type",
    );
    const r = parseQueryBody({ selectedItems: "null" });
    expect(r.query).toEqual({});
    expect(brief(r.issues)).toEqual(["evaluated selectedItems"]);
  });

  test("missing all, or ids that are not integers → server-error", () => {
    const r = parseQueryBody({ selectedItems: { included: [1, "x", 2.5, null] } });
    expect(r.issues.map((i) => i.message)).toEqual([
      "selectedItems.all: expected true or false, found nothing (undefined)",
      'selectedItems.included[1]: expected an integer task id, found string "x"',
      "selectedItems.included[2]: expected an integer task id, found number 2.5",
      "selectedItems.included[3]: expected an integer task id, found null",
    ]);
    expect(r.answer?.detail).toBe(
      [
        "4 validation errors for PrepareParams",
        "selectedItems.all",
        "  Field required [type=missing, input_value={'included': [1, 'x', 2.5, None]}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.9/v/missing",
        "selectedItems.included.1",
        "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.9/v/int_parsing",
        "selectedItems.included.2",
        "  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=2.5, input_type=float]\n    For further information visit https://errors.pydantic.dev/2.9/v/int_from_float",
        "selectedItems.included.3",
        "  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.9/v/int_type",
      ].join("\n"),
    );
  });

  test("{all: false, included: []} → evaluated: the server selects every task", () => {
    const r = parseQueryBody({ selectedItems: { all: false, included: [] } });
    expect(r.query).toEqual({ selectedItems: { all: false, included: [] } });
    expect(r.issues.map((i) => `${i.effect} ${i.message}`)).toEqual([
      "evaluated selectedItems.included: expected at least one task id (the server reads {all: false, included: []} as every task), found array []",
    ]);
  });

  test("an all value pydantic cannot read", () => {
    expect(only({ selectedItems: { all: "maybe" } }).serverDetail).toContain(
      "Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value='maybe', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.9/v/bool_parsing",
    );
    expect(only({ selectedItems: { all: [] } }).serverDetail).toContain(
      "Input should be a valid boolean [type=bool_type, input_value=[], input_type=list]\n    For further information visit https://errors.pydantic.dev/2.9/v/bool_type",
    );
  });
});

describe("the root and the order of issues", () => {
  test("a body that is not an object", () => {
    for (const [body, type] of [
      [null, "NoneType"],
      [[], "list"],
      ["x", "str"],
    ] as const) {
      const r = parseQueryBody(body);
      expect(r.query).toBeUndefined();
      expect(r.issues.map((i) => `${i.effect} ${i.path}`)).toEqual(["server-error body"]);
      expect(r.answer).toMatchObject({ status: 500, detail: `'${type}' object has no attribute 'get'`, exception: "AttributeError" });
    }
  });

  test("the server's order decides the answer: selectedItems precheck, then traversal, then pydantic", () => {
    const body = {
      filters: { conjunction: "nor", items: [item("filter:tasks:a__b", "equal", "String", "x")] },
      ordering: ["tasks:id", 5],
      selectedItems: "not json",
    };
    const r = parseQueryBody(body);
    expect(brief(r.issues)).toEqual([
      "server-error selectedItems",
      "rejected filters.items[0].filter",
      "server-error ordering[1]",
      "server-error filters.conjunction",
    ]);
    expect(r.answer?.status).toBe(500);
    expect(r.answer?.detail).toMatch(/^selectedItems must be JSON encoded string/);
    const { selectedItems: _, ...rest } = body;
    expect(parseQueryBody(rest).answer).toEqual({
      status: 400,
      detail: "Validation error",
      validationErrors: { non_field_errors: [TRAVERSAL("a__b")] },
    });
  });

  test("evaluated and ignored issues alone leave the query and no answer", () => {
    const r = parseQueryBody({ ordering: ["tasks:id", "tasks:inner_id"], selectedItems: { all: false, included: [] } });
    expect(r.query).toBeDefined();
    expect(r.answer).toBeUndefined();
    expect(r.issues.every((i) => i.serverDetail === undefined)).toBe(true);
  });
});

describe("regex values of skipped items", () => {
  test("are kept aside: the server still compiles them before filtering", () => {
    const body = and(
      item("tasks:data.a", "regex", "String", "(", { child_filters: [item("filter:tasks:data.b", "regex", "String", "x+")] }),
      item("filter:tasks:id", "greater", "Number", 0, { child_filters: [item("data.c", "regex", "String", "[")] }),
      item("id", "equal", "Number", 1),
    );
    const { query } = parseQueryBody(body);
    expect(query?.filters?.skippedRegex).toEqual(["(", "x+", "["]);
    expect(query?.filters?.items).toHaveLength(1);
    expect(parseQueryBody(and(item("filter:tasks:id", "greater", "Number", 0))).query?.filters).not.toHaveProperty("skippedRegex");
  });
});
