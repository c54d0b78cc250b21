import { dataKindByType } from "../../src/vocabulary/column-kinds.js";
import { columns, isColumnName } from "../../src/vocabulary/columns.js";
import { operators, type OperatorName } from "../../src/vocabulary/operators.js";
import type { ShapeName } from "../../src/vocabulary/value-shapes.js";
import { h } from "./dom.js";
import {
  isDataColumn,
  knownColumns,
  newCondition,
  operatorsFor,
  shapeOf,
  withColumn,
  withOperator,
  type ConditionDraft,
  type Draft,
  type LineDraft,
  type ScalarKind,
  type SelectionMode,
  type ValueDraft,
} from "./model.js";

/**
 * The filter editor. Every choice comes from the vocabulary: the column list, the operators of the
 * column's kind, and the value input of the operator's shape. A choice redraws only what depends
 * on it (a column its operator and value, an operator its value), so the control in use is never
 * replaced: focus, keyboard type-ahead and caret stay put. Adding or removing a line redraws all.
 */
export interface EditorEvents {
  /** Apply a change to the draft (the outputs follow); returns the new draft. */
  update(change: (draft: Draft) => Draft): Draft;
  /** Draw the whole form again (after adding or removing a line or a child). */
  redraw(): void;
}

const OTHER_DATA_KEY = "data.*";

/** `l0` for line 1's root, `l0c1` for its second child: the prefix of every control's id. */
export const conditionKey = (line: number, child?: number) => (child === undefined ? `l${line}` : `l${line}c${child}`);

/** Put `next` where `current` is; returns `next` (the new current part). */
function swap(current: HTMLElement, next: HTMLElement): HTMLElement {
  current.replaceWith(next);
  return next;
}

export function renderEditor(draft: Draft, dataKeys: readonly string[], events: EditorEvents): HTMLElement[] {
  const setLines = (change: (lines: readonly LineDraft[]) => readonly LineDraft[]) => {
    events.update((d) => ({ ...d, lines: change(d.lines) }));
    events.redraw();
  };
  const setCondition =
    (k: number, c: number | undefined) =>
    (change: (cond: ConditionDraft) => ConditionDraft): ConditionDraft => {
      const next = events.update((d) => ({
        ...d,
        lines: d.lines.map((l, i) =>
          i !== k
            ? l
            : c === undefined
              ? { ...l, root: change(l.root) }
              : { ...l, children: l.children.map((x, j) => (j === c ? change(x) : x)) },
        ),
      }));
      const line = next.lines[k] as LineDraft;
      return c === undefined ? line.root : (line.children[c] as ConditionDraft);
    };

  const lines = draft.lines.map((line, k) =>
    h(
      "li",
      { class: "line" },
      condition(line.root, conditionKey(k), `Line ${k + 1}`, dataKeys, {
        set: setCondition(k, undefined),
        remove: () => setLines((ls) => ls.filter((_, i) => i !== k)),
        addChild: () => setLines((ls) => ls.map((l, i) => (i === k ? { ...l, children: [...l.children, newCondition()] } : l))),
      }),
      line.children.length > 0 &&
        h(
          "ul",
          { class: "children", "aria-label": `AND-ed with line ${k + 1}'s condition (child filters)` },
          line.children.map((child, c) =>
            h(
              "li",
              {},
              condition(child, conditionKey(k, c), `Line ${k + 1}, child ${c + 1} (and)`, dataKeys, {
                set: setCondition(k, c),
                remove: () => setLines((ls) => ls.map((l, i) => (i === k ? { ...l, children: l.children.filter((_, j) => j !== c) } : l))),
              }),
            ),
          ),
        ),
    ),
  );

  const conjunction = h(
    "fieldset",
    { class: "inline" },
    h("legend", {}, "Combine lines with"),
    (["and", "or"] as const).map((c) =>
      h(
        "label",
        { for: `conj-${c}` },
        h("input", {
          type: "radio",
          name: "conjunction",
          id: `conj-${c}`,
          value: c,
          checked: draft.conjunction === c,
          onchange: () => events.update((d) => ({ ...d, conjunction: c })),
        }),
        ` ${c}`,
      ),
    ),
  );

  return [
    h("h2", { id: "filters-h" }, "Filters"),
    conjunction,
    h("ol", { class: "lines", "aria-labelledby": "filters-h" }, lines),
    h("p", { class: "hint" }, draft.lines.length === 0 ? "No filters: every task of the project is selected." : ""),
    h(
      "button",
      { type: "button", id: "add-line", onclick: () => setLines((ls) => [...ls, { root: newCondition(), children: [] }]) },
      "Add a line",
    ),
    h("p", { class: "error", id: "filters-error", role: "status" }),
    ordering(draft, dataKeys, events),
    selection(draft, events),
  ];
}

