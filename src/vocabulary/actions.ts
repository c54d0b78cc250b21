/**
 * Data Manager actions (docs/reference/actions-endpoint.md#community-actions): list metadata
 * exactly as the community server registers it, the extra body fields each action reads, where it
 * runs, and its result body. The mock serves the list from this table; the client and builder type
 * `run()` from it.
 */
export interface ParamInput {
  modelVersions: string | readonly string[];
  userId: number | string;
  integer: number;
  string: string;
  yesNo: "Yes" | "No";
  resultSource: "Annotations" | "Predictions";
  valueType: "String" | "Number" | "Expression";
  integers: readonly number[];
}
export type ParamShape = keyof ParamInput;

interface ParamSpec {
  readonly shape: ParamShape;
  readonly required: boolean;
}
interface ActionSpec {
  readonly title: string;
  readonly order: number;
  readonly permission: string | readonly string[];
  readonly edition: "community" | "enterprise";
  /** Shown by `GET /api/dm/actions/`: "listed", "hidden" (POST-able, never listed), "experimental" (off by default). */
  readonly visibility: "listed" | "hidden" | "experimental";
  readonly reload?: boolean;
  readonly experimental?: boolean;
  /**
   * Deletes or overwrites data of every selected task. The builder refuses to send one for a
   * selection the server would read as "every task" (no filters, no task ids, no view) unless it
   * says `.all()`.
   */
  readonly destructive?: true;
  readonly dialog?: {
    readonly title?: string;
    readonly text?: string;
    readonly type?: string;
    /** The server replaces a callable form by null in the list; "callable" marks those. */
    readonly form?: "callable" | "static";
    readonly ok_text?: string;
  };
  readonly params: { readonly [name: string]: ParamSpec };
}

const optional = <S extends ParamShape>(shape: S) => ({ shape, required: false }) as const;
const required = <S extends ParamShape>(shape: S) => ({ shape, required: true }) as const;

/**
 * The Data Manager actions, as the community server registers them: list metadata, body fields and where
 * each is listed. The mock serves its action list from this table; `run()` types params and results from it.
 *
 * @example
 * ```ts
 * console.log(actions.delete_tasks.title, actions.delete_tasks.permission); // Delete Tasks tasks.delete
 * ```
 */
export const actions = {
  retrieve_tasks_predictions: {
    title: "Retrieve Predictions",
    order: 90,
    permission: "predictions.any",
    edition: "community",
    visibility: "listed",
    dialog: {
      title: "Retrieve Predictions",
      text:
        "Send the selected tasks to all ML backends connected to the project." +
        "This operation might be abruptly interrupted due to a timeout. " +
        "The recommended way to get predictions is to update tasks using the Label Studio API." +
        "Please confirm your action.",
      type: "confirm",
    },
    params: {},
  },
  predictions_to_annotations: {
    title: "Create Annotations From Predictions",
    order: 91,
    permission: "tasks.change",
    edition: "community",
    visibility: "listed",
    dialog: {
      title: "Create Annotations From Predictions",
      text:
        "Create annotations from predictions using selected predictions set for each selected task. " +
        "Your account will be assigned as an owner to those annotations. ",
      type: "confirm",
      form: "callable",
    },
    params: { model_version: optional("modelVersions") },
  },
  remove_duplicates: {
    title: "Remove Duplicated Tasks",
    order: 95,
    permission: "projects.change",
    edition: "community",
    destructive: true,
    visibility: "listed",
    experimental: false,
    dialog: {
      text:
        "Confirm that you want to remove duplicated tasks with the same data fields. " +
        "Duplicated tasks will be deleted and all annotations will be moved to the first task from duplicated tasks. " +
        "Also Source Storage Links will be restored if at least one duplicated task has a storage link. " +
        "Warning: Task assignments (enterprise only) won't be saved.",
      type: "confirm",
    },
    params: {},
  },
  delete_tasks: {
    title: "Delete Tasks",
    order: 100,
    permission: "tasks.delete",
    edition: "community",
    destructive: true,
    visibility: "listed",
    reload: true,
    dialog: { text: "You are going to delete the selected tasks. Please confirm your action.", type: "confirm" },
    params: {},
  },
  delete_tasks_annotations: {
    title: "Delete Annotations",
    order: 101,
    permission: ["tasks.change", "annotations.delete"],
    edition: "community",
    destructive: true,
    visibility: "listed",
    dialog: {
      text:
        "You are going to delete annotations from the selected tasks.\n" +
        "You can select specific annotators to delete annotations for.\n" +
        "Please confirm your action.",
      type: "confirm",
      form: "callable",
    },
    params: { annotator: optional("userId") },
  },
  delete_tasks_predictions: {
    title: "Delete Predictions",
    order: 102,
    permission: "predictions.any",
    edition: "community",
    destructive: true,
    visibility: "listed",
    dialog: {
      text: "You are going to delete all predictions from the selected tasks. Please confirm your action.",
      type: "confirm",
    },
    params: {},
  },
  next_task: {
    title: "Generate Next Task",
    order: 0,
    permission: "projects.view",
    edition: "community",
    visibility: "hidden",
    params: { currentTaskId: optional("integer") },
  },
  propagate_annotations: {
    title: "Propagate Annotations",
    order: 1,
    permission: "tasks.change",
    edition: "community",
    visibility: "experimental",
    experimental: true,
    params: { source_annotation_id: required("integer") },
  },
  rename_labels: {
    title: "Rename Labels",
    order: 1,
    permission: "tasks.change",
    edition: "community",
    visibility: "experimental",
    experimental: true,
    params: { control_tag: required("string"), old_label_name: required("string"), new_label_name: required("string") },
  },
  cache_labels: {
    title: "Cache Labels",
    order: 1,
    permission: "projects.change",
    edition: "community",
    visibility: "experimental",
    experimental: true,
    params: {
      control_tag: required("string"),
      custom_control_tag: optional("string"),
      with_counters: optional("yesNo"),
      source: optional("resultSource"),
    },
  },
  add_data_field: {
    title: "Add or Update Columns",
    order: 1,
    permission: "projects.change",
    edition: "community",
    destructive: true,
    visibility: "hidden",
    params: {
      column_name: required("string"),
      value_type: required("valueType"),
      value: required("string"),
      visibleTaskIds: optional("integers"),
    },
  },
  delete_ground_truths: {
    title: "Delete Ground Truths",
    order: 103,
    permission: "tasks.change",
    edition: "enterprise",
    destructive: true,
    visibility: "listed",
    params: {},
  },
  delete_tasks_reviews: {
    title: "Delete Reviews",
    order: 104,
    permission: "tasks.change",
    edition: "enterprise",
    destructive: true,
    visibility: "listed",
    params: {},
  },
  delete_reviewers: {
    title: "Delete Reviewers",
    order: 105,
    permission: "tasks.change",
    edition: "enterprise",
    destructive: true,
    visibility: "listed",
    params: {},
  },
  delete_annotators: {
    title: "Delete Annotators",
    order: 106,
    permission: "tasks.change",
    edition: "enterprise",
    destructive: true,
    visibility: "listed",
    params: {},
  },
} as const satisfies Record<string, ActionSpec>;

