import { describe, expect, it } from "vitest";
import { actionIds } from "../../../../src/vocabulary/actions.js";
import { columnKinds, dataKindByType } from "../../../../src/vocabulary/column-kinds.js";
import { columnNames, columns } from "../../../../src/vocabulary/columns.js";
import { operatorNames } from "../../../../src/vocabulary/operators.js";
import { catalogue, countByArea, filterColumns, type FilterItem } from "../../../../src/cli/verify/catalogue.js";
import { fixtureDataKeys, fixtureTasks } from "../../../../src/cli/verify/fixture.js";
import { isRef } from "../../../../src/cli/verify/refs.js";
import { areaNames, type Scenario } from "../../../../src/cli/verify/scenario.js";

const all = catalogue();
const itemsOf = (s: Scenario): FilterItem[] => {
  if (s.probe.kind !== "list") return [];
  const q = (s.probe.view ?? s.probe.query) as { filters?: { items?: FilterItem[] } } | undefined;
  return q?.filters?.items ?? [];
};
const filterItems = all.filter((s) => s.area === "filters").flatMap(itemsOf);

describe("the verify catalogue is generated from the vocabulary", () => {
  it("has over a thousand scenarios, each id once, in every area", () => {
    expect(all.length).toBeGreaterThan(1000);
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    const counts = countByArea(all);
    for (const area of areaNames) expect(counts.get(area) ?? 0, area).toBeGreaterThan(0);
  });

  it("tries every operator each column's kind allows, on every column of the table", () => {
    for (const column of columnNames) {
      for (const operator of Object.keys(columnKinds[columns[column].kind].operators)) {
        const hit = filterItems.some((i) => i.filter === `filter:tasks:${column}` && i.operator === operator);
        expect(hit, `${column} ${operator}`).toBe(true);
      }
    }
  });

  it("tries every fixture data key under Number, String, Unknown and Boolean, and data.text under every data type", () => {
    for (const key of fixtureDataKeys) {
      for (const type of ["Number", "String", "Unknown", "Boolean"]) {
        expect(
          filterItems.some((i) => i.filter === `filter:tasks:data.${key}` && i.type === type),
          `${key} ${type}`,
        ).toBe(true);
      }
    }
    for (const type of Object.keys(dataKindByType)) {
      expect(
        filterItems.some((i) => i.filter === "filter:tasks:data.text" && i.type === type),
        type,
      ).toBe(true);
    }
  });

  it("sends each task column with its kind's wire type, and each data key with the kind its type gives", () => {
    for (const fc of filterColumns()) {
      if (fc.source.k === "column") expect(fc.type).toBe(columnKinds[fc.kind].type);
      else expect(dataKindByType[fc.type as keyof typeof dataKindByType]).toBe(fc.kind);
    }
  });

  it("tries operators outside each kind's table too", () => {
    const off = all.filter((s) => s.area === "off-table").flatMap(itemsOf);
    const kindOf = (i: FilterItem) => columns[i.filter.slice("filter:tasks:".length) as keyof typeof columns]?.kind;
    expect(off.length).toBeGreaterThan(0);
    for (const i of off) {
      const kind = kindOf(i);
      if (kind) expect(Object.keys(columnKinds[kind].operators)).not.toContain(i.operator);
    }
    // Every operator of the vocabulary is tried somewhere, in or outside a table.
    const tried = new Set([...filterItems, ...off].map((i) => i.operator));
    for (const op of operatorNames) expect(tried, op).toContain(op);
  });

  it("covers unicode, LIKE wildcards, JSON null, missing keys and boundaries in its values and data", () => {
    const values = filterItems.map((i) => i.value);
    expect(values).toContain("ÄPFEL");
    expect(values).toContain("%");
    expect(values).toContain("");
    const nums = fixtureTasks.map((t) => t.data["num"]);
    expect(nums).toContain(null);
    expect(nums).toContain(undefined);
    expect(values.some((v) => isRef(v) && v.$ref === "time" && v.shiftMicros === 1)).toBe(true);
  });

  it("orders by every column and every data key, in both directions", () => {
    const orderings = all.filter((s) => s.area === "ordering").map((s) => s.id);
    for (const name of [...columnNames, ...fixtureDataKeys.map((k) => `data.${k}`)]) {
      expect(orderings, name).toContain(`ordering/${name}`);
      expect(orderings, name).toContain(`ordering/-${name}`);
    }
  });

  it("joins filters with both conjunctions and nests child filters", () => {
    const conj = all.filter((s) => s.area === "conjunctions");
    for (const c of ["and", "or"]) expect(conj.some((s) => s.id.startsWith(`conjunctions/${c}/`))).toBe(true);
    expect(all.filter((s) => s.area === "child-filters").some((s) => itemsOf(s).some((i) => i.child_filter !== undefined))).toBe(true);
  });

  it("runs every action of the table, each on three equal selections", () => {
    for (const id of actionIds) {
      const runs = all.filter((s) => s.probe.kind === "action" && s.probe.action === id && s.area === "actions");
      expect(runs.length, id).toBeGreaterThanOrEqual(3);
    }
  });
});
