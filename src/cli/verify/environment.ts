import type { Area, Trait } from "./scenario.js";
import type { Difference } from "./compare.js";

/**
 * Differences that come from the target's environment, not from the mock: the database the server
 * runs on (the mock follows PostgreSQL, as production servers do) or a server version older than
 * the serializers the mock follows. `dmq verify` reports a difference as environment only when a row
 * of this table explains it; docs/mock-server.md#fidelity renders the table from here.
 */
export type Database = "postgres" | "sqlite";
export const databases: readonly Database[] = ["postgres", "sqlite"];

export interface EnvironmentRow {
  /** Stable name, shown next to each difference it explains. */
  readonly id: string;
  /**
   * `database`: only on a target on that database; `before`: only on a server older than that
   * version; `dependency`: on any target, the library the server has installed decides.
   */
  readonly cause:
    | { readonly database: Database }
    | { readonly before: string }
    | { readonly dependency: string }
    /** dmq's own marker: the mock says it is one (clients tell it from a server by it). */
    | { readonly marker: string }
    /** On any target: what the server process did before (a cache it keeps) decides. */
    | { readonly process: string };
  /** The scenarios it may explain: any of these areas… */
  readonly areas?: readonly Area[];
  /** …whose scenario has one of these traits… */
  readonly traits?: readonly Trait[];
  /** …whose id matches… */
  readonly scenario?: RegExp;
  /** …and differences at a path that matches… */
  readonly path?: RegExp;
  /** …and, for two texts, that are equal once every match of this (a global pattern) is removed from both… */
  readonly equalAfter?: RegExp;
  /** …and where the target's value (a text, or its JSON) matches this, and the mock's that. */
  readonly target?: RegExp;
  readonly mock?: RegExp;
  /** What differs and why, in a sentence. */
  readonly reason: string;
  /** Where the server decides: file and function. */
  readonly server: string;
}

/**
 * The newest server sources the mock follows are on the 1.24 development line: a server older than
 * that may lack what they added. Each version row below was checked against both: the older server
 * answering one way, the newest sources another.
 */
export const NEWEST_SOURCES = "1.24";
const older = { before: NEWEST_SOURCES } as const;

