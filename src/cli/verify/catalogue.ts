import { actions, actionIds, type ActionId, type ParamShape } from "../../vocabulary/actions.js";
import { columnKinds, dataKindByType, type ColumnKindName, type DataTypeName } from "../../vocabulary/column-kinds.js";
import { columnNames, columns } from "../../vocabulary/columns.js";
import { operatorNames, operators, type OperatorName } from "../../vocabulary/operators.js";
import type { ShapeName } from "../../vocabulary/value-shapes.js";
import { dataValues, FIXTURE_CONTROL, fixtureDataKeys, fixtureLabelConfig, fixtureTasks } from "./fixture.js";
import { ref } from "./refs.js";
import { samplesFor, type ColumnSource, type Sample } from "./samples.js";
import type { Area, Probe, Scenario, Trait } from "./scenario.js";
import type { Request } from "./target.js";
import { routeScenarios } from "./route-scenarios.js";
import { servedMethods } from "./coverage.js";

/**
 * The scenario catalogue, generated: the filter scenarios walk the vocabulary's column table, each
 * column's kind, the operators that kind allows and the value shapes they take; orderings walk the
 * same columns; actions walk the action table and their parameter shapes. Adding a column, an
 * operator or an action to the vocabulary adds its scenarios here with no other change.
 */
export function catalogue(): Scenario[] {
  return [
    ...filterScenarios(),
    ...offTableScenarios(),
    ...conjunctionScenarios(),
    ...childFilterScenarios(),
    ...orderingScenarios(),
    ...selectionScenarios(),
    ...viewScenarios(),
    ...actionScenarios(),
    ...errorScenarios(),
    ...responseScenarios(),
    ...routeScenarios(),
    { id: "values/dm-list", area: "values", traits: ["aggregate-text", "set-order"], probe: { kind: "values" } },
  ];
}

/** A filterable column as the catalogue walks it: a task column, or a data key under one filter type. */
export interface FilterColumn {
  readonly column: string;
  readonly type: string;
  readonly kind: ColumnKindName;
  readonly source: ColumnSource;
}

/** Types sent for data keys other than `text`: the ones with a kind of their own (Image, Audio… behave as String). */
const DATA_TYPES_FOR_EVERY_KEY: readonly DataTypeName[] = ["Number", "String", "Unknown", "Boolean"];

/** Every filterable column: each task column with its kind's type; each fixture data key under each data type. */
export function filterColumns(): FilterColumn[] {
  const out: FilterColumn[] = columnNames.map((name) => {
    const kind = columns[name].kind;
    return {
      column: name,
      type: columnKinds[kind].type,
      kind,
      source: { k: "column", name, enterprise: columns[name].edition === "enterprise" },
    };
  });
  for (const key of fixtureDataKeys) {
    const types = key === "text" ? (Object.keys(dataKindByType) as DataTypeName[]) : DATA_TYPES_FOR_EVERY_KEY;
    for (const type of types) out.push({ column: `data.${key}`, type, kind: dataKindByType[type], source: { k: "data", key } });
  }
  return out;
}

export interface FilterItem {
  readonly filter: string;
  readonly operator: string;
  readonly type: string;
  readonly value: unknown;
  readonly child_filter?: FilterItem;
  /** The plural form (servers from 1.23; 1.22 drops it). */
  readonly child_filters?: readonly FilterItem[];
}

export const item = (column: string, operator: string, type: string, value: unknown): FilterItem => ({
  filter: `filter:tasks:${column}`,
  operator,
  type,
  value,
});

const filtersQuery = (conjunction: "and" | "or", items: readonly FilterItem[]) => ({ filters: { conjunction, items } });

/** The JSON types a data key holds in the fixture. */
function dataTypesOf(key: string): Set<string> {
  return new Set(dataValues(key).map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)));
}

const CASE_INSENSITIVE: ReadonlySet<string> = new Set(["contains", "not_contains"]);
const EQUALITY: ReadonlySet<string> = new Set(["equal", "not_equal", "in_list", "not_in_list", "empty"]);

