import { describe, expect, test } from "vitest";
import { columnNames } from "../../../src/vocabulary/columns.js";
import { didYouMean, editDistance, holdingWords, nearest, nearestAll } from "../../../src/vocabulary/nearest.js";

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

  test.each([
    ["annotations", ["annotations_results", "annotations_ids", "total_annotations", "cancelled_annotations"]],
    ["annotation", ["annotations_results", "annotations_ids", "total_annotations", "cancelled_annotations"]],
    ["total", ["total_annotations", "total_predictions"]],
    ["reviews", ["reviews_rejected", "reviews_accepted"]],
    ["annotator", ["annotators"]],
    ["annotatons", ["annotators"]],
    ["ids", ["id"]],
    ["complted_at", ["completed_at"]],
    ["nope", []],
    ["at", []],
  ])("column %s → %j: a part of several names lists them, a misspelling names one", (name, meant) => {
    expect(nearestAll(name, columnNames)).toEqual(meant);
  });

  test("a part of several is no single guess; its words are matched whole, a plural s aside", () => {
    expect(nearest("annotations", columnNames)).toBeUndefined();
    // Where a near miss is a finding (an ignored key), a part of a name is none: a view's `type` is the web UI's own.
    expect(nearest("type", keys)).toBeUndefined();
    expect(nearestAll("type", keys)).toEqual(["columnsDisplayType"]);
    expect(holdingWords("annotations", ["annotators", "total_annotations", "annotationsx"])).toEqual(["total_annotations"]);
    expect(holdingWords("items", ["selectedItems"])).toEqual(["selectedItems"]);
  });

  test("the phrase to append", () => {
    expect(didYouMean("total", columnNames)).toBe(" (did you mean total_annotations or total_predictions?)");
    expect(didYouMean("filtes", keys)).toBe(" (did you mean filters?)");
    expect(didYouMean("zzz", keys)).toBe("");
  });
});