export const environmentRows: readonly EnvironmentRow[] = [
  // ---- the mock's marker ---------------------------------------------------------------------------
  {
    id: "mock-marker",
    cause: { marker: "dmq_mock" },
    areas: ["responses", "errors"],
    scenario: /^(responses\/version|errors\/auth\/none\/GET \/api\/version\/)$/,
    path: /^body\.dmq_mock$/,
    target: /^absent$/,
    reason: "the mock's version answer says dmq_mock: true, by which dmq/testing and other clients tell the mock from a server",
    server: "(none: no server sends it)",
  },
  {
    id: "version-template-context",
    cause: { process: "cached versions" },
    path: /^body\.(lsf|dm2|backend)$/,
    target: /^absent$/,
    reason:
      "the server caches its version answer for 300 s; lsf, dm2 and backend are added to that cache by the template " +
      "context processor, so they are there only once the server rendered an HTML page (a 404 page) since it last " +
      "collected the versions; the mock always sends them",
    server: "collect_versions (label_studio/core/utils/common.py), settings (label_studio/core/context_processors.py)",
  },
  {
    id: "emptied-model-signals",
    cause: { process: "emptied model signals" },
    areas: ["ml", "routes"],
    scenario: /^(ml\/prediction-counter|routes\/model-versions\/delete)$/,
    // A fresh server counts 2 where a process without its receivers still counts 3 (the count before the delete) and
    // filters 0 tasks; a mock that recounted would say 1 or 0 against a fresh server's 2, which this does not match.
    path: /^body(\[\d+\]\.total_predictions|\.tasks\.length)$/,
    target: /^(3|0)$/,
    mock: /^2$/,
    reason:
      "a project delete empties the model signals' receivers while it runs, and Django caches each model's receivers " +
      "at first use: a server process that deleted a project holding predictions before it looked up Prediction's " +
      "pre_delete receivers (or since a task delete cleared that cache) caches none, and deleting predictions no " +
      "longer moves total_predictions; a fresh process counts n − 1 like the mock",
    server:
      "ProjectAPI.perform_destroy (label_studio/projects/api.py), temporary_disconnect_all_signals (label_studio/core/utils/common.py), " +
      "Signal._live_receivers (django/dispatch/dispatcher.py)",
  },
  // ---- libraries ---------------------------------------------------------------------------------
  {
    id: "pydantic-docs-link",
    cause: { dependency: "pydantic" },
    path: /^body\.detail$/,
    equalAfter: /errors\.pydantic\.dev\/\d+\.\d+\//g,
    reason:
      "pydantic links each validation error to its documentation under its own major.minor version; the mock names 2.9, " +
      "the version Label Studio 1.22 pins, a server with another pydantic names its own",
    server: "pydantic-core ValidationError.__str__, raised by PrepareParams (label_studio/data_manager/prepare_params.py)",
  },
  {
    id: "postgres-statement-context",
    cause: { database: "postgres" },
    path: /^body\.detail$/,
    equalAfter: /\n(LINE \d+:|HINT: |DETAIL: )[\s\S]*/g,
    reason:
      "psycopg's error text goes on after the message with the statement Django generated (LINE n: …, a caret, HINT, " +
      "DETAIL); the mock runs no SQL and reports the message line, which must match",
    server: "str() of the psycopg error, reported by custom_exception_handler (label_studio/core/utils/common.py)",
  },
  {
    id: "aggregate-element-order",
    cause: { database: "postgres" },
    areas: ["ordering"],
    scenario: /^ordering\/-?(predictions_model_versions|annotations_results|predictions_results|annotators|annotations_ids)$/,
    path: /^tasks$/,
    reason:
      "ordering by an aggregate column compares arrays element by element, and ArrayAgg without ORDER BY lists the " +
      "joined rows in the order the query plan reads them; the mock lists them by id",
    server: "annotate_* ArrayAgg (label_studio/data_manager/managers.py), apply_ordering",
  },
  {
    id: "numeric-order-probe",
    cause: { database: "postgres" },
    areas: ["ordering"],
    scenario: /\/as-number$/,
    path: /^status$/,
    target: /^500 invalid input syntax for type double precision: /,
    reason:
      "a view that orders a data key as a number first probes the cast with queryset.first(); whether Postgres casts " +
      "every row for that probe or only the first one depends on the query plan, and when the probe passes, ordering " +
      "the whole list fails on a value that does not cast (the mock falls back to text, as a failing probe does)",
    server: "apply_ordering, numeric_ordering_applied (label_studio/data_manager/managers.py)",
  },
  // ---- SQLite: Django's SQLite backend and the server's SQLite branches (the mock follows Postgres) ---------
  {
    id: "sqlite-number-cast",
    cause: { database: "sqlite" },
    areas: ["filters", "off-table", "conjunctions", "child-filters", "views", "ordering"],
    traits: ["data-non-numeric"],
    reason:
      "a Number filter casts the data key to a float: SQLite's CAST reads the leading number of any text and 0.0 when " +
      "there is none (booleans are 1 and 0), where Postgres refuses the text (invalid input syntax for type double precision)",
    server: "apply_filters, Cast(KeyTextTransform(…), FloatField()) (label_studio/data_manager/managers.py), on Django's SQLite backend",
  },
  {
    id: "sqlite-number-cast-order",
    cause: { database: "sqlite" },
    areas: ["ordering"],
    scenario: /\/as-number$/,
    reason:
      "a view that orders a data key as a number casts it to a float: on SQLite every text that is no number casts to 0.0, " +
      "so those tasks tie and keep the table's order; Postgres fails the cast and the view orders the key as text",
    server: "apply_ordering, numeric_ordering_applied (label_studio/data_manager/managers.py), on Django's SQLite backend",
  },
  {
    id: "sqlite-json-values",
    cause: { database: "sqlite" },
    areas: ["filters", "off-table", "conjunctions", "child-filters", "views", "ordering"],
    traits: ["data-json-null", "data-json-typed"],
    reason:
      "a data key is read with JSON_EXTRACT on SQLite: a JSON null casts to 0.0 and so takes part in number ranges and " +
      'orderings, and a JSON boolean compares as the text true/false (equal to the string "true"); Postgres\'s ->> gives ' +
      "SQL NULL for a JSON null and keeps JSON types apart",
    server:
      "KeyTextTransform and KeyTransform in apply_filters and apply_ordering (label_studio/data_manager/managers.py), Django's SQLite JSONField",
  },
  {
    id: "sqlite-like-ascii",
    cause: { database: "sqlite" },
    traits: ["text-case-unicode"],
    reason:
      "contains is icontains, SQLite's LIKE, which folds case for ASCII letters only (äpfel does not match ÄPFEL); " +
      "Postgres compares UPPER() of both sides, which folds every letter",
    server:
      "apply_filters, operators contains → __icontains (label_studio/data_manager/managers.py); Django's SQLite operators['icontains']",
  },
  {
    id: "sqlite-regex-python",
    cause: { database: "sqlite" },
    traits: ["regex-dialect"],
    reason:
      "regex is Django's REGEXP, which on SQLite calls Python's re.search; Postgres runs its own ARE dialect, where " +
      "[[:alpha:]], \\m and \\M mean something else",
    server: "apply_filters, operator regex → __regex (label_studio/data_manager/managers.py); Django's SQLite _sqlite_regexp",
  },
  {
    id: "sqlite-regex-non-text",
    cause: { database: "sqlite" },
    areas: ["off-table"],
    scenario: /\/regex$/,
    reason:
      "regex on a number, a boolean or a timestamp: on SQLite Python's re.search gets the value itself and fails on a number " +
      "(a 500 user-defined function raised exception) or reads a timestamp's stored text; Postgres has no ~ operator for those types",
    server: "apply_filters, operator regex (label_studio/data_manager/managers.py); Django's SQLite _sqlite_regexp",
  },
  {
    id: "sqlite-like-float-text",
    cause: { database: "sqlite" },
    areas: ["off-table"],
    scenario: /^off-table\/avg_lead_time\/Number\/(not_)?contains$/,
    reason:
      "contains on an average is LIKE over the float's text, with the value cast to a float first (1 → 1.0): SQLite writes " +
      "an average of 1 as 1.0, Postgres's float8 as 1",
    server: "annotate_avg_lead_time (Avg), apply_filters contains → __icontains (label_studio/data_manager/managers.py)",
  },
  {
    id: "sqlite-results-text",
    cause: { database: "sqlite" },
    traits: ["results-text"],
    reason:
      "a text test over results reads the stored JSON text on SQLite (keys in the order they were written), with LIKE's " +
      "ASCII case folding; on Postgres it reads jsonb's text (its own key order), case by case as the mock does",
    server:
      "annotate_annotations_results, annotate_predictions_results (GroupConcat on SQLite, ArrayAgg on Postgres) and apply_filters (label_studio/data_manager/managers.py)",
  },
  {
    id: "sqlite-aggregate-text",
    cause: { database: "sqlite" },
    areas: ["values"],
    traits: ["aggregate-text", "set-order"],
    reason:
      "the aggregate columns are GROUP_CONCAT on SQLite: one comma-joined text over every joined row (results repeat once " +
      "per row of the other join, no DISTINCT), the stored JSON with its quotes stripped, model versions as m1,m2; " +
      "Postgres lists distinct jsonb values and m1, m2",
    server:
      "annotate_annotations_results, annotate_predictions_results, annotate_predictions_model_versions (label_studio/data_manager/managers.py), DataManagerTaskSerializer",
  },
  {
    id: "sqlite-aggregate-lookups",
    cause: { database: "sqlite" },
    areas: ["off-table"],
    scenario: /^off-table\/(annotations_results|predictions_results|predictions_model_versions)\//,
    path: /^status$/,
    target: /^200 /,
    reason:
      "results and model versions are GROUP_CONCAT text on SQLite, so any text lookup runs on them (greater, in, starts_with…); " +
      "on Postgres they are arrays, and the lookup fails (malformed array literal) or the newest sources refuse it",
    server:
      "annotate_annotations_results, annotate_predictions_results, annotate_predictions_model_versions (label_studio/data_manager/managers.py)",
  },
  {
    id: "sqlite-collation",
    cause: { database: "sqlite" },
    areas: ["ordering"],
    traits: ["text-collation"],
    reason:
      "SQLite orders text by its bytes (the BINARY collation: upper case before lower case, ASCII before the rest) and the " +
      "aggregate columns as comma-joined text; Postgres orders by the database's collation (en_US.UTF-8) and arrays element by element",
    server: "apply_ordering (label_studio/data_manager/managers.py), on the database's collation",
  },
  {
    id: "sqlite-aggregate-order",
    cause: { database: "sqlite" },
    areas: ["ordering"],
    scenario: /^ordering\/-?(annotators|annotations_results|predictions_results|predictions_model_versions|annotations_ids)$/,
    reason:
      "ordering by an aggregate column on SQLite orders its GROUP_CONCAT text, where a task without rows has an empty text " +
      "and comes first; on Postgres a task without rows has [NULL], which sorts after every array",
    server: "annotate_* (GroupConcat on SQLite), apply_ordering (label_studio/data_manager/managers.py)",
  },
  {
    id: "sqlite-add-data-field",
    cause: { database: "sqlite" },
    areas: ["actions"],
    scenario: /^actions\/add_data_field\//,
    reason:
      "the older add_data_field sets task.data[value_name] in Python on SQLite, so without a value_name it writes a key " +
      "named null; on Postgres it calls jsonb_set, which refuses the null path element (a 500)",
    server: "add_data_field, its SQLite branch (label_studio/data_manager/actions/experimental.py)",
  },
  {
    id: "sqlite-data-columns-order",
    cause: { database: "sqlite" },
    areas: ["routes"],
    scenario: /^routes\/dm-columns$/,
    path: /^body\.columns\[\d+\]\.(id|title|children\[\d+\])$/,
    reason:
      "the Data Manager lists the imported data keys in the order of the project summary's all_data_columns: a JSON text " +
      "on SQLite keeps the order the keys were first imported in, where Postgres's jsonb orders keys shortest first",
    server:
      "ProjectSummary.update_data_columns (label_studio/projects/models.py), get_all_columns (label_studio/data_manager/functions.py)",
  },
  // ---- versions: what the newest sources added ---------------------------------------------------
  {
    id: "project-evaluation-and-state",
    cause: older,
    areas: ["responses", "routes", "ml"],
    path: /\.(annotator_evaluation_enabled|state)$/,
    target: /^absent$/,
    reason: "a project has annotator_evaluation_enabled and state (the FSM state) in the newest ProjectSerializer only",
    server: "ProjectSerializer.Meta.fields (label_studio/projects/serializers.py)",
  },
  {
    id: "user-simple-username",
    cause: older,
    areas: ["responses"],
    path: /\.created_by\.username$/,
    target: /^absent$/,
    reason: "a project's created_by carries username in the newest UserSimpleSerializer only",
    server: "UserSimpleSerializer.Meta.fields (label_studio/users/serializers.py)",
  },
  {
    id: "view-locks",
    cause: older,
    areas: ["responses", "routes"],
    path: /\.(locked_by|is_locked|locked_at)$/,
    target: /^absent$/,
    reason: "views can be locked in the newest sources only (is_locked, locked_by, locked_at)",
    server: "ViewSerializer (label_studio/data_manager/serializers.py), get_locked_by",
  },
  {
    id: "child-filters-plural",
    cause: older,
    areas: ["child-filters"],
    scenario: /^child-filters\/plural-key$/,
    path: /^(total|tasks)$/,
    reason:
      "the newest sources read a filter's children from child_filters (a list, with child_filter as its legacy form); older " +
      "servers read one child_filter and drop child_filters unread, so the line selects as if it had no child (dmq sends one child as child_filter)",
    server:
      "Filter.child_filter (label_studio/data_manager/prepare_params.py) and apply_filters (managers.py); newer: Filter.child_filters, normalize_child_filters",
  },
  {
    id: "view-child-filters",
    cause: older,
    areas: ["responses", "routes"],
    path: /\.filters\.items\[\d+\]\.child_filters$/,
    target: /^absent$/,
    reason: "a saved view's filter items list their child_filters in the newest ViewSerializer only (older servers keep one child_filter)",
    server: "ViewSerializer.to_representation, FilterSerializer (label_studio/data_manager/serializers.py)",
  },
  {
    id: "whoami-permissions",
    cause: older,
    areas: ["responses"],
    path: /^body\.permissions$/,
    target: /^absent$/,
    reason: "whoami lists the caller's permissions in the newest sources only",
    server: "BaseWhoAmIUserSerializer.get_permissions (label_studio/users/serializers.py)",
  },
  {
    id: "dm-annotator-objects",
    cause: older,
    areas: ["responses", "values", "routes"],
    path: /annotators\[\d+\]$/,
    reason: "the Data Manager lists annotators as objects (user_id, annotated, review, …) in the newest sources, as ids before",
    server: "DataManagerTaskSerializer.get_annotators (label_studio/data_manager/serializers.py)",
  },
  {
    id: "delete-annotations-permission",
    cause: older,
    areas: ["responses"],
    scenario: /^responses\/actions$/,
    path: /^body\[\d+\]\.permission$/,
    target: /^string$/,
    reason: "delete_tasks_annotations needs tasks.change and annotations.delete in the newest sources, tasks.delete before",
    server: "actions list of label_studio/data_manager/actions/basic.py",
  },
  {
    id: "user-filter-validation",
    cause: older,
    areas: ["filters", "off-table"],
    scenario: /\/(annotators|updated_by|reviewers|comment_authors|skipped_by_annotator)\//,
    path: /^status$/,
    mock: /^400 /,
    reason:
      "the newest sources refuse an operator a user column does not take, and a list with any other operator than " +
      "contains/not_contains, with a 400; older servers try the lookup (a 500, or an answer)",
    server: "validate_user_filter_operator (label_studio/data_manager/managers.py, FIT-2435)",
  },
  {
    id: "user-filter-id-lists",
    cause: older,
    areas: ["filters", "conjunctions", "child-filters", "views"],
    path: /^status$/,
    target: /^500 int\(\) argument must be a string, a bytes-like object or a real number, not 'list'/,
    reason: "annotators and updated_by take a list of user ids in the newest sources; older servers cast the value with int()",
    server: "parse_user_filter_ids, add_user_filter (label_studio/data_manager/managers.py, FIT-2253)",
  },
  {
    id: "in-list-validation",
    cause: older,
    areas: ["off-table"],
    scenario: /\/(in_list|not_in_list)$/,
    path: /^status$/,
    mock: /^400 /,
    reason:
      "the newest sources allow is-any-of only on ids, counters and data keys, and refuse it elsewhere with a 400; " +
      "older servers run the lookup",
    server: "validate_in_list_filter (label_studio/data_manager/managers.py, BROS-1203)",
  },
  {
    id: "in-list-blanks",
    cause: older,
    areas: ["filters"],
    traits: ["in-list-blank"],
    path: /^(tasks|total)$/,
    reason: "the newest sources drop blank strings from an is-any-of list; older servers compare them",
    server: "_normalize_in_list_value (label_studio/data_manager/managers.py, BROS-1203)",
  },
  {
    id: "stale-agreement-field",
    cause: older,
    scenario: /\/-?agreement(\/|$)/,
    path: /^status$/,
    target: /^500 Cannot resolve keyword 'agreement'/,
    reason: "the newest sources skip an agreement column the server cannot compute; older servers answer Django's FieldError",
    server: "_is_stale_agreement_field, apply_filters, apply_ordering (label_studio/data_manager/managers.py)",
  },
  {
    id: "annotation-id-filter",
    cause: older,
    scenario: /annotations_ids/,
    path: /^status$/,
    target:
      /^500 (expected string or bytes-like object, got '(int|list)'|'int' object has no attribute 'isdigit'|Field 'id' expected a number but got )/,
    reason:
      "the newest sources read annotation ids given as a number, a list or text; older servers split and test the value " + "as text only",
    server: "annotation_id_filter_q (label_studio/data_manager/managers.py); before it, the annotations_ids branch of apply_filters",
  },
  {
    id: "line-without-prefix",
    cause: older,
    path: /^status$/,
    target: /^500 reduce\(\) of empty iterable with no initial value$/,
    reason:
      "a filter line left with nothing to test (its filter lacks filter:tasks:) drops out in the newest sources; older servers fail on it",
    server: "apply_filters, filter_line_expressions (label_studio/data_manager/managers.py)",
  },
  {
    id: "not-supported-filter-type",
    cause: older,
    path: /^status$/,
    target: /^500 Not supported filter type$/,
    mock: /^400 /,
    reason:
      "an equality on a list column is refused with a 400 (a DRF ValidationError) in the newest sources, a 500 (a bare Exception) before",
    server: "apply_filters, 'Not supported filter type' (label_studio/data_manager/managers.py)",
  },
  {
    id: "action-ordering-dropped",
    cause: older,
    areas: ["errors"],
    scenario: /^errors\/action\/ordering=/,
    path: /^status$/,
    target: /^500 Cannot resolve keyword /,
    mock: /^200 /,
    reason:
      "an action's queryset drops the ordering in the newest sources (but for next_task and remove_duplicates); older servers order it, and fail on an unknown column",
    server: "ProjectActionsAPI.post, get_prepared_queryset (label_studio/data_manager/api.py, functions.py)",
  },
  {
    id: "datetime-cast-lenient",
    cause: older,
    path: /^status$/,
    target: /^500 time data '.*' does not match format '%Y-%m-%dT%H:%M:%S\.%fZ'$/,
    mock: /^200 /,
    reason:
      "a Datetime value strptime cannot read is passed on as it is in the newest sources (Django reads a date alone); " +
      "older servers fail on it",
    server: "cast_value (label_studio/data_manager/managers.py)",
  },
  {
    id: "add-data-field-form",
    cause: older,
    areas: ["responses"],
    scenario: /^responses\/action-form\/add_data_field$/,
    reason: "add_data_field had a form (value_name, value_type, value) before the newest sources made it a hidden action",
    server: "add_data_field_form, actions of label_studio/data_manager/actions/experimental.py",
  },
  {
    id: "add-data-field",
    cause: older,
    scenario: /^actions\/add_data_field\//,
    path: /^status$/,
    target: /^500 path element at position 1 is null$/,
    mock: /^403 /,
    reason:
      "add_data_field takes column_name and is off unless the organization enables it in the newest sources; older servers " +
      "read value_name and fail without it",
    server: "add_data_field (label_studio/data_manager/actions/experimental.py)",
  },
];