/** The environment-sensitive facts of one filter. */
function filterTraits(fc: FilterColumn, operator: string, sample: Sample): Trait[] {
  const traits = new Set<Trait>(sample.traits ?? []);
  if (!CASE_INSENSITIVE.has(operator)) traits.delete("text-case-unicode");
  if (fc.source.k === "data") {
    const key = fc.source.key;
    const types = dataTypesOf(key);
    if (types.has("null")) traits.add("data-json-null");
    const numeric = dataValues(key).every(
      (v) => v === null || typeof v === "number" || (typeof v === "string" && Number.isFinite(Number(v))),
    );
    if (fc.type === "Number" && !numeric) traits.add("data-non-numeric");
    if (EQUALITY.has(operator) && types.size > 1) traits.add("data-json-typed");
    if (CASE_INSENSITIVE.has(operator) && key === "text" && typeof sample.value === "string" && /[\u0080-\uffff]/.test(sample.value)) {
      traits.add("text-case-unicode");
    }
  }
  return [...traits];
}

/** Every (column, operator, value) of the vocabulary. */
export function filterScenarios(): Scenario[] {
  const out: Scenario[] = [];
  for (const fc of filterColumns()) {
    const ops = columnKinds[fc.kind].operators as Partial<Record<OperatorName, ShapeName>>;
    for (const [operator, shape] of Object.entries(ops) as [OperatorName, ShapeName][]) {
      for (const sample of samplesFor(fc.source, shape)) {
        out.push({
          id: `filters/${fc.column}/${fc.type}/${operator}/${sample.label}`,
          area: "filters",
          traits: filterTraits(fc, operator, sample),
          probe: { kind: "list", query: filtersQuery("and", [item(fc.column, operator, fc.type, sample.value)]) },
        });
      }
    }
  }
  return out;
}

/** A value of the operator's arity in the column's type, for operators the column does not offer. */
function offTableValue(type: string, operator: OperatorName): unknown {
  const scalar = type === "Number" ? 1 : type === "Datetime" ? "2024-01-01T00:00:00.000000Z" : type === "Boolean" ? true : "a";
  switch (operators[operator].arity) {
    case "range":
      return { min: scalar, max: scalar };
    case "list":
      return [scalar];
    case "flag":
      return true;
    default:
      return scalar;
  }
}

function offTableIdValue(one: unknown, operator: OperatorName): unknown {
  switch (operators[operator].arity) {
    case "range":
      return { min: one, max: one };
    case "list":
      return [one];
    case "flag":
      return true;
    default:
      return one;
  }
}

/** Every operator a column's kind does not offer, once per task column and once per data type (on `data.num`). */
export function offTableScenarios(): Scenario[] {
  const out: Scenario[] = [];
  for (const fc of filterColumns()) {
    if (fc.source.k === "data" && fc.source.key !== "num") continue;
    if (fc.source.k === "column" && fc.source.enterprise) continue;
    for (const operator of operatorNames) {
      if (Object.hasOwn(columnKinds[fc.kind].operators, operator)) continue;
      // Ids differ between the servers: an id column compares with a fixture task's, as each side numbered it.
      const id = fc.source.k === "column" && (fc.source.name === "id" || fc.source.name === "inner_id");
      const value = id
        ? offTableIdValue(fc.source.k === "column" && fc.source.name === "id" ? ref.task("t1") : ref.innerId("t1"), operator)
        : offTableValue(fc.type, operator);
      const sample: Sample = { value, label: "v" };
      out.push({
        id: `off-table/${fc.column}/${fc.type}/${operator}`,
        area: "off-table",
        traits: filterTraits(fc, operator, sample),
        probe: { kind: "list", query: filtersQuery("and", [item(fc.column, operator, fc.type, value)]) },
      });
    }
  }
  return out;
}

