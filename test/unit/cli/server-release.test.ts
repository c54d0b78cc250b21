import { expect, test } from "vitest";
import { readsChildFilters } from "../../../src/cli/server-release.js";

test("child_filters is read from 1.23 on; a release that is no version says nothing", () => {
  expect(["1.22.0.dev0", "1.22.0", "1.9.2", "0.9"].map(readsChildFilters)).toEqual([false, false, false, false]);
  expect(["1.23.0", "1.23.2", "1.24.0.dev1", "2.0.0"].map(readsChildFilters)).toEqual([true, true, true, true]);
  expect(readsChildFilters("develop")).toBeUndefined();
});
