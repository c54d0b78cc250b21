import type { SelectionBuilder } from "../../query/builder.js";
import { selection } from "../../selection.js";

/**
 * The builder seen from the command line, where columns, operators and values are strings known
 * only at run time: the selection's one runtime class (as the playground drives it), whose every
 * member checks the same rules the compile-time types state and throws QueryBuildError naming the
 * rule and the body path; conditions go in as values `{ column, operator, value, type }`.
 */
export type DynamicSelection = SelectionBuilder;

export function startSelection(project: number): DynamicSelection {
  // The public type narrows members by state; the CLI's state is only known at run time.
  return selection(project) as unknown as DynamicSelection;
}