/** One plain filter per community column and per data key (its natural type): the first operator's first value. */
export function baseFilters(): { id: string; item: FilterItem; traits: Trait[] }[] {
  const natural: Record<string, string> = { text: "String", num: "Number", flag: "Boolean", tag: "String", mixed: "Unknown" };
  return filterColumns()
    .filter((fc) => (fc.source.k === "column" ? !fc.source.enterprise : natural[fc.source.key] === fc.type))
    .map((fc) => {
      const [operator, shape] = Object.entries(columnKinds[fc.kind].operators)[0] as [OperatorName, ShapeName];
      const sample = samplesFor(fc.source, shape)[0] as Sample;
      return {
        id: `${fc.column}:${operator}:${sample.label}`,
        item: item(fc.column, operator, fc.type, sample.value),
        traits: filterTraits(fc, operator, sample),
      };
    });
}

const union = (...lists: (readonly Trait[])[]): Trait[] => [...new Set(lists.flat())];

export function conjunctionScenarios(): Scenario[] {
  const base = baseFilters();
  const out: Scenario[] = [];
  for (const conjunction of ["and", "or"] as const) {
    base.forEach((a, i) => {
      const b = base[(i + 1) % base.length]!;
      const c = base[(i + 7) % base.length]!;
      out.push({
        id: `conjunctions/${conjunction}/${a.id}+${b.id}`,
        area: "conjunctions",
        traits: union(a.traits, b.traits),
        probe: { kind: "list", query: filtersQuery(conjunction, [a.item, b.item]) },
      });
      if (i % 3 === 0) {
        out.push({
          id: `conjunctions/${conjunction}/${a.id}+${b.id}+${c.id}`,
          area: "conjunctions",
          traits: union(a.traits, b.traits, c.traits),
          probe: { kind: "list", query: filtersQuery(conjunction, [a.item, b.item, c.item]) },
        });
      }
    });
    out.push({
      id: `conjunctions/${conjunction}/no-items`,
      area: "conjunctions",
      traits: [],
      probe: { kind: "list", query: filtersQuery(conjunction, []) },
    });
  }
  return out;
}

export function childFilterScenarios(): Scenario[] {
  const base = baseFilters();
  const out: Scenario[] = [];
  base.forEach((parent, i) => {
    const child = base[(i + 3) % base.length]!;
    const other = base[(i + 5) % base.length]!;
    const withChild: FilterItem = { ...parent.item, child_filter: child.item };
    for (const conjunction of ["and", "or"] as const) {
      out.push({
        id: `child-filters/${conjunction}/${parent.id}>${child.id}+${other.id}`,
        area: "child-filters",
        traits: union(parent.traits, child.traits, other.traits),
        probe: { kind: "list", query: filtersQuery(conjunction, [withChild, other.item]) },
      });
    }
  });
  // The plural key: servers before 1.23 read only child_filter and drop child_filters, so the child must narrow.
  out.push({
    id: "child-filters/plural-key",
    area: "child-filters",
    traits: [],
    probe: {
      kind: "list",
      query: filtersQuery("and", [
        { ...item("total_annotations", "greater", "Number", 0), child_filters: [item("data.num", "greater", "Number", 1)] },
      ]),
    },
  });
  const first = base[0]!;
  out.push({
    id: "child-filters/child-without-prefix",
    area: "child-filters",
    traits: first.traits,
    probe: { kind: "list", query: filtersQuery("and", [{ ...first.item, child_filter: { ...base[1]!.item, filter: "tasks:id" } }]) },
  });
  return out;
}

