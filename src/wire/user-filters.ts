import { columnKinds } from "../vocabulary/column-kinds.js";
import { columnNames, columns } from "../vocabulary/columns.js";
import type { ShapeName } from "../vocabulary/value-shapes.js";

/*
 * The server's user-list filters (managers.py), derived from the column kinds. The parser checks
 * a body with these and the engine applies them, so both read them from here.
 */

const operatorsOf = (column: (typeof columnNames)[number]): Partial<Record<string, ShapeName>> =>
  columnKinds[columns[column].kind].operators;

/** `USER_FILTER_FIELDS`: the columns whose kind takes user ids, each with the operators it allows (sorted). */
export const userColumns: ReadonlyMap<string, readonly string[]> = new Map(
  columnNames.filter((c) => operatorsOf(c).contains === "userIds").map((c) => [c, Object.keys(operatorsOf(c)).sort()] as const),
);

/** The operators whose value is a list of user ids on those columns (contains, not_contains), sorted. */
export const userIdOperators: ReadonlySet<string> = new Set(
  [...userColumns.keys()]
    .flatMap((c) =>
      Object.entries(operatorsOf(c as (typeof columnNames)[number]))
        .filter(([, shape]) => shape === "userIds")
        .map(([op]) => op),
    )
    .sort(),
);

/** `LEGACY_USER_FILTER_OPERATORS`: still accepted so old views keep working, and read back as these. */
export const legacyUserOperators: Readonly<Record<string, string>> = {
  equal: "contains",
  in_list: "contains",
  not_equal: "not_contains",
  not_in_list: "not_contains",
};
