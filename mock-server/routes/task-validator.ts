import { isPlainObject } from "../../src/vocabulary/json.js";
import type { ProjectRecord } from "../../src/contract/records.js";
import { pyStr, pyType } from "../../src/emulation/python-json.js";
import { validationError } from "../errors.js";
import { dataTypes } from "../label-config.js";

/**
 * `TaskValidator` (label_studio/tasks/validation.py), as `BaseTaskSerializer.validate` runs it on
 * a created task: `data` and `meta` must be a dict or a list, and the data must hold every key the
 * project's labeling config reads (`extract_data_types`), of a type its object tag takes. A refusal
 * is a 400 under `non_field_errors`.
 */
const DATA_TYPES: Readonly<Record<string, readonly string[]>> = {
  Text: ["str", "int", "float"],
  Header: ["str", "int", "float"],
  HyperText: ["str"],
  Image: ["str", "list"],
  Paragraphs: ["list", "str"],
  Table: ["dict"],
  TimeSeries: ["dict", "list", "str"],
  TimeSeriesChannel: ["dict", "list", "str"],
};

/** Python's isinstance against the tag's types (a bool is an int to Python). */
function isOneOf(value: unknown, types: readonly string[]): boolean {
  const t = pyType(value);
  return types.includes(t) || (t === "bool" && types.includes("int"));
}

/** `raise_if_wrong_class` with (dict, list): the class names joined by "or". */
const wrongClass = (key: string) => `Task[${key}] must be ${pyType({})} or ${pyType([])}`;

/** `TaskValidator.validate` on a task's `meta`: present, it must be a dict or a list (null is neither); the message, or undefined. */
export function metaProblem(task: Readonly<Record<string, unknown>>): string | undefined {
  const meta = task["meta"];
  return Object.hasOwn(task, "meta") && !isPlainObject(meta) && !Array.isArray(meta) ? wrongClass("meta") : undefined;
}
const ROOT = ' [assume: item["data"] = task root with values]';

/** `check_data` for the project's data types (the `$undefined$` key resolved first); the validator's message, or undefined. */
export function taskDataProblem(project: ProjectRecord, data: Readonly<Record<string, unknown>>): string | undefined {
  return dataProblem(project, resolveUndefinedKey(project, data));
}

/** `check_data` for the project's data types; the message the validator raises, or undefined. */
function dataProblem(project: ProjectRecord, data: unknown): string | undefined {
  for (const [rawKey, tag] of dataTypes(project.label_config)) {
    const isArray = rawKey.includes("[");
    const key = rawKey.split("[")[0] as string;
    const present = isPlainObject(data) ? Object.hasOwn(data, key) : Array.isArray(data) && data.includes(key);
    if (!present) return `"${key}" key is expected in task data`;
    const value = (data as Record<string, unknown>)[key];
    const expected = isArray ? ["list"] : (DATA_TYPES[tag] ?? ["str"]);
    if (!isOneOf(value, expected)) {
      return `data['${key}']=${pyStr(value)} is of type '${pyType(value)}', but the object tag ${tag} expects the following types: [${expected.map((e) => `'${e}'`).join(", ")}]`;
    }
  }
  return undefined;
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
  const data = isPlainObject(raw) ? resolveUndefinedKey(project, raw) : raw;
  const problem = dataProblem(project, data);
  if (problem !== undefined) throw refuse(problem + ROOT);
  const meta = metaProblem(attrs);
  if (meta !== undefined) throw refuse(meta);
}
