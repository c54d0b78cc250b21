import { describe, expect, test } from "vitest";
import { didYouMean, editDistance, nearest } from "../../../src/vocabulary/nearest.js";

describe("did you mean", () => {
  test("edit distance counts an adjacent swap as one edit", () => {
    expect(editDistance("filters", "filters")).toBe(0);
    expect(editDistance("filtres", "filters")).toBe(1);
    expect(editDistance("filter", "filters")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  const keys = ["filters", "ordering", "selectedItems", "columnsDisplayType"];
  test.each([
    ["filter", "filters"],
    ["Filters", "filters"],
    ["selected_items", "selectedItems"],
    ["SELECTED-ITEMS", "selectedItems"],
    ["oredring", "ordering"],
    ["order", "ordering"],
    ["columns", "columnsDisplayType"],
  ])("%s → %s", (typo, meant) => expect(nearest(typo, keys)).toBe(meant));

  test.each(["query", "title", "x", "model_version", "filters"])("%s is near none of them (itself excluded)", (name) => {
    expect(nearest(name, keys)).toBeUndefined();
  });

  test("the phrase to append", () => {
    expect(didYouMean("filtes", keys)).toBe(" (did you mean filters?)");
    expect(didYouMean("zzz", keys)).toBe("");
  });
});
