import type { Request } from "./target.js";

/**
 * The areas of the catalogue, in report order, each with what its scenarios compare. The report and
 * docs/verify.md list them from this table.
 */
export const areas = {
  filters: "every filterable column × every operator its type allows × representative values",
  "off-table": "operators a column's type does not offer (the server's fall-through, or its error)",
  conjunctions: "two and three filters joined by and / or",
  "child-filters": "a filter with a child filter (AND-merged with its parent)",
  ordering: "ordering by every orderable column, both directions (ties compared as groups)",
  selections: "selectedItems: included, excluded, all, alone and with filters",
  views: "saved views: created through the API, then listed by ?view=",
  actions: "every action on equal selections: the answer and the project's state after it",
  errors: "malformed requests, and every served route without credentials: status and error body (keys, value types, detail)",
  responses: "the key set and value types of every resource's responses",
  routes: "every other route the mock serves: success, main validation errors, writes and the read after them",
  values: "the Data Manager list's columns, task by task (fields=all)",
  ml: "ML backends registered with a model server the run starts: create, read, update, predict, train, versions, delete (one at a time)",
  accounts: "users, tokens, hotkeys, the organization and its members: the caller's own, written and read back (one at a time, last)",
} as const;
export type Area = keyof typeof areas;
export const areaNames = Object.keys(areas) as readonly Area[];

/**
 * Facts about a scenario that an environment difference may turn on (docs/mock-server.md#fidelity).
 * The generator sets them from the request and the fixture; the environment table names them.
 */
export const traits = {
  "text-case-unicode": "a case-insensitive text test whose value or data has non-ASCII letters",
  "text-like-wildcard": "a text test whose value holds LIKE's wildcards % or _",
  "regex-dialect": "a regex whose meaning differs between Python's re and PostgreSQL's ARE",
  "data-json-null": "a data key holding JSON null, cast or tested",
  "data-non-numeric": "a Number cast over a data key holding text, booleans, lists or objects",
  "data-json-typed": "an equality or emptiness test over a data key holding mixed JSON types",
  "text-collation": "an ordering over text (collation decides)",
  "results-text": "a text test over the JSON text of annotation or prediction results",
  "aggregate-text": "the rendering of an aggregate column (results, ids, model versions)",
  "set-order": "an order that comes from a Python set",
  timestamps: "timestamps compared across records made in one request",
  "in-list-blank": "an is-any-of list holding an empty string",
} as const;
export type Trait = keyof typeof traits;

/** How a scenario is run and compared. */
export type Probe =
  /** `GET /api/tasks/?project=…` (or `?view=`) with a `query` body: status, total and the tasks (ordered, ties as groups). */
  | {
      readonly kind: "list";
      readonly query?: unknown;
      /** A view made for the scenario (its `data`); listed by `?view=`. */
      readonly view?: unknown;
      /** The column the answer is ordered by, for tie groups (`data.num`, `created_at`, …). */
      readonly orderedBy?: string;
    }
  /**
   * Any request: status, then the body's keys and value types (and `detail` for errors); `values`
   * compares the body by value, ids and timestamps normalised (normaliseAnswer).
   */
  | ({ readonly kind: "request"; readonly request: Request; readonly compare: Compare } & Loosening)
  /**
   * An action on a project of its own: the answer, then the project's tasks, annotations and
   * predictions. `view`: the action runs on a view made for it.
   */
  | {
      readonly kind: "action";
      readonly action: string;
      readonly body: Readonly<Record<string, unknown>>;
      readonly view?: unknown;
    }
  /** The Data Manager list with `fields=all`: every column of every task, by value. */
  | { readonly kind: "values" }
  /**
   * Writes, in order, on a project of its own: each answer's status, keys and value types. A project
   * a step creates is deleted at once.
   */
  | {
      readonly kind: "writes";
      readonly steps: readonly Step[];
      /** `main`: the steps touch no task of the fixture (users, tokens, a project they make), so they run beside the main project, and no state is compared. */
      readonly fixture?: "copy" | "main";
    };

/** How two answers are compared: `error` and `shape` by keys and value types, `values` by value too. */
export type Compare = "error" | "shape" | "values";

/** What a comparison by value leaves aside, where the server itself does not decide one way. */
export interface Loosening {
  /** Arrays at these paths (`body`, `body.columns[3].schema.items`) compared as sets: the database orders them. */
  readonly unordered?: RegExp;
  /** Text removed from every string of both answers first (a project's title and id in a message). */
  readonly mask?: RegExp;
}

/** One request of a write scenario. */
export interface Step extends Loosening {
  readonly name: string;
  readonly request: Request;
  /** Keep the answer's `id` (or `field`) under this name, for later steps' `{made:<name>}`. */
  readonly capture?: { readonly name: string; readonly field?: string };
  /** Default `shape`. */
  readonly compare?: Compare;
}

export interface Scenario {
  /** Stable and readable: `filters/data.num/Number/less/0.5`. */
  readonly id: string;
  readonly area: Area;
  readonly traits: readonly Trait[];
  readonly probe: Probe;
  /**
   * Scenarios with the same key never run at the same time, whatever the area's workers: the server
   * shares something between them that the scenarios do not own. A key may hold a whole area (`accounts`,
   * `ml`) or a few scenarios (`one-step-export`); see route-scenarios.ts.
   */
  readonly serial?: string;
}