/** What the target is, for matching rows. */
export interface Environment {
  readonly database: Database;
  /** The target's `release` (GET /api/version), e.g. "1.22.0.dev0". */
  readonly version: string;
}

/** `1.22.0.dev0` < `1.23`: numeric parts, a pre-release suffix sorts before its release. */
export function versionBefore(version: string, before: string): boolean {
  const parts = (v: string) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const a = parts(version),
    b = parts(before);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    // A missing part is 0 against a number ("1.23" = "1.23.0"); a text part is a pre-release, below its release.
    const x = a[i] ?? (typeof b[i] === "number" ? 0 : undefined),
      y = b[i] ?? (typeof a[i] === "number" ? 0 : undefined);
    if (x === y) continue;
    if (x === undefined) return false;
    if (y === undefined) return true;
    if (typeof x === "number" && typeof y === "number") return x < y;
    if (typeof x === "number") return false;
    if (typeof y === "number") return true;
    return x < y;
  }
  return false;
}

/** The row that explains one difference of a scenario on this environment, if any. */
export function explain(
  env: Environment,
  scenario: { readonly id: string; readonly area: Area; readonly traits: readonly Trait[] },
  difference: Difference,
  rows: readonly EnvironmentRow[] = environmentRows,
): EnvironmentRow | undefined {
  return rows.find(
    (row) =>
      applies(row.cause, env) &&
      (row.areas === undefined || row.areas.includes(scenario.area)) &&
      (row.traits === undefined || row.traits.some((t) => scenario.traits.includes(t))) &&
      (row.scenario === undefined || row.scenario.test(scenario.id)) &&
      (row.path === undefined || row.path.test(difference.path)) &&
      (row.equalAfter === undefined || equalAfter(difference, row.equalAfter)) &&
      (row.target === undefined || row.target.test(textOf(difference.target))) &&
      (row.mock === undefined || row.mock.test(textOf(difference.mock))),
  );
}

const textOf = (v: unknown): string => (typeof v === "string" ? v : (JSON.stringify(v) ?? "undefined"));

function applies(cause: EnvironmentRow["cause"], env: Environment): boolean {
  if ("database" in cause) return cause.database === env.database;
  if ("before" in cause) return versionBefore(env.version, cause.before);
  return true;
}

function equalAfter(d: Difference, pattern: RegExp): boolean {
  if (typeof d.target !== "string" || typeof d.mock !== "string") return false;
  return d.target.replace(pattern, "") === d.mock.replace(pattern, "");
}