interface ConditionEvents {
  /** Change this condition; returns it changed. */
  set(change: (c: ConditionDraft) => ConditionDraft): ConditionDraft;
  remove(): void;
  addChild?(): void;
}

function condition(start: ConditionDraft, key: string, title: string, dataKeys: readonly string[], events: ConditionEvents): HTMLElement {
  let c = start;
  const set = (change: (c: ConditionDraft) => ConditionDraft) => (c = events.set(change));

  const valuePart = (): HTMLElement => {
    const shape = shapeOf(c);
    return h(
      "div",
      { class: "part" },
      shape !== undefined && valueInputs(shape, c.operator, c.value, key, (v) => set((x) => ({ ...x, value: v }))),
    );
  };
  const operatorPart = (): HTMLElement => {
    let value = valuePart();
    const select = h(
      "select",
      {
        id: `${key}-operator`,
        onchange: (e) => {
          set((x) => withOperator(x, (e.target as HTMLSelectElement).value as OperatorName));
          value = swap(value, valuePart());
        },
      },
      operatorsFor(c).map(([op]) => h("option", { value: op, selected: op === c.operator }, `${operators[op].label} (${op})`)),
    );
    return h("div", { class: "part" }, field(`${key}-operator`, "Operator", select), value);
  };
  const typePart = (): HTMLElement => {
    let operator = operatorPart();
    const data = isDataColumn(c.column);
    const dataKey =
      data &&
      !dataKeys.includes(c.column) &&
      field(
        `${key}-datakey`,
        "Data key",
        h("input", {
          type: "text",
          id: `${key}-datakey`,
          value: c.column.slice("data.".length),
          placeholder: "e.g. text or meta__lang",
          oninput: (e) => set((x) => ({ ...x, column: `data.${(e.target as HTMLInputElement).value}` })),
        }),
      );
    const type =
      data &&
      field(
        `${key}-type`,
        "Type",
        h(
          "select",
          {
            id: `${key}-type`,
            onchange: (e) => {
              set((x) => withColumn(x, x.column, (e.target as HTMLSelectElement).value || undefined));
              operator = swap(operator, operatorPart());
            },
          },
          h("option", { value: "", selected: c.type === undefined }, "(inferred from the value)"),
          Object.keys(dataKindByType).map((t) => h("option", { value: t, selected: c.type === t }, t)),
        ),
      );
    return h("div", { class: "part" }, dataKey, type, operator);
  };

  let rest = typePart();
  const known = !isDataColumn(c.column) || dataKeys.includes(c.column);
  const columnSelect = h(
    "select",
    {
      id: `${key}-column`,
      onchange: (e) => {
        const value = (e.target as HTMLSelectElement).value;
        set((x) => withColumn(x, value === OTHER_DATA_KEY ? "data." : value, x.type));
        rest = swap(rest, typePart());
      },
    },
    columnOptions(known ? c.column : OTHER_DATA_KEY, dataKeys),
  );
  return h(
    "fieldset",
    { class: "condition", id: key },
    h("legend", {}, title),
    field(`${key}-column`, "Column", columnSelect),
    rest,
    h(
      "div",
      { class: "buttons" },
      events.addChild &&
        h("button", { type: "button", id: `${key}-child`, onclick: () => events.addChild?.() }, "Add a child condition (and)"),
      h("button", { type: "button", id: `${key}-remove`, onclick: () => events.remove() }, "Remove"),
    ),
    h("p", { class: "error", id: `${key}-error`, role: "status" }),
  );
}