/** Ordering keys: every task column and every data key, both directions; data keys also numerically (a view's columnsDisplayType). */
export function orderingScenarios(): Scenario[] {
  const out: Scenario[] = [];
  const names = [...columnNames, ...fixtureDataKeys.map((k) => `data.${k}`)];
  for (const name of names) {
    const isData = name.startsWith("data.");
    const kind = isData ? undefined : columns[name as keyof typeof columns].kind;
    const textual = isData || kind === "text" || kind === "results" || kind === "annotationIds" || kind === "modelVersions";
    const traits: Trait[] = [];
    if (textual) traits.push("text-collation");
    if (isData && dataTypesOf(name.slice(5)).has("null")) traits.push("data-json-null");
    if (kind === "datetime") traits.push("timestamps");
    if (kind === "results" || kind === "annotationIds" || kind === "modelVersions") traits.push("aggregate-text");
    for (const sign of ["", "-"]) {
      out.push({
        id: `ordering/${sign}${name}`,
        area: "ordering",
        traits,
        probe: { kind: "list", query: { ordering: [`${sign}tasks:${name}`] }, orderedBy: name },
      });
      if (isData) {
        const numericTraits = union(
          traits.filter((t) => t !== "text-collation"),
          dataTypesOf(name.slice(5)).size > 1 ? ["data-non-numeric"] : [],
        );
        out.push({
          id: `ordering/${sign}${name}/as-number`,
          area: "ordering",
          traits: numericTraits,
          probe: {
            kind: "list",
            view: { title: "ordering", ordering: [`${sign}tasks:${name}`], columnsDisplayType: { [`tasks:${name}`]: "Number" } },
            orderedBy: name,
          },
        });
      }
    }
  }
  for (const spelling of ["filter:tasks:-total_annotations", "tasks:-total_annotations", "total_annotations"]) {
    out.push({
      id: `ordering/spelling/${spelling}`,
      area: "ordering",
      traits: [],
      probe: { kind: "list", query: { ordering: [spelling] }, orderedBy: "total_annotations" },
    });
  }
  out.push({
    id: "ordering/only-first-key-counts",
    area: "ordering",
    traits: [],
    probe: { kind: "list", query: { ordering: ["-tasks:total_predictions", "tasks:id"] }, orderedBy: "total_predictions" },
  });
  return out;
}

const tasksRef = (...keys: string[]) => keys.map((k) => ref.task(k));
const labeled = item("total_annotations", "greater", "Number", 0);

/** selectedItems shapes, alone, with a filter and with an ordering: on the list and through a read-only action. */
export function selectionScenarios(): Scenario[] {
  const selections: [string, unknown][] = [
    ["included", { all: false, included: tasksRef("t1", "t3", "t8") }],
    ["excluded", { all: true, excluded: tasksRef("t1", "t3", "t8") }],
    ["all", { all: true }],
    ["all-with-empty-excluded", { all: true, excluded: [] }],
    ["included-empty", { all: false, included: [] }],
    ["included-unknown-id", { all: false, included: [...tasksRef("t2"), 999999999] }],
    ["included-with-all-true", { all: true, included: tasksRef("t2") }],
    ["excluded-with-all-false", { all: false, excluded: tasksRef("t2") }],
  ];
  const out: Scenario[] = [];
  for (const [name, selectedItems] of selections) {
    out.push({ id: `selections/list/${name}`, area: "selections", traits: [], probe: { kind: "list", query: { selectedItems } } });
    out.push({
      id: `selections/list/${name}+filter+ordering`,
      area: "selections",
      traits: [],
      probe: {
        kind: "list",
        query: { selectedItems, filters: { conjunction: "and", items: [labeled] }, ordering: ["-tasks:id"] },
        orderedBy: "id",
      },
    });
    out.push({
      id: `selections/retrieve_tasks_predictions/${name}`,
      area: "selections",
      traits: [],
      probe: { kind: "action", action: "retrieve_tasks_predictions", body: { selectedItems } },
    });
  }
  return out;
}

/** Every base filter saved as a view, and views with an ordering, hidden columns, a selection and an or. */
export function viewScenarios(): Scenario[] {
  const out: Scenario[] = baseFilters().map((b) => ({
    id: `views/${b.id}`,
    area: "views" as const,
    traits: b.traits,
    probe: { kind: "list" as const, view: { title: "verify", filters: { conjunction: "and", items: [b.item] } } },
  }));
  const extras: [string, unknown, string?][] = [
    ["ordering", { title: "verify", ordering: ["-tasks:total_annotations"] }, "total_annotations"],
    [
      "or-and-ordering",
      { title: "verify", filters: { conjunction: "or", items: [labeled, item("data.num", "less", "Number", 0)] }, ordering: ["tasks:id"] },
      "id",
    ],
    ["hidden-columns", { title: "verify", hiddenColumns: { explore: ["tasks:data.text"], labeling: ["tasks:data.text"] } }],
    ["selected-items-ignored", { title: "verify", selectedItems: { all: false, included: tasksRef("t1") } }],
    ["empty-data", {}],
  ];
  for (const [name, data, orderedBy] of extras) {
    out.push({ id: `views/${name}`, area: "views", traits: [], probe: { kind: "list", view: data, ...(orderedBy ? { orderedBy } : {}) } });
  }
  return out;
}

