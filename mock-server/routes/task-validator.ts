import { isPlainObject } from "../../src/vocabulary/json.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import { pyStr, pyType } from "../../src/emulation/python-json.js";
import { pythonException, pythonExceptionOrStrict, validationError, type Strictness } from "../errors.js";
import type { ServerException } from "../../src/emulation/exceptions.js";
import { dataTypes } from "../label-config.js";
import { REPEATER_DATA_TYPES, tagDataTypes, takesType } from "../../src/contract/task-data-types.js";

/**
 * `TaskValidator` (label_studio/tasks/validation.py), as `BaseTaskSerializer.validate` runs it on
 * a created task: `data` and `meta` must be a dict or a list, and the data must hold every key the
 * project's labeling config reads (`extract_data_types`), of a type its object tag takes
 * (src/contract/task-data-types.ts). A refusal is a 400 under `non_field_errors`.
 */

/** `raise_if_wrong_class` with (dict, list): the class names joined by "or". */
export const wrongClass = (key: string): string => `Task[${key}] must be ${pyType({})} or ${pyType([])}`;

/** `TaskValidator.validate` on a task's `meta`: present, it must be a dict or a list (null is neither); the message, or undefined. */
export function metaProblem(task: Readonly<Record<string, unknown>>): string | undefined {
  const meta = task["meta"];
  return Object.hasOwn(task, "meta") && !isPlainObject(meta) && !Array.isArray(meta) ? wrongClass("meta") : undefined;
}
/** `check_data_and_root`'s suffix when the item's `data` is the task data. */
export const ROOT = ' [assume: item["data"] = task root with values]';

/**
 * `check_data` for the project's data types, a dict or a list (the `$undefined$` key resolved first: on a list that
 * holds it, with a key to move it to, Python's TypeError); the validator's message, or undefined.
 */
export function taskDataProblem(project: ProjectRecord, data: Readonly<Record<string, unknown>> | readonly unknown[]): string | undefined {
  if (!Array.isArray(data)) return dataProblem(project, resolveUndefinedKey(project, data as Readonly<Record<string, unknown>>));
  if (data.includes("$undefined$") && dataTypes(project.label_config).size > 0) throw pythonException("TypeError", notSubscriptable(data));
  return dataProblem(project, data);
}

/**
 * Data that is no dict once the validator passed it (list data where the config reads no key), or any update to data
 * that is no dict: the server writes the task, then `ProjectSummary.update_data_columns` (projects/models.py; the
 * Task signals of tasks/models.py on a create or an update, `ImportAPI.sync_import` after its bulk insert) calls
 * `.keys()` on it, a 500 with the row already written (docs/reference/resources.md#data-that-is-no-dict). The mock stores
 * object data only: it answers that 500 and keeps nothing; strict mode a 400 naming `field`.
 */
export function dataColumnsFailure(mode: Strictness, data: unknown, field: string): ServerException {
  return pythonExceptionOrStrict(
    mode,
    "AttributeError",
    `'${pyType(data)}' object has no attribute 'keys'`,
    field,
    `expected a JSON object, got ${pyType(data)}: the server stores it, answers a 500, and then cannot list the project's tasks`,
  );
}

/**
 * `check_data` for the project's data types, key by key in the config's order; the message the validator raises, or
 * undefined. A dotted key (`$a.b`) is read step by step (`reduce(getitem, …)`); reading it where Python cannot index
 * (list data, a text, null on the way) is the server's 500.
 */
function dataProblem(project: ProjectRecord, data: unknown): string | undefined {
  for (const [rawKey, tag] of dataTypes(project.label_config)) {
    const isArray = rawKey.includes("[");
    const key = rawKey.split("[")[0] as string;
    const found = key.includes(".") ? readPath(data, key.split(".")) : readKey(data, key);
    if (!found.present) return `"${key}" key is expected in task data`;
    const expected = isArray ? REPEATER_DATA_TYPES : tagDataTypes(tag);
    if (!takesType(expected, pyType(found.value))) {
      return `data['${key}']=${pyStr(found.value)} is of type '${pyType(found.value)}', but the object tag ${tag} expects the following types: [${expected.map((e) => `'${e}'`).join(", ")}]`;
    }
  }
  return undefined;
}

type Found = { readonly present: false } | { readonly present: true; readonly value: unknown };

/** `key not in data`, then `data[key]`: on list data `in` asks for an element, and reading one by a text is a TypeError. */
function readKey(data: unknown, key: string): Found {
  if (Array.isArray(data)) {
    if (!data.includes(key)) return { present: false };
    throw pythonException("TypeError", notSubscriptable(data));
  }
  return isPlainObject(data) && Object.hasOwn(data, key) ? { present: true, value: data[key] } : { present: false };
}

/** `reduce(getitem, keys, data)`: a missing key is the KeyError the validator reports; a value Python cannot index by a text is a 500. */
function readPath(data: unknown, keys: readonly string[]): Found {
  let value = data;
  for (const key of keys) {
    if (!isPlainObject(value)) throw pythonException("TypeError", notSubscriptable(value));
    if (!Object.hasOwn(value, key)) return { present: false };
    value = value[key];
  }
  return { present: true, value };
}

/** Python's TypeError for `value["key"]` on a value that is not a dict. */
function notSubscriptable(value: unknown): string {
  if (Array.isArray(value)) return "list indices must be integers or slices, not str";
  if (typeof value === "string") return "string indices must be integers, not 'str'";
  return `'${pyType(value)}' object is not subscriptable`;
}

/**
 * `replace_task_data_undefined_with_config_field` (label_studio/core/label_config.py): data read
 * from a plain file arrives under `$undefined$`; it moves to the config's first data key.
 */
export function resolveUndefinedKey(project: ProjectRecord, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const first = dataTypes(project.label_config).keys().next().value;
  if (!Object.hasOwn(data, "$undefined$") || first === undefined) return { ...data };
  const { $undefined$: value, ...rest } = data;
  return { ...rest, [first]: value };
}

/** Validate a task a create carries (`attrs`: the serializer's validated fields). */
export function validateTask(project: ProjectRecord, attrs: Readonly<Record<string, unknown>>): void {
  const refuse = (message: string) => validationError({ non_field_errors: [message] });
  const raw = attrs["data"];
  if (!isPlainObject(raw) && !Array.isArray(raw)) throw refuse(wrongClass("data"));
  const problem = taskDataProblem(project, raw);
  if (problem !== undefined) throw refuse(problem + ROOT);
  const meta = metaProblem(attrs);
  if (meta !== undefined) throw refuse(meta);
}