function columnOptions(selected: string, dataKeys: readonly string[]): HTMLElement[] {
  const option = (value: string, text: string) => h("option", { value, selected: value === selected }, text);
  const title = (c: string) => (isColumnName(c) ? `${c} — ${columns[c].title}` : c);
  return [
    h(
      "optgroup",
      { label: "Task columns" },
      knownColumns.community.map((c) => option(c, title(c))),
    ),
    h("optgroup", { label: "Task data" }, [...dataKeys.map((k) => option(k, k)), option(OTHER_DATA_KEY, "another data key…")]),
    h(
      "optgroup",
      { label: "Enterprise only (a community server answers 500)" },
      knownColumns.enterprise.map((c) => option(c, title(c))),
    ),
  ];
}

function field(id: string, label: string, control: HTMLElement): HTMLElement {
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

/** The inputs of one value shape. */
function valueInputs(shape: ShapeName, operator: OperatorName, v: ValueDraft, key: string, set: (v: ValueDraft) => void): HTMLElement {
  const text = (id: string, label: string, part: "text" | "min" | "max", attrs: Record<string, string> = {}) =>
    field(
      id,
      label,
      h("input", {
        id,
        type: "text",
        value: v[part],
        "aria-describedby": `${key}-error`,
        oninput: (e) => set((v = { ...v, [part]: (e.target as HTMLInputElement).value })),
        ...attrs,
      }),
    );
  const kind = (label: string) =>
    field(
      `${key}-kind`,
      label,
      h(
        "select",
        { id: `${key}-kind`, onchange: (e) => set((v = { ...v, kind: (e.target as HTMLSelectElement).value as ScalarKind })) },
        (["text", "number", "boolean"] as const).map((k) => h("option", { value: k, selected: v.kind === k }, k)),
      ),
    );
  const number = { type: "number", step: "any" };
  const datetime = { type: "datetime-local", step: "1" };
  const box = (...children: HTMLElement[]) => h("div", { class: "value" }, ...children);
  switch (shape) {
    case "number":
      return box(text(`${key}-value`, "Value", "text", number));
    case "integer":
      return box(text(`${key}-value`, "Value (an integer)", "text", { type: "number", step: "1" }));
    case "numberRange":
      return box(text(`${key}-min`, "From (min, inclusive)", "min", number), text(`${key}-max`, "To (max, inclusive)", "max", number));
    case "integerRange":
      return box(
        text(`${key}-min`, "From (an integer, inclusive)", "min", { type: "number", step: "1" }),
        text(`${key}-max`, "To (an integer, inclusive)", "max", { type: "number", step: "1" }),
      );
    case "datetime":
      return box(text(`${key}-value`, "Value (UTC)", "text", datetime));
    case "datetimeRange":
      return box(text(`${key}-min`, "From (UTC, inclusive)", "min", datetime), text(`${key}-max`, "To (UTC, inclusive)", "max", datetime));
    case "boolean":
      return box(
        field(
          `${key}-value`,
          operator === "empty" ? "Is empty?" : "Value",
          h(
            "select",
            { id: `${key}-value`, onchange: (e) => set((v = { ...v, flag: (e.target as HTMLSelectElement).value === "true" })) },
            h("option", { value: "true", selected: v.flag }, "true"),
            h("option", { value: "false", selected: !v.flag }, "false"),
          ),
        ),
      );
    case "string":
      return box(text(`${key}-value`, "Text", "text"));
    case "regex":
      return box(text(`${key}-value`, "Pattern (Postgres regex, case-sensitive, matches anywhere)", "text"));
    case "scalar":
      return box(text(`${key}-value`, "Value", "text"), kind("Read the value as"));
    case "numberList":
      return box(text(`${key}-value`, "Numbers, comma-separated", "text", { placeholder: "1, 2, 3" }));
    case "integerList":
      return box(text(`${key}-value`, "Integers, comma-separated", "text", { placeholder: "1, 2, 3" }));
    case "idList":
      return box(text(`${key}-value`, "Annotation ids, comma-separated", "text", { placeholder: "10, 12" }));
    case "userIds":
      return box(text(`${key}-value`, "User ids, comma-separated", "text", { placeholder: "1, 3" }));
    case "stringList":
      return box(text(`${key}-value`, "Texts, comma-separated", "text", { placeholder: "v1, v2" }));
    case "scalarList":
      return box(text(`${key}-value`, "Values, comma-separated", "text"), kind("Read each value as"));
    case "json":
      return box(
        field(
          `${key}-value`,
          "JSON value (sent as JSON text)",
          h(
            "textarea",
            {
              id: `${key}-value`,
              rows: 3,
              "aria-describedby": `${key}-error`,
              oninput: (e) => set((v = { ...v, text: (e.target as HTMLTextAreaElement).value })),
            },
            v.text,
          ),
        ),
      );
  }
}

function ordering(draft: Draft, dataKeys: readonly string[], events: EditorEvents): HTMLElement {
  const directionPart = (o: Draft["ordering"]): HTMLElement =>
    h(
      "div",
      { class: "part" },
      o &&
        field(
          "order-direction",
          "Direction",
          h(
            "select",
            {
              id: "order-direction",
              onchange: (e) =>
                events.update((d) => ({
                  ...d,
                  ordering: d.ordering && { ...d.ordering, descending: (e.target as HTMLSelectElement).value === "desc" },
                })),
            },
            h("option", { value: "asc", selected: !o.descending }, "ascending"),
            h("option", { value: "desc", selected: o.descending }, "descending (-)"),
          ),
        ),
    );
  let direction = directionPart(draft.ordering);
  const column = h(
    "select",
    {
      id: "order-column",
      onchange: (e) => {
        const c = (e.target as HTMLSelectElement).value;
        const next = events.update((d) => ({ ...d, ordering: c ? { column: c, descending: d.ordering?.descending ?? false } : undefined }));
        direction = swap(direction, directionPart(next.ordering));
      },
    },
    h("option", { value: "", selected: !draft.ordering }, "(no ordering: by id)"),
    [...knownColumns.community, ...dataKeys].map((c) => h("option", { value: c, selected: draft.ordering?.column === c }, c)),
  );
  return h(
    "fieldset",
    { id: "ordering" },
    h("legend", {}, "Ordering (the server uses the first key only)"),
    field("order-column", "Order by", column),
    direction,
    h("p", { class: "error", id: "ordering-error", role: "status" }),
  );
}

const modes: readonly (readonly [SelectionMode, string])[] = [
  ["none", "no selectedItems (every filtered task)"],
  ["all", ".all() — {all: true, excluded: []}"],
  ["excluding", ".excluding(ids) — all but these"],
  ["including", ".including(ids) — only these"],
];

function selection(draft: Draft, events: EditorEvents): HTMLElement {
  const idsPart = (s: Draft["selection"]): HTMLElement =>
    h(
      "div",
      { class: "part" },
      (s.mode === "excluding" || s.mode === "including") &&
        field(
          "sel-ids",
          "Task ids, comma-separated",
          h("input", {
            type: "text",
            id: "sel-ids",
            value: s.ids,
            "aria-describedby": "selectedItems-error",
            oninput: (e) => events.update((d) => ({ ...d, selection: { ...d.selection, ids: (e.target as HTMLInputElement).value } })),
          }),
        ),
    );
  let ids = idsPart(draft.selection);
  return h(
    "fieldset",
    { id: "selection" },
    h("legend", {}, "Task ids (selectedItems)"),
    modes.map(([m, label]) =>
      h(
        "div",
        {},
        h("input", {
          type: "radio",
          name: "selection",
          id: `sel-${m}`,
          value: m,
          checked: draft.selection.mode === m,
          onchange: () => {
            const next = events.update((d) => ({ ...d, selection: { ...d.selection, mode: m } }));
            ids = swap(ids, idsPart(next.selection));
          },
        }),
        h("label", { for: `sel-${m}` }, ` ${label}`),
      ),
    ),
    ids,
    h("p", { class: "error", id: "selectedItems-error", role: "status" }),
  );
}