/** A representative value per action parameter: by name where the name fixes its meaning, else by shape. */
const paramsByName: Readonly<Record<string, unknown>> = {
  control_tag: FIXTURE_CONTROL,
  custom_control_tag: "cached",
  old_label_name: "pos",
  new_label_name: "positive",
  column_name: "added",
  value: "x",
  source_annotation_id: ref.annotation("a1"),
  currentTaskId: ref.task("t1"),
  visibleTaskIds: [ref.task("t1")],
};
const paramsByShape: { readonly [S in ParamShape]: unknown } = {
  modelVersions: "m1",
  userId: ref.user(),
  integer: 1,
  string: "x",
  yesNo: "Yes",
  resultSource: "Annotations",
  valueType: "String",
  integers: [],
};

/** Every action of the table with its parameters, on three equal selections (ids included, ids excluded, a filter). */
export function actionScenarios(): Scenario[] {
  const selections: [string, Record<string, unknown>][] = [
    ["included", { selectedItems: { all: false, included: tasksRef("t1", "t3", "t5", "t9") } }],
    ["excluded", { selectedItems: { all: true, excluded: tasksRef("t1", "t2") } }],
    [
      "filter",
      { selectedItems: { all: true }, filters: { conjunction: "or", items: [labeled, item("data.tag", "equal", "String", "a")] } },
    ],
  ];
  const out: Scenario[] = [];
  for (const id of actionIds) {
    const spec = actions[id as ActionId];
    const params = Object.fromEntries(
      Object.entries(spec.params as Readonly<Record<string, { readonly shape: ParamShape }>>).map(([name, p]) => [
        name,
        Object.hasOwn(paramsByName, name) ? paramsByName[name] : paramsByShape[p.shape],
      ]),
    );
    for (const [name, selection] of selections) {
      out.push({
        id: `actions/${id}/${name}`,
        area: "actions",
        traits: [],
        probe: { kind: "action", action: id, body: { ...selection, ...params } },
      });
    }
  }
  out.push({
    id: "actions/delete_tasks/view",
    area: "actions",
    traits: [],
    probe: {
      kind: "action",
      action: "delete_tasks",
      body: {},
      view: { title: "verify", filters: { conjunction: "and", items: [labeled] } },
    },
  });
  return out;
}

// ---- malformed requests ----------------------------------------------------------------------

const list = (query: Record<string, string>): Request => ({ method: "GET", path: "/api/tasks/", query });
const P = "{project}";

