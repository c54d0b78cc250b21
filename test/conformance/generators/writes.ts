/**
 * The writes both patch tests make (patch.test.ts on the engine's dataset, live-store.test.ts through the
 * mock's store): tasks deleted, and annotations, predictions and drafts created, changed or moved to another
 * task, deleted. Picks and seeds are numbers each test maps onto the records it holds at that moment.
 */
import fc from "fast-check";
import { dataValueArb } from "./datasets.js";
import * as pools from "./pools.js";
import type { JsonValue } from "../../../src/vocabulary/json.js";

export type ChildKind = "annotations" | "predictions" | "drafts";
export type SharedWrite =
  | { readonly op: "deleteTasks"; readonly picks: readonly number[] }
  | { readonly op: "createChild"; readonly kind: ChildKind; readonly task: number; readonly seed: number }
  | {
      readonly op: "updateChild";
      readonly kind: ChildKind;
      readonly pick: number;
      readonly moveTo: number | undefined;
      readonly seed: number;
    }
  | { readonly op: "deleteChild"; readonly kind: ChildKind; readonly pick: number };

export const kindArb = fc.constantFrom<ChildKind>("annotations", "predictions", "drafts");
/** A task's `data`: up to four of the pools' keys. */
export const taskDataArb: fc.Arbitrary<Record<string, JsonValue>> = fc.dictionary(fc.constantFrom(...pools.dataKeys), dataValueArb, {
  maxKeys: 4,
});

export const deleteTasksArb = fc.record({
  op: fc.constant("deleteTasks" as const),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
});
export const createChildArb = fc.record({ op: fc.constant("createChild" as const), kind: kindArb, task: fc.nat(), seed: fc.nat() });
export const updateChildArb = fc.record({
  op: fc.constant("updateChild" as const),
  kind: kindArb,
  pick: fc.nat(),
  moveTo: fc.option(fc.nat(), { nil: undefined, freq: 3 }),
  seed: fc.nat(),
});
export const deleteChildArb = fc.record({ op: fc.constant("deleteChild" as const), kind: kindArb, pick: fc.nat() });