/** The id of an action of the vocabulary table. */
export type ActionId = keyof typeof actions;
/** Every action id, in table order. */
export const actionIds = Object.keys(actions) as readonly ActionId[];

export function isActionId(id: unknown): id is ActionId {
  return typeof id === "string" && Object.hasOwn(actions, id);
}

/** Actions marked `destructive` in the table. */
export type DestructiveActionId = {
  [A in ActionId]: (typeof actions)[A] extends { readonly destructive: true } ? A : never;
}[ActionId];

/** Whether the table marks action `id` destructive (it needs filters, ids, a view or `.all()`). */
export function isDestructive(id: string): id is DestructiveActionId {
  return isActionId(id) && (actions[id] as ActionSpec).destructive === true;
}

/** The param specs (shape, required) of an action, as in the table. */
export type ParamSpecs<A extends ActionId> = (typeof actions)[A]["params"];
/** The extra body fields of an action, typed from the table. */
export type ActionParams<A extends ActionId> = [keyof ParamSpecs<A>] extends [never] ? { readonly [field: string]: never } : FieldsOf<A>;
type FieldsOf<A extends ActionId> = {
  -readonly [P in keyof ParamSpecs<A> as ParamSpecs<A>[P] extends { required: true } ? P : never]: ParamInput[ParamSpecs<A>[P] extends {
    shape: infer S extends ParamShape;
  }
    ? S
    : never];
} & {
  -readonly [P in keyof ParamSpecs<A> as ParamSpecs<A>[P] extends { required: true } ? never : P]?: ParamInput[ParamSpecs<A>[P] extends {
    shape: infer S extends ParamShape;
  }
    ? S
    : never];
};
/** The names of an action's required extra fields (never when it has none). */
export type RequiredParam<A extends ActionId> = {
  [P in keyof ParamSpecs<A>]: ParamSpecs<A>[P] extends { required: true } ? P : never;
}[keyof ParamSpecs<A>];

/** Result bodies of a successful POST (docs/reference/actions-endpoint.md#community-actions). */
export interface ActionResults {
  retrieve_tasks_predictions: { processed_items: number; detail: string };
  predictions_to_annotations: { detail: string };
  remove_duplicates: Record<string, never>;
  delete_tasks: { processed_items: number; reload: boolean; detail: string };
  delete_tasks_annotations: { processed_items: number; detail: string; async?: boolean };
  delete_tasks_predictions: { processed_items: number; detail: string };
  next_task: { id: number; queue: string; [field: string]: unknown };
  propagate_annotations: { detail: string };
  rename_labels: { detail: string };
  cache_labels: Record<string, never>;
  add_data_field: { detail: string; column_operation: "add" | "update"; manual_refresh_required: boolean };
  delete_ground_truths: { processed_items?: number; detail?: string };
  delete_tasks_reviews: { processed_items?: number; detail?: string };
  delete_reviewers: { processed_items?: number; detail?: string };
  delete_annotators: { processed_items?: number; detail?: string };
}
/** The result body of a successful action. */
export type ActionResult<A extends ActionId> = ActionResults[A];