/** A malformed Data Manager body: a field path of PrepareParams and what replaces it. */
const malformedBodies: readonly [string, unknown][] = [
  ["filters=null", { filters: null }],
  ["filters=string", { filters: "x" }],
  ["filters=list", { filters: [] }],
  ["filters=number", { filters: 1 }],
  ["filters=empty-object", { filters: {} }],
  ["filters.conjunction=xor", { filters: { conjunction: "xor", items: [] } }],
  ["filters.conjunction=missing", { filters: { items: [] } }],
  ["filters.conjunction=AND", { filters: { conjunction: "AND", items: [] } }],
  ["filters.items=missing", { filters: { conjunction: "and" } }],
  ["filters.items=object", { filters: { conjunction: "and", items: {} } }],
  ["filters.items[0]=string", { filters: { conjunction: "and", items: ["x"] } }],
  ...(["filter", "operator", "type", "value"] as const).map((field): [string, unknown] => {
    const { [field]: _, ...rest } = labeled;
    return [`filters.items[0].${field}=missing`, { filters: { conjunction: "and", items: [rest] } }];
  }),
  ["filters.items[0].value=null", { filters: { conjunction: "and", items: [{ ...labeled, value: null }] } }],
  ["filters.items[0].value=object", { filters: { conjunction: "and", items: [{ ...labeled, value: {} }] } }],
  ["filters.items[0].value=half-range", { filters: { conjunction: "and", items: [{ ...labeled, operator: "in", value: { min: 1 } }] } }],
  ["filters.items[0].value=not-a-number", { filters: { conjunction: "and", items: [{ ...labeled, value: "abc" }] } }],
  [
    "filters.items[0].value=bad-datetime",
    { filters: { conjunction: "and", items: [item("created_at", "greater", "Datetime", "2024-01-01")] } },
  ],
  ["filters.items[0].value=boolean-text", { filters: { conjunction: "and", items: [item("draft_exists", "equal", "Boolean", "yes")] } }],
  ["filters.items[0].filter=no-prefix", { filters: { conjunction: "and", items: [{ ...labeled, filter: "tasks:total_annotations" }] } }],
  ["filters.items[0].filter=unknown-column", { filters: { conjunction: "and", items: [{ ...labeled, filter: "filter:tasks:nope" }] } }],
  ["filters.items[0].type=unknown", { filters: { conjunction: "and", items: [{ ...labeled, type: "Foo" }] } }],
  ["filters.items[0].operator=unknown", { filters: { conjunction: "and", items: [{ ...labeled, operator: "nope" }] } }],
  ["ordering=string", { ordering: "tasks:id" }],
  ["ordering=number-item", { ordering: [1] }],
  ["ordering=unknown-column", { ordering: ["tasks:nope"] }],
  ["ordering=missing-data-key", { ordering: ["tasks:data.missing"] }],
  ["selectedItems=string", { selectedItems: "x" }],
  ["selectedItems=empty-object", { selectedItems: {} }],
  ["selectedItems.all=text", { selectedItems: { all: "yes" } }],
  ["selectedItems.included=strings", { selectedItems: { all: false, included: ["a"] } }],
  // pydantic's lax int reads "999999999" as an id (one no server has): no 500, and no task.
  ["selectedItems.included=numeric-strings", { selectedItems: { all: false, included: ["999999999"] } }],
];

