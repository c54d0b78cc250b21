import type { JsonValue } from "../vocabulary/json.js";

/**
 * The Query value: plain, frozen data that the builder produces, the wire layer serialises and
 * parses, and the semantics engine evaluates. It mirrors the documented body with the server's
 * normalisations applied: prefixes stripped from columns, `child_filter` folded into `children`,
 * ordering keys split into column and direction, `selectedItems` decoded.
 */
export interface ConditionNode {
  /** The column after `filter:tasks:`, e.g. `completed_at` or `data.score`. */
  readonly column: string;
  /** The wire operator. The builder only produces implemented ones; a parsed body may hold any string. */
  readonly operator: string;
  /** The wire `type` (drives the server's casting). */
  readonly type: string;
  readonly value: JsonValue;
  /** AND-ed with this condition to form one filter line (the server's `child_filters`; one level only). */
  readonly children: readonly ConditionNode[];
}

/** How the lines of a filter set combine. */
export type Conjunction = "and" | "or";

/** A filter set: its conjunction and its lines. */
export interface FiltersNode {
  readonly conjunction: Conjunction;
  /** Each item and its children form one line; lines are combined with `conjunction`. */
  readonly items: readonly ConditionNode[];
  /**
   * `regex` values of items the server skips (no `filter:tasks:` prefix). It still compiles every
   * regex before filtering, so one it cannot compile empties the result
   * (docs/reference/filters.md#lines-and-the-conjunction). Only a parsed body has them; the builder
   * never writes unprefixed items.
   */
  readonly skippedRegex?: readonly JsonValue[];
}

/** The one ordering key the server uses: a column and a direction. */
export interface OrderingNode {
  /** The column after `tasks:` (without direction marker), e.g. `created_at`, `data.text`. */
  readonly column: string;
  readonly descending: boolean;
}

/** Which tasks of the filtered set an action or list takes: all but some, or only some. */
export type SelectedItemsNode =
  | { readonly all: true; readonly excluded: readonly number[] }
  | { readonly all: false; readonly included: readonly number[] };

/** The plain, immutable value a selection stands for; `toBody` writes it as the server's JSON. */
export interface QueryNode {
  readonly filters?: FiltersNode;
  /** Only the first key is used by the server; the builder writes at most one. */
  readonly ordering?: readonly OrderingNode[];
  readonly selectedItems?: SelectedItemsNode;
  /** `data.columnsDisplayType` of a view (or an inline body): makes `data.*` ordering numeric. */
  readonly columnsDisplayType?: Readonly<Record<string, string>>;
}

/** The documented request body of a Data Manager action (and the `query` of the task list). */
export interface QueryBody {
  filters?: {
    conjunction: Conjunction;
    items: FilterItemBody[];
  };
  ordering?: string[];
  selectedItems?: { all: true; excluded: number[] } | { all: false; included: number[] };
  columnsDisplayType?: Record<string, string>;
}

/** One item of `filters.items` as the server reads it. */
export interface FilterItemBody {
  filter: string;
  operator: string;
  type: string;
  value: JsonValue;
  /** One child: the form every server reads (docs/reference/filters.md#one-child-or-several). */
  child_filter?: FilterItemBody;
  /** Several children: only servers from 1.23 on read this key; 1.22 drops it unread. */
  child_filters?: FilterItemBody[];
}

/** The prefix of every filter column: `filter:tasks:<column>`. */
export const FILTER_PREFIX = "filter:tasks:";
/** The prefix of every ordering key: `tasks:<column>` (or `-tasks:<column>`). */
export const ORDER_PREFIX = "tasks:";

/** The `POST /api/dm/actions/` request a selection stands for. */
export interface ActionRequest {
  readonly method: "POST";
  readonly path: string;
  readonly query: { readonly id: string; readonly project: number; readonly view?: number };
  readonly body: Record<string, JsonValue | undefined>;
}

/** The path actions are posted to. */
export const ACTIONS_PATH = "/api/dm/actions/";

/** Per-request options of `.run()`; the client's `RequestOptions` are the same. */
export interface RunOptions {
  /** Time limit of each attempt, in seconds (default: the client's). */
  timeoutInSeconds?: number;
  /** Retries after the first attempt for retryable failures (default: the client's). */
  maxRetries?: number;
  /** Cancels the request (and any backoff wait). */
  signal?: AbortSignal;
}

/** What `selection(handle).export(format)` asks the client to export: the selection and the format. */
export interface ExportRequest {
  readonly project: number;
  /** A saved view the selection was taken from (`fromView`); its filters and ids decide. */
  readonly view: number | undefined;
  /** The selection's body (filters, ordering, selectedItems); empty for every task. */
  readonly query: QueryBody;
  /** An export format the converter knows, e.g. "JSON", "CSV", "COCO". */
  readonly format: string;
}

/** How `.export()` writes the file (a snapshot's options; see docs/exports.md). */
export interface ExportOptions extends RunOptions {
  /** The snapshot's title (default: the server's, `<project title>-at-<time>`). */
  readonly title?: string;
  /** Which annotations to keep (`annotation_filter_options`): any of the kinds set; all when absent. */
  readonly annotations?: { readonly usual?: boolean; readonly ground_truth?: boolean; readonly skipped?: boolean };
  /** Ids instead of whole objects (`serialization_options`); default: whole predictions and drafts, authors as ids. */
  readonly idsOnly?: { readonly drafts?: boolean; readonly predictions?: boolean; readonly annotations__completed_by?: boolean };
  /** Keep the snapshot (and the view made for it) on the server instead of removing them afterwards. */
  readonly keep?: boolean;
}

/**
 * A file the server sends (an export): its name and type from the headers, and its bytes as a stream, read once:
 * iterate it (`for await (const chunk of file)`), or call `bytes()`, `text()` or `json()`.
 */
export interface ExportedFile extends AsyncIterable<Uint8Array> {
  /** The file name of `Content-Disposition` (a snapshot's own file keeps its storage folder, e.g. `export/1/…json`). */
  readonly filename: string;
  /** `Content-Type` as sent (the one-step export sends e.g. `application/.json`). */
  readonly contentType: string;
  /** `Content-Length`, when the server sends it. */
  readonly size: number | undefined;
  /** The body as a web stream (once). */
  readonly stream: ReadableStream<Uint8Array>;
  /** The whole body (reads the stream). */
  bytes(): Promise<Uint8Array>;
  /** The whole body decoded as UTF-8. */
  text(): Promise<string>;
  /** The whole body parsed as JSON (an export in JSON or JSON_MIN). */
  json(): Promise<unknown>;
}

/** What `selection(handle).run()` and `.export()` need from a client-bound project: query/ never imports client/. */
export interface ProjectHandle {
  readonly id: number;
  /** Send an action request (what `.run()` calls). */
  perform(request: ActionRequest, options?: RunOptions): Promise<unknown>;
  /** Export the tasks a selection selects (what `.export()` calls). */
  exportSelection?(request: ExportRequest, options?: ExportOptions): Promise<ExportedFile>;
}
