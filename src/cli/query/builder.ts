import type { AnySelection, ResumedSelection } from "../../query/types.js";
import { selection } from "../../selection.js";

/**
 * The builder seen from the command line, where the flags' order (and so the selection's state) is
 * known only at run time: any selection, resumed before each step so that the compiler allows the
 * step and the builder checks it, throwing QueryBuildError with the rule and the body path.
 */
export type DynamicSelection = AnySelection;

export const startSelection = (project: number): DynamicSelection => selection(project);

/** `s`, its next step allowed by the compiler and checked by the builder at run time. */
export const resume = (s: DynamicSelection): ResumedSelection => selection.from(s.project, s);