export function errorScenarios(): Scenario[] {
  const out: Scenario[] = [];
  const add = (id: string, request: Request) =>
    out.push({ id: `errors/${id}`, area: "errors", traits: [], probe: { kind: "request", request, compare: "error" } });
  for (const [name, body] of malformedBodies) {
    add(`list/${name}`, list({ project: P, query: JSON.stringify(body) }));
    add(`action/${name}`, {
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "retrieve_tasks_predictions", project: P },
      body: { json: body },
    });
  }
  const listQueries: [string, Record<string, string>][] = [
    ["no-project", {}],
    ["unknown-project", { project: "999999999" }],
    ["project=abc", { project: "abc" }],
    ["unknown-view", { view: "999999999" }],
    ["query=not-json", { project: P, query: "{not json" }],
    ["query=list", { project: P, query: "[]" }],
    ["query=null", { project: P, query: "null" }],
    ["page=0", { project: P, page: "0" }],
    ["page=abc", { project: P, page: "abc" }],
    ["page=past-the-end", { project: P, page: "99" }],
    ["page_size=0", { project: P, page_size: "0" }],
    ["page_size=abc", { project: P, page_size: "abc" }],
    ["page_size=2&page=2", { project: P, page_size: "2", page: "2" }],
  ];
  for (const [name, query] of listQueries) add(`list/${name}`, list(query));
  const actionRequests: [string, Request][] = [
    ["unknown-action", { method: "POST", path: "/api/dm/actions/", query: { id: "nope", project: P }, body: { json: {} } }],
    ["no-action-id", { method: "POST", path: "/api/dm/actions/", query: { project: P }, body: { json: {} } }],
    [
      "unknown-project",
      { method: "POST", path: "/api/dm/actions/", query: { id: "retrieve_tasks_predictions", project: "999999999" }, body: { json: {} } },
    ],
    [
      "text-plain-body",
      {
        method: "POST",
        path: "/api/dm/actions/",
        query: { id: "retrieve_tasks_predictions", project: P },
        body: { raw: "{}", contentType: "text/plain" },
      },
    ],
    [
      "malformed-json",
      {
        method: "POST",
        path: "/api/dm/actions/",
        query: { id: "retrieve_tasks_predictions", project: P },
        body: { raw: "{bad", contentType: "application/json" },
      },
    ],
    [
      "json-array-body",
      { method: "POST", path: "/api/dm/actions/", query: { id: "retrieve_tasks_predictions", project: P }, body: { json: [1, 2] } },
    ],
    ["form-without-project", { method: "GET", path: "/api/dm/actions/delete_tasks_annotations/form/" }],
  ];
  for (const [name, request] of actionRequests) add(`action/${name}`, request);
  const resources: [string, string][] = [
    ["project", "/api/projects/999999999/"],
    ["task", "/api/tasks/999999999/"],
    ["annotation", "/api/annotations/999999999/"],
    ["prediction", "/api/predictions/999999999/"],
    ["view", "/api/dm/views/999999999/"],
    ["user", "/api/users/999999999/"],
  ];
  for (const [name, path] of resources) add(`not-found/${name}`, { method: "GET", path });
  const authPaths = [
    "/api/projects/",
    `/api/projects/${P}/`,
    "/api/tasks/",
    "/api/dm/views/",
    "/api/dm/actions/",
    "/api/current-user/whoami",
  ];
  for (const path of authPaths) add(`auth/wrong-key${path}`, { method: "GET", path, auth: "bad", query: { project: P } });
  // Without credentials, every method of every route the mock serves (from the route inventory).
  for (const { method, path } of servedMethods()) {
    add(`auth/none/${method} ${path}`, { method, path: path.replace(/\{[^{}]+\}/g, "999999999"), auth: "none", query: { project: P } });
  }
  const writes: [string, Request][] = [
    ["project/title-too-short", { method: "POST", path: "/api/projects/", body: { json: { title: "ab" } } }],
    [
      "project/bad-label-config",
      { method: "POST", path: "/api/projects/", body: { json: { title: "verify bad", label_config: "<View><Nope" } } },
    ],
    ["project/bad-color", { method: "PATCH", path: `/api/projects/${P}/`, body: { json: { color: "red" } } }],
    ["task/no-data", { method: "POST", path: "/api/tasks/", body: { json: { project: ref.project() } } }],
    ["task/data-not-object", { method: "POST", path: "/api/tasks/", body: { json: { project: ref.project(), data: [1] } } }],
    ["task/missing-config-key", { method: "POST", path: "/api/tasks/", body: { json: { project: ref.project(), data: { other: 1 } } } }],
    ["task/project-not-an-id", { method: "POST", path: "/api/tasks/", body: { json: { project: "first", data: { text: "x" } } } }],
    ["annotation/result-not-list", { method: "POST", path: "/api/tasks/{task:t1}/annotations/", body: { json: { result: "x" } } }],
    [
      "annotation/bad-was-cancelled",
      { method: "POST", path: "/api/tasks/{task:t1}/annotations/", query: { was_cancelled: "perhaps" }, body: { json: { result: [] } } },
    ],
    ["prediction/no-task", { method: "POST", path: "/api/predictions/", body: { json: { result: [] } } }],
    ["view/no-project", { method: "POST", path: "/api/dm/views/", body: { json: { data: {} } } }],
    ["import/not-a-list", { method: "POST", path: `/api/projects/${P}/import`, body: { json: "x" } }],
    ["import/item-not-object", { method: "POST", path: `/api/projects/${P}/import`, body: { json: [1] } }],
  ];
  for (const [name, request] of writes) add(`write/${name}`, request);
  return out;
}

/** Reads of every resource the mock serves: the key set and value types of each answer. */
export function responseScenarios(): Scenario[] {
  const reads: [string, string, Record<string, string>?][] = [
    ["whoami", "/api/current-user/whoami"],
    ["users", "/api/users/"],
    ["user", "/api/users/{user}/"],
    ["version", "/api/version"],
    ["projects", "/api/projects/", { ids: P }],
    ["project", `/api/projects/${P}/`],
    ["task", "/api/tasks/{task:t1}/"],
    ["task-unlabeled", "/api/tasks/{task:t5}/"],
    ["task-annotations", "/api/tasks/{task:t1}/annotations/"],
    ["annotation", "/api/annotations/{annotation:a1}/"],
    ["predictions", "/api/predictions/", { task: "{task:t1}" }],
    ["prediction", "/api/predictions/{prediction:p1}/"],
    ["views", "/api/dm/views/", { project: P }],
    ["view", "/api/dm/views/{view:v1}/"],
    ["actions", "/api/dm/actions/", { project: P }],
    ["dm-list", "/api/tasks/", { project: P }],
    ["dm-list-fields-all", "/api/tasks/", { project: P, fields: "all" }],
    ["dm-list-page", "/api/tasks/", { project: P, page: "2", page_size: "3" }],
  ];
  const out: Scenario[] = reads.map(([name, path, query]) => ({
    id: `responses/${name}`,
    area: "responses",
    traits: [],
    probe: { kind: "request", request: { method: "GET", path, ...(query ? { query } : {}) }, compare: "shape" },
  }));
  const result = [{ from_name: FIXTURE_CONTROL, to_name: "text", type: "choices", value: { choices: ["pos"] } }];
  const write = (name: string, method: Request["method"], path: string, json?: unknown) => ({
    name,
    request: { method, path, ...(json === undefined ? {} : { body: { json } }) },
  });
  out.push({
    id: "responses/writes",
    area: "responses",
    traits: [],
    probe: {
      kind: "writes",
      steps: [
        write("create project", "POST", "/api/projects/", { title: "dmq verify writes", label_config: fixtureLabelConfig }),
        write("update project", "PATCH", `/api/projects/${P}/`, { description: "verified" }),
        write("import", "POST", `/api/projects/${P}/import`, [
          { data: { text: "imported" }, annotations: [{ result }], predictions: [{ result }] },
        ]),
        write("create task", "POST", "/api/tasks/", { project: ref.project(), data: { text: "created" } }),
        write("update task", "PATCH", "/api/tasks/{task:t1}/", { meta: { checked: true } }),
        write("create annotation", "POST", "/api/tasks/{task:t5}/annotations/", { result, lead_time: 1.5 }),
        write("update annotation", "PATCH", "/api/annotations/{annotation:a1}/", { lead_time: 5 }),
        write("create prediction", "POST", "/api/predictions/", { task: ref.task("t5"), result, score: 0.5, model_version: "m1" }),
        write("update prediction", "PATCH", "/api/predictions/{prediction:p1}/", { score: 0.25 }),
        write("create view", "POST", "/api/dm/views/", { project: ref.project(), data: { title: "written" } }),
        write("update view", "PATCH", "/api/dm/views/{view:v1}/", { data: { title: "renamed", ordering: ["tasks:id"] } }),
        write("delete prediction", "DELETE", "/api/predictions/{prediction:p7}/"),
        write("delete annotation", "DELETE", "/api/annotations/{annotation:a8}/"),
        write("delete task", "DELETE", "/api/tasks/{task:t10}/"),
        write("delete view", "DELETE", "/api/dm/views/{view:v1}/"),
      ],
    },
  });
  for (const id of actionIds) {
    out.push({
      id: `responses/action-form/${id}`,
      area: "responses",
      traits: [],
      probe: { kind: "request", request: { method: "GET", path: `/api/dm/actions/${id}/form/`, query: { project: P } }, compare: "shape" },
    });
  }
  return out;
}

/** How many scenarios each area holds (for reports and the docs). */
export function countByArea(scenarios: readonly Scenario[]): Map<Area, number> {
  const counts = new Map<Area, number>();
  for (const s of scenarios) counts.set(s.area, (counts.get(s.area) ?? 0) + 1);
  return counts;
}

export type { Probe };
export const fixtureTaskCount = fixtureTasks.length;
